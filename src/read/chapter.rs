//! The chapters of a book as this preprocessor reads them.
//!
//! [`read_chapters`] walks the book in document order and gives each chapter with content one
//! [`Chapter`]: its paths, its role key, the one [`ChapterIndex`] of its content and its
//! shortcodes. The [`SourceMap`] back to the author's files is built on first use only, since
//! only chapters with shortcodes or findings need it. [`BookFiles`] knows where the files are.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use mdbook_driver::builtin_preprocessors::LinkPreprocessor;
use mdbook_preprocessor::book::{Book, BookItem, Chapter as BookChapter};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

use crate::read::config::{Config, normalise};
use crate::read::kept::Kept;
use crate::read::markdown::{ChapterIndex, MarkdownOptions};
use crate::read::shortcode::{self, Scan};
use crate::read::sourcemap::{ChapterFile, Location, SourceMap};
use crate::read::suppress::Suppressions;
use crate::util::paths::{lexical, slashed_path};

/// Texts that stand for files on disk: an editor's unsaved documents, by absolute path (as
/// [`crate::util::paths::lexical`] writes it).
pub(crate) type Overlays = HashMap<PathBuf, String>;

/// Where a book's files are, and how to show their paths.
pub(crate) struct BookFiles {
    root: PathBuf,
    src: PathBuf,
    display_root: PathBuf,
    overlays: Arc<Overlays>,
    /// A context for replaying mdBook's `links` preprocessor on one directive (behind a lock:
    /// chapters are read on several threads, and the context is not `Sync`).
    links: Mutex<PreprocessorContext>,
    /// The preprocessors book.toml may run before this one besides mdBook's own, as a reader
    /// names them (`` `spec` ``), for text one of them wrote into a chapter.
    rewriters: String,
    /// What the previous check left for this one, when one is kept (the language server's).
    kept: Option<Arc<Kept>>,
    /// Where the files book.toml names may be read from, found when first asked.
    confinement: std::sync::OnceLock<crate::util::confine::Confinement>,
}

impl BookFiles {
    /// The files of the book that `ctx` describes; paths are shown under `display_root` (empty
    /// to show them relative to the book root).
    pub(crate) fn new(ctx: &PreprocessorContext, display_root: PathBuf) -> BookFiles {
        BookFiles {
            root: ctx.root.clone(),
            src: ctx.config.book.src.clone(),
            display_root,
            overlays: Arc::default(),
            links: Mutex::new(PreprocessorContext::new(
                ctx.root.clone(),
                ctx.config.clone(),
                ctx.renderer.clone(),
            )),
            rewriters: rewriters(ctx),
            kept: None,
            confinement: std::sync::OnceLock::new(),
        }
    }

    /// The folder that the files book.toml names must stay in: the book's repository, or its
    /// folder outside one.
    pub(crate) fn confinement(&self) -> &crate::util::confine::Confinement {
        self.confinement
            .get_or_init(|| crate::util::confine::Confinement::of_book(&self.root))
    }

    /// The same files, with what a check computes kept in `kept` for the next check and taken
    /// from it where nothing it was computed from changed.
    pub(crate) fn with_kept(mut self, kept: Arc<Kept>) -> BookFiles {
        self.kept = Some(kept);
        self
    }

    /// What the previous check left, when one is kept.
    pub(crate) fn kept(&self) -> Option<&Kept> {
        self.kept.as_deref()
    }

    /// The same files, with `overlays` read in place of theirs on disk.
    pub(crate) fn with_overlays(mut self, overlays: Arc<Overlays>) -> BookFiles {
        self.overlays = overlays;
        self
    }

    /// The bytes of the file at `path`: its overlay, else what is on disk.
    pub(crate) fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        if !self.overlays.is_empty()
            && let Some(text) = self.overlays.get(&lexical(path))
        {
            return Ok(text.clone().into_bytes());
        }
        std::fs::read(path)
    }

    /// The book's root folder, where book.toml is.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// The book's configuration file.
    pub(crate) fn book_toml(&self) -> PathBuf {
        self.root.join("book.toml")
    }

    /// The absolute (or root-joined) path of the `src` folder.
    pub(crate) fn src_dir(&self) -> PathBuf {
        self.root.join(&self.src)
    }

    /// How to show a chapter's source path (relative to `src`): [`slashed`], as every shown
    /// path is (SUMMARY.md's `/` and the platform's separator would otherwise mix on Windows).
    pub(crate) fn display_chapter(&self, source_path: &Path) -> PathBuf {
        slashed_path(&self.display_root.join(&self.src).join(source_path))
    }

    /// How to show the folder of book.toml in a sentence: `.` when paths are shown relative.
    pub(crate) fn display_root_folder(&self) -> PathBuf {
        match self.display_root.components().as_path() {
            shown if shown.as_os_str().is_empty() => PathBuf::from("."),
            shown => slashed_path(shown),
        }
    }

    /// How to show any path under the book root (or reached from it by `..`: a source tree
    /// beside the book is shown as `../code/x.go` from the book, `code/x.go` from the
    /// repository's top).
    pub(crate) fn display(&self, path: &Path) -> PathBuf {
        match path.strip_prefix(&self.root) {
            Ok(relative) => slashed_path(&lexical(&self.display_root.join(relative))),
            Err(_) => slashed_path(path),
        }
    }

    /// What mdBook's `links` preprocessor makes of `directive` in the chapter at `chapter_path`.
    fn expand(&self, chapter_path: &Path, directive: &str) -> Option<String> {
        let mut book = Book::new();
        book.push_item(BookItem::Chapter(BookChapter::new(
            "",
            directive.to_owned(),
            chapter_path,
            Vec::new(),
        )));
        let links = self
            .links
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let book = LinkPreprocessor::new().run(&links, book).ok()?;
        book.chapters().next().map(|c| c.content.clone())
    }
}

/// The preprocessors of book.toml that may run before this one: not mdBook's `index` and
/// `links`, not this one, and not one ordered after it (`after = ["contract"]`).
pub(crate) fn external_preprocessors(config: &mdbook_preprocessor::config::Config) -> Vec<String> {
    let Ok(all) = config.preprocessors::<serde_json::Value>() else {
        return Vec::new();
    };
    let after_us = |table: &serde_json::Value| {
        table["after"]
            .as_array()
            .is_some_and(|a| a.iter().any(|n| n == crate::util::vocab::NAME))
    };
    all.into_iter()
        .filter(|(name, table)| {
            !matches!(name.as_str(), "index" | "links" | crate::util::vocab::NAME)
                && !after_us(table)
        })
        .map(|(name, _)| name)
        .collect()
}

/// [`external_preprocessors`] as a reader names them: each in backticks, joined with "or".
fn rewriters(ctx: &PreprocessorContext) -> String {
    external_preprocessors(&ctx.config)
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// One chapter with content, as read.
pub(crate) struct Chapter<'a> {
    /// Its title.
    pub name: &'a str,
    /// The path mdBook renders it at (relative to `src`; `index.md` for a README).
    pub path: Option<&'a Path>,
    /// The file it was read from (relative to `src`).
    pub source_path: Option<&'a Path>,
    /// The source path with `/` separators, as book.toml names chapters.
    pub key: String,
    /// Its content as mdBook handed it over.
    pub content: &'a str,
    /// The one parse of the content (shared with [`Kept`] in the language server).
    pub index: Arc<ChapterIndex>,
    /// Its shortcodes and foreign directives.
    pub scan: Scan,
    map: OnceLock<SourceMap>,
    suppressions: OnceLock<Suppressions>,
}

impl Chapter<'_> {
    /// The map from the content back to the files it was written in.
    pub(crate) fn map(&self, files: &BookFiles) -> &SourceMap {
        self.map
            .get_or_init(|| build_map(self.content, self.path, self.source_path, self.name, files))
    }

    /// Where `range` of the content was written.
    pub(crate) fn locate(&self, files: &BookFiles, range: std::ops::Range<usize>) -> Location {
        self.map(files).locate(self.content, range)
    }

    /// Its `<!-- contract: allow ... -->` comments.
    pub(crate) fn suppressions(&self) -> &Suppressions {
        self.suppressions
            .get_or_init(|| Suppressions::collect(self.content, &self.index))
    }

    /// Gives back what only the checks and the resolution of findings read (most of the index,
    /// the source map, the suppressions); what rendering reads stays (see
    /// [`ChapterIndex::keep_headings_and_tables`]).
    pub(crate) fn release_checked(&mut self) {
        Arc::make_mut(&mut self.index).keep_headings_and_tables();
        self.map = OnceLock::new();
        self.suppressions = OnceLock::new();
    }

    /// The path links are computed from: where the chapter is rendered.
    pub(crate) fn link_path(&self) -> &Path {
        self.path.or(self.source_path).unwrap_or(Path::new(""))
    }
}

fn build_map(
    content: &str,
    path: Option<&Path>,
    source_path: Option<&Path>,
    name: &str,
    files: &BookFiles,
) -> SourceMap {
    let Some(source_path) = source_path else {
        return SourceMap::on_content(
            PathBuf::from(name),
            Some(format!("chapter `{name}` has no source file")),
        );
    };
    let display = files.display_chapter(source_path);
    let absolute = files.src_dir().join(source_path);
    let text = files
        .read(&absolute)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok());
    let base_dir = absolute.parent().map(Path::to_path_buf).unwrap_or_default();
    let chapter_path = path.unwrap_or(source_path).to_path_buf();
    let display_of = |p: &Path| files.display(p);
    let expand = |directive: &str| files.expand(&chapter_path, directive);
    SourceMap::build(
        content,
        ChapterFile {
            display,
            text,
            base_dir: &base_dir,
            display_of: &display_of,
            rewriters: &files.rewriters,
        },
        &expand,
    )
}

/// Reads every chapter of `book` that has content or a path, in document order (see
/// [`crate::util::parallel`]). Tables are recorded only in the chapters that may define axes (see
/// [`ChapterIndex::parse_with`]).
pub(crate) fn read_chapters<'a>(
    book: &'a Book,
    files: &BookFiles,
    options: &MarkdownOptions,
    config: &Config,
) -> Vec<Chapter<'a>> {
    let mut list = Vec::new();
    for item in book.iter() {
        let BookItem::Chapter(chapter) = item else {
            continue;
        };
        if is_read(chapter) {
            list.push(chapter);
        }
    }
    let work = list.iter().map(|chapter| chapter.content.len()).sum();
    crate::util::parallel::map(&list, work, |_, chapter| {
        read_chapter(chapter, files, options, config)
    })
}

/// The keys of the chapters [`read_chapters`] reads, in the same order, without reading them:
/// what book.toml's chapter names are checked against before the chapters are parsed.
pub(crate) fn chapter_keys(book: &Book) -> Vec<String> {
    book.iter()
        .filter_map(|item| match item {
            BookItem::Chapter(chapter) if is_read(chapter) => Some(key_of(chapter)),
            _ => None,
        })
        .collect()
}

/// A chapter's source path with `/` separators, as book.toml names chapters; its name when it
/// has no path.
fn key_of(chapter: &BookChapter) -> String {
    match chapter.source_path.as_deref().or(chapter.path.as_deref()) {
        Some(p) => normalise(&p.to_string_lossy()),
        None => chapter.name.clone(),
    }
}

fn read_chapter<'a>(
    chapter: &'a BookChapter,
    files: &BookFiles,
    options: &MarkdownOptions,
    config: &Config,
) -> Chapter<'a> {
    let path = chapter.path.as_deref();
    let source_path = chapter.source_path.as_deref();
    let key = key_of(chapter);
    let content = chapter.content.as_str();
    let tables = config.may_define_axes(&key);
    let index = match &files.kept {
        Some(kept) => kept.parses.parse(&key, content, options, tables),
        None => Arc::new(ChapterIndex::parse_with(content, options, tables)),
    };
    let map = OnceLock::new();
    let scan = if content.contains("{{") {
        let removed = |offset: usize| {
            map.get_or_init(|| build_map(content, path, source_path, &chapter.name, files))
                .backslash_removed_at(offset)
        };
        shortcode::scan(content, &index, &removed)
    } else {
        Scan::default()
    };
    Chapter {
        name: &chapter.name,
        path,
        source_path,
        key,
        content,
        index,
        scan,
        map,
        suppressions: OnceLock::new(),
    }
}

/// Whether `read_chapters` reads `chapter`: every chapter but a draft without content, which
/// has nothing to read and nothing rendered.
#[cfg_attr(not(feature = "fuzzing"), allow(unreachable_pub))]
pub fn is_read(chapter: &BookChapter) -> bool {
    !(chapter.path.is_none() && chapter.content.is_empty())
}
