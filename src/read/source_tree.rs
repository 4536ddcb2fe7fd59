//! The source tree the documents describe, read once per build.
//!
//! [`SourceIndex::build`] walks `source-root` once (respecting `.gitignore` and `.ignore`),
//! records every file and folder, and searches the files matched by `symbol-files` for all
//! cited words at once with one Aho-Corasick automaton, keeping whole-word matches only. A
//! caller may add patterns of its own ([`Extra`]: the citations of rules, `r[impl `,
//! `r[verify `), searched in the same pass in every text file of the tree, whatever its
//! language (comments look alike across languages), and read what they find. Lookups
//! afterwards are hash lookups: no file is read twice and no symbol costs a walk.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use aho_corasick::{AhoCorasick, MatchKind};
use anyhow::{Context as _, Result, bail};
use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

/// Which files and folders exist, and which of the wanted words occur in which part of the tree.
#[derive(Debug)]
pub(crate) struct SourceIndex {
    /// Files and folders relative to the root, `/`-separated.
    paths: Vec<String>,
    path_set: HashSet<String>,
    /// Words found anywhere in a symbol file.
    found: HashSet<String>,
    /// Words found in a symbol file under the shared-layer roots.
    found_in_shared: HashSet<String>,
    /// How many files were read: every text file for the extra patterns, else the symbol
    /// files alone.
    pub(crate) files_read: usize,
}

/// Patterns searched for beside the words, in the same pass, and what to make of a file's
/// matches: `read(path, data, hits)` gets the file's path relative to the root, its bytes,
/// and each match as its start and the index of its pattern.
pub(crate) struct Extra<'e, T> {
    pub(crate) patterns: &'e [&'e str],
    pub(crate) read: &'e ReadMatches<'e, T>,
}

/// What [`Extra::read`] is: a file's path, its bytes and its matches to what they mean.
pub(crate) type ReadMatches<'e, T> =
    dyn Fn(&str, &[u8], &mut [(usize, usize)]) -> Vec<T> + Sync + 'e;

/// The shared-layer roots: folders (a path and everything under it) or globs.
#[derive(Debug, Clone)]
pub(crate) struct Roots {
    prefixes: Vec<String>,
    globs: GlobSet,
    empty: bool,
}

/// Whether `pattern` is a glob (it has `*`, `?`, `[..]` or `{a,b}`), not a plain path.
pub(crate) fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?', '[', '{'])
}

impl Roots {
    /// Reads roots such as `internal/provider`, `cmd/main.go` or `internal/provider/*.go`.
    pub(crate) fn new(roots: &[String]) -> Result<Roots> {
        let mut prefixes = Vec::new();
        let mut globs = GlobSetBuilder::new();
        for root in roots {
            let root = root.trim_start_matches("./").trim_end_matches('/');
            if is_glob(root) {
                globs.add(glob(root).with_context(|| {
                    format!("`shared-layer` holds `{root}`, which is not a glob")
                })?);
            } else {
                prefixes.push(root.to_owned());
            }
        }
        Ok(Roots {
            prefixes,
            globs: globs.build()?,
            empty: roots.is_empty(),
        })
    }

    /// Whether no root is configured.
    pub(crate) fn is_empty(&self) -> bool {
        self.empty
    }

    /// Whether the repository path `path` lies under one of the roots.
    pub(crate) fn contains(&self, path: &str) -> bool {
        let path = path.trim_start_matches("./").trim_end_matches('/');
        self.prefixes.iter().any(|p| {
            path == p
                || path
                    .strip_prefix(p.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        }) || self.globs.is_match(path)
            || self.prefix_of_glob(path)
    }

    /// A folder that holds files a glob root matches (`internal/provider` for
    /// `internal/provider/*.go`) counts as under the roots too.
    fn prefix_of_glob(&self, path: &str) -> bool {
        !path.is_empty()
            && self.globs.is_match(format!("{path}/x.go"))
            && !path.contains(['*', '{'])
    }
}

fn glob(pattern: &str) -> Result<Glob> {
    Ok(GlobBuilder::new(pattern).literal_separator(true).build()?)
}

impl SourceIndex {
    /// Walks `root` once and searches the files matching `symbol_files` for `words` and for
    /// the `extra` patterns; gives back the index and what `extra` made of its matches, in
    /// the walk's order.
    pub(crate) fn build<T: Send>(
        root: &Path,
        symbol_files: &[String],
        shared: &Roots,
        words: &HashSet<String>,
        extra: Option<Extra<'_, T>>,
    ) -> Result<(SourceIndex, Vec<T>)> {
        let metadata =
            std::fs::metadata(root).with_context(|| format!("cannot read `{}`", root.display()))?;
        if !metadata.is_dir() {
            bail!("`{}` is not a folder", root.display());
        }
        let mut patterns = GlobSetBuilder::new();
        for pattern in symbol_files {
            // A pattern without `/` matches a file name anywhere, as a `.gitignore` line would.
            let pattern = if pattern.contains('/') {
                pattern.clone()
            } else {
                format!("**/{pattern}")
            };
            patterns.add(glob(&pattern).with_context(|| {
                format!("`symbol-files` holds `{pattern}`, which is not a glob")
            })?);
        }
        let patterns = patterns.build()?;

        let mut paths = Vec::new();
        let mut to_scan: Vec<Scanned> = Vec::new();
        let walker = ignore::WalkBuilder::new(root)
            .hidden(false)
            .require_git(false)
            .sort_by_file_path(Path::cmp)
            .build();
        for entry in walker {
            let Ok(entry) = entry else { continue };
            let Ok(relative) = entry.path().strip_prefix(root) else {
                continue;
            };
            if relative.as_os_str().is_empty()
                || relative
                    .components()
                    .next()
                    .is_some_and(|c| c.as_os_str() == ".git")
            {
                continue;
            }
            let relative = relative.to_string_lossy().replace('\\', "/");
            let is_file = entry.file_type().is_some_and(|t| t.is_file());
            let symbols = is_file && patterns.is_match(&relative);
            // Markdown is documentation, not code: a citation in it is an example (the book
            // itself may lie under `source-root`), as tracey reads it.
            let citing = is_file && extra.is_some() && !is_markdown(&relative);
            if symbols || citing {
                let size = entry.metadata().map_or(0, |m| m.len());
                to_scan.push(Scanned {
                    path: entry.path().to_path_buf(),
                    relative: relative.clone(),
                    size,
                    in_shared: shared.contains(&relative),
                    symbols,
                    citing,
                });
            }
            paths.push(relative);
        }
        let path_set = paths.iter().cloned().collect();

        let words: Vec<&String> = words.iter().collect();
        let (found, found_in_shared, extra, files_read) = search(&to_scan, &words, extra)?;
        let index = SourceIndex {
            paths,
            path_set,
            found,
            found_in_shared,
            files_read,
        };
        Ok((index, extra))
    }

    /// Whether a file or folder matches `pattern` (a path, or a glob with `*`, `?`, `[..]` or
    /// `{a,b}`).
    pub(crate) fn path_exists(&self, pattern: &str) -> bool {
        let pattern = pattern.trim_start_matches("./").trim_end_matches('/');
        if !is_glob(pattern) {
            return self.path_set.contains(pattern);
        }
        // Each alternative of a brace must exist: `internal/provider/{a,b}` cites both.
        expand_braces(pattern)
            .iter()
            .all(|alternative| match glob(alternative) {
                Ok(glob) => {
                    let matcher = glob.compile_matcher();
                    self.paths.iter().any(|p| matcher.is_match(p))
                }
                Err(_) => false,
            })
    }

    /// Whether `word` occurs as a whole word in a symbol file.
    pub(crate) fn has_word(&self, word: &str) -> bool {
        self.found.contains(word)
    }

    /// Whether `word` occurs as a whole word in a symbol file under the shared-layer roots.
    pub(crate) fn has_word_in_shared(&self, word: &str) -> bool {
        self.found_in_shared.contains(word)
    }
}

/// `a/{b,c}/{d,e}` as its four alternatives; a pattern without braces as itself.
fn expand_braces(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_owned()];
    };
    let Some(close) = pattern[open..].find('}').map(|i| open + i) else {
        return vec![pattern.to_owned()];
    };
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    pattern[open + 1..close]
        .split(',')
        .flat_map(|choice| expand_braces(&format!("{head}{choice}{tail}")))
        .collect()
}

fn is_markdown(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".markdown")
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// A file the search reads.
struct Scanned {
    path: PathBuf,
    /// Relative to the root, `/`-separated.
    relative: String,
    size: u64,
    /// Whether it lies under the shared-layer roots.
    in_shared: bool,
    /// Whether `symbol-files` matches it: cited words are looked up in it.
    symbols: bool,
    /// Whether the extra patterns are searched in it: a text file that is not Markdown.
    citing: bool,
}

/// The wanted words found in any symbol file, those found in one under the shared-layer
/// roots, what the extra patterns' reader made of their matches, and how many files were read.
type Found<T> = (HashSet<String>, HashSet<String>, Vec<T>, usize);

/// A file not matched by `symbol-files` larger than this is data, not source: its citations are
/// not looked for.
const LARGEST_SOURCE: u64 = 8 << 20;

/// Searches `files` for whole-word occurrences of `words` (in symbol files) and for the
/// `extra` patterns (in every text file), one file at a time on the thread pool: one automaton,
/// one pass a file.
fn search<T: Send>(
    files: &[Scanned],
    words: &[&String],
    extra: Option<Extra<'_, T>>,
) -> Result<Found<T>> {
    let patterns: &[&str] = extra.as_ref().map_or(&[], |e| e.patterns);
    if (words.is_empty() && patterns.is_empty()) || files.is_empty() {
        return Ok((HashSet::new(), HashSet::new(), Vec::new(), 0));
    }
    let automaton = AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .build(
            words
                .iter()
                .map(|w| w.as_bytes())
                .chain(patterns.iter().map(|p| p.as_bytes())),
        )
        .context("cannot build the symbol search")?;
    // The other files are searched for the extra patterns alone (a much smaller automaton,
    // which Aho-Corasick's prefilter skips through).
    let citations_only = AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .build(patterns)
        .context("cannot build the citation search")?;
    let bytes = files.iter().map(|f| f.size).sum::<u64>();
    let per_file = crate::util::parallel::map(
        files,
        usize::try_from(bytes).unwrap_or(usize::MAX),
        |_, file| {
            if !file.symbols && file.size > LARGEST_SOURCE {
                return (Vec::new(), Vec::new(), false);
            }
            // Unreadable files are skipped: they cannot hold a symbol we could show.
            let Ok(data) = std::fs::read(&file.path) else {
                return (Vec::new(), Vec::new(), false);
            };
            // A file with a NUL byte in its first 8 KB is binary, as git decides it.
            if !file.symbols && memchr::memchr(0, &data[..data.len().min(8000)]).is_some() {
                return (Vec::new(), Vec::new(), false);
            }
            let (searcher, offset) = if file.symbols {
                (&automaton, 0)
            } else {
                (&citations_only, words.len())
            };
            let mut ids = Vec::new();
            let mut hits = Vec::new();
            for m in searcher.find_overlapping_iter(&data) {
                let pattern = m.pattern().as_usize() + offset;
                if let Some(extra) = pattern.checked_sub(words.len()) {
                    hits.push((m.start(), extra));
                    continue;
                }
                let before = m.start().checked_sub(1).map(|i| data[i]);
                let after = data.get(m.end()).copied();
                if !before.is_some_and(is_word_byte) && !after.is_some_and(is_word_byte) {
                    ids.push(pattern);
                }
            }
            ids.sort_unstable();
            ids.dedup();
            let made = match &extra {
                Some(extra) if file.citing && !hits.is_empty() => {
                    (extra.read)(&file.relative, &data, &mut hits)
                }
                _ => Vec::new(),
            };
            (ids, made, true)
        },
    );
    let mut found = HashSet::new();
    let mut found_in_shared = HashSet::new();
    let mut made = Vec::new();
    let mut read = 0;
    for (file, (ids, extra, was_read)) in files.iter().zip(per_file) {
        read += usize::from(was_read);
        for id in ids {
            found.insert(words[id].clone());
            if file.in_shared {
                found_in_shared.insert(words[id].clone());
            }
        }
        made.extend(extra);
    }
    Ok((found, found_in_shared, made, read))
}

/// Every part of every symbol, for [`SourceIndex::build`].
pub(crate) fn wanted_words<'a>(symbols: impl Iterator<Item = &'a [&'a str]>) -> HashSet<String> {
    symbols
        .flat_map(|parts| parts.iter().map(|p| (*p).to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: Option<Extra<'static, ()>> = None;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let files = [
            (
                "internal/gc/gc.go",
                "package gc\n\ntype Sweeper struct{}\n\nfunc (s *Sweeper) sweep() {}\n",
            ),
            (
                "internal/provider/provider.go",
                "package provider\n\ntype Checker interface{}\n",
            ),
            ("cmd/main.go", "package main\n// WithTimeout\n"),
            ("ignored/skip.go", "package skip\nfunc Hidden() {}\n"),
            ("docs/readme.md", "Sweeperish text\n"),
            (".gitignore", "ignored/\n"),
        ];
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn paths_words_and_roots() {
        let dir = tree();
        let roots = Roots::new(&["internal/provider".into(), "cmd/main.go".into()]).unwrap();
        let words: HashSet<String> = [
            "Sweeper",
            "sweep",
            "Checker",
            "Hidden",
            "Sweeperish",
            "WithTimeout",
        ]
        .map(String::from)
        .into();
        let index = SourceIndex::build(dir.path(), &["*.go".into()], &roots, &words, NONE)
            .unwrap()
            .0;
        assert!(index.path_exists("internal/gc/gc.go"));
        assert!(index.path_exists("internal/gc"));
        assert!(index.path_exists("internal/*/gc.go"));
        assert!(index.path_exists("internal/{gc,provider}"));
        assert!(!index.path_exists("internal/{gc,nope}"));
        assert!(!index.path_exists("internal/gc/gc.go.bak"));
        assert!(
            !index.path_exists("ignored/skip.go"),
            "gitignored files are not indexed"
        );
        assert!(index.has_word("Sweeper") && index.has_word("sweep") && index.has_word("Checker"));
        assert!(!index.has_word("Hidden"), "gitignored");
        assert!(
            !index.has_word("Sweeperish"),
            "markdown is not a symbol file"
        );
        assert!(index.has_word_in_shared("Checker") && index.has_word_in_shared("WithTimeout"));
        assert!(!index.has_word_in_shared("Sweeper"));
    }

    #[test]
    fn whole_words_only() {
        let dir = tree();
        let words: HashSet<String> = ["Sweep", "swee", "eeper"].map(String::from).into();
        let index = SourceIndex::build(
            dir.path(),
            &["*.go".into()],
            &Roots::new(&[]).unwrap(),
            &words,
            NONE,
        )
        .unwrap()
        .0;
        assert!(!index.has_word("swee") && !index.has_word("eeper") && !index.has_word("Sweep"));
    }

    #[test]
    fn roots_match_folders_files_and_globs() {
        let roots = Roots::new(&["internal/provider/*.go".into(), "internal/gc".into()]).unwrap();
        assert!(roots.contains("internal/provider/provider.go"));
        assert!(roots.contains("internal/provider"));
        assert!(!roots.contains("internal/provider/kvm/kvm.go"));
        assert!(roots.contains("internal/gc/gc.go"));
        assert!(!roots.contains("internal/gcx"));
    }

    #[test]
    fn a_missing_root_or_a_file_is_an_error() {
        let roots = Roots::new(&[]).unwrap();
        let missing = SourceIndex::build(
            Path::new("/nonexistent/x"),
            &[],
            &roots,
            &HashSet::new(),
            NONE,
        )
        .unwrap_err();
        assert!(format!("{missing:#}").contains("cannot read `/nonexistent/x`"));
        let file = tempfile::NamedTempFile::new().unwrap();
        let error =
            SourceIndex::build(file.path(), &[], &roots, &HashSet::new(), NONE).unwrap_err();
        assert!(format!("{error:#}").contains("is not a folder"));
    }
}
