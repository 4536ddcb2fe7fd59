//! The helpers every stage may use, and that use nothing of the crate but each other: the
//! vocabulary (the checks, their names and severities), paths, panic guards, threads, git,
//! names that are nearly right, and Unicode's hidden characters.
//!
//! A helper belongs here when two stages or more need it and it knows nothing of books.

pub(crate) mod git;
pub(crate) mod guard;
pub(crate) mod parallel;
pub(crate) mod paths;
pub(crate) mod suggest;
pub(crate) mod unicode;
pub(crate) mod vocab;
