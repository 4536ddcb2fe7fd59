//! `leftover-directive`: a `{{#...}}` directive still in the content after every preprocessor
//! before this one ran. mdBook leaves a failed `{{#include}}` in place and still exits 0.

use super::{Context, Draft};
use crate::shortcode::MDBOOK_DIRECTIVES;
use crate::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (number, chapter) in cx.chapters.iter().enumerate() {
        for directive in &chapter.scan.foreign {
            let written = &chapter.content[directive.range.clone()];
            let (message, help) = if MDBOOK_DIRECTIVES.contains(&directive.name.as_str()) {
                (
                    format!(
                        "`{written}` was not expanded: mdBook could not resolve it and left it in the page"
                    ),
                    "check the path (relative to this chapter's folder) and the line range or anchor; mdBook printed the reason above",
                )
            } else {
                (
                    format!(
                        "`{written}` was not expanded: no preprocessor that runs before this one handles `{{{{#{}}}}}`",
                        directive.name
                    ),
                    "add the preprocessor that provides it to book.toml (before `contract`), or write `\\{{#...}}` to show it as text",
                )
            };
            out.push(
                Draft::new(
                    Check::LeftoverDirective,
                    number,
                    directive.range.clone(),
                    message,
                )
                .help(help),
            );
        }
    }
}
