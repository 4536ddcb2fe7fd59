//! The reading of the files the walk picked (`scan.rs`), one file at a time on the thread pool:
//! one pass a file of the automata (`automata.rs`: all cited words and a caller's patterns,
//! whole-word matches of the words only).
//!
//! A file of a language with a grammar that holds a match is parsed once, or what it yields
//! taken from the cache (`yielded.rs`): a word counts only where it is code (not in a comment
//! or a string), and the caller reads its citations from the comments the tree has. Other
//! files are read as text. In the servers, a file unchanged since the last search is not read
//! again (`memo.rs`). A file whose
//! only matches are words is parsed only when no other file's code has them yet
//! ([`confirm_words`], in rounds, the walk's order deciding, never timing).
//!
//! To read something new from each file, add it to [`FileRead`], fill it in [`read_file`] and
//! gather it in [`search`].

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::PathBuf;
use std::time::SystemTime;

use anyhow::Result;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::automata::{Automata, WordHits};
use super::cache::{Cache, Key};
use super::index::{Extra, FileUnits, LONGEST_LINE, NotSource, Reading};
use super::memo::Memo;
use super::yielded::{Ask, Yield, yields};
use super::{Lang, Parsed, Spot, SyntaxErrors, is_test_file};

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

/// A file the search reads.
pub(super) struct Scanned {
    pub(super) path: PathBuf,
    /// Relative to the root, `/`-separated.
    pub(super) relative: String,
    pub(super) size: u64,
    /// When it was last modified, as the walk saw it.
    pub(super) modified: Option<SystemTime>,
    pub(super) lang: Option<&'static Lang>,
    /// Whether it lies under the shared-layer roots.
    pub(super) in_shared: bool,
    /// Whether it is a symbol file: cited words are looked up in it.
    pub(super) symbols: bool,
    /// Whether the extra patterns are searched in it: a text file that is not Markdown.
    pub(super) citing: bool,
}

/// Why a file could not be read, in the system's words without its path or number
/// (`permission denied`).
pub(super) fn io_why(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::Other => error.to_string(),
        kind => std::io::Error::from(kind).to_string(),
    }
}

/// What [`search`] found.
pub(super) struct Searched<T> {
    pub(super) found: HashSet<String>,
    pub(super) found_in_shared: HashSet<String>,
    pub(super) made: Vec<T>,
    pub(super) files_read: usize,
    pub(super) reading: Reading,
    pub(super) units: Vec<FileUnits>,
}

/// What reading one file gave.
#[derive(Clone)]
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
    /// The key of its path and bytes as first read, when its words were deferred and the
    /// cache is on.
    key: Option<Key>,
    /// Whether what its parse yields came from the cache.
    from_cache: bool,
    /// Whether it was parsed or its entry of the cache read.
    yielded: bool,
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
            key: None,
            from_cache: false,
            yielded: false,
        }
    }
}

/// A file not matched by `symbol-files` larger than this is data, not source: its citations are
/// not looked for.
const LARGEST_SOURCE: u64 = 8 << 20;

/// Searches `files` for whole-word occurrences of `words` in code (in symbol files) and for the
/// `extra` patterns (in every text file), one file at a time on the thread pool: one automaton,
/// one pass a file, one parse of a file that has a match (of every file with a grammar, for
/// `units`).
pub(super) fn search<T: Send + Sync + Clone + 'static + Serialize + DeserializeOwned>(
    files: &[Scanned],
    words: &[&String],
    extra: Option<Extra<'_, T>>,
    units: bool,
    cache: &Cache,
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
    let automata = Automata::new(words, patterns)?;
    let bytes = files.iter().map(|f| f.size).sum::<u64>();
    let started = SystemTime::now();
    let what = format!("{words:?}\n{patterns:?}\n{units}");
    let last: Option<Memo<FileRead<T>>> = Memo::last(&what);
    let mut per_file = crate::util::parallel::map(
        files,
        usize::try_from(bytes).unwrap_or(usize::MAX),
        |_, file| {
            let kept = last.as_ref();
            if let Some(mut read) = kept.and_then(|m| m.get(&file.path, file.size, file.modified)) {
                // Nothing parsed: what its parse yields came from memory.
                read.from_cache = read.yielded;
                return read;
            }
            let how = How {
                automata: &automata,
                words,
                extra: extra.as_ref(),
                units,
                cache,
            };
            read_file(file, &how)
        },
    );
    if let Some(mut memo) = Memo::new(what) {
        for (file, read) in files.iter().zip(&per_file) {
            memo.keep(&file.path, file.size, file.modified, started, read);
        }
        memo.save();
    }
    confirm_words(files, &mut per_file, words, cache);
    for (file, read) in files.iter().zip(per_file) {
        gather(&mut out, file, read, words);
    }
    Ok(out)
}

/// Adds what reading `file` gave to `out`.
fn gather<T>(out: &mut Searched<T>, file: &Scanned, read: FileRead<T>, words: &[&String]) {
    out.files_read += usize::from(read.read);
    out.reading.from_cache += usize::from(read.from_cache);
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

/// How a file read as text is counted: by its extension, else its name.
fn text_kind(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => format!(".{extension}"),
        _ => name.to_owned(),
    }
}

/// How the files are read: the automata, this build's cited words, what `extra` makes of its
/// patterns' matches, whether units are asked for, and the cache.
struct How<'a, 'e, T> {
    automata: &'a Automata,
    words: &'a [&'a String],
    extra: Option<&'a Extra<'e, T>>,
    units: bool,
    cache: &'a Cache,
}

/// Reads one file: its words found in code, what `extra` makes of its patterns' matches, and
/// its units when asked.
fn read_file<T: Serialize + DeserializeOwned>(file: &Scanned, how: &How<'_, '_, T>) -> FileRead<T> {
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
    let (word_hits, mut hits) = how.automata.matches(&data, file.symbols, file.citing);
    let lang = file.lang.filter(|l| l.grammar.is_some());
    let units = how.units;
    let parsable = data.len() <= super::LARGEST_PARSED;
    // A file whose only matches are words is parsed later, and only if another file's code
    // does not have them already: most cited names are defined once and used many times.
    if !units && hits.is_empty() && lang.is_some() && parsable {
        return FileRead {
            key: (!word_hits.is_empty())
                .then(|| how.cache.key(&file.relative, &data))
                .flatten(),
            deferred: word_hits,
            read: true,
            as_code: lang.map(|l| l.name),
            ..FileRead::default()
        };
    }
    let wanted = units || !word_hits.is_empty() || !hits.is_empty();
    let mut read = FileRead {
        read: true,
        too_large: lang.is_some() && !parsable,
        ..FileRead::default()
    };
    match lang.filter(|_| wanted && parsable) {
        Some(lang) => {
            let mut ask = Ask {
                words: how.words,
                word_hits: &word_hits,
                hits: &mut hits,
                extra: how.extra,
                units,
            };
            take_yield(&mut read, file, lang, &data, &mut ask, how.cache);
        }
        None => {
            read.ids = names_among(&word_hits, None);
            read.made = match how.extra {
                Some(extra) if !hits.is_empty() => {
                    (extra.read)(&file.relative, &data, &mut hits, None)
                }
                _ => Vec::new(),
            };
            read.as_code = lang.filter(|_| !wanted && parsable).map(|l| l.name);
        }
    }
    read
}

/// Fills `read` with what `file` (its bytes `data`, of `lang`) yields for `ask`.
fn take_yield<T: Serialize + DeserializeOwned>(
    read: &mut FileRead<T>,
    file: &Scanned,
    lang: &'static Lang,
    data: &[u8],
    ask: &mut Ask<'_, '_, T>,
    cache: &Cache,
) {
    let (yielded, from_cache) = yields(cache, &file.relative, lang, data, ask);
    read.ids = yielded.ids(ask);
    read.from_cache = from_cache;
    read.yielded = true;
    read.as_code = yielded.parsed.then_some(lang.name);
    read.errors = yielded.errors;
    read.made = yielded
        .made
        .filter(|_| ask.wants_made())
        .unwrap_or_default();
    read.units = yielded.units.filter(|_| ask.units).map(|units| FileUnits {
        path: file.relative.clone(),
        test_file: is_test_file(&file.relative),
        units,
    });
}

/// Decides the words of the files read in part ([`FileRead::deferred`]): in rounds, each word
/// not yet found in code (in the shared layer, for a file under it) names its next files to
/// parse, one then two then four; a word found stops naming any. Which files are parsed
/// depends only on the tree, never on timing: the walk's order decides.
fn confirm_words<T: Serialize + DeserializeOwned>(
    files: &[Scanned],
    reads: &mut [FileRead<T>],
    words: &[&String],
    cache: &Cache,
) {
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
        let jobs: Vec<(usize, WordHits, Option<Key>)> = selected
            .iter()
            .map(|&i| (i, std::mem::take(&mut reads[i].deferred), reads[i].key))
            .collect();
        let confirmed = crate::util::parallel::map(
            &jobs,
            usize::try_from(bytes).unwrap_or(usize::MAX),
            |_, (i, hits, key)| words_in_code::<T>(&files[*i], hits, *key, words, cache),
        );
        for (&i, (ids, errors, from_cache)) in selected.iter().zip(confirmed) {
            for &id in &ids {
                found.insert(id);
                if files[i].in_shared {
                    found_shared.insert(id);
                }
            }
            let read = &mut reads[i];
            read.ids = ids;
            read.errors = errors;
            read.from_cache = from_cache;
        }
        budget *= 2;
    }
}

/// The words of `hits` that are names in the code of `file`, from the cache by `key` (its path
/// and bytes when first read) or read again and parsed; its syntax errors; and whether they
/// came from the cache.
fn words_in_code<T: Serialize + DeserializeOwned>(
    file: &Scanned,
    hits: &[(Range<usize>, usize)],
    key: Option<Key>,
    words: &[&String],
    cache: &Cache,
) -> (Vec<usize>, Option<(SyntaxErrors, Spot)>, bool) {
    let mut none = [];
    let mut ask: Ask<'_, '_, T> = Ask {
        words,
        word_hits: hits,
        hits: &mut none,
        extra: None,
        units: false,
    };
    if let Some(kept) = key.and_then(|key| cache.get::<Yield<T>>(&key))
        && kept.answers(&ask)
    {
        return (kept.ids(&ask), kept.errors, true);
    }
    let Ok(data) = std::fs::read(&file.path) else {
        return (Vec::new(), None, false);
    };
    let hits: WordHits = hits
        .iter()
        .filter(|(word, _)| word.end <= data.len())
        .cloned()
        .collect();
    let Some(lang) = file.lang.filter(|l| l.grammar.is_some()) else {
        return (names_among(&hits, None), None, false);
    };
    ask.word_hits = &hits;
    let (yielded, from_cache) = yields(cache, &file.relative, lang, &data, &mut ask);
    (yielded.ids(&ask), yielded.errors, from_cache)
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
