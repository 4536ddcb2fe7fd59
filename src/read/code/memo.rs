//! What the last search of the source tree read, kept in the process for the next one: the
//! language server and the MCP server search the same tree again at every reload, and a file
//! whose length and modification time are what they were is not read again.
//!
//! Kept only where a server asked for it ([`keep_reads`]): `check`, a build and the other
//! commands search once and keep nothing. A read is kept with what it was searched for (this
//! build's cited words, in order, the caller's patterns, whether units were asked): a search
//! for anything else reads every file. A file modified within [`RACY`] of the search's start
//! is not kept, since a second write in the same tick of its clock could leave its length and
//! time as they were (git's "racily clean" entries).
//!
//! The cache (`cache.rs`) keeps what a file yields across processes by its bytes; this keeps,
//! within one process, what reading it gave by its length and time, so that an unchanged file
//! costs one `stat` of the walk.

use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

/// A file modified this close to a search's start is read again by the next one.
const RACY: Duration = Duration::from_secs(2);

static KEEP: AtomicBool = AtomicBool::new(false);

/// The last search's reads, of whatever type its caller made of its matches.
static LAST: Mutex<Option<Box<dyn Any + Send>>> = Mutex::new(None);

/// Keeps each search's reads in the process for the next (the servers, once at their start).
pub(crate) fn keep_reads() {
    KEEP.store(true, Ordering::Relaxed);
}

/// The reads of a search, each with the length and modification time of its file.
pub(super) struct Memo<R> {
    what: String,
    files: HashMap<PathBuf, (u64, SystemTime, R)>,
}

impl<R: Clone + Send + 'static> Memo<R> {
    /// The last search's reads if they were searched for `what`; `None` when the process keeps
    /// none.
    pub(super) fn last(what: &str) -> Option<Memo<R>> {
        if !KEEP.load(Ordering::Relaxed) {
            return None;
        }
        let last = lock().take()?;
        let memo = last.downcast::<Memo<R>>().ok()?;
        (memo.what == what).then_some(*memo)
    }

    /// A memo of reads searched for `what`, when the process keeps them.
    pub(super) fn new(what: String) -> Option<Memo<R>> {
        KEEP.load(Ordering::Relaxed).then(|| Memo {
            what,
            files: HashMap::new(),
        })
    }

    /// The read of the file at `path` if its length and time are those it was read with.
    pub(super) fn get(&self, path: &Path, size: u64, modified: Option<SystemTime>) -> Option<R> {
        let (kept_size, kept_time, read) = self.files.get(path)?;
        (*kept_size == size && Some(*kept_time) == modified).then(|| read.clone())
    }

    /// Keeps `read`, the file at `path` read by a search that started at `started`, unless it
    /// was modified too close to it.
    pub(super) fn keep(
        &mut self,
        path: &Path,
        size: u64,
        modified: Option<SystemTime>,
        started: SystemTime,
        read: &R,
    ) {
        if let Some(time) = modified
            && time + RACY < started
        {
            self.files
                .insert(path.to_path_buf(), (size, time, read.clone()));
        }
    }

    /// Keeps this memo for the next search.
    pub(super) fn save(self) {
        *lock() = Some(Box::new(self));
    }
}

fn lock() -> std::sync::MutexGuard<'static, Option<Box<dyn Any + Send>>> {
    LAST.lock().unwrap_or_else(|e| e.into_inner())
}
