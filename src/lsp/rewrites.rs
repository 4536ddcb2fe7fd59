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

use crate::read::sourcemap::Pieces;

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
    /// diff of the whole would find the letters of `r[a.b]` again in `<div id="r-a.b">`). A
    /// changed line is compared, character by character, with its nearest line in what
    /// replaced it, else in the whole arrived text (a line diff may place a line that was only
    /// touched elsewhere), to find where on it each rewrite began; a line with no near line at
    /// all was rewritten whole.
    pub(crate) fn learn(&mut self, links: &str, arrived: &str) {
        if links == arrived {
            return;
        }
        let pieces = Pieces::between_lines(links, arrived);
        let lines = lines(links);
        let everywhere: Vec<&str> = arrived.lines().collect();
        for (then, now) in pieces.rewritten(links.len()) {
            let replaced: Vec<&str> = arrived[now].lines().collect();
            for line in lines
                .iter()
                .filter(|l| then.start <= l.start && l.start < then.end)
            {
                if let Some(info) = line.fence {
                    self.fences.insert(info.to_owned());
                    continue;
                }
                let near =
                    nearest(line.text, &replaced).or_else(|| nearest(line.text, &everywhere));
                match near {
                    Some(changes) => {
                        for (start, end) in changes {
                            self.learn_change(line.text, start, end);
                        }
                    }
                    // Rewritten whole: its shape; a line of prose, only when it was taken out
                    // (by a word it holds), since one rewritten in many places teaches those
                    // places, found on other lines, not its first word.
                    None if replaced.is_empty() || !starts_with_word(line.text) => {
                        self.learn_change(line.text, 0, line.text.len());
                    }
                    None => {}
                }
            }
        }
    }

    /// Learns from a line of which the bytes `start..end` were rewritten (an empty range: text
    /// was put in there).
    fn learn_change(&mut self, text: &str, start: usize, end: usize) {
        let content = content_start(text);
        if text.trim_end().len() <= content {
            return;
        }
        let first = text[content..].chars().next();
        let shape = shape(text);
        // Rewritten from its start: its shape, when that is syntax (a marker, punctuation), not
        // a word of prose.
        // A link definition is all syntax: rewritten anywhere, its kind of line is.
        let from_start = start <= content
            && end > content
            && (shape.contains(":marker:") || first.is_some_and(|c| !c.is_alphanumeric()));
        if from_start || shape.ends_with(":definition") {
            self.shapes.insert(shape);
            return;
        }
        // Text put in after something (a link's target after `]`): what it follows is the
        // trigger.
        let at = if start == end {
            match text[..start].char_indices().next_back() {
                Some((i, _)) => i,
                None => return,
            }
        } else {
            start.max(content)
        };
        let Some(c) = text[at..].chars().next() else {
            return;
        };
        // A rewrite inside a link's target (mdbook-spec resolving `](core::ops::Drop)`): the
        // link's syntax is the trigger, not a word of the target.
        if text[..at].ends_with("](") {
            self.triggers.insert("](".to_owned());
            return;
        }
        if c.is_alphanumeric() {
            let from = text[..at]
                .char_indices()
                .rev()
                .take_while(|(_, c)| c.is_alphanumeric())
                .last()
                .map_or(at, |(i, _)| i);
            let to = text[at..]
                .char_indices()
                .find(|(_, c)| !c.is_alphanumeric())
                .map_or(text.len(), |(i, _)| at + i);
            self.triggers.insert(text[from..to].to_owned());
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
            if trigger.starts_with(char::is_alphanumeric) {
                has_word(line.text, trigger)
            } else {
                line.text.contains(trigger.as_str())
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
    if let Some((prefix, _, _)) = crate::model::rules::marker::marker_line(content) {
        return format!("{container}:marker:{prefix}");
    }
    if content.starts_with('#') {
        return format!("{container}:heading");
    }
    if content.starts_with('[')
        && let Some(close) = content.find("]:")
        && !content[1..close].contains(']')
    {
        return format!("{container}:definition");
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
            && crate::read::shortcode::Name::from_str(&name).is_none()
            && !crate::read::shortcode::MDBOOK_DIRECTIVES.contains(&name.as_str())
    })
}

/// Where `text` was changed to become its nearest line of `candidates`: the line, other than
/// `text` itself, that keeps the most of its text, at least half (a prefix or suffix in
/// common picks the lines worth comparing). Each change is a byte range of `text`, empty
/// where text was put in.
fn nearest(text: &str, candidates: &[&str]) -> Option<Vec<(usize, usize)>> {
    let mut best: Option<(usize, Vec<(usize, usize)>)> = None;
    for candidate in candidates.iter().filter(|c| **c != text) {
        let prefix = common_prefix(text, candidate);
        let suffix = common_suffix(&text[prefix..], &candidate[prefix.min(candidate.len())..]);
        if prefix + suffix < 4.min(text.len()) {
            continue;
        }
        let changes = changes(text, candidate);
        let lost: usize = changes.iter().map(|(s, e)| e - s).sum();
        let kept = text.len() - lost;
        if kept * 2 >= text.len() && best.as_ref().is_none_or(|(b, _)| kept > *b) {
            best = Some((kept, changes));
        }
    }
    best.map(|(_, changes)| changes)
}

/// The changes that make `other` of `text`, found greedily: after the common text, text put
/// in when `text`'s next few characters come again further on in `other` (a link's target put
/// in after its `]`), text taken out when `other`'s next few come further on in `text`, else
/// the rest of `text` replaced. Each a byte range of `text`, empty where text was put in. A
/// character diff would align stray letters of a put-in address with the author's words.
fn changes(text: &str, other: &str) -> Vec<(usize, usize)> {
    const ANCHOR: usize = 8;
    let cut = |s: &str, at: usize| {
        let mut end = (at + ANCHOR).min(s.len());
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        end
    };
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    loop {
        let same = common_prefix(&text[i..], &other[j..]);
        i += same;
        j += same;
        if i >= text.len() {
            if j < other.len() {
                out.push((i, i));
            }
            return out;
        }
        if j >= other.len() {
            out.push((i, text.len()));
            return out;
        }
        // Text put in, and the rest alike (the commonest case: a link's target put in).
        if other[j..].ends_with(&text[i..]) {
            out.push((i, i));
            return out;
        }
        let anchor = &text[i..cut(text, i)];
        if let Some(put_in) = other[j..].find(anchor) {
            out.push((i, i));
            j += put_in;
            continue;
        }
        let anchor = &other[j..cut(other, j)];
        if let Some(taken) = text[i..].find(anchor) {
            out.push((i, i + taken));
            i += taken;
            continue;
        }
        // Replaced: up to what both end with.
        let tail = common_suffix(&text[i..], &other[j..]);
        out.push((i, text.len() - tail));
        return out;
    }
}

/// How many bytes `a` and `b` share at their start, on a character boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
}

/// How many bytes `a` and `b` share at their end, on a character boundary.
fn common_suffix(a: &str, b: &str) -> usize {
    a.chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum()
}

/// Whether the content of line `text` starts with a letter or digit and is no rule marker:
/// prose.
fn starts_with_word(text: &str) -> bool {
    text[content_start(text)..].starts_with(char::is_alphanumeric)
        && !shape(text).contains(":marker:")
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
    fn a_link_target_put_in_after_a_bracket() {
        let rewrites = learnt(
            "r[a.b]\nSee the [standard library] here.\n",
            "<div id=\"r-a.b\"></div>\nSee the [standard library](../std/index.html) here.\n",
        );
        assert_eq!(rewrites.triggers, BTreeSet::from(["]".to_owned()]));
        assert_eq!(rewrites.held("A line.\nSee [x] too.\n", 1..=2), [2]);
    }

    #[test]
    fn shapes() {
        assert_eq!(shape("r[a.b]"), "line:marker:r");
        assert_eq!(shape("> [!NOTE]"), "quote:[!");
        assert_eq!(shape("- item"), "item:");
        assert_eq!(shape("<!-- toc -->"), "line:<!--");
        assert_eq!(shape("$$"), "line:$$");
        assert_eq!(shape("### `x` {.axis}"), "line:heading");
        assert_eq!(shape("[a link]: target.md"), "line:definition");
    }
}
