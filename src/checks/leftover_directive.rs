//! `leftover-directive`: a `{{#...}}` directive still in the content after every preprocessor
//! before this one ran. mdBook leaves a failed `{{#include}}` in place and still exits 0.
//!
//! mdBook's own directives count only as mdBook writes them to be expanded, with an argument
//! (`{{#include file.md}}`, matched by the pattern of its `links` preprocessor): a bare
//! `{{#include}}` or `` `{{ #include }}` `` is a mention of the directive, which mdBook never
//! expands. When `links` runs after this preprocessor (book.toml lacks `after = ["links"]`),
//! no include has been expanded yet: that is one finding, at book.toml, not one per include.

use super::{Context, Draft};
use crate::read::shortcode::MDBOOK_DIRECTIVES;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let mut unexpanded: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    for (number, chapter) in cx.each_chapter() {
        for directive in &chapter.scan.foreign {
            let written = &chapter.content[directive.range.clone()];
            let ours = MDBOOK_DIRECTIVES.contains(&directive.name.as_str());
            if ours && !has_argument(written, &directive.name) {
                continue;
            }
            if ours && !cx.config.links_first {
                unexpanded.push((number, directive.range.clone()));
                continue;
            }
            let (message, help) = if ours {
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
    links_after(&unexpanded, out);
}

/// mdBook's directives not expanded because `links` runs after this preprocessor: one finding
/// at book.toml, with the first as its note.
fn links_after(unexpanded: &[(usize, std::ops::Range<usize>)], out: &mut Vec<Draft>) {
    let Some((number, range)) = unexpanded.first().cloned() else {
        return;
    };
    let chapters = unexpanded
        .iter()
        .map(|(n, _)| n)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let count = unexpanded.len();
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("{n} {one}")
        } else {
            format!("{n} {many}")
        }
    };
    out.push(
        Draft::in_config(
            Check::LeftoverDirective,
            "after",
            format!(
                "mdBook's `links` preprocessor runs after this one, so `{{{{#include}}}}` and mdBook's other directives are not expanded yet ({} in {}), and the text they bring in is not checked",
                plural(count, "directive", "directives"),
                plural(chapters, "chapter", "chapters")
            ),
        )
        .related(number, range, "the first")
        .help("add `after = [\"links\"]` to `[preprocessor.contract]` in book.toml"),
    );
}

/// Whether `written` (a `{{#name ...}}` directive) has an argument, as the pattern of mdBook's
/// `links` preprocessor requires before it expands one: whitespace after the name, then text.
fn has_argument(written: &str, name: &str) -> bool {
    let Some(at) = written.find(name) else {
        return false;
    };
    let rest = written[at + name.len()..].trim_end_matches('}');
    rest.starts_with(char::is_whitespace) && !rest.trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::has_argument;

    #[test]
    fn only_directives_with_an_argument_are_expanded_by_mdbook() {
        assert!(has_argument("{{#include a.md}}", "include"));
        assert!(has_argument("{{ #include a.md:2:3 }}", "include"));
        assert!(!has_argument("{{#include}}", "include"));
        assert!(!has_argument("{{ #include }}", "include"));
        assert!(!has_argument("{{#includes}}", "include"));
    }
}
