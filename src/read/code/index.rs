//! The source tree the documents describe, read once per build.
//!
//! [`SourceIndex::build`] walks `source-root` once (respecting `.gitignore` and `.ignore`),
//! records every file and folder, and searches the symbol files (those `symbol-files` names,
//! by default every file of a language of the table) for all cited words at once with one
//! Aho-Corasick automaton, keeping whole-word matches only. A caller may add patterns of its
//! own ([`Extra`]: the citations of rules, `r[impl `, `r[verify `), searched in the same pass
//! in every text file of the tree but Markdown, and read what they find.
//!
//! A file of a language with a grammar that holds a match is parsed once ([`super::parse`]):
//! a word counts only where it is code (not in a comment or a string), and the caller reads
//! its citations from the comments the tree has. Other files are read as text. Vendored,
//! minified and generated files ([`NotSource`]) are not source: neither words nor citations
//! are looked for in them. Lookups afterwards are hash lookups: no file is read twice and no
//! symbol costs a walk.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use aho_corasick::{AhoCorasick, MatchKind};
use anyhow::{Context as _, Result, bail};
use globset::{GlobSet, GlobSetBuilder};

use super::roots::{Roots, expand_braces, glob, is_glob};
use super::{Lang, Parsed, Spot, SyntaxErrors, Unit, for_path, is_test_file};

/// Which files and folders exist, and which of the wanted words occur in which part of the tree.
#[derive(Debug)]
pub(crate) struct SourceIndex {
    /// Files and folders relative to the root, `/`-separated.
    paths: Vec<String>,
    path_set: HashSet<String>,
    /// Words found as code anywhere in a symbol file.
    found: HashSet<String>,
    /// Words found as code in a symbol file under the shared-layer roots.
    found_in_shared: HashSet<String>,
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
    /// Files and folders that could not be read or walked: the path (relative to the root,
    /// empty when the walk does not say) and why.
    pub(crate) unreadable: Vec<(String, String)>,
}

/// Why a file could not be read, in the system's words without its path or number
/// (`permission denied`).
fn io_why(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::Other => error.to_string(),
        kind => std::io::Error::from(kind).to_string(),
    }
}

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
    /// Walks `root` once and searches the symbol files for `words` and every text file for
    /// the `extra` patterns; gives back the index and what `extra` made of its matches, in
    /// the walk's order.
    pub(crate) fn build<T: Send>(
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
        let mut paths = Vec::new();
        let mut to_scan: Vec<Scanned> = Vec::new();
        let mut reading = Reading::default();
        // `.git` is git's, never source: pruned, not walked entry by entry.
        let walker = ignore::WalkBuilder::new(root)
            .hidden(false)
            .require_git(false)
            .sort_by_file_path(Path::cmp)
            .filter_entry(|entry| entry.depth() == 0 || entry.file_name() != ".git")
            .build();
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                // Said in `status`: a folder that cannot be listed reads as one without code.
                Err(error) => {
                    reading.unreadable.push(walk_error(root, &error));
                    continue;
                }
            };
            let Ok(relative) = entry.path().strip_prefix(root) else {
                continue;
            };
            if relative.as_os_str().is_empty() {
                continue;
            }
            let relative = relative.to_string_lossy().replace('\\', "/");
            let is_file = entry.file_type().is_some_and(|t| t.is_file());
            if is_file && let Some(why) = not_source_by_path(&relative, options.of_the_book) {
                *reading.not_source.entry(why).or_default() += 1;
                paths.push(relative);
                continue;
            }
            let lang = for_path(&relative);
            let symbols = is_file
                && match &symbol_files {
                    Some(globs) => globs.is_match(&relative),
                    None => lang.is_some(),
                };
            // Markdown is documentation, not code: a citation in it is an example (the book
            // itself may lie under `source-root`), as tracey reads it.
            let citing = is_file && extra.is_some() && !is_markdown(&relative);
            let units = is_file && options.units && lang.is_some_and(|l| l.grammar.is_some());
            if symbols || citing || units {
                let size = entry.metadata().map_or(0, |m| m.len());
                to_scan.push(Scanned {
                    path: entry.path().to_path_buf(),
                    relative: relative.clone(),
                    size,
                    lang,
                    in_shared: shared.contains(&relative),
                    symbols,
                    citing,
                });
            }
            paths.push(relative);
        }
        let path_set = paths.iter().cloned().collect();
        let words: Vec<&String> = words.iter().collect();
        let searched = search(&to_scan, &words, extra, options.units)?;
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

impl Reading {
    fn merge(&mut self, other: Reading) {
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
    }
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

/// Whether `data` has a line longer than [`LONGEST_LINE`]: a tool wrote it.
fn has_long_line(data: &[u8]) -> bool {
    if data.len() <= LONGEST_LINE {
        return false;
    }
    let mut last = 0;
    for newline in memchr::memchr_iter(b'\n', data) {
        if newline - last > LONGEST_LINE {
            return true;
        }
        last = newline;
    }
    data.len() - last > LONGEST_LINE
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
    lang: Option<&'static Lang>,
    /// Whether it lies under the shared-layer roots.
    in_shared: bool,
    /// Whether it is a symbol file: cited words are looked up in it.
    symbols: bool,
    /// Whether the extra patterns are searched in it: a text file that is not Markdown.
    citing: bool,
}

/// What [`search`] found.
struct Searched<T> {
    found: HashSet<String>,
    found_in_shared: HashSet<String>,
    made: Vec<T>,
    files_read: usize,
    reading: Reading,
    units: Vec<FileUnits>,
}

/// Where each cited word was found in a file, with the word's index.
type WordHits = Vec<(Range<usize>, usize)>;

/// What reading one file gave.
struct FileRead<T> {
    /// The words found in its code.
    ids: Vec<usize>,
    /// Words found in a file with a grammar that nothing else made parse: whether they are
    /// its code is asked only if no other file's code has them ([`confirm_words`]).
    deferred: WordHits,
    made: Vec<T>,
    read: bool,
    /// How it was read: as code of a language, as text, or not at all (not source).
    as_code: Option<&'static str>,
    not_source: Option<NotSource>,
    errors: Option<(SyntaxErrors, Spot)>,
    units: Option<FileUnits>,
    /// Its language has a grammar, but it is too large to parse: read as text.
    too_large: bool,
    /// Why it could not be read, if it could not.
    unreadable: Option<String>,
}

impl<T> Default for FileRead<T> {
    fn default() -> Self {
        FileRead {
            ids: Vec::new(),
            deferred: Vec::new(),
            made: Vec::new(),
            read: false,
            as_code: None,
            not_source: None,
            errors: None,
            units: None,
            too_large: false,
            unreadable: None,
        }
    }
}

/// A file not matched by `symbol-files` larger than this is data, not source: its citations are
/// not looked for.
const LARGEST_SOURCE: u64 = 8 << 20;

/// The automata of a search: all words and patterns for symbol files, the patterns alone for
/// the others.
struct Automata {
    all: AhoCorasick,
    /// The other files are searched for the extra patterns alone (a much smaller automaton,
    /// which Aho-Corasick's prefilter skips through).
    citations_only: AhoCorasick,
    words: usize,
}

/// Searches `files` for whole-word occurrences of `words` in code (in symbol files) and for the
/// `extra` patterns (in every text file), one file at a time on the thread pool: one automaton,
/// one pass a file, one parse of a file that has a match (of every file with a grammar, for
/// `units`).
fn search<T: Send>(
    files: &[Scanned],
    words: &[&String],
    extra: Option<Extra<'_, T>>,
    units: bool,
) -> Result<Searched<T>> {
    let patterns: &[&str] = extra.as_ref().map_or(&[], |e| e.patterns);
    let mut out = Searched {
        found: HashSet::new(),
        found_in_shared: HashSet::new(),
        made: Vec::new(),
        files_read: 0,
        reading: Reading::default(),
        units: Vec::new(),
    };
    if (words.is_empty() && patterns.is_empty() && !units) || files.is_empty() {
        return Ok(out);
    }
    let automata = Automata {
        all: AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(
                words
                    .iter()
                    .map(|w| w.as_bytes())
                    .chain(patterns.iter().map(|p| p.as_bytes())),
            )
            .context("cannot build the symbol search")?,
        citations_only: AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(patterns)
            .context("cannot build the citation search")?,
        words: words.len(),
    };
    let bytes = files.iter().map(|f| f.size).sum::<u64>();
    let mut per_file = crate::util::parallel::map(
        files,
        usize::try_from(bytes).unwrap_or(usize::MAX),
        |_, file| read_file(file, &automata, extra.as_ref(), units),
    );
    confirm_words(files, &mut per_file);
    for (file, read) in files.iter().zip(per_file) {
        out.files_read += usize::from(read.read);
        if let Some(why) = read.unreadable {
            out.reading.unreadable.push((file.relative.clone(), why));
        }
        if let Some(why) = read.not_source {
            *out.reading.not_source.entry(why).or_default() += 1;
        } else if read.too_large {
            out.reading.too_large.push(file.relative.clone());
        } else if read.read {
            match read.as_code {
                Some(language) => *out.reading.code.entry(language).or_default() += 1,
                None => {
                    *out.reading
                        .text
                        .entry(text_kind(&file.relative))
                        .or_default() += 1
                }
            }
        }
        if let Some((errors, first)) = read.errors {
            out.reading
                .syntax_errors
                .push((file.relative.clone(), errors));
            if !read.ids.is_empty() || !read.made.is_empty() {
                out.reading.errors_where_read.push((first, errors.count));
            }
        }
        for id in read.ids {
            out.found.insert(words[id].clone());
            if file.in_shared {
                out.found_in_shared.insert(words[id].clone());
            }
        }
        out.made.extend(read.made);
        out.units.extend(read.units);
    }
    Ok(out)
}

/// How a file read as text is counted: by its extension, else its name.
fn text_kind(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => format!(".{extension}"),
        _ => name.to_owned(),
    }
}

/// Reads one file: its words found in code, what `extra` makes of its patterns' matches, and
/// its units when asked.
fn read_file<T>(
    file: &Scanned,
    automata: &Automata,
    extra: Option<&Extra<'_, T>>,
    units: bool,
) -> FileRead<T> {
    if !file.symbols && file.size > LARGEST_SOURCE {
        return FileRead::default();
    }
    // An unreadable file is said in `status`: it may hold citations.
    let data = match std::fs::read(&file.path) {
        Ok(data) => data,
        Err(error) => {
            return FileRead {
                unreadable: Some(io_why(&error)),
                ..FileRead::default()
            };
        }
    };
    // A file with a NUL byte in its first 8 KB is binary, as git decides it.
    if !file.symbols && memchr::memchr(0, &data[..data.len().min(8000)]).is_some() {
        return FileRead::default();
    }
    if has_long_line(&data) {
        return FileRead {
            read: true,
            not_source: Some(NotSource::Minified),
            ..FileRead::default()
        };
    }
    let (searcher, offset) = if file.symbols {
        (&automata.all, 0)
    } else {
        (&automata.citations_only, automata.words)
    };
    let mut word_hits: WordHits = Vec::new();
    let mut hits = Vec::new();
    for m in searcher.find_overlapping_iter(&data) {
        let pattern = m.pattern().as_usize() + offset;
        if let Some(extra) = pattern.checked_sub(automata.words) {
            if file.citing {
                hits.push((m.start(), extra));
            }
            continue;
        }
        let before = m.start().checked_sub(1).map(|i| data[i]);
        let after = data.get(m.end()).copied();
        if !before.is_some_and(is_word_byte) && !after.is_some_and(is_word_byte) {
            word_hits.push((m.start()..m.end(), pattern));
        }
    }
    let lang = file.lang.filter(|l| l.grammar.is_some());
    // A file whose only matches are words is parsed later, and only if another file's code
    // does not have them already: most cited names are defined once and used many times.
    if !units && hits.is_empty() && lang.is_some() && data.len() <= super::LARGEST_PARSED {
        return FileRead {
            deferred: word_hits,
            read: true,
            as_code: lang.map(|l| l.name),
            ..FileRead::default()
        };
    }
    let wanted = units || !word_hits.is_empty() || !hits.is_empty();
    let parsed = lang
        .filter(|_| wanted)
        .and_then(|lang| super::parse(lang, &data));
    let ids = names_among(&word_hits, parsed.as_ref());
    let made = match extra {
        Some(extra) if !hits.is_empty() => {
            (extra.read)(&file.relative, &data, &mut hits, parsed.as_ref())
        }
        _ => Vec::new(),
    };
    let as_code = lang
        .filter(|_| parsed.is_some() || (!wanted && data.len() <= super::LARGEST_PARSED))
        .map(|l| l.name);
    let units = match (&parsed, units) {
        (Some(parsed), true) => Some(units_of(file, &data, parsed)),
        _ => None,
    };
    FileRead {
        ids,
        deferred: Vec::new(),
        made,
        read: true,
        as_code,
        not_source: None,
        errors: errors_of(&file.relative, &data, parsed.as_ref()),
        units,
        too_large: lang.is_some() && data.len() > super::LARGEST_PARSED,
        unreadable: None,
    }
}

/// Decides the words of the files read in part ([`FileRead::deferred`]): in rounds, each word
/// not yet found in code (in the shared layer, for a file under it) names its next files to
/// parse, one then two then four; a word found stops naming any. Which files are parsed
/// depends only on the tree, never on timing: the walk's order decides.
fn confirm_words<T>(files: &[Scanned], reads: &mut [FileRead<T>]) {
    let mut found: HashSet<usize> = reads.iter().flat_map(|r| r.ids.iter().copied()).collect();
    let mut found_shared: HashSet<usize> = files
        .iter()
        .zip(reads.iter())
        .filter(|(f, _)| f.in_shared)
        .flat_map(|(_, r)| r.ids.iter().copied())
        .collect();
    let mut budget = 1;
    loop {
        let mut named: HashMap<(usize, bool), usize> = HashMap::new();
        let mut selected: Vec<usize> = Vec::new();
        for (i, (file, read)) in files.iter().zip(reads.iter()).enumerate() {
            let needed =
                read.deferred.iter().map(|(_, id)| *id).filter(|id| {
                    !found.contains(id) || (file.in_shared && !found_shared.contains(id))
                });
            let mut take = false;
            for id in needed {
                let key = (id, file.in_shared && found.contains(&id));
                let count = named.entry(key).or_default();
                if *count < budget {
                    *count += 1;
                    take = true;
                }
            }
            if take {
                selected.push(i);
            }
        }
        if selected.is_empty() {
            return;
        }
        let bytes: u64 = selected.iter().map(|&i| files[i].size).sum();
        let jobs: Vec<(usize, WordHits)> = selected
            .iter()
            .map(|&i| (i, std::mem::take(&mut reads[i].deferred)))
            .collect();
        let confirmed = crate::util::parallel::map(
            &jobs,
            usize::try_from(bytes).unwrap_or(usize::MAX),
            |_, (i, hits)| words_in_code(&files[*i], hits),
        );
        for (&i, (ids, errors)) in selected.iter().zip(confirmed) {
            for &id in &ids {
                found.insert(id);
                if files[i].in_shared {
                    found_shared.insert(id);
                }
            }
            let read = &mut reads[i];
            read.ids = ids;
            read.errors = errors;
        }
        budget *= 2;
    }
}

/// The words of `hits` that are names in the code of `file`, read again and parsed; and its
/// syntax errors.
fn words_in_code(
    file: &Scanned,
    hits: &[(Range<usize>, usize)],
) -> (Vec<usize>, Option<(SyntaxErrors, Spot)>) {
    let Ok(data) = std::fs::read(&file.path) else {
        return (Vec::new(), None);
    };
    let parsed = file.lang.and_then(|lang| super::parse(lang, &data));
    let hits: WordHits = hits
        .iter()
        .filter(|(word, _)| word.end <= data.len())
        .cloned()
        .collect();
    (
        names_among(&hits, parsed.as_ref()),
        errors_of(&file.relative, &data, parsed.as_ref()),
    )
}

/// The syntax errors of a parsed file, with the place of the first.
fn errors_of(path: &str, data: &[u8], parsed: Option<&Parsed<'_>>) -> Option<(SyntaxErrors, Spot)> {
    let errors = parsed?.errors()?;
    let text = data
        .split(|&b| b == b'\n')
        .nth(errors.first_line - 1)
        .unwrap_or_default();
    let before = &text[..errors.first_byte.min(text.len())];
    let spot = Spot {
        path: path.to_owned(),
        line: errors.first_line,
        column: String::from_utf8_lossy(before).chars().count() + 1,
        width: 1,
        line_text: String::from_utf8_lossy(text)
            .trim_end_matches('\r')
            .to_owned(),
    };
    Some((errors, spot))
}

/// The words of `hits` that are names of the code (each asked until one of its places is;
/// every one without a tree), sorted.
fn names_among(hits: &[(Range<usize>, usize)], parsed: Option<&Parsed<'_>>) -> Vec<usize> {
    let mut ids: Vec<usize> = Vec::new();
    for (word, id) in hits {
        if !ids.contains(id) && parsed.is_none_or(|p| p.names(word.clone())) {
            ids.push(*id);
        }
    }
    ids.sort_unstable();
    ids
}

/// The code units of a parsed file, each with the lines it spans (from 1, end exclusive).
fn units_of(file: &Scanned, data: &[u8], parsed: &Parsed<'_>) -> FileUnits {
    let newlines: Vec<usize> = memchr::memchr_iter(b'\n', data).collect();
    let line_of = |at: usize| newlines.partition_point(|&n| n < at) + 1;
    FileUnits {
        path: file.relative.clone(),
        test_file: is_test_file(&file.relative),
        units: parsed
            .code_units()
            .into_iter()
            .map(|u| {
                let lines = line_of(u.range.start)..line_of(u.range.end) + 1;
                (u, lines)
            })
            .collect(),
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
