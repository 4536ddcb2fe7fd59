//! Generated events written as Markdown by pulldown-cmark-to-cmark: a block, the inline
//! shortcodes of a chapter in one call, lines continued inside their container; and the guard
//! that no shortcode of ours is left in what was generated.

use mdbook_markdown::pulldown_cmark::{Event, Tag, TagEnd};

use super::Events;
use crate::read::markdown::splice::Patch;
use crate::read::markdown::{ChapterIndex, MarkdownOptions};

/// The first shortcode of this preprocessor that `patches` would leave in the book unrendered
/// (outside code, not escaped), with the number of its chapter. Whatever the book holds, the
/// renderer must never write one, so this is a guard against its own bugs (such as author text
/// copied into a generated table without its shortcodes rendered); only generated text that
/// holds `{{` is parsed again.
pub(crate) fn unrendered(
    patches: &[Vec<Patch>],
    options: &MarkdownOptions,
) -> Option<(usize, String)> {
    for (number, chapter) in patches.iter().enumerate() {
        for patch in chapter {
            if !patch.text.contains("{{") {
                continue;
            }
            let index = ChapterIndex::parse_with(&patch.text, options, false);
            let scan = crate::read::shortcode::scan(&patch.text, &index, &|_| false);
            let left = scan
                .shortcodes
                .first()
                .map(|s| s.range.clone())
                .or_else(|| scan.malformed.first().map(|m| m.range.clone()));
            if let Some(range) = left {
                return Some((number, patch.text[range].to_owned()));
            }
        }
    }
    None
}

/// `events` as Markdown, written by pulldown-cmark-to-cmark, without trailing newlines.
pub(super) fn to_markdown(events: &[Event<'_>]) -> String {
    let write = |events: &mut dyn Iterator<Item = &Event<'_>>| {
        let mut out = String::new();
        let options = pulldown_cmark_to_cmark::Options {
            list_token: '-',
            ..Default::default()
        };
        pulldown_cmark_to_cmark::cmark_with_options(
            events,
            &mut out,
            mdbook_markdown::pulldown_cmark::Options::ENABLE_TABLES,
            options,
        )
        .map(|_| out)
    };
    // pulldown-cmark-to-cmark checks that a block with emphasis parses back to the same events,
    // and fails (`Unrepresentable`) when no spelling does, as with text it cannot escape in a
    // table cell (found by fuzzing). The same block without emphasis is written unchecked:
    // `*missing*` shows as `missing`, and nothing panics.
    let mut out = write(&mut events.iter())
        .or_else(|_| {
            write(&mut events.iter().filter(|e| {
                !matches!(
                    e,
                    Event::Start(Tag::Emphasis | Tag::Strong)
                        | Event::End(TagEnd::Emphasis | TagEnd::Strong)
                )
            }))
        })
        .unwrap_or_default();
    out.truncate(out.trim_end_matches('\n').len());
    out
}

/// Inline `events` as Markdown, written as the inside of a paragraph: on its own, a text that
/// starts with a space would have it escaped as if it began a line.
pub(super) fn inline_markdown(mut events: Events<'_>) -> String {
    events.insert(0, Event::Start(Tag::Paragraph));
    events.push(Event::End(TagEnd::Paragraph));
    to_markdown(&events)
}

/// Each inline fragment (tagged with a number) as Markdown, as [`inline_markdown`] writes it:
/// written together as the lines of one paragraph, each line a fragment. Every line is written
/// as it would be alone (each starts a line, as a paragraph's first line does), and no fragment
/// holds a line break (the writer escapes a newline in text); should the lines not come out
/// one per fragment all the same, each is written alone.
pub(super) fn write_lines<'e>(fragments: Vec<(usize, Events<'e>)>) -> Vec<(usize, String)> {
    if fragments.len() < 2 {
        return fragments
            .into_iter()
            .map(|(i, events)| (i, inline_markdown(events)))
            .collect();
    }
    let mut events = Vec::with_capacity(fragments.iter().map(|(_, e)| e.len() + 1).sum());
    for (n, (_, fragment)) in fragments.iter().enumerate() {
        if n > 0 {
            events.push(Event::SoftBreak);
        }
        events.extend(fragment.iter().cloned());
    }
    let written = inline_markdown(events);
    let lines: Vec<&str> = written.split('\n').collect();
    if lines.len() != fragments.len() {
        return fragments
            .into_iter()
            .map(|(i, events)| (i, inline_markdown(events)))
            .collect();
    }
    fragments
        .iter()
        .zip(lines)
        .map(|((i, _), line)| (*i, line.to_owned()))
        .collect()
}

/// What stands before `offset` on its line (`> ` of a blockquote, the indent of a list item).
pub(super) fn line_prefix(content: &str, offset: usize) -> &str {
    let start = content[..offset].rfind('\n').map_or(0, |i| i + 1);
    &content[start..offset]
}

/// Repeats the container prefix of a block's first line on its other lines: `>` markers are
/// kept, everything else (list markers, indentation) becomes spaces.
pub(super) fn indent_continuation(markdown: &str, first_line_prefix: &str) -> String {
    if first_line_prefix.is_empty() || !markdown.contains('\n') {
        return markdown.to_owned();
    }
    let prefix: String = first_line_prefix
        .chars()
        .map(|c| if c == '>' || c == '\t' { c } else { ' ' })
        .collect();
    let mut out = String::with_capacity(markdown.len() + prefix.len() * 8);
    for (i, line) in markdown.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            if line.is_empty() {
                out.push_str(prefix.trim_end());
            } else {
                out.push_str(&prefix);
            }
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use proptest::prelude::*;

    use super::super::events::{code, link, rebase, table, text};

    /// `text` as an inline code span.
    fn code_span(text: &str) -> String {
        to_markdown(&[code(text)])
    }

    fn parsed_code(markdown: &str) -> Vec<String> {
        mdbook_markdown::new_cmark_parser(markdown, &Default::default())
            .filter_map(|event| match event {
                Event::Code(code) => Some(code.into_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn code_spans_survive_backticks_and_spaces() {
        for text in [
            "a",
            "`",
            "a`b",
            "``x``",
            " a ",
            " ",
            "  ",
            "`a",
            "a`",
            "Pkg.Func",
            "a|b",
            " \t ",
            " \u{3000} ",
        ] {
            assert_eq!(
                parsed_code(&format!("x {} y", code_span(text))),
                [text],
                "{text:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn code_spans_parse_back_to_their_text(text in "[^\\n\\r]{1,40}") {
            let markdown = format!("before {} after", code_span(&text));
            prop_assert_eq!(parsed_code(&markdown), vec![text]);
        }
    }

    use super::*;

    #[test]
    fn links_and_tables_are_escaped_by_construction() {
        let events = link("a.md#x".into(), vec![text("a [b] *c*")]);
        assert_eq!(to_markdown(&events), r"[a \[b\] \*c\*](a.md#x)");
        let t = table(
            vec![vec![text("A")], vec![text("B")]],
            vec![vec![vec![text("x | y")], vec![code("z")]]],
        );
        let markdown = to_markdown(&t);
        assert!(markdown.starts_with("|A|B|\n|-|-|\n"), "{markdown}");
        assert!(markdown.contains(r"x \| y"), "{markdown}");
    }

    #[test]
    fn continuation_lines_keep_their_container() {
        assert_eq!(indent_continuation("|a|\n|-|", "> "), "|a|\n> |-|");
        assert_eq!(indent_continuation("- a\n- b", "1. "), "- a\n   - b");
        assert_eq!(indent_continuation("x\ny", ""), "x\ny");
    }

    #[test]
    fn rebased_links_follow_the_chapter() {
        let events = link("other.md#y".into(), vec![text("o")]);
        let moved = rebase(
            &events,
            Path::new("a/contract.md"),
            Path::new("b/appendix.md"),
        );
        assert_eq!(to_markdown(&moved), "[o](../a/other.md#y)");
        let fragment = link("#y".into(), vec![text("o")]);
        let moved = rebase(
            &fragment,
            Path::new("a/contract.md"),
            Path::new("b/appendix.md"),
        );
        assert_eq!(to_markdown(&moved), "[o](../a/contract.md#y)");
    }
}

#[cfg(test)]
mod guard {
    use super::super::events::shown_as_text;
    use super::*;

    fn patches(text: &str) -> Vec<Vec<Patch>> {
        vec![
            vec![],
            vec![Patch {
                range: 0..0,
                text: text.to_owned(),
            }],
        ]
    }

    #[test]
    fn the_guard_fires_on_a_shortcode_left_in_generated_text() {
        let options = MarkdownOptions::default();
        let left = unrendered(&patches("- [`a`](x.md#a): see {{#axis gc-mark}}"), &options);
        assert_eq!(left, Some((1, "{{#axis gc-mark}}".to_owned())));
        let broken = unrendered(&patches("see {{#axis}} here"), &options);
        assert_eq!(broken, Some((1, "{{#axis}}".to_owned())));
    }

    #[test]
    fn the_guard_is_silent_on_code_escapes_and_other_directives() {
        let options = MarkdownOptions::default();
        for text in [
            "see [`gc-mark`](a.md#gc-mark)",
            "`{{#axis gc-mark}}` in code",
            "an escaped one: &#123;{#axis gc-mark}}",
            "\\{{#axis gc-mark}}",
            "{{#include other.md}}",
        ] {
            assert_eq!(unrendered(&patches(text), &options), None, "{text}");
        }
    }

    #[test]
    fn escaped_text_keeps_no_double_brace() {
        let events = shown_as_text("a {{#axis x}} b {{ c");
        let markdown = inline_markdown(events);
        assert_eq!(markdown, "a &#123;{#axis x}} b &#123;{ c");
        assert!(!markdown.contains("{{"));
    }
}
