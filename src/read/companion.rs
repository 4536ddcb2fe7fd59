//! Companions: files outside the book that are checked with it (`companions` in book.toml).
//!
//! A repository's README, its agent notes or an architecture page that SUMMARY.md does not
//! list are not chapters, but they link into the book and are edited with it. Each one is read
//! from disk and parsed once, like a chapter; the prose checks that make sense outside a book
//! (`em-dash`, `line-reference`, `dangling-link`) read it through
//! [`crate::checks::Context::texts`]. Its findings are positions in the file as it is, since no
//! preprocessor has touched it. With `changed-since`, [`Companion::changed`] holds the lines
//! that changed (see [`crate::util::git`]) and [`crate::report::resolve`] keeps only findings on them.
//!
//! To check a companion with another check, read it in that check through `Context::texts`;
//! checks about the contract, the template or the providers never read companions.

use std::collections::HashSet;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::Result;

use crate::read::chapter::{BookFiles, Chapter};
use crate::read::config::{Config, Problem};
use crate::read::markdown::{ChapterIndex, MarkdownOptions};
use crate::read::sourcemap::{Location, SourceMap};
use crate::read::suppress::Suppressions;
use crate::util::git::{self, Changed};

/// One companion file, as read.
pub(crate) struct Companion {
    /// Its path as book.toml names it (relative to the book root, `/` separators).
    pub key: String,
    /// Its path on disk (the book root joined with the key).
    pub path: PathBuf,
    /// Its text, without a byte order mark.
    pub content: String,
    /// The one parse of it.
    pub index: ChapterIndex,
    /// With `changed-since`, the lines added or changed since the merge base; `None` when every
    /// line counts.
    pub changed: Option<Changed>,
    map: SourceMap,
    suppressions: OnceLock<Suppressions>,
}

impl Companion {
    /// Where `range` of its text is.
    pub(crate) fn locate(&self, range: Range<usize>) -> Location {
        self.map.locate(&self.content, range)
    }

    /// Its `<!-- contract: allow ... -->` comments.
    pub(crate) fn suppressions(&self) -> &Suppressions {
        self.suppressions
            .get_or_init(|| Suppressions::collect(&self.content, &self.index))
    }

    /// Whether a finding on `line` is reported: every line counts without `changed-since`.
    pub(crate) fn counts_line(&self, line: usize) -> bool {
        self.changed
            .as_ref()
            .is_none_or(|changed| changed.contains(line))
    }

    /// The folder its relative links start in.
    pub(crate) fn folder(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new(""))
    }
}

/// A did-you-mean among the files beside where `key` was looked for, written as `key` is.
fn near_file(key: &str, path: &Path) -> String {
    let Some(entries) = path.parent().and_then(|p| std::fs::read_dir(p).ok()) else {
        return String::new();
    };
    let prefix = key.rfind('/').map_or("", |slash| &key[..=slash]);
    let names: Vec<String> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .map(|name| format!("{prefix}{name}"))
        .collect();
    crate::util::suggest::hint(key, names.iter().map(String::as_str))
}

/// Reads every companion that `config` names. A companion that does not exist, cannot be read
/// or is a chapter of the book is left out and given back as a [`Problem`] at its place in
/// `companions`, so the rest of the book is still checked; a `changed-since` that git cannot
/// answer is an error (checked whole instead, a companion's old lines would fail the build
/// that `changed-since` is there to spare).
pub(crate) fn read_companions(
    config: &Config,
    files: &BookFiles,
    chapters: &[Chapter<'_>],
    options: &MarkdownOptions,
) -> Result<(Vec<Companion>, Vec<Problem>)> {
    let mut seen = HashSet::new();
    let mut companions = Vec::new();
    let mut problems = Vec::new();
    for (i, key) in config.companions.iter().enumerate() {
        if !seen.insert(key.as_str()) {
            continue;
        }
        let at = config.item_at("companions", i);
        match read_one(key, &at, files, chapters, options) {
            Ok(companion) => companions.push(companion),
            Err(problem) => problems.push(problem),
        }
    }
    if let Some(rev) = &config.changed_since
        && !companions.is_empty()
    {
        let base = git::merge_base(files.root(), rev)?;
        for companion in &mut companions {
            companion.changed = Some(git::changed_lines(
                files.root(),
                &base,
                Path::new(&companion.key),
            )?);
        }
    }
    Ok((companions, problems))
}

/// The companion `key` (item `at` of `companions`), or why it is left out.
fn read_one(
    key: &str,
    at: &crate::read::config::KeyPath,
    files: &BookFiles,
    chapters: &[Chapter<'_>],
    options: &MarkdownOptions,
) -> std::result::Result<Companion, Problem> {
    let path = files.root().join(key);
    if let Some(chapter) = chapter_at(files, chapters, &path) {
        return Err(Problem::malformed(
            at.clone(),
            format!(
                "`{at}` is `{key}`, which is the chapter `{chapter}` of the book and is checked as one"
            ),
        ).help("remove it from `companions`"));
    }
    if !files.confinement().holds(&path) {
        return Err(outside(at, key, files));
    }
    let bytes = files
        .read(&path)
        .map_err(|error| unread(key, at, &path, files, &error))?;
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(Problem::malformed(
            at.clone(),
            format!("`{at}` is `{key}`, which is not UTF-8 text"),
        ));
    };
    let content = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    };
    let index = ChapterIndex::parse_with(&content, options, false);
    let map = SourceMap::same_as_file(files.display(&path));
    Ok(Companion {
        key: key.to_owned(),
        path,
        content,
        index,
        changed: None,
        map,
        suppressions: OnceLock::new(),
    })
}

/// Why the companion `key` at `path` could not be read: missing, or unreadable.
fn unread(
    key: &str,
    at: &crate::read::config::KeyPath,
    path: &Path,
    files: &BookFiles,
    error: &std::io::Error,
) -> Problem {
    if error.kind() == std::io::ErrorKind::NotFound {
        return Problem::dangling(
            at.clone(),
            format!(
                "`{at}` is `{key}`, which does not exist: there is no `{key}` in `{}`, the folder of book.toml{}",
                files.display_root_folder().display(),
                near_file(key, path)
            ),
            "companion paths are relative to the folder of book.toml; the other companions and the book are checked without it",
        );
    }
    Problem::dangling(
        at.clone(),
        format!(
            "`{at}` is `{key}`, which cannot be read (`{}`): {error}",
            files.display(path).display()
        ),
        "the other companions and the book are checked without it",
    )
}

/// The problem of a file that book.toml names outside the book's repository: never read, so
/// nothing of it is printed.
pub(crate) fn outside(at: &crate::read::config::KeyPath, key: &str, files: &BookFiles) -> Problem {
    Problem::dangling(
        at.clone(),
        format!(
            "`{at}` is `{key}`, which is outside `{}`, the repository of the book: it is not read",
            files.confinement().root().display()
        ),
        "a book reads only files inside its repository (its folder outside one): move the file into it, or remove the item",
    )
}

/// The chapter (its key) whose file is at `path`, if any.
fn chapter_at<'c>(files: &BookFiles, chapters: &'c [Chapter<'_>], path: &Path) -> Option<&'c str> {
    let src = crate::util::paths::components(&files.src_dir());
    let file = crate::util::paths::components(path);
    let key = file.strip_prefix(src.as_slice())?.join("/");
    chapters
        .iter()
        .find(|c| c.key == key)
        .map(|c| c.key.as_str())
}
