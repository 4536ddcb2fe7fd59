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

use crate::checks::{Draft, Place};
use crate::model::rules::code::CodeCitation;
use crate::read::chapter::{BookFiles, Chapter};
use crate::read::code::Spot;
use crate::read::companion::Companion;
use crate::read::config::{Config, KeyPart, KeyPath};
use crate::read::markdown::LineIndex;
use crate::read::sourcemap::Location;
use crate::report::diagnostic::{Finding, Report};
use crate::util::vocab::Severity;

/// The findings of each chapter that has any (by its number in the chapters), for the serve
/// panel.
pub(crate) type Pages = Vec<(usize, Vec<Finding>)>;

/// Locates `drafts`, gives them their severity and drops those that are off or suppressed, and
/// in companions with `changed-since`, those on lines that did not change.
pub(crate) fn resolve(
    chapters: &[Chapter<'_>],
    companions: &[Companion],
    citations: &[CodeCitation],
    files: &BookFiles,
    config: &Config,
    drafts: Vec<Draft>,
) -> (Report, Pages) {
    let toml = BookToml::read(files);
    let drafts = in_reading_order(drafts, chapters.len(), companions.len(), &toml);
    let mut pages: Pages = Vec::new();
    let mut findings = Vec::new();
    for (draft, at) in drafts {
        // A finding about book.toml or a companion is shown on the first page.
        let page = match draft.place {
            Place::Chapter(number) => number,
            _ => 0,
        };
        let placed = match &draft.place {
            Place::Chapter(number) => in_chapter(&chapters[*number], files, config, &draft),
            Place::Companion(number) => in_companion(&companions[*number], config, &draft),
            Place::Config(key) => match config.severity(draft.check, None) {
                Severity::Off => None,
                severity => Some((severity, at.unwrap_or_else(|| toml.locate(key)))),
            },
            Place::Code(number) => {
                let severity = config.severity(draft.check, None);
                match citations.get(*number) {
                    Some(citation) if severity != Severity::Off => {
                        Some((severity, locate_code(files, config, citation)))
                    }
                    _ => None,
                }
            }
            Place::Source(spot) => match config.severity(draft.check, None) {
                Severity::Off => None,
                severity => Some((severity, locate_spot(files, config, spot))),
            },
            Place::Book(spot) => match config.severity(draft.check, None) {
                Severity::Off => None,
                severity => Some((severity, locate_in_book(files, spot))),
            },
        };
        let Some((severity, location)) = placed else {
            continue;
        };
        let finding = finding_of(draft, severity, location, chapters, files);
        match pages.iter_mut().find(|(number, _)| *number == page) {
            Some((_, list)) => list.push(finding.clone()),
            None => pages.push((page, vec![finding.clone()])),
        }
        findings.push(finding);
    }
    (
        Report {
            findings,
            ..Report::default()
        },
        pages,
    )
}

/// The drafts, each about book.toml with where it is there, in the order findings are read:
/// those that can follow from another check's last, then by place and position.
fn in_reading_order(
    drafts: Vec<Draft>,
    chapters: usize,
    companions: usize,
    toml: &BookToml,
) -> Vec<(Draft, Option<Location>)> {
    // book.toml, then the chapters, then the companions, then the source tree.
    let order = |place: &Place| match place {
        Place::Config(_) => 0,
        Place::Chapter(n) => 1 + n,
        Place::Companion(n) => 1 + chapters + n,
        Place::Code(n) => 1 + chapters + companions + n,
        // After every citation, in the order found (the walk's, per check).
        Place::Source(_) => usize::MAX,
        // SUMMARY.md, with book.toml: what the book is made of.
        Place::Book(_) => 0,
    };
    // A finding about book.toml is located once, and sorted in the order they are written there.
    let mut drafts: Vec<(Draft, Option<Location>)> = drafts
        .into_iter()
        .map(|d| {
            let at = match &d.place {
                Place::Config(key) => Some(toml.locate(key)),
                _ => None,
            };
            (d, at)
        })
        .collect();
    drafts.sort_by_key(|(d, at)| {
        let at = match at {
            Some(location) => (location.line, location.column),
            None => (d.range.start, d.range.end),
        };
        (d.check.follows_others(), order(&d.place), at)
    });
    drafts
}

/// The severity and location of a draft about a chapter, or `None` when it is off or
/// suppressed there.
fn in_chapter(
    chapter: &Chapter<'_>,
    files: &BookFiles,
    config: &Config,
    draft: &Draft,
) -> Option<(Severity, Location)> {
    let mut severity = config.severity(draft.check, Some(&chapter.key));
    if draft.blocking && severity != Severity::Off {
        severity = Severity::Error;
    }
    if draft.lenient {
        severity = severity.min(Severity::Warning);
    }
    if severity == Severity::Off
        || chapter
            .suppressions()
            .allows(draft.check, draft.range.start)
    {
        return None;
    }
    debug_assert!(
        chapter.content.is_char_boundary(draft.range.start)
            && chapter.content.is_char_boundary(draft.range.end),
        "{} reported {:?}, not on character boundaries of `{}`",
        draft.check,
        draft.range,
        chapter.key
    );
    Some((severity, chapter.locate(files, draft.range.clone())))
}

/// The severity and location of a draft about a companion, or `None` when it is off,
/// suppressed, or on a line `changed-since` does not count.
fn in_companion(
    companion: &Companion,
    config: &Config,
    draft: &Draft,
) -> Option<(Severity, Location)> {
    let severity = config.severity(draft.check, None);
    if severity == Severity::Off
        || companion
            .suppressions()
            .allows(draft.check, draft.range.start)
    {
        return None;
    }
    debug_assert!(
        companion.content.is_char_boundary(draft.range.start)
            && companion.content.is_char_boundary(draft.range.end),
        "{} reported {:?}, not on character boundaries",
        draft.check,
        draft.range
    );
    let location = companion.locate(draft.range.clone());
    if !companion.counts_line(location.line) {
        return None;
    }
    Some((severity, location))
}

/// The finding of a located draft, its related places written out as notes.
fn finding_of(
    draft: Draft,
    severity: Severity,
    location: Location,
    chapters: &[Chapter<'_>],
    files: &BookFiles,
) -> Finding {
    let notes = draft
        .related
        .iter()
        .map(|(number, range, label)| {
            let at = chapters[*number].locate(files, range.clone());
            format!("{label}: {}:{}:{}", at.path.display(), at.line, at.column)
        })
        .collect();
    Finding {
        check: draft.check,
        severity,
        message: draft.message,
        location,
        help: draft.help,
        notes,
    }
}

/// Where a citation of a rule in the source tree is: its ID, in the file under `source-root`.
pub(crate) fn locate_code(files: &BookFiles, config: &Config, citation: &CodeCitation) -> Location {
    let root = config.source_root.as_deref().unwrap_or(".");
    // `display` takes the path from the book root as joined (`./code/x.go` is `code/x.go`),
    // then shows it lexically.
    let path = files.root().join(root).join(&citation.path);
    Location {
        path: files.display(&path),
        line: citation.line,
        column: citation.column,
        width: citation.written.chars().count().max(1),
        line_text: citation.line_text.clone(),
        note: None,
    }
}

/// Where a place of the source tree other than a citation is, as [`locate_code`] shows it.
/// Where a spot of a file of the book that is no chapter is, shown as the book's paths are.
fn locate_in_book(files: &BookFiles, spot: &Spot) -> Location {
    Location {
        path: files.display(&files.root().join(&spot.path)),
        line: spot.line,
        column: spot.column,
        width: spot.width.max(1),
        line_text: spot.line_text.clone(),
        note: None,
    }
}

fn locate_spot(files: &BookFiles, config: &Config, spot: &Spot) -> Location {
    let root = config.source_root.as_deref().unwrap_or(".");
    let path = files.root().join(root).join(&spot.path);
    Location {
        path: files.display(&path),
        line: spot.line,
        column: spot.column,
        width: spot.width.max(1),
        line_text: spot.line_text.clone(),
        note: None,
    }
}

/// book.toml as findings about it are located in it: its path as shown and its text (an
/// editor's unsaved text of it, if any; an in-process book may have no file at all).
struct BookToml {
    shown: std::path::PathBuf,
    text: String,
}

impl BookToml {
    fn read(files: &BookFiles) -> BookToml {
        let path = files.book_toml();
        let text = files
            .read(&path)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .unwrap_or_default();
        BookToml {
            shown: files.display(&path),
            text,
        }
    }

    /// Where `key` of `[preprocessor.contract]` is written: see [`key_location`].
    fn locate(&self, key: &KeyPath) -> Location {
        match env_override(key) {
            // What book.toml says there is not what is in effect: the table, and where it came
            // from.
            Some(name) => {
                let mut location = key_location(self.shown.clone(), &self.text, &KeyPath::key(""));
                location.note = Some(format!(
                    "the value is set by the environment variable `{name}`, in place of book.toml's"
                ));
                location
            }
            None => key_location(self.shown.clone(), &self.text, key),
        }
    }
}

/// The environment variable that sets `key` (or the table, or all preprocessors), the way
/// mdBook reads them (`MDBOOK_PREPROCESSOR__CONTRACT__CHANGED_SINCE` is
/// `preprocessor.contract.changed-since`).
fn env_override(key: &KeyPath) -> Option<String> {
    let table = format!("preprocessor.{}", crate::util::vocab::NAME);
    let own = key.top().map(|top| format!("{table}.{top}"));
    std::env::vars_os().find_map(|(name, _)| {
        let name = name.into_string().ok()?;
        let set = name
            .strip_prefix("MDBOOK_")?
            .to_lowercase()
            .replace("__", ".")
            .replace('_', "-");
        (set == "preprocessor" || set == table || Some(&set) == own.as_ref()).then_some(name)
    })
}

/// Where the value at `key` of `[preprocessor.contract]` is written in `text`, a book.toml
/// shown as `path`: the value (or the key's name, when the finding is about the name), else
/// the nearest key above it that is written (a value set from the environment is not), else
/// the table's header, else the first line. Spans come from toml_edit's parse of the text,
/// so inline tables, dotted keys and sub-tables such as `[preprocessor.contract.checks]` are
/// found as written.
pub(crate) fn key_location(path: std::path::PathBuf, text: &str, key: &KeyPath) -> Location {
    let span = toml_edit::Document::parse(text)
        .ok()
        .and_then(|doc| span_of(doc.as_item(), key));
    let (start, end) = span.map_or((0, 0), |span| (span.start, span.end));
    let lines = LineIndex::new(text);
    let (line, column) = lines.line_col(text, start);
    let line_range = lines.line_range(text, line);
    let line_text = text.get(line_range.clone()).unwrap_or("").to_owned();
    // The span's characters on its first line (a table header or a list can run on).
    let on_line = text
        .get(start..end.min(line_range.end).max(start))
        .map_or(0, |t| t.trim_end().chars().count());
    let rest = line_text.chars().count().saturating_sub(column - 1);
    let width = if on_line > 0 { on_line } else { rest }.max(1);
    Location {
        path,
        line,
        column,
        width,
        line_text,
        note: None,
    }
}

/// The span of `key` under `[preprocessor.contract]` in `root`, or of the nearest part of it
/// that is written.
fn span_of(root: &toml_edit::Item, key: &KeyPath) -> Option<std::ops::Range<usize>> {
    let table = root.get("preprocessor")?.get(crate::util::vocab::NAME)?;
    let mut best = item_span(table);
    let mut item = table;
    for (i, part) in key.parts.iter().enumerate() {
        let last = i + 1 == key.parts.len();
        match part {
            KeyPart::Key(name) => {
                let Some((written, value)) =
                    item.as_table_like().and_then(|t| t.get_key_value(name))
                else {
                    break;
                };
                if last && key.name {
                    return written.span().or(best);
                }
                // A value is pointed at as written; a sub-table by its key.
                let span = match value {
                    toml_edit::Item::Value(v) => v.span(),
                    _ => written.span(),
                };
                best = span.or(best);
                item = value;
            }
            KeyPart::Index(n) => {
                // An item of a list is a value, with nothing below it.
                if let Some(value) = item.as_array().and_then(|a| a.get(*n)) {
                    best = value.span().or(best);
                }
                break;
            }
        }
    }
    best
}

/// Where a table or a value is written (an implicit table, such as `[preprocessor]` under
/// `[preprocessor.contract]`, has no span).
fn item_span(item: &toml_edit::Item) -> Option<std::ops::Range<usize>> {
    match item {
        toml_edit::Item::Table(table) => table.span(),
        other => other.span(),
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
        let in_book_toml = |files: &BookFiles, key: &KeyPath| BookToml::read(files).locate(key);
        let after = in_book_toml(&files, &KeyPath::key("after"));
        assert_eq!(
            (after.line, after.column, after.width),
            (5, 9, 9),
            "the value"
        );
        assert_eq!(after.path, PathBuf::from("book.toml"));
        let table = in_book_toml(&files, &KeyPath::key("template"));
        assert_eq!((table.line, table.column), (4, 1));
        let none = in_book_toml(
            &BookFiles::new(&ctx_without_file(), PathBuf::new()),
            &KeyPath::key("after"),
        );
        assert_eq!((none.line, none.column), (1, 1));
    }

    #[test]
    fn values_are_found_as_toml_writes_them() {
        let text = "[book]\ntitle = \"x\"\n\n[preprocessor.contract]\ncompanions = [\n  \"README.md\",\n  \"MISSING.md\",\n]\ncheks = {}\nchecks.em-dash = \"fatal\"\n\n[preprocessor.contract.chapters.\"a.md\".checks]\nmust-cite = \"nope\"\n";
        let at = |key: KeyPath| {
            let l = key_location(PathBuf::from("book.toml"), text, &key);
            (l.line, l.column, l.width)
        };
        let companions = KeyPath::key("companions");
        assert_eq!(
            at(companions.index(1)),
            (7, 3, 12),
            "the item, on its own line"
        );
        assert_eq!(
            at(companions.index(9)),
            (5, 14, 1),
            "no such item: the list"
        );
        assert_eq!(
            at(KeyPath::key("cheks").naming()),
            (9, 1, 5),
            "the key's name"
        );
        assert_eq!(
            at(KeyPath::key("checks").child("em-dash")),
            (10, 18, 7),
            "a dotted key"
        );
        let chapter = KeyPath::key("chapters").child("a.md").child("checks");
        assert_eq!(at(chapter.child("must-cite")), (13, 13, 6), "a sub-table");
        assert_eq!(
            at(KeyPath::key("source-root")),
            (4, 1, 23),
            "not written: the table"
        );
        let broken = key_location(PathBuf::from("book.toml"), "[book\n", &companions);
        assert_eq!((broken.line, broken.column), (1, 1), "not TOML: the top");
    }

    fn ctx_without_file() -> PreprocessorContext {
        PreprocessorContext::new("/nonexistent".into(), Default::default(), "html".into())
    }
}
