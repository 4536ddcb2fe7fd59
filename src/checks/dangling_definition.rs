//! `dangling-definition`: a link reference definition (`[label]: target`) that no link of its
//! chapter uses, and whose target dangles. A definition that a link uses is checked with the
//! link, by `dangling-link`; an unused one shows nowhere, but is the next author's broken link.

use super::dangling_link::{Pages, problem};
use super::{Context, Draft};
use crate::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let pages = Pages::new(cx);
    for (number, chapter) in cx.each_chapter() {
        for definition in &chapter.index.unused_definitions {
            if let Some((message, _)) = problem(cx, &pages, number, &definition.dest) {
                out.push(
                    Draft::new(
                        Check::DanglingDefinition,
                        number,
                        definition.range.clone(),
                        format!("an unused link definition: {message}"),
                    )
                    .help("fix its target, or remove the definition if no link needs it"),
                );
            }
        }
    }
}
