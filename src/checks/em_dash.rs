//! `em-dash`: U+2014 in prose, and the em-dash that smart punctuation makes of `---`.

use super::{Context, Draft};
use crate::util::vocab::Check;

const HELP: &str = "write a comma, a colon, parentheses or two sentences instead";

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    const DASH: &str = "\u{2014}";
    for source in cx.texts() {
        // Every U+2014 of the chapter, found once with memchr's SIMD search; most chapters have
        // none, and then only runs rendered differently can hold one.
        let dashes: Vec<usize> =
            memchr::memmem::find_iter(source.content.as_bytes(), DASH.as_bytes()).collect();
        for run in source.index.text() {
            if dashes.is_empty() && run.rendered.is_none() {
                continue;
            }
            let written = &source.content[run.range.clone()];
            // The dashes inside this run (runs lie on character boundaries, so a dash that
            // starts inside one ends inside it).
            let first = dashes.partition_point(|&at| at < run.range.start);
            let inside = dashes[first..].iter().take_while(|&&at| at < run.range.end);
            let mut literal = false;
            for &start in inside {
                literal = true;
                out.push(
                    Draft::at(
                        Check::EmDash,
                        source.place.clone(),
                        start..start + DASH.len(),
                        "em-dash (U+2014) in prose",
                    )
                    .help(HELP),
                );
            }
            let rendered_dash = run.rendered.is_some_and(|r| r.contains('\u{2014}'));
            if literal || !rendered_dash {
                continue;
            }
            let message = if written.contains("---") {
                "`---` becomes an em-dash with smart punctuation (`output.html.smart-punctuation`)"
                    .to_owned()
            } else {
                format!("`{written}` renders as an em-dash")
            };
            out.push(
                Draft::at(
                    Check::EmDash,
                    source.place.clone(),
                    run.range.clone(),
                    message,
                )
                .help(HELP),
            );
        }
    }
}
