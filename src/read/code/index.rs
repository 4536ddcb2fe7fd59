//! The source tree the documents describe, as read once per build: which files and folders
//! exist, which cited words are names in its code, how each file was read; and the lookups in
//! it.
//!
//! [`SourceIndex::build`] (in `scan.rs`) walks `source-root` once and hands the files that
//! need reading to `search.rs`, which reads each once; this file holds what they record and
//! the queries the checks ask afterwards, each a hash lookup or a glob over the recorded paths:
//! no file is read twice and no symbol costs a walk.
//!
//! To record something new about the tree, add a field here, fill it in `search.rs` (per file,
//! in [`Reading`] when `status` shows it) and ask it through a method of [`SourceIndex`].

use std::collections::{BTreeMap, HashSet};

use super::roots::{expand_braces, glob, is_glob};
use super::{Parsed, Spot, SyntaxErrors, Unit};

/// Which files and folders exist, and which of the wanted words occur in which part of the tree.
#[derive(Debug)]
pub(crate) struct SourceIndex {
    /// Files and folders relative to the root, `/`-separated.
    pub(super) paths: Vec<String>,
    pub(super) path_set: HashSet<String>,
    /// Words found as code anywhere in a symbol file.
    pub(super) found: HashSet<String>,
    /// Words found as code in a symbol file under the shared-layer roots.
    pub(super) found_in_shared: HashSet<String>,
    /// How many files were read: every text file for the extra patterns, else the symbol
    /// files alone.
    pub(crate) files_read: usize,
    /// How the files read were read, for `status`.
    pub(crate) reading: Reading,
    /// The globs of the symbol files, as messages name them: `symbol-files`, or those of the
    /// languages the tree has.
    pub(crate) symbol_globs: Vec<String>,
    /// With [`Options::units`], every file read as code with its units, in the walk's order.
    pub(crate) units: Vec<FileUnits>,
}

/// How the files of the tree were read, for `status`.
#[derive(Debug, Default, Clone)]
pub(crate) struct Reading {
    /// Files read as code, by language.
    pub(crate) code: BTreeMap<&'static str, usize>,
    /// Files read as text, by extension (`.proto`; a file without one by its name).
    pub(crate) text: BTreeMap<String, usize>,
    /// Files passed over as not source, with why.
    pub(crate) not_source: BTreeMap<NotSource, usize>,
    /// Files parsed with syntax errors the parser recovered from.
    pub(crate) syntax_errors: Vec<(String, SyntaxErrors)>,
    /// Of those, the files where the extra patterns made something (a citation) or a wanted
    /// word was found in code: the first error, and how many there are.
    pub(crate) errors_where_read: Vec<(Spot, usize)>,
    /// Files of a language with a grammar, read as text for their size (over
    /// [`super::LARGEST_PARSED`]).
    pub(crate) too_large: Vec<String>,
    /// Files whose parse the cache answered: unchanged since a run read them.
    pub(crate) from_cache: usize,
    /// Files and folders that could not be read or walked: the path (relative to the root,
    /// empty when the walk does not say) and why.
    pub(crate) unreadable: Vec<(String, String)>,
}

/// Why a file is not source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum NotSource {
    /// Under a `vendor/` or `node_modules/` folder: someone else's code.
    Vendored,
    /// `*.min.js`, or a line longer than [`LONGEST_LINE`]: written by a tool.
    Minified,
    /// The book's own: its `src`, its build folder, its `additional-js` and `additional-css`,
    /// the page script and stylesheet `install` writes, the baseline, book.toml.
    OfTheBook,
}

impl NotSource {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            NotSource::Vendored => "vendored (under vendor/ or node_modules/)",
            NotSource::Minified => "minified (*.min.js, *.min.css, or a line over 4,000 bytes)",
            NotSource::OfTheBook => {
                "the book's own (its src and build folder, book.toml, baseline, scripts and stylesheets)"
            }
        }
    }
}

/// A file read as code, with its units.
#[derive(Debug, Clone)]
pub(crate) struct FileUnits {
    /// Relative to the root, `/`-separated.
    pub(crate) path: String,
    /// Whether the file is a test file by its runners' conventions.
    pub(crate) test_file: bool,
    /// Its code units (not scopes), each with the lines it spans.
    pub(crate) units: Vec<(Unit, std::ops::Range<usize>)>,
}

/// A line longer than this makes a file minified, not source.
pub(crate) const LONGEST_LINE: usize = 4000;

/// How to read the tree.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Options<'o> {
    /// `symbol-files`, when book.toml sets it; else every file of a language of the table.
    pub(crate) symbol_files: Option<&'o [String]>,
    /// Paths under the root (files or folders, `/`-separated) that are the book's own.
    pub(crate) of_the_book: &'o [String],
    /// Parse every file with a grammar and keep its units ([`SourceIndex::units`]), not only
    /// the files with a match.
    pub(crate) units: bool,
}

/// Patterns searched for beside the words, in the same pass, and what to make of a file's
/// matches: `read(path, data, hits, parsed)` gets the file's path relative to the root, its
/// bytes, each match as its start and the index of its pattern, and the file's syntax tree
/// when it was read as code.
pub(crate) struct Extra<'e, T> {
    pub(crate) patterns: &'e [&'e str],
    pub(crate) read: &'e ReadMatches<'e, T>,
}

/// What [`Extra::read`] is: a file's path, its bytes, its matches and its tree to what they
/// mean.
pub(crate) type ReadMatches<'e, T> =
    dyn Fn(&str, &[u8], &mut [(usize, usize)], Option<&Parsed<'_>>) -> Vec<T> + Sync + 'e;

impl SourceIndex {
    /// Whether a file or folder matches `pattern` (a path, or a glob with `*`, `?`, `[..]` or
    /// `{a,b}`).
    pub(crate) fn path_exists(&self, pattern: &str) -> bool {
        !self.paths_matching(pattern).is_empty()
    }

    /// The files and folders that `pattern` names: itself, or what its glob matches (each
    /// alternative of a brace must match one: `internal/provider/{a,b}` names both).
    pub(crate) fn paths_matching(&self, pattern: &str) -> Vec<&str> {
        let pattern = trimmed(pattern);
        if !is_glob(pattern) {
            return self
                .path_set
                .get(pattern)
                .map(String::as_str)
                .into_iter()
                .collect();
        }
        let mut out = Vec::new();
        for alternative in expand_braces(pattern) {
            let Ok(glob) = glob(&alternative) else {
                return Vec::new();
            };
            let matcher = glob.compile_matcher();
            let before = out.len();
            out.extend(
                self.paths
                    .iter()
                    .filter(|p| matcher.is_match(p.as_str()))
                    .map(String::as_str),
            );
            if out.len() == before {
                return Vec::new();
            }
        }
        out
    }

    /// Whether `word` occurs as a whole word in the code of a symbol file.
    pub(crate) fn has_word(&self, word: &str) -> bool {
        self.found.contains(word)
    }

    /// Whether `word` occurs as a whole word in the code of a symbol file under the
    /// shared-layer roots.
    pub(crate) fn has_word_in_shared(&self, word: &str) -> bool {
        self.found_in_shared.contains(word)
    }
}

fn trimmed(pattern: &str) -> &str {
    pattern.trim_start_matches("./").trim_end_matches('/')
}

impl Reading {
    pub(super) fn merge(&mut self, other: Reading) {
        for (k, n) in other.code {
            *self.code.entry(k).or_default() += n;
        }
        for (k, n) in other.text {
            *self.text.entry(k).or_default() += n;
        }
        for (k, n) in other.not_source {
            *self.not_source.entry(k).or_default() += n;
        }
        self.syntax_errors.extend(other.syntax_errors);
        self.errors_where_read.extend(other.errors_where_read);
        self.too_large.extend(other.too_large);
        self.unreadable.extend(other.unreadable);
        self.from_cache += other.from_cache;
    }
}

/// Every part of every symbol, for [`SourceIndex::build`].
pub(crate) fn wanted_words<'a>(symbols: impl Iterator<Item = &'a [&'a str]>) -> HashSet<String> {
    symbols
        .flat_map(|parts| parts.iter().map(|p| (*p).to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::for_path;
    use super::super::roots::Roots;
    use super::*;

    const NONE: Option<Extra<'static, ()>> = None;

    fn go_files() -> Options<'static> {
        static GO: std::sync::LazyLock<Vec<String>> =
            std::sync::LazyLock::new(|| vec!["*.go".to_owned()]);
        Options {
            symbol_files: Some(&GO),
            ..Options::default()
        }
    }

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
            (
                "cmd/main.go",
                "package main\n\nvar _ = WithTimeout\n\n// Commented \"Quoted\"\n",
            ),
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
            "Commented",
            "Quoted",
        ]
        .map(String::from)
        .into();
        let index = SourceIndex::build(dir.path(), go_files(), &roots, &words, NONE)
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
        if for_path("x.go").and_then(|l| l.grammar).is_some() {
            assert!(
                !index.has_word("Commented") && !index.has_word("Quoted"),
                "a word in a comment or a string is no definition"
            );
        } else {
            assert!(
                index.has_word("Commented"),
                "read as text, as before grammars"
            );
        }
        assert!(!index.has_word_in_shared("Sweeper"));
    }

    #[test]
    fn whole_words_only() {
        let dir = tree();
        let words: HashSet<String> = ["Sweep", "swee", "eeper"].map(String::from).into();
        let index = SourceIndex::build(
            dir.path(),
            go_files(),
            &Roots::new(&[]).unwrap(),
            &words,
            NONE,
        )
        .unwrap()
        .0;
        assert!(!index.has_word("swee") && !index.has_word("eeper") && !index.has_word("Sweep"));
    }

    #[test]
    fn a_missing_root_or_a_file_is_an_error() {
        let roots = Roots::new(&[]).unwrap();
        let missing = SourceIndex::build(
            Path::new("/nonexistent/x"),
            Options::default(),
            &roots,
            &HashSet::new(),
            NONE,
        )
        .unwrap_err();
        assert!(format!("{missing:#}").contains("cannot read `/nonexistent/x`"));
        let file = tempfile::NamedTempFile::new().unwrap();
        let error = SourceIndex::build(
            file.path(),
            Options::default(),
            &roots,
            &HashSet::new(),
            NONE,
        )
        .unwrap_err();
        assert!(format!("{error:#}").contains("is not a folder"));
    }
}
