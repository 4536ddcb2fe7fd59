//! Where each byte of a chapter's content was written.
//!
//! mdBook hands a preprocessor the chapter after the built-in `links` preprocessor has expanded
//! `{{#include}}` and friends and removed the backslash of escaped directives. Findings must
//! point at the text as the author wrote it, and an escaped shortcode must stay escaped, so
//! [`SourceMap::build`] reads the chapter's file, replays every directive of it through mdBook's
//! own `links` code (one directive at a time, by the caller's `expand`), and checks that the
//! pieces put together give the content exactly. Then every content offset maps to a file and
//! an offset in it. When they do not fit, another preprocessor rewrote the chapter before this
//! one: what `links` alone makes of the file is mapped instead, and the content onto it through
//! a diff ([`rewritten`]). Only a chapter without a file has its positions measured on the
//! content, and says so.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::read::markdown::LineIndex;

mod replay;
mod rewritten;

pub(crate) use rewritten::Pieces;
use rewritten::Rewritten;

/// A file that chapter text came from.
#[derive(Debug)]
pub(crate) struct SourceFile {
    /// The path to show to the user.
    pub display: PathBuf,
    /// Its text, without a byte order mark.
    pub text: String,
    lines: LineIndex,
}

impl SourceFile {
    /// A file with `display` as its name and `text` as its contents (a leading BOM is dropped,
    /// as mdBook drops it).
    pub(crate) fn new(display: PathBuf, text: String) -> SourceFile {
        let text = crate::util::text::without_bom(text);
        let lines = LineIndex::new(&text);
        SourceFile {
            display,
            text,
            lines,
        }
    }
}

/// A position in a file, as the user sees it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    /// The file, as shown to the user (written with `/` on every system).
    #[serde(serialize_with = "crate::util::paths::serialize_slashed")]
    pub path: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// How many characters of that line the span covers (at least 1, at most to the line's end).
    pub width: usize,
    /// The text of that line, for snippets.
    #[serde(skip)]
    pub line_text: String,
    /// Where this text came from, when that is not simply this file (an include).
    pub note: Option<String>,
}

#[derive(Debug, Clone)]
enum Origin {
    /// Copied from `files[file]` at `offset`; `included_by` is the directive's offset in the
    /// chapter file when the text came through an include.
    File {
        file: usize,
        offset: usize,
        included_by: Option<usize>,
    },
    /// Inserted by the directive at `directive` (an offset in the chapter file), from
    /// `from`, at a place in it that could not be found.
    Included { from: PathBuf, directive: usize },
    /// The content itself: no file could be matched.
    Content,
}

#[derive(Debug, Clone)]
struct Segment {
    content_start: usize,
    origin: Origin,
}

/// The map from a chapter's content back to the files it was written in.
#[derive(Debug)]
pub(crate) struct SourceMap {
    files: Vec<SourceFile>,
    segments: Vec<Segment>,
    /// Content offsets where `links` removed the backslash of an escaped directive.
    escapes: Vec<usize>,
    /// The chapter's name for positions measured on the content.
    label: PathBuf,
    /// The content's line starts, built on first use (only chapters with findings need them).
    content_lines: OnceLock<LineIndex>,
    note: Option<String>,
    /// Set when another preprocessor rewrote the content: every position goes through it.
    rewritten: Option<Box<Rewritten>>,
}

/// What [`SourceMap::build`] needs to know about a chapter's file.
pub(crate) struct ChapterFile<'a> {
    /// The path to show for the chapter's file.
    pub display: PathBuf,
    /// The file's text, if it could be read.
    pub text: Option<String>,
    /// The folder its includes are resolved against.
    pub base_dir: &'a Path,
    /// Turns an absolute path of an included file into the path shown to the user.
    pub display_of: &'a dyn Fn(&Path) -> PathBuf,
    /// The preprocessors that run before this one besides `links`, as a reader names them
    /// (`` `spec` ``), for text one of them generated.
    pub rewriters: &'a str,
}

impl SourceMap {
    /// Maps `content` onto the chapter's file. `expand` gives what mdBook's `links` makes of one
    /// directive (the text of `{{#include ...}}`, say) in this chapter.
    pub(crate) fn build(
        content: &str,
        file: ChapterFile<'_>,
        expand: &dyn Fn(&str) -> Option<String>,
    ) -> SourceMap {
        let Some(text) = file.text else {
            return SourceMap::on_content(file.display, None);
        };
        if text.strip_prefix('\u{feff}').unwrap_or(&text) == content {
            return SourceMap::same_as_file(file.display);
        }
        let mut map = SourceMap::of_file(&file.display, text);
        if map
            .align(content, file.base_dir, file.display_of, expand)
            .is_some()
        {
            return map;
        }
        // Rewritten by a preprocessor before this one: what `links` alone makes of the file
        // maps onto the file by construction, and the content maps onto that.
        let text = std::mem::take(&mut map.files[0].text);
        let expected = replay::links_only(&text, expand);
        let mut inner = SourceMap::of_file(&file.display, text);
        if inner
            .align(&expected, file.base_dir, file.display_of, expand)
            .is_none()
        {
            let note = format!(
                "position in the chapter as preprocessed; it no longer matches `{}`",
                file.display.display()
            );
            return SourceMap::on_content(file.display, Some(note));
        }
        let by = if file.rewriters.is_empty() {
            "one that book.toml does not name"
        } else {
            file.rewriters
        };
        let mut map = SourceMap::on_content(file.display, None);
        map.rewritten = Some(Box::new(Rewritten::new(
            content,
            expected,
            inner,
            by.to_owned(),
        )));
        map
    }

    /// A map of the chapter file `display` with `text`, before it is aligned.
    fn of_file(display: &Path, text: String) -> SourceMap {
        SourceMap {
            files: vec![SourceFile::new(display.to_path_buf(), text)],
            segments: Vec::new(),
            escapes: Vec::new(),
            label: display.to_path_buf(),
            content_lines: OnceLock::new(),
            note: None,
            rewritten: None,
        }
    }

    /// The map of a chapter whose content is its file (`display`) as written, the usual case
    /// (no includes, no escapes): positions are measured on the content, which is exact, and no
    /// copy of the file is kept.
    pub(crate) fn same_as_file(display: PathBuf) -> SourceMap {
        SourceMap::on_content(display, None)
    }

    /// A map that measures positions on the content itself (the content is given to
    /// [`SourceMap::locate`]).
    pub(crate) fn on_content(label: PathBuf, note: Option<String>) -> SourceMap {
        SourceMap {
            files: Vec::new(),
            segments: vec![Segment {
                content_start: 0,
                origin: Origin::Content,
            }],
            escapes: Vec::new(),
            label,
            content_lines: OnceLock::new(),
            note,
            rewritten: None,
        }
    }

    /// Whether `links` removed a backslash right before `offset`.
    pub(crate) fn backslash_removed_at(&self, offset: usize) -> bool {
        match &self.rewritten {
            Some(rewritten) => rewritten.backslash_removed_at(offset),
            None => self.escapes.binary_search(&offset).is_ok(),
        }
    }

    /// Where `range` of the content (shown as `content`) was written.
    pub(crate) fn locate(&self, content: &str, range: Range<usize>) -> Location {
        if let Some(rewritten) = &self.rewritten {
            return rewritten.locate(range);
        }
        let i = self
            .segments
            .partition_point(|s| s.content_start <= range.start)
            .max(1)
            - 1;
        let segment = &self.segments[i];
        let delta = range.start - segment.content_start;
        let len = range.len();
        match &segment.origin {
            Origin::File {
                file,
                offset,
                included_by,
            } => {
                let note = included_by.map(|directive| {
                    let at = self.position(0, directive);
                    format!(
                        "included by {}:{}:{}",
                        self.files[0].display.display(),
                        at.0,
                        at.1
                    )
                });
                self.location_in(*file, offset + delta, len, note)
            }
            Origin::Included { from, directive } => {
                let note = Some(format!(
                    "the text comes from an include of `{}`; its line there could not be mapped",
                    from.display()
                ));
                self.location_in(0, *directive, 1, note)
            }
            Origin::Content => {
                let lines = self.content_lines.get_or_init(|| LineIndex::new(content));
                let (line, column) = lines.line_col(content, range.start);
                let line_range = lines.line_range(content, line);
                location(
                    self.label.clone(),
                    content,
                    line_range,
                    line,
                    column,
                    range.start,
                    len,
                    self.note.clone(),
                )
            }
        }
    }

    fn position(&self, file: usize, offset: usize) -> (usize, usize) {
        let file = &self.files[file];
        file.lines.line_col(&file.text, offset)
    }

    fn location_in(
        &self,
        file: usize,
        offset: usize,
        len: usize,
        note: Option<String>,
    ) -> Location {
        let source = &self.files[file];
        let offset = offset.min(source.text.len());
        let (line, column) = source.lines.line_col(&source.text, offset);
        let line_range = source.lines.line_range(&source.text, line);
        location(
            source.display.clone(),
            &source.text,
            line_range,
            line,
            column,
            offset,
            len,
            note,
        )
    }
}

#[allow(clippy::too_many_arguments)]
fn location(
    path: PathBuf,
    text: &str,
    line_range: Range<usize>,
    line: usize,
    column: usize,
    offset: usize,
    len: usize,
    note: Option<String>,
) -> Location {
    let line_text = text.get(line_range.clone()).unwrap_or("").to_owned();
    let end = (offset + len).min(line_range.end).max(offset);
    let width = text
        .get(offset..end)
        .map_or(1, |s| s.chars().count())
        .max(1);
    Location {
        path,
        line,
        column,
        width,
        line_text,
        note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn display(path: &Path) -> PathBuf {
        PathBuf::from("src").join(path.file_name().unwrap())
    }

    fn build(content: &str, source: &str, expand: &dyn Fn(&str) -> Option<String>) -> SourceMap {
        let file = ChapterFile {
            display: PathBuf::from("src/ch.md"),
            text: Some(source.to_owned()),
            base_dir: Path::new("/nonexistent"),
            display_of: &display,
            rewriters: "`fake`",
        };
        SourceMap::build(content, file, expand)
    }

    #[test]
    fn identical_content_maps_one_to_one() {
        let text = "# T\n\nline two\n";
        let map = build(text, text, &|_| None);
        let at = map.locate(text, 5..9);
        assert_eq!((at.line, at.column, at.width), (3, 1, 4));
        assert_eq!(at.note, None);
    }

    #[test]
    fn removed_escape_backslash_is_remembered() {
        let source = "a \\{{#axis x}} b\n";
        let content = "a {{#axis x}} b\n";
        let map = build(content, source, &|_| None);
        assert!(map.backslash_removed_at(2));
        let at = map.locate(content, 14..15);
        assert_eq!((at.line, at.column), (1, 16));
    }

    #[test]
    fn include_shifts_later_lines() {
        let source = "one\n{{#include part.md}}\nthree — x\n";
        let content = "one\nA\nB\n\nthree — x\n";
        let map = build(content, source, &|d| {
            (d == "{{#include part.md}}").then(|| "A\nB\n".to_owned())
        });
        let dash = content.find('—').unwrap();
        let at = map.locate(content, dash..dash + 3);
        assert_eq!((at.line, at.column, at.width), (3, 7, 1));
        let inside = map.locate(content, 4..5);
        assert_eq!(inside.line, 2);
        assert!(inside.note.unwrap().contains("part.md"));
    }

    #[test]
    fn a_chapter_without_a_file_is_measured_on_its_content() {
        let file = ChapterFile {
            display: PathBuf::from("src/ch.md"),
            text: None,
            base_dir: Path::new("/nonexistent"),
            display_of: &display,
            rewriters: "",
        };
        let map = SourceMap::build("changed\nx\n", file, &|_| None);
        let at = map.locate("changed\nx\n", 8..9);
        assert_eq!((at.line, at.column), (2, 1));
    }

    /// `(line, column, width)` of the first `needle` of `content`.
    fn at(map: &SourceMap, content: &str, needle: &str) -> (usize, usize, usize, Option<String>) {
        let start = content.find(needle).unwrap();
        let at = map.locate(content, start..start + needle.len());
        (at.line, at.column, at.width, at.note)
    }

    #[test]
    fn text_a_preprocessor_kept_maps_to_the_file_through_its_rewriting() {
        // A rule marker turned into a block of HTML (three lines for one), a line removed, and
        // a word changed inside a line.
        let source = "# T\n\nr[a.b]\nA rule — here.\n\nremoved\nKeep this — and that\nend — x\n";
        let content = "# T\n\n<div id=\"r-a.b\">\n<a href=\"#r-a.b\">[a.b]</a>\n</div>\nA rule — here.\n\nKeep THIS — and that\nend — x\n";
        let map = build(content, source, &|_| None);
        assert_eq!(at(&map, content, "— here"), (4, 8, 6, None));
        assert_eq!(at(&map, content, "— and"), (7, 11, 5, None));
        assert_eq!(at(&map, content, "— x"), (8, 5, 3, None));
        // Generated text: the line it replaced, and who wrote it; never a line of its own.
        let (line, _, _, note) = at(&map, content, "href");
        assert_eq!(line, 3);
        let note = note.unwrap();
        assert!(
            note.contains("`fake`") && note.contains("not in the file"),
            "{note}"
        );
        let (line, column, _, note) = at(&map, content, "THIS");
        assert_eq!((line, column), (7, 6));
        assert!(note.unwrap().contains("generated in place of"));
    }

    #[test]
    fn an_include_and_an_escape_still_map_in_a_rewritten_chapter() {
        let source = "one\n{{#include part.md}}\n\\{{#axis x}} — y\n";
        let content = "GENERATED\none\nA\nB\n{{#axis x}} — y\n";
        let map = build(content, source, &|d| {
            (d == "{{#include part.md}}").then(|| "A\nB\n".to_owned())
        });
        let brace = content.find("{{#axis").unwrap();
        assert!(map.backslash_removed_at(brace));
        assert_eq!(at(&map, content, "— y").0, 3);
        let (line, _, _, note) = at(&map, content, "B\n");
        assert_eq!(line, 2);
        assert!(note.unwrap().contains("part.md"));
        let (line, _, _, note) = at(&map, content, "GENERATED");
        assert_eq!(line, 1);
        assert!(note.unwrap().contains("inserted"));
    }
}
