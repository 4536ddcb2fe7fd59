//! `malformed-shortcode`: a shortcode of this preprocessor that cannot be used as written.

use super::{Context, Draft, problems};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (number, chapter) in cx.each_chapter() {
        for malformed in &chapter.scan.malformed {
            out.push(
                Draft::new(
                    Check::MalformedShortcode,
                    number,
                    malformed.range.clone(),
                    malformed.message.clone(),
                )
                .help(
                    malformed
                        .help
                        .as_deref()
                        .unwrap_or("write `\\{{#...}}` to show a shortcode as text"),
                ),
            );
        }
    }
    problems(cx, Check::MalformedShortcode, out);
}
