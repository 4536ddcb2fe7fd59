//! `em-dash`: U+2014 in prose, and the em-dash that smart punctuation makes of `---`.

use super::{Context, Draft};

const HELP: &str = "write a comma, a colon, parentheses or two sentences instead";

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (number, chapter) in cx.chapters.iter().enumerate() {
        // Most chapters have no U+2014 at all: then only runs rendered differently can hold one.
        let literal_in_chapter = chapter.content.contains('\u{2014}');
        for run in chapter.index.text() {
            if !literal_in_chapter && run.rendered.is_none() {
                continue;
            }
            let written = &chapter.content[run.range.clone()];
            let mut literal = false;
            for (i, dash) in written.match_indices('\u{2014}') {
                literal = true;
                let start = run.range.start + i;
                out.push(
                    Draft::new(
                        "em-dash",
                        number,
                        start..start + dash.len(),
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
            out.push(Draft::new("em-dash", number, run.range.clone(), message).help(HELP));
        }
    }
}
