//! `malformed-suppression`: a `<!-- contract: allow ... -->` comment that names no check or a
//! name that is not a check (so it suppresses nothing).

use super::{Context, Draft, Place};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (number, chapter) in cx.each_chapter() {
        for (range, message) in &chapter.suppressions().problems {
            out.push(Draft::new(
                Check::MalformedSuppression,
                number,
                range.clone(),
                message.clone(),
            ));
        }
    }
    // A companion's comments suppress too, so a mistyped one there is reported as well.
    for (number, companion) in cx.each_companion() {
        for (range, message) in &companion.suppressions().problems {
            out.push(Draft::at(
                Check::MalformedSuppression,
                Place::Companion(number),
                range.clone(),
                message.clone(),
            ));
        }
    }
}
