//! What `status` reports, as data: where each filled spec stands, and how much of the contract
//! each built provider's tests verify.
//!
//! [`SpecState`] is one spec (its provider, status, entries answered of all, and each open
//! entry with its place); [`ProviderCoverage`] one built provider's rules. They are worked out
//! by the pipeline (`pipeline::status`), from the same reading of the specs that the
//! `unanswered-entry` check and the `{{#spec-status}}` box use, and the coverage that
//! `{{#rule-matrix}}` draws; the `status` command prints them (`commands::status`), and the
//! MCP server answers from them.

use std::path::PathBuf;

use serde::Serialize;

/// One spec chapter's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SpecState {
    /// The provider it specifies (empty when the spec has no provider heading).
    pub provider: String,
    /// The spec's file, as shown to the user.
    pub path: PathBuf,
    /// `draft` or `accepted`.
    pub status: &'static str,
    /// How many entries of the template the spec answers.
    pub answered: usize,
    /// How many entries the template has.
    pub entries: usize,
    /// The entries not answered yet, in the spec's order (the template's entries the spec
    /// lacks come last, at the spec's first line).
    pub open: Vec<OpenEntry>,
}

/// An entry of a spec that is not answered yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct OpenEntry {
    /// Its heading text.
    pub entry: String,
    /// The file it is in, as shown to the user.
    pub path: PathBuf,
    /// Its 1-based line.
    pub line: usize,
    /// What it lacks, in words.
    pub lacks: String,
}

/// What `status` reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Status {
    /// Each filled spec, in the book's order.
    pub specs: Vec<SpecState>,
    /// Each built provider's coverage of the rules, in the book's order (none when the
    /// contract has no rules).
    pub providers: Vec<ProviderCoverage>,
    /// What was read of the source tree for the rules' citations, when the contract has rules
    /// and `source-root` is read: so that a coverage of zero is never silent.
    pub source: Option<SourceRead>,
    /// The test results files read (relative to the book root), when `test-results` names
    /// some: with them, verified means passed.
    pub results: Option<Vec<String>>,
}

/// What the search for citations of rules read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SourceRead {
    /// `source-root` as book.toml gives it.
    pub root: String,
    /// How many files were read (text files, Markdown aside, that git or `.ignore` does not
    /// exclude).
    pub files: usize,
    /// How many citations of rules they hold.
    pub citations: usize,
}

/// How many of the rules that bind a built provider its code and tests cite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ProviderCoverage {
    /// The provider.
    pub provider: String,
    /// The file of its section, as shown to the user.
    pub path: PathBuf,
    /// The line of its heading.
    pub line: usize,
    /// The rules that bind it.
    pub bound: usize,
    /// Of those, the ones a `verify` counting for it cites.
    pub verified: usize,
    /// The ones only an `impl` cites.
    pub implemented: usize,
    /// With test results: the ones a test citing them failed for the provider.
    pub failed: usize,
    /// With test results: the ones whose tests were skipped (none failed).
    pub skipped: usize,
    /// With test results: the ones cited by a test that has no result.
    pub not_run: usize,
    /// The bound MUST rules, and of those the verified ones (for `--min-verified`).
    pub must: usize,
    pub must_verified: usize,
    /// The bound MUST rules not verified, by ID.
    pub must_short: Vec<String>,
    /// Whether the source tree was read (`source-root`): without it nothing is known of the
    /// code, and only `bound` means anything.
    pub known: bool,
}
