//! What a file of the source tree yields once parsed, kept across runs by its content: a second
//! build parses only the files that changed.
//!
//! An entry is found by the SHA-256 of the file's path (relative to `source-root`) and bytes;
//! what is kept with it is [`super::yielded::Yield`] (its citations, the tests around them,
//! which cited words are names of its code, its syntax errors, its units). Everything else
//! that changes what a parse yields is in the cache file's first line ([`Cache::open`]'s
//! `settings`: the tool's version and build, the grammars compiled in, the caller's patterns);
//! a file whose first line differs, or that cannot be read as a cache, is ignored and
//! replaced, never an error.
//!
//! Where it lives: in the repository's git directory (`.git/mdbook-contract/`, the common one
//! for a linked worktree), else in the user's cache folder (`$XDG_CACHE_HOME` or `~/.cache`,
//! `~/Library/Caches`, `%LOCALAPPDATA%`); never in the work tree, where a user could commit
//! it. One file per settings, whatever the tree: an entry's key is the path from `source-root`,
//! so a checkout elsewhere (`diff`'s) reads the same entries. Bounded ([`LARGEST`] bytes a file,
//! [`FILES`] files in the folder, the oldest removed first). It is written to a temporary file in the same folder
//! and renamed over the old one, so two builds at once each read a whole cache (the last
//! rename wins); a symlink where the folder or the file should be turns the cache off, so no
//! write follows one.
//!
//! `--no-cache` ([`turn_off`]) and `MDBOOK_CONTRACT_NO_CACHE=1` turn it off: nothing is read
//! or written. To keep something new, add it to `Yield` (an entry without it is then made
//! again: `#[serde(default)]` keeps old entries readable only where a default is right).

use std::collections::{HashMap, HashSet};
use std::io::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

/// The environment variable that turns the cache off (any value but empty or `0`).
pub(crate) const ENV: &str = "MDBOOK_CONTRACT_NO_CACHE";

/// The most bytes a cache file keeps: the entries of this run first, then older ones.
const LARGEST: usize = 64 << 20;

/// The most cache files a folder keeps (source trees and settings), the oldest removed first.
const FILES: usize = 16;

/// The form of the file; a change of form is a change of its first line.
const FORM: &str = "mdbook-contract source cache 1";

static OFF: AtomicBool = AtomicBool::new(false);

/// Turns the cache off for this process (`--no-cache`).
pub(crate) fn turn_off() {
    OFF.store(true, Ordering::Relaxed);
}

/// Whether the cache is off: `--no-cache`, or the environment variable.
fn is_off() -> bool {
    OFF.load(Ordering::Relaxed) || std::env::var_os(ENV).is_some_and(|v| !v.is_empty() && v != "0")
}

/// An entry's key: the SHA-256 of a file's path and bytes.
pub(super) type Key = [u8; 32];

/// A cache file as read: its text, each entry's JSON a range of it.
#[derive(Debug, Default)]
struct Kept {
    text: String,
    entries: HashMap<Key, Range<usize>>,
}

/// The cache of one source tree: what the last runs kept, and what this one adds.
#[derive(Debug, Default)]
pub(crate) struct Cache {
    /// Where it is read from and written to; `None` when off.
    file: Option<PathBuf>,
    header: String,
    /// The file as read, at the first question (a reload whose files all come from memory
    /// reads none).
    kept: OnceLock<Kept>,
    /// Entries this run made or changed, as JSON.
    fresh: Mutex<HashMap<Key, String>>,
    /// Entries this run read.
    used: Mutex<HashSet<Key>>,
}

impl Cache {
    /// The cache of the tree at `root` for `settings`, or one that keeps nothing when it is
    /// off or has no place.
    pub(crate) fn open(root: &Path, settings: &str) -> Cache {
        if is_off() {
            return Cache::default();
        }
        let Some(folder) = folder(root) else {
            return Cache::default();
        };
        let name = hex(&digest(&[settings.as_bytes()]));
        let header = format!("{FORM} {name}");
        let file = folder.join(format!("{}.cache", &name[..32]));
        Cache {
            file: Some(file),
            header,
            ..Cache::default()
        }
    }

    /// The file as read: empty when it is missing, not a file, of another version or corrupt.
    fn kept(&self) -> &Kept {
        self.kept.get_or_init(|| {
            let Some(file) = self.file.as_ref() else {
                return Kept::default();
            };
            let is_file = std::fs::symlink_metadata(file).is_ok_and(|m| m.file_type().is_file());
            is_file
                .then(|| std::fs::read_to_string(file).ok())
                .flatten()
                .and_then(|text| parsed(&self.header, text))
                .map(|(text, entries)| Kept { text, entries })
                .unwrap_or_default()
        })
    }

    /// The key of a file's `path` and `data`, or `None` when the cache is off.
    pub(super) fn key(&self, path: &str, data: &[u8]) -> Option<Key> {
        self.file.as_ref()?;
        Some(digest(&[path.as_bytes(), b"\0", data]))
    }

    /// What is kept for `key`, if anything can be read of it.
    pub(super) fn get<V: DeserializeOwned>(&self, key: &Key) -> Option<V> {
        if let Some(json) = lock(&self.fresh).get(key) {
            return serde_json::from_str(json).ok();
        }
        let kept = self.kept();
        let range = kept.entries.get(key)?;
        let value = serde_json::from_str(&kept.text[range.clone()]).ok()?;
        lock(&self.used).insert(*key);
        Some(value)
    }

    /// Keeps `value` for `key`.
    pub(super) fn put<V: Serialize>(&self, key: Key, value: &V) {
        if let Ok(json) = serde_json::to_string(value) {
            lock(&self.fresh).insert(key, json);
        }
    }

    /// Writes the cache when this run added to it: its fresh entries, the ones it used, then
    /// the older ones while under [`LARGEST`]. A cache that cannot be written is no failure.
    pub(crate) fn save(self) {
        let Some(file) = self.file.as_ref() else {
            return;
        };
        let fresh = std::mem::take(&mut *lock(&self.fresh));
        if fresh.is_empty() {
            return;
        }
        let used = std::mem::take(&mut *lock(&self.used));
        // What older runs kept is written after this run's entries.
        let kept = self.kept();
        let mut out = format!("{}\n", self.header);
        let line = |key: &Key, json: &str, out: &mut String| {
            if out.len() + json.len() + 66 <= LARGEST {
                out.push_str(&hex(key));
                out.push(' ');
                out.push_str(json);
                out.push('\n');
            }
        };
        let mut fresh: Vec<(Key, String)> = fresh.into_iter().collect();
        fresh.sort_unstable();
        for (key, json) in &fresh {
            line(key, json, &mut out);
        }
        let mut older: Vec<(&Key, &Range<usize>)> = kept
            .entries
            .iter()
            .filter(|(k, _)| fresh.binary_search_by(|(f, _)| f.cmp(k)).is_err())
            .collect();
        older.sort_by_key(|(k, r)| (!used.contains(*k), r.start));
        for (key, range) in older {
            line(key, &kept.text[range.clone()], &mut out);
        }
        let _ = write(file, out.as_bytes());
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The entries of a cache file's `text`, if its first line is `header` and every other line a
/// key and a value; else it is another version's or corrupt, and ignored.
fn parsed(header: &str, text: String) -> Option<(String, HashMap<Key, Range<usize>>)> {
    let body = text.strip_prefix(header)?.strip_prefix('\n')?;
    let mut entries = HashMap::new();
    let mut at = text.len() - body.len();
    for line in body.split_inclusive('\n') {
        let content = line.strip_suffix('\n')?;
        let (key, json) = content.split_once(' ')?;
        let key = unhex(key)?;
        let start = at + key_len() + 1;
        entries.insert(key, start..start + json.len());
        at += line.len();
    }
    Some((text, entries))
}

const fn key_len() -> usize {
    64
}

/// Writes `data` to `file` through a temporary file renamed over it, then removes the oldest
/// cache files of its folder past [`FILES`].
fn write(file: &Path, data: &[u8]) -> std::io::Result<()> {
    let folder = file.parent().unwrap_or(Path::new("."));
    let mut temporary = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(folder)?;
    temporary.write_all(data)?;
    temporary.persist(file).map_err(|e| e.error)?;
    let mut caches: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(folder)?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let path = entry.path();
            let metadata = entry.metadata().ok()?;
            (is_cache_name(&path) && metadata.is_file())
                .then(|| Some((metadata.modified().ok()?, path)))?
        })
        .collect();
    if caches.len() > FILES {
        caches.sort();
        for (_, path) in &caches[..caches.len() - FILES] {
            let _ = std::fs::remove_file(path);
        }
    }
    Ok(())
}

/// The cache's folder for the tree at `root` (made when missing); `None` when there is no
/// place, or a symlink stands where the folder should be.
fn folder(root: &Path) -> Option<PathBuf> {
    let tree = std::fs::canonicalize(root).ok()?;
    let base = git_dir(&tree).or_else(user_cache)?.join("mdbook-contract");
    match std::fs::symlink_metadata(&base) {
        Ok(metadata) if metadata.is_dir() => {}
        Ok(_) => return None,
        Err(_) => std::fs::create_dir(&base).ok()?,
    }
    Some(base)
}

/// The git directory of the repository that holds `tree` (the common one of a linked
/// worktree), if it looks like one: the nearest `.git` at or above it, a folder or a file
/// that names one (`gitdir: PATH`), never a symlink.
fn git_dir(tree: &Path) -> Option<PathBuf> {
    let dot_git = tree
        .ancestors()
        .map(|folder| folder.join(".git"))
        .find(|path| std::fs::symlink_metadata(path).is_ok())?;
    let metadata = std::fs::symlink_metadata(&dot_git).ok()?;
    let dir = if metadata.is_dir() {
        dot_git
    } else if metadata.is_file() {
        let text = std::fs::read_to_string(&dot_git).ok()?;
        let named = text.strip_prefix("gitdir:")?.trim();
        dot_git.parent()?.join(named)
    } else {
        return None;
    };
    let common = match std::fs::read_to_string(dir.join("commondir")) {
        Ok(common) => dir.join(common.trim()),
        Err(_) => dir,
    };
    let common = std::fs::canonicalize(common).ok()?;
    (common.join("HEAD").is_file() && common.join("objects").is_dir()).then_some(common)
}

/// The user's cache folder (made when missing), which the tool's own folder goes in.
fn user_cache() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let base = if cfg!(windows) {
        var("LOCALAPPDATA")?
    } else if cfg!(target_os = "macos") {
        var("HOME")?.join("Library").join("Caches")
    } else {
        var("XDG_CACHE_HOME").or_else(|| Some(var("HOME")?.join(".cache")))?
    };
    std::fs::create_dir_all(&base).ok()?;
    Some(base)
}

/// Whether `path` is named as a cache file of this tool: 32 hexadecimal digits and `.cache`.
/// Nothing else in the folder is ever removed.
fn is_cache_name(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".cache"))
        .is_some_and(|stem| stem.len() == 32 && stem.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn digest(parts: &[&[u8]]) -> Key {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize().into()
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn unhex(text: &str) -> Option<Key> {
    if text.len() != key_len() {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_reads_back_and_a_bad_line_spoils_the_file() {
        let key = digest(&[b"a"]);
        assert_eq!(unhex(&hex(&key)), Some(key));
        let header = "h";
        let good = format!("h\n{} [1,2]\n", hex(&key));
        let (text, entries) = parsed(header, good).unwrap();
        assert_eq!(&text[entries[&key].clone()], "[1,2]");
        assert!(parsed(header, format!("h\n{} [1]", hex(&key))).is_none());
        assert!(parsed(header, "h\nzz [1]\n".to_owned()).is_none());
        assert!(parsed("other", format!("h\n{} [1]\n", hex(&key))).is_none());
    }
}
