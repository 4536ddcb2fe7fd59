//! The walk of the source tree: [`SourceIndex::build`] walks `source-root` once (respecting
//! `.gitignore` and `.ignore`, `.git` pruned), records every file and folder, and picks the
//! files to read: the symbol files (those `symbol-files` names, by default every file of a
//! language of the table), for the cited words; every text file but Markdown, for a caller's
//! extra patterns ([`Extra`]: the citations of rules); every file with a grammar, when the
//! units are asked for. Vendored, minified and the book's own files ([`NotSource`]) are not
//! source: neither words nor citations are looked for in them.
//!
//! To leave a new kind of file out of the source, give [`NotSource`] a variant and decide it in
//! [`not_source_by_path`] (by its path) or in `search.rs` (by its bytes).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context as _, Result, bail};
use globset::{GlobSet, GlobSetBuilder};

use super::for_path;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::cache::Cache;
use super::index::{Extra, NotSource, Options, Reading, SourceIndex};
use super::roots::{Roots, glob};
use super::search::{Scanned, io_why, search};

/// A walk error as a path under `root` and why.
fn walk_error(root: &Path, error: &ignore::Error) -> (String, String) {
    let mut error = error;
    let mut path = String::new();
    loop {
        match error {
            ignore::Error::WithPath { path: at, err } => {
                let at = at.strip_prefix(root).unwrap_or(at);
                path = at.to_string_lossy().replace('\\', "/");
                error = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                error = err;
            }
            // The path is said apart: the system's words alone (`permission denied`).
            ignore::Error::Io(io) => return (path, io_why(io)),
            _ => return (path, error.to_string()),
        }
    }
}

impl SourceIndex {
    /// Walks `root` once and searches the symbol files for `words` and every text file for
    /// the `extra` patterns; gives back the index and what `extra` made of its matches, in
    /// the walk's order.
    pub(crate) fn build<T: Send + Sync + Clone + 'static + Serialize + DeserializeOwned>(
        root: &Path,
        options: Options<'_>,
        shared: &Roots,
        words: &HashSet<String>,
        extra: Option<Extra<'_, T>>,
    ) -> Result<(SourceIndex, Vec<T>)> {
        let metadata =
            std::fs::metadata(root).with_context(|| format!("cannot read `{}`", root.display()))?;
        if !metadata.is_dir() {
            bail!("`{}` is not a folder", root.display());
        }
        let symbol_files = options.symbol_files.map(symbol_globs).transpose()?;
        let Walked {
            paths,
            to_scan,
            mut reading,
        } = walk(
            root,
            options,
            shared,
            symbol_files.as_ref(),
            extra.is_some(),
        );
        let path_set = paths.iter().cloned().collect();
        // In one order whatever the set's: a search's reads are kept for the next by it.
        let mut words: Vec<&String> = words.iter().collect();
        words.sort_unstable();
        let patterns: &[&str] = extra.as_ref().map_or(&[], |e| e.patterns);
        let cache = Cache::open(root, &settings(patterns));
        let searched = search(&to_scan, &words, extra, options.units, &cache)?;
        cache.save();
        reading.merge(searched.reading);
        let symbol_globs = match options.symbol_files {
            Some(globs) => globs.to_vec(),
            None => languages_read(&to_scan),
        };
        let index = SourceIndex {
            paths,
            path_set,
            found: searched.found,
            found_in_shared: searched.found_in_shared,
            files_read: searched.files_read,
            reading,
            symbol_globs,
            units: searched.units,
        };
        Ok((index, searched.made))
    }
}

/// Everything but a file's path and bytes that changes what its parse yields, for the cache:
/// the tool's version and build (its program's size and time, so that a rebuild of the same
/// version reads nothing an older build kept), the grammars compiled in, and the caller's
/// patterns.
fn settings(patterns: &[&str]) -> String {
    let program = std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| {
            let time = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            format!("{} {time}", m.len())
        })
        .unwrap_or_default();
    let grammars: Vec<&str> = super::languages::LANGUAGES
        .iter()
        .filter(|l| l.grammar.is_some())
        .map(|l| l.name)
        .collect();
    format!(
        "{} {program}\n{}\n{}",
        env!("CARGO_PKG_VERSION"),
        grammars.join(","),
        patterns.join("\n")
    )
}

/// What the walk found: every file and folder, the files to read, and what it could not walk.
struct Walked {
    paths: Vec<String>,
    to_scan: Vec<Scanned>,
    reading: Reading,
}

/// What the walk makes of one entry of the tree.
enum Entry {
    /// A folder, or a file nothing is looked for in.
    Plain,
    /// A file that is not source, with why.
    NotSource(NotSource),
    /// A file to read.
    Read(Scanned),
}

/// What decides what the walk makes of an entry.
struct Judge<'a> {
    root: &'a Path,
    options: Options<'a>,
    shared: &'a Roots,
    symbol_files: Option<&'a GlobSet>,
    citing_wanted: bool,
}

/// Walks `root` once on as many threads as the pool has (`.gitignore` and `.ignore` respected,
/// `.git` pruned), then puts every file and folder in the order of their paths, as a walk
/// that lists each folder sorted would: the order never depends on the threads. Gives the
/// files to read for the words (the symbol files), the extra patterns (`citing_wanted`: every
/// text file but Markdown) or the units.
fn walk(
    root: &Path,
    options: Options<'_>,
    shared: &Roots,
    symbol_files: Option<&GlobSet>,
    citing_wanted: bool,
) -> Walked {
    let judge = Judge {
        root,
        options,
        shared,
        symbol_files,
        citing_wanted,
    };
    let found: Mutex<Vec<(PathBuf, String, Entry)>> = Mutex::new(Vec::new());
    let errors: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
    // `.git` is git's, never source: pruned, not walked entry by entry.
    ignore::WalkBuilder::new(root)
        .hidden(false)
        .require_git(false)
        .threads(crate::util::parallel::threads())
        .filter_entry(|entry| entry.depth() == 0 || entry.file_name() != ".git")
        .build_parallel()
        .run(|| {
            Box::new(|entry| {
                match entry {
                    Ok(entry) => {
                        if let Some(judged) = judge.entry(&entry) {
                            lock(&found).push(judged);
                        }
                    }
                    // Said in `status`: a folder that cannot be listed reads as one without
                    // code.
                    Err(error) => lock(&errors).push(walk_error(root, &error)),
                }
                ignore::WalkState::Continue
            })
        });
    let mut found = found.into_inner().unwrap_or_else(|e| e.into_inner());
    found.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut reading = Reading {
        unreadable: errors.into_inner().unwrap_or_else(|e| e.into_inner()),
        ..Reading::default()
    };
    reading.unreadable.sort();
    let mut paths = Vec::with_capacity(found.len());
    let mut to_scan = Vec::new();
    for (_, relative, entry) in found {
        match entry {
            Entry::Plain => {}
            Entry::NotSource(why) => *reading.not_source.entry(why).or_default() += 1,
            Entry::Read(scanned) => to_scan.push(scanned),
        }
        paths.push(relative);
    }
    Walked {
        paths,
        to_scan,
        reading,
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Judge<'_> {
    /// What the walk makes of `entry`: its path, its path relative to the root, and what it
    /// is; `None` for the root itself.
    fn entry(&self, entry: &ignore::DirEntry) -> Option<(PathBuf, String, Entry)> {
        let relative = entry.path().strip_prefix(self.root).ok()?;
        if relative.as_os_str().is_empty() {
            return None;
        }
        let path = relative.to_path_buf();
        let relative = relative.to_string_lossy().replace('\\', "/");
        let is_file = entry.file_type().is_some_and(|t| t.is_file());
        if !is_file {
            return Some((path, relative, Entry::Plain));
        }
        if let Some(why) = not_source_by_path(&relative, self.options.of_the_book) {
            return Some((path, relative, Entry::NotSource(why)));
        }
        let lang = for_path(&relative);
        let symbols = match self.symbol_files {
            Some(globs) => globs.is_match(&relative),
            None => lang.is_some(),
        };
        // Markdown is documentation, not code: a citation in it is an example (the book
        // itself may lie under `source-root`), as tracey reads it.
        let citing = self.citing_wanted && !is_markdown(&relative);
        let units = self.options.units && lang.is_some_and(|l| l.grammar.is_some());
        if !(symbols || citing || units) {
            return Some((path, relative, Entry::Plain));
        }
        let metadata = entry.metadata().ok();
        let scanned = Scanned {
            path: entry.path().to_path_buf(),
            relative: relative.clone(),
            size: metadata.as_ref().map_or(0, |m| m.len()),
            modified: metadata.and_then(|m| m.modified().ok()),
            lang,
            in_shared: self.shared.contains(&relative),
            symbols,
            citing,
        };
        Some((path, relative, Entry::Read(scanned)))
    }
}

/// `symbol-files` compiled: a pattern without `/` matches a file name anywhere, as a
/// `.gitignore` line would.
fn symbol_globs(patterns: &[String]) -> Result<GlobSet> {
    let mut set = GlobSetBuilder::new();
    for pattern in patterns {
        let pattern = if pattern.contains('/') {
            pattern.clone()
        } else {
            format!("**/{pattern}")
        };
        set.add(
            glob(&pattern).with_context(|| {
                format!("`symbol-files` holds `{pattern}`, which is not a glob")
            })?,
        );
    }
    Ok(set.build()?)
}

/// The globs of the languages of the files to read, in the table's order: what the default
/// of `symbol-files` was for this tree.
fn languages_read(files: &[Scanned]) -> Vec<String> {
    let mut globs: Vec<String> = Vec::new();
    for lang in super::languages::LANGUAGES.iter() {
        if files
            .iter()
            .any(|f| f.lang.is_some_and(|l| std::ptr::eq(l, lang)))
        {
            globs.extend(lang.globs());
        }
    }
    globs
}

/// Why the file at `path` is not source by its path alone, if it is not.
fn not_source_by_path(path: &str, of_the_book: &[String]) -> Option<NotSource> {
    let under = |folder: &str| path == folder || path.starts_with(&format!("{folder}/"));
    if of_the_book.iter().any(|p| under(p)) {
        return Some(NotSource::OfTheBook);
    }
    let mut parts = path.split('/');
    let name = parts.next_back().unwrap_or(path);
    if parts.any(|folder| folder == "vendor" || folder == "node_modules") {
        return Some(NotSource::Vendored);
    }
    let lower = name.to_ascii_lowercase();
    [".min.js", ".min.mjs", ".min.css"]
        .iter()
        .any(|suffix| lower.ends_with(suffix))
        .then_some(NotSource::Minified)
}

fn is_markdown(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".markdown")
}
