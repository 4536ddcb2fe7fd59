//! `mdbook-contract status`: where each filled spec stands.
//!
//! [`SpecState`] is one spec as `status` reports it (its provider, status, entries answered of
//! all, and each open entry with its place); [`render_status`] prints the list for a person or
//! as JSON. The states are worked out by the pipeline (`pipeline::status`), from the same
//! reading of the specs that the `unanswered-entry` check and the `{{#spec-status}}` box use.

use std::fmt::Write as _;
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

/// How to print the states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StatusFormat {
    /// A few lines per spec.
    Human,
    /// A JSON array of [`SpecState`].
    Json,
}

/// The states in `format`.
pub fn render_status(states: &[SpecState], format: StatusFormat) -> String {
    match format {
        StatusFormat::Json => {
            let mut out = serde_json::to_string_pretty(states).expect("states serialise");
            out.push('\n');
            out
        }
        StatusFormat::Human => {
            let mut out = String::new();
            if states.is_empty() {
                out.push_str(
                    "no filled specs (`specs` in book.toml names none; `mdbook-contract new-spec TYPE` writes one)\n",
                );
            }
            for state in states {
                let _ = writeln!(
                    out,
                    "{}: `{}`, {}, {} of {} entries answered",
                    state.path.display(),
                    state.provider,
                    state.status,
                    state.answered,
                    state.entries
                );
                for open in &state.open {
                    let _ = writeln!(
                        out,
                        "  {}:{}: {}: {}",
                        open.path.display(),
                        open.line,
                        open.entry,
                        open.lacks
                    );
                }
            }
            out
        }
    }
}
