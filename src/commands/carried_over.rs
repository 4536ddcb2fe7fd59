//! `mdbook-contract carried-over OLD`: nothing of an old document is lost in the book.
//!
//! A split like the one this book came from turns one document into several. The plan's last
//! check compares the bullets of the old document with the new chapters "by keyword"; here the
//! keywords are each list item's code spans (the symbols, paths and names the item is about),
//! and an item is carried over when every one of them occurs in some chapter of the book as a
//! whole word. [`carried_over`] reads OLD (a file, or `REV:PATH` through [`crate::util::git::show`]),
//! takes the list items of the named sections (all of them when none is named), and reports each
//! item that is not carried over with its line in OLD and the words not found.
//!
//! This reads the book as mdBook hands it over (includes expanded); it runs no check.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Result, bail};
use mdbook_preprocessor::book::Book;

use crate::read::markdown::{ChapterIndex, LineIndex, MarkdownOptions};
use crate::util::suggest;

/// What [`carried_over`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CarriedOver {
    /// OLD, as given.
    pub old: String,
    /// The sections compared, as OLD writes their headings (empty: the whole of OLD).
    pub sections: Vec<String>,
    /// How many list items were compared.
    pub items: usize,
    /// How many of them hold no code span, so there was nothing to compare them by.
    pub without_code: usize,
    /// The items not carried over, in OLD's order.
    pub lost: Vec<LostItem>,
}

/// A list item of OLD with words the book does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LostItem {
    /// Its 1-based line in OLD.
    pub line: usize,
    /// The start of its text, for the reader to recognise it.
    pub text: String,
    /// Its code spans that occur nowhere in the book.
    pub missing: Vec<String>,
}

impl CarriedOver {
    /// The report as the command prints it: one line per lost item, then the count.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for item in &self.lost {
            let words: Vec<String> = item.missing.iter().map(|w| format!("`{w}`")).collect();
            let _ = writeln!(
                out,
                "{}:{}: not in the book: {} (item: \"{}\")",
                self.old,
                item.line,
                words.join(", "),
                item.text
            );
        }
        let scope = if self.sections.is_empty() {
            format!("`{}`", self.old)
        } else {
            self.sections
                .iter()
                .map(|s| format!("\"{s}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = if self.lost.is_empty() {
            write!(
                out,
                "mdbook-contract: all {} list items of {scope} are carried over",
                self.items
            )
        } else {
            write!(
                out,
                "mdbook-contract: {} of {} list items of {scope} not carried over",
                self.lost.len(),
                self.items
            )
        };
        if self.without_code > 0 {
            let _ = write!(
                out,
                "; {} without a code span, compared by nothing",
                self.without_code
            );
        }
        out.push('\n');
        out
    }
}

/// Compares the list items of `sections` of `old` (all sections when empty) with the chapters
/// of `book`. `old` is a file (relative to `dir`) or `REV:PATH`, read with `git show` in `dir`.
pub fn carried_over(
    dir: &Path,
    old: &str,
    sections: &[String],
    book: &Book,
) -> Result<CarriedOver> {
    let text = read_old(dir, old)?;
    let index = ChapterIndex::parse(&text, &MarkdownOptions::default());
    let ranges = section_ranges(&index, &text, old, sections)?;
    let chapters: Vec<&str> = book.chapters().map(|c| c.content.as_str()).collect();
    let lines = LineIndex::new(&text);
    let mut report = CarriedOver {
        old: old.to_owned(),
        sections: ranges
            .iter()
            .map(|(title, _)| title.clone())
            .filter(|title| !title.is_empty())
            .collect(),
        items: 0,
        without_code: 0,
        lost: Vec::new(),
    };
    for item in &index.items {
        if !ranges.iter().any(|(_, r)| r.contains(&item.start)) {
            continue;
        }
        report.items += 1;
        let words = own_words(&index, item);
        if words.is_empty() {
            report.without_code += 1;
            continue;
        }
        let missing: Vec<String> = words
            .into_iter()
            .filter(|word| !chapters.iter().any(|c| has_word(c, word)))
            .map(str::to_owned)
            .collect();
        if !missing.is_empty() {
            report.lost.push(LostItem {
                line: lines.line_col(&text, item.start).0,
                text: excerpt(&text[item.clone()]),
                missing,
            });
        }
    }
    Ok(report)
}

/// An item's own words: its code spans, less those of the items nested in it, each once.
fn own_words<'i>(index: &'i ChapterIndex, item: &std::ops::Range<usize>) -> Vec<&'i str> {
    let nested: Vec<_> = index
        .items
        .iter()
        .filter(|inner| *inner != item && item.start <= inner.start && inner.end <= item.end)
        .collect();
    let mut words: Vec<&str> = Vec::new();
    for span in &index.code_spans {
        let own = item.contains(&span.range.start)
            && !nested.iter().any(|inner| inner.contains(&span.range.start));
        let word = span.text.trim();
        if own && !word.is_empty() && !words.contains(&word) {
            words.push(word);
        }
    }
    words
}

/// OLD's text: the file, else `REV:PATH` from git.
fn read_old(dir: &Path, old: &str) -> Result<String> {
    let file = dir.join(old);
    if file.is_file() {
        return match crate::util::text::read_to_string(&file) {
            Ok(text) => Ok(text),
            Err(error) => bail!("cannot read `{old}`: {error}"),
        };
    }
    if old.contains(':') {
        return crate::util::git::show(dir, old).map(crate::util::text::without_bom);
    }
    bail!(
        "`{old}` is not a file; give a file, or `REV:PATH` for a file at a git revision (such as `HEAD:docs/providers.md`)"
    )
}

/// The byte ranges of the sections named `sections` (each runs to the next heading of its
/// level or higher), with their headings as written; the whole text when none is named.
fn section_ranges(
    index: &ChapterIndex,
    text: &str,
    old: &str,
    sections: &[String],
) -> Result<Vec<(String, std::ops::Range<usize>)>> {
    if sections.is_empty() {
        return Ok(vec![(String::new(), 0..text.len())]);
    }
    let mut out = Vec::new();
    for wanted in sections {
        let key = title_key(wanted);
        let found = index
            .headings
            .iter()
            .enumerate()
            .find(|(_, h)| title_key(&h.text) == key);
        let Some((i, heading)) = found else {
            let titles: Vec<&str> = index.headings.iter().map(|h| h.text.as_str()).collect();
            // Compared as the lookup compares them: numbering and case set aside.
            let keys: Vec<String> = titles.iter().map(|t| title_key(t)).collect();
            let hint = suggest::did_you_mean(&key, keys.iter().map(String::as_str))
                .and_then(|k| keys.iter().position(|x| x == k))
                .map_or_else(String::new, |i| {
                    format!("; did you mean `{}`?", title_key_shown(titles[i]))
                });
            bail!(
                "`--section {wanted}`: `{old}` has no heading `{wanted}`{hint} (its headings: {})",
                titles
                    .iter()
                    .map(|t| format!("\"{t}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        };
        let end = index.headings[i + 1..]
            .iter()
            .find(|h| h.level <= heading.level)
            .map_or(text.len(), |h| h.range.start);
        out.push((heading.text.clone(), heading.range.end..end));
    }
    Ok(out)
}

/// A heading's text as `--section` matches it: section numbering (`9.`, `2.1`) and case aside,
/// runs of whitespace as one space.
/// A heading's title as `--section` takes it: without its numbering (`1. Retries` is
/// `Retries`).
fn title_key_shown(title: &str) -> &str {
    let title = title.trim();
    let unnumbered = title
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
        .trim_start();
    if unnumbered.len() < title.len() && !unnumbered.is_empty() {
        unnumbered
    } else {
        title
    }
}

fn title_key(title: &str) -> String {
    title_key_shown(title)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether `word` occurs in `text` as a whole word: not preceded or followed by a letter, digit
/// or `_` where the word itself starts or ends with one.
fn has_word(text: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let starts = word.starts_with(is_word);
    let ends = word.ends_with(is_word);
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let joined_before = starts && before.is_some_and(is_word);
        let joined_after = ends && after.is_some_and(is_word);
        !joined_before && !joined_after
    })
}

/// The first words of a list item, its marker and line breaks dropped.
fn excerpt(item: &str) -> String {
    let text = item
        .trim_start()
        .trim_start_matches(['-', '*', '+'])
        .trim_start();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        return text;
    }
    // Cut between words, and before a code span the cut would leave open.
    let cut: String = text.chars().take(MAX).collect();
    let mut cut = match cut.rfind(' ') {
        Some(space) => &cut[..space],
        None => &cut[..],
    };
    if cut.matches('`').count() % 2 == 1 {
        cut = cut[..cut.rfind('`').unwrap_or(0)].trim_end();
    }
    format!("{cut}...")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_whole() {
        assert!(has_word("see `Sweeper.sweep` here", "Sweeper.sweep"));
        assert!(!has_word("ListByTags", "ListByTag"));
        assert!(!has_word("xListByTag", "ListByTag"));
        assert!(has_word("(ListByTag)", "ListByTag"));
        assert!(has_word("a /tmp/ b", "/tmp/"));
    }

    #[test]
    fn titles_match_without_numbering_or_case() {
        assert_eq!(
            title_key("9. Gaps and  proposed features"),
            "gaps and proposed features"
        );
        assert_eq!(title_key("2.1 Create"), "create");
        assert_eq!(title_key("2024"), "2024");
        assert_eq!(title_key("Gaps"), "gaps");
    }
}
