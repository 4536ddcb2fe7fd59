//! The helpers every stage may use, and that use nothing of the crate but each other: the
//! vocabulary (the checks, their names and severities, a count in words), paths, text as any
//! system writes it, panic guards, threads, git, names that are nearly right, and Unicode's
//! hidden characters.
//!
//! A helper belongs here when two stages or more need it and it knows nothing of books.

pub(crate) mod confine;
pub(crate) mod escape;
pub(crate) mod git;
pub(crate) mod guard;
pub(crate) mod parallel;
pub(crate) mod paths;
pub(crate) mod stdio;
pub(crate) mod suggest;
pub(crate) mod text;
pub(crate) mod unicode;
pub(crate) mod vocab;

/// `n` and `word`, plural unless `n` is one: "1 error", "2 errors". For the words of this
/// tool's messages, whose plurals all take an `s`.
pub(crate) fn counted(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// `text` with its first character upper-case: a noun at the start of a title or sentence.
pub(crate) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A file time in whole seconds since the Unix epoch (`None` before it), to compare with a
/// test run's time or a commit's.
pub(crate) fn epoch_seconds(time: std::time::SystemTime) -> Option<i64> {
    let since = time.duration_since(std::time::UNIX_EPOCH).ok()?;
    i64::try_from(since.as_secs()).ok()
}
