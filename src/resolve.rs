//! Drafts into findings: where each one was written, how much it matters, whether it is
//! suppressed.
//!
//! [`resolve`] is the one place where a check's [`Draft`] (a byte range of a chapter's
//! content) becomes a [`Finding`] (a `file:line:col` of the text as written, through the
//! chapter's source map), gets its severity from book.toml, and is dropped when that severity
//! is `off` or a `<!-- contract: allow -->` comment covers it. Findings about book.toml point
//! at the key of `[preprocessor.contract]` they are about. The findings come out chapter by
//! chapter in document order, book.toml's first, and those that can follow from another
//! check's after all the rest, so that a cause is read before its consequence. It also groups
//! the findings by chapter, for the panels shown under `mdbook serve`.

use crate::chapter::{BookFiles, Chapter};
use crate::checks::{Draft, Place};
use crate::companion::Companion;
use crate::config::{Config, TABLE};
use crate::diagnostic::{Finding, Report};
use crate::markdown::LineIndex;
use crate::sourcemap::Location;
use crate::vocab::Severity;

/// The findings of each chapter that has any (by its number in the chapters), for the serve
/// panel.
pub(crate) type Pages = Vec<(usize, Vec<Finding>)>;

/// Locates `drafts`, gives them their severity and drops those that are off or suppressed, and
/// in companions with `changed-since`, those on lines that did not change.
pub(crate) fn resolve(
    chapters: &[Chapter<'_>],
    companions: &[Companion],
    files: &BookFiles,
    config: &Config,
    mut drafts: Vec<Draft>,
) -> (Report, Pages) {
    // book.toml, then the chapters, then the companions.
    let order = |place: Place| match place {
        Place::Config(_) => 0,
        Place::Chapter(n) => 1 + n,
        Place::Companion(n) => 1 + chapters.len() + n,
    };
    drafts.sort_by_key(|d| {
        (
            d.check.follows_others(),
            order(d.place),
            d.range.start,
            d.range.end,
        )
    });
    let mut pages: Pages = Vec::new();
    let mut findings = Vec::new();
    for draft in drafts {
        let (severity, location) = match draft.place {
            Place::Chapter(number) => {
                let chapter = &chapters[number];
                let mut severity = config.severity(draft.check, Some(&chapter.key));
                if draft.blocking && severity != Severity::Off {
                    severity = Severity::Error;
                }
                if severity == Severity::Off
                    || chapter
                        .suppressions()
                        .allows(draft.check, draft.range.start)
                {
                    continue;
                }
                (severity, chapter.locate(files, draft.range.clone()))
            }
            Place::Companion(number) => {
                let companion = &companions[number];
                let severity = config.severity(draft.check, None);
                if severity == Severity::Off
                    || companion
                        .suppressions()
                        .allows(draft.check, draft.range.start)
                {
                    continue;
                }
                let location = companion.locate(draft.range.clone());
                if !companion.counts_line(location.line) {
                    continue;
                }
                (severity, location)
            }
            Place::Config(key) => {
                let severity = config.severity(draft.check, None);
                if severity == Severity::Off {
                    continue;
                }
                (severity, in_book_toml(files, key))
            }
        };
        let notes = draft
            .related
            .iter()
            .map(|(number, range, label)| {
                let at = chapters[*number].locate(files, range.clone());
                format!("{label}: {}:{}:{}", at.path.display(), at.line, at.column)
            })
            .collect();
        let finding = Finding {
            check: draft.check,
            severity,
            message: draft.message,
            location,
            help: draft.help,
            notes,
        };
        // A finding about book.toml or a companion is shown on the first page.
        let page = match draft.place {
            Place::Chapter(number) => number,
            Place::Config(_) | Place::Companion(_) => 0,
        };
        match pages.iter_mut().find(|(number, _)| *number == page) {
            Some((_, list)) => list.push(finding.clone()),
            None => pages.push((page, vec![finding.clone()])),
        }
        findings.push(finding);
    }
    (Report { findings }, pages)
}

/// Where `key` of `[preprocessor.contract]` is written in book.toml (an editor's unsaved text
/// of it, if any): see [`key_location`]; an in-process book may have no file at all.
fn in_book_toml(files: &BookFiles, key: &str) -> Location {
    let path = files.book_toml();
    let text = files
        .read(&path)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .unwrap_or_default();
    key_location(files.display(&path), &text, key)
}

/// Where `key` of `[preprocessor.contract]` is written in `text`, a book.toml shown as `path`:
/// its line, else the table's header, else the first line.
pub(crate) fn key_location(path: std::path::PathBuf, text: &str, key: &str) -> Location {
    let header = format!("[{TABLE}]");
    let mut offset = 0;
    let mut at = None;
    let mut in_table = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            in_table = trimmed == header;
            if in_table && at.is_none() {
                at = Some(offset);
            }
        } else if in_table && !key.is_empty() {
            let name = trimmed
                .split('=')
                .next()
                .unwrap_or("")
                .trim()
                .trim_matches('"');
            if name == key && trimmed.contains('=') {
                at = Some(offset + (line.len() - line.trim_start().len()));
                break;
            }
        }
        offset += line.len();
    }
    let offset = at.unwrap_or(0);
    let lines = LineIndex::new(text);
    let (line, column) = lines.line_col(text, offset);
    let line_text = text
        .get(lines.line_range(text, line))
        .unwrap_or("")
        .to_owned();
    let width = line_text.chars().count().saturating_sub(column - 1).max(1);
    Location {
        path,
        line,
        column,
        width,
        line_text,
        note: None,
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use mdbook_preprocessor::PreprocessorContext;

    #[test]
    fn book_toml_findings_point_at_their_key_or_the_table() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("book.toml"),
            "[book]\ntitle = \"x\"\n\n[preprocessor.contract]\nafter = [\"index\"]\ncontract = [\"c.md\"]\n",
        )
        .unwrap();
        let ctx = PreprocessorContext::new(dir.path().into(), Default::default(), "html".into());
        let files = BookFiles::new(&ctx, PathBuf::new());
        let after = in_book_toml(&files, "after");
        assert_eq!((after.line, after.column), (5, 1));
        assert_eq!(after.path, PathBuf::from("book.toml"));
        let table = in_book_toml(&files, "template");
        assert_eq!((table.line, table.column), (4, 1));
        let none = in_book_toml(
            &BookFiles::new(&ctx_without_file(), PathBuf::new()),
            "after",
        );
        assert_eq!((none.line, none.column), (1, 1));
    }

    fn ctx_without_file() -> PreprocessorContext {
        PreprocessorContext::new("/nonexistent".into(), Default::default(), "html".into())
    }
}
