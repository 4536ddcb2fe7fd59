//! What the book's own preprocessors rewrite, learned from their last run, and so which typed
//! lines they could rewrite.
//!
//! A finding on a line being typed is shown at once unless a preprocessor could change that
//! line before this one sees it; only then does it wait for the next run (the save). The last
//! run shows what each preprocessor changes: [`Rewrites::learn`] compares, per chapter, what
//! `links` alone made of the file with what arrived at this preprocessor's place, and records
//!
//! - the *shape* of each line rewritten from its start (`marker:r` for mdbook-spec's `r[...]`,
//!   `quote:[!` for an admonition it turns into HTML, `html:<!--` for a `<!-- toc -->`): a
//!   typed line of that shape waits;
//! - the info string of each fenced block whose lines changed (`mermaid`): a typed line inside
//!   or opening such a block waits;
//! - where a rewrite began inside a line (a character such as `$`, or a word): a typed line
//!   holding it waits.
//!
//! A typed line with another preprocessor's directive (`{{#name ...}}`, not this one's or
//! mdBook's) waits too, seen in the last run or not. Everything else (prose, headings, list
//! items, this preprocessor's own shortcodes) no preprocessor of the book rewrote in its last
//! run, so its findings are this preprocessor's own computation and show as it is typed.
//! Text a preprocessor *inserts* next to a typed line (mdbook-spec's link definitions at a
//! chapter's end) changes no typed text: it can add a finding at the save, never take one away.

use std::collections::BTreeSet;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use crate::sourcemap::Pieces;

/// What a run shows the preprocessors rewrite (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Rewrites {
    /// Shapes of lines rewritten from their start.
    shapes: BTreeSet<String>,
    /// Info strings of fenced blocks whose lines changed (`""` for a block without one).
    fences: BTreeSet<String>,
    /// Where a rewrite began inside a line: a character, or a whole word.
    triggers: BTreeSet<String>,
}

/// One line of a chapter, with the fenced block it is in.
struct Line<'t> {
    text: &'t str,
    start: usize,
    /// The info string of the fenced block the line opens, closes or is in.
    fence: Option<&'t str>,
}

impl Rewrites {
    /// Learns what turned the chapter text `links` into `arrived`: line by line (a character
    /// diff would find the letters of `r[a.b]` again in `<div id="r-a.b">`); where a stretch
    /// of lines was replaced line for line, each line from where it and its replacement part.
    pub(crate) fn learn(&mut self, links: &str, arrived: &str) {
        if links == arrived {
            return;
        }
        let pieces = Pieces::between_lines(links, arrived);
        let lines = lines(links);
        for (then, now) in pieces.rewritten(links.len()) {
            let old: Vec<&Line<'_>> = lines
                .iter()
                .filter(|l| then.start <= l.start && l.start < then.end)
                .collect();
            let new: Vec<&str> = arrived[now].lines().collect();
            for (i, line) in old.iter().enumerate() {
                if let Some(info) = line.fence {
                    self.fences.insert(info.to_owned());
                    continue;
                }
                let from = match new.get(i).filter(|_| new.len() == old.len()) {
                    Some(replacement) => common_prefix(line.text, replacement),
                    None => 0,
                };
                self.learn_line(line.text, from);
            }
        }
    }

    /// Learns from a line whose text was changed from byte `from` on.
    fn learn_line(&mut self, text: &str, from: usize) {
        let content = content_start(text);
        if from >= text.trim_end().len() {
            return;
        }
        let first = text[content..].chars().next();
        let shape = shape(text);
        // Rewritten from its start: its shape, when that is syntax (a marker, punctuation), not
        // a word of prose.
        if from <= content
            && (shape.contains(":marker:") || first.is_some_and(|c| !c.is_alphanumeric()))
        {
            self.shapes.insert(shape);
            return;
        }
        let from = from.max(content);
        let Some(c) = text[from..].chars().next() else {
            return;
        };
        if c.is_alphanumeric() {
            let start = text[..from]
                .char_indices()
                .rev()
                .take_while(|(_, c)| c.is_alphanumeric())
                .last()
                .map_or(from, |(i, _)| i);
            let end = text[from..]
                .char_indices()
                .find(|(_, c)| !c.is_alphanumeric())
                .map_or(text.len(), |(i, _)| from + i);
            self.triggers.insert(text[start..end].to_owned());
        } else if !c.is_whitespace() {
            self.triggers.insert(c.to_string());
        }
    }

    /// The lines of `lines` (from 1) of the chapter file `text` that a preprocessor could
    /// rewrite: their findings wait for the next run.
    pub(crate) fn held(&self, text: &str, lines_typed: RangeInclusive<usize>) -> Vec<usize> {
        let all = lines(text);
        lines_typed
            .filter(|n| {
                all.get(n - 1).is_some_and(|line| {
                    self.could_rewrite(line) || has_foreign_directive(line.text)
                })
            })
            .collect()
    }

    fn could_rewrite(&self, line: &Line<'_>) -> bool {
        if let Some(info) = line.fence {
            return self.fences.contains(info);
        }
        if self.shapes.contains(&shape(line.text)) {
            return true;
        }
        self.triggers.iter().any(|trigger| {
            let mut chars = trigger.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if !c.is_alphanumeric() => line.text.contains(c),
                _ => has_word(line.text, trigger),
            }
        })
    }
}

/// The lines of `text` with the fenced blocks they open, close or are in.
fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut open: Option<(&str, &str)> = None;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let fence_mark = fence(line);
        let fence_info = match (open, fence_mark) {
            (Some((mark, info)), Some((this, _))) if this.starts_with(mark) => {
                open = None;
                Some(info)
            }
            (Some((_, info)), _) => Some(info),
            (None, Some((mark, info))) => {
                open = Some((mark, info));
                Some(info)
            }
            (None, None) => None,
        };
        out.push(Line {
            text: line,
            start,
            fence: fence_info,
        });
        start += raw.len();
    }
    out
}

/// A fence line's mark (```` ``` ```` or `~~~`, as long as written) and info string's first
/// word.
fn fence(line: &str) -> Option<(&str, &str)> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let tick = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let count = trimmed.chars().take_while(|c| *c == tick).count();
    if count < 3 {
        return None;
    }
    let (mark, rest) = trimmed.split_at(count);
    let info = rest.split_whitespace().next().unwrap_or("");
    Some((mark, info.trim_start_matches('{').trim_end_matches('}')))
}

/// Where a line's content starts: after its indentation and its quote and list markers.
fn content_start(text: &str) -> usize {
    let mut at = 0;
    loop {
        let rest = &text[at..];
        let spaces = rest.len() - rest.trim_start().len();
        let after = &rest[spaces..];
        let marker = if after.starts_with('>') {
            1
        } else if let Some(bullet) = after.strip_prefix(['-', '*', '+'])
            && bullet.starts_with(' ')
        {
            1
        } else {
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let numbered = digits > 0
                && after[digits..].starts_with(['.', ')'])
                && after[digits + 1..].starts_with(' ');
            if numbered { digits + 1 } else { 0 }
        };
        if marker == 0 {
            return at + spaces;
        }
        at += spaces + marker;
    }
}

/// The shape of a line: its containers (quote, list item) and what its content starts with
/// (a rule marker's prefix, a heading, a table row, HTML, or its leading punctuation).
fn shape(text: &str) -> String {
    let content_at = content_start(text);
    let lead = &text[..content_at];
    let container = if lead.contains('>') {
        "quote"
    } else if lead.trim().is_empty() {
        "line"
    } else {
        "item"
    };
    let content = text[content_at..].trim_end();
    if let Some((prefix, _, _)) = crate::rules::marker::marker_line(content) {
        return format!("{container}:marker:{prefix}");
    }
    if content.starts_with('#') {
        return format!("{container}:heading");
    }
    let token: String = content
        .chars()
        .take_while(|c| !c.is_whitespace() && !c.is_alphanumeric())
        .take(4)
        .collect();
    format!("{container}:{token}")
}

/// Whether `line` holds a directive of another preprocessor: `{{#name` that is neither this
/// preprocessor's shortcode nor one of mdBook's own (which `links` expands per keystroke).
fn has_foreign_directive(line: &str) -> bool {
    line.match_indices("{{#").any(|(at, _)| {
        let name: String = line[at + 3..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        !name.is_empty()
            && crate::shortcode::Name::from_str(&name).is_none()
            && !crate::shortcode::MDBOOK_DIRECTIVES.contains(&name.as_str())
    })
}

/// How many bytes `a` and `b` share at their start, on a character boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
}

/// Whether `word` occurs in `text` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn learnt(links: &str, arrived: &str) -> Rewrites {
        let mut rewrites = Rewrites::default();
        rewrites.learn(links, arrived);
        rewrites
    }

    #[test]
    fn a_rewritten_marker_holds_markers_not_prose() {
        let rewrites = learnt(
            "# T\n\nr[a.b]\nA rule MUST hold.\n",
            "# T\n\n<div id=\"r-a.b\"></div>\nA rule MUST hold.\n",
        );
        let typed = "# T\n\nr[a.c]\nProse with an em\u{2014}dash.\n- An item.\n## A heading\n";
        assert_eq!(rewrites.held(typed, 1..=6), [3]);
    }

    #[test]
    fn a_rewritten_fence_holds_its_kind_of_block() {
        let rewrites = learnt(
            "Text.\n\n```mermaid\na --> b\n```\n\n```rust\nlet a = 1;\n```\n",
            "Text.\n\n<pre class=\"mermaid\">\na --&gt; b\n</pre>\n\n```rust\nlet a = 1;\n```\n",
        );
        assert_eq!(rewrites.fences, BTreeSet::from(["mermaid".to_owned()]));
        let typed = "Text \u{2014} here.\n\n```mermaid\nc --> d\n```\n```rust\nlet b;\n```\n";
        assert_eq!(rewrites.held(typed, 1..=8), [3, 4, 5]);
    }

    #[test]
    fn an_inline_rewrite_holds_the_lines_with_its_trigger() {
        let rewrites = learnt(
            "Energy is $E = mc^2$ here.\n",
            "Energy is <span class=\"katex\">E</span> here.\n",
        );
        assert_eq!(rewrites.triggers, BTreeSet::from(["$".to_owned()]));
        assert_eq!(rewrites.held("Plain.\nCosts $5.\n", 1..=2), [2]);
    }

    #[test]
    fn a_foreign_directive_waits_and_ours_do_not() {
        let rewrites = Rewrites::default();
        let typed = "{{#template x.md}}\n{{#rule a.b}} and {{#axis c}}\n{{#include x.md}}\n";
        assert_eq!(rewrites.held(typed, 1..=3), [1]);
    }

    #[test]
    fn a_marker_turned_into_html_and_a_line_taken_out() {
        let rewrites = learnt(
            "# T\n\nr[put.atomic]\nA backend MUST.\n\nREMOVE ME\nKeep.\n",
            "# T\n\nGenerated.\n\n\n<div class=\"rule\" id=\"r-put.atomic\">\n<a href=\"#r-put.atomic\">[put.atomic]</a>\n</div>\nA backend MUST.\n\nKeep.\n",
        );
        assert_eq!(
            rewrites.shapes,
            BTreeSet::from(["line:marker:r".to_owned()])
        );
        assert_eq!(rewrites.triggers, BTreeSet::from(["REMOVE".to_owned()]));
    }

    #[test]
    fn shapes() {
        assert_eq!(shape("r[a.b]"), "line:marker:r");
        assert_eq!(shape("> [!NOTE]"), "quote:[!");
        assert_eq!(shape("- item"), "item:");
        assert_eq!(shape("<!-- toc -->"), "line:<!--");
        assert_eq!(shape("$$"), "line:$$");
        assert_eq!(shape("### `x` {.axis}"), "line:heading");
    }
}
