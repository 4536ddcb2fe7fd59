//! `malformed-suppression`: a `<!-- contract: allow ... -->` comment that names no check or a
//! name that is not a check (so it suppresses nothing).

use super::{Context, Draft};
use crate::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (number, chapter) in cx.chapters.iter().enumerate() {
        for (range, message) in &chapter.suppressions().problems {
            out.push(Draft::new(
                Check::MalformedSuppression,
                number,
                range.clone(),
                message.clone(),
            ));
        }
    }
}
