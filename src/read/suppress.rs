//! `<!-- contract: allow CHECK -->`: turning a check off for the next line or block, or for the
//! whole chapter when the comment stands at its top.
//!
//! [`Suppressions::collect`] reads the comments of one chapter from its raw HTML; the pipeline
//! drops every finding that a scope covers. Several checks may be named, separated by spaces or
//! commas. A name that is not a check is reported by `malformed-suppression`.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::read::markdown::ChapterIndex;
use crate::util::suggest;
use crate::util::vocab::Check;

static ALLOW: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?s)<!--\s*contract:\s*allow\b(.*?)-->").expect("valid regex"));
static ANY_COMMENT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?s)<!--.*?-->").expect("valid regex"));

/// The suppression comments of one chapter.
#[derive(Debug, Default, Clone)]
pub(crate) struct Suppressions {
    /// `(check, scope)`: findings of `check` that start inside `scope` are dropped.
    scopes: Vec<(Check, Range<usize>)>,
    /// Names that are not checks: the comment's range and the message.
    pub problems: Vec<(Range<usize>, String)>,
}

impl Suppressions {
    /// Reads the comments of a chapter.
    pub(crate) fn collect(content: &str, index: &ChapterIndex) -> Suppressions {
        let mut out = Suppressions::default();
        for chunk in &index.html {
            let html = &content[chunk.range.clone()];
            // `contract:` is a literal of the pattern: without it, the regex (compiled on first
            // use) cannot match, and is not compiled for a book that has no such comment.
            if !html.contains("contract:") {
                continue;
            }
            for caps in ALLOW.captures_iter(html) {
                let whole = caps.get(0).expect("group 0 always matches");
                let comment = chunk.range.start + whole.start()..chunk.range.start + whole.end();
                let scope = if at_top(content, comment.start) {
                    0..content.len()
                } else if chunk.block {
                    next_block(index, comment.end)
                        .unwrap_or(comment.end..end_of_next_line(content, comment.end))
                } else {
                    comment.end..end_of_next_line(content, comment.end)
                };
                let names = caps.get(1).map_or("", |m| m.as_str());
                let mut any = false;
                for name in names
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|n| !n.is_empty())
                {
                    any = true;
                    match Check::from_name(name) {
                        Some(check) => out.scopes.push((check, scope.clone())),
                        None => {
                            let hint = suggest::hint(name, Check::names());
                            out.problems
                                .push((comment.clone(), format!("`{name}` is not a check{hint}")));
                        }
                    }
                }
                if !any {
                    out.problems.push((
                        comment,
                        "the comment names no check: write `<!-- contract: allow CHECK -->`".into(),
                    ));
                }
            }
        }
        out
    }

    /// Whether a finding of `check` starting at `offset` is suppressed.
    pub(crate) fn allows(&self, check: Check, offset: usize) -> bool {
        self.scopes
            .iter()
            .any(|(name, scope)| *name == check && scope.contains(&offset))
    }
}

/// Whether only whitespace and comments stand before `offset`.
fn at_top(content: &str, offset: usize) -> bool {
    ANY_COMMENT
        .replace_all(&content[..offset], "")
        .trim()
        .is_empty()
}

/// The outermost block that starts first at or after `offset`.
fn next_block(index: &ChapterIndex, offset: usize) -> Option<Range<usize>> {
    let start = index
        .blocks
        .iter()
        .map(|b| b.start)
        .filter(|&s| s >= offset)
        .min()?;
    index
        .blocks
        .iter()
        .filter(|b| b.start == start)
        .max_by_key(|b| b.end)
        .cloned()
}

/// The end of the line after the one `offset` is on (or of the text).
fn end_of_next_line(content: &str, offset: usize) -> usize {
    let this_line_end = content[offset..]
        .find('\n')
        .map_or(content.len(), |i| offset + i);
    if this_line_end == content.len() {
        return this_line_end;
    }
    content[this_line_end + 1..]
        .find('\n')
        .map_or(content.len(), |i| this_line_end + 1 + i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::markdown::MarkdownOptions;

    fn collect(text: &str) -> Suppressions {
        Suppressions::collect(
            text,
            &ChapterIndex::parse(text, &MarkdownOptions::default()),
        )
    }

    #[test]
    fn top_of_chapter_covers_everything() {
        let text = "<!-- contract: allow em-dash -->\n# T\n\nA — b.\n";
        let s = collect(text);
        assert!(s.allows(Check::EmDash, text.len() - 3));
        assert!(!s.allows(Check::LineReference, 40));
    }

    #[test]
    fn a_block_comment_covers_the_next_block_only() {
        let text =
            "# T\n\n<!-- contract: allow em-dash, line-reference -->\n- a — b\n- c\n\nLater — d.\n";
        let s = collect(text);
        let first = text.find("a —").unwrap();
        let later = text.find("Later").unwrap();
        assert!(s.allows(Check::EmDash, first) && s.allows(Check::LineReference, first));
        assert!(s.allows(Check::EmDash, text.find("- c\n").unwrap()));
        assert!(!s.allows(Check::EmDash, later));
    }

    #[test]
    fn an_inline_comment_covers_its_line_and_the_next() {
        let text = "# T\n\nA <!-- contract: allow em-dash --> — b\nsecond — c\nthird — d\n";
        let s = collect(text);
        assert!(s.allows(Check::EmDash, text.find("— b").unwrap()));
        assert!(s.allows(Check::EmDash, text.find("— c").unwrap()));
        assert!(!s.allows(Check::EmDash, text.find("— d").unwrap()));
    }

    #[test]
    fn unknown_names_are_problems() {
        let s = collect("# T\n\n<!-- contract: allow em-dsh -->\nx\n");
        assert_eq!(s.problems.len(), 1);
        assert!(
            s.problems[0].1.contains("did you mean `em-dash`?"),
            "{:?}",
            s.problems
        );
    }
}
