//! `mdbook-contract status`: the states the pipeline worked out ([`Status`]), printed for a
//! person or as JSON.

use std::fmt::Write as _;

use crate::pipeline::status::{ProviderCoverage, Status};

/// How to print the states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StatusFormat {
    /// A few lines per spec.
    Human,
    /// A JSON array of [`SpecState`](crate::SpecState).
    Json,
}

/// The status in `format`.
pub fn render_status(status: &Status, format: StatusFormat) -> String {
    match format {
        StatusFormat::Json => {
            let mut out = serde_json::to_string_pretty(status).expect("the status serialises");
            out.push('\n');
            out
        }
        StatusFormat::Human => human(status),
    }
}

/// For a person: each spec with its open entries, each built provider's coverage, then where
/// the results and the citations were read from.
fn human(status: &Status) -> String {
    let mut out = String::new();
    if status.specs.is_empty() && status.providers.is_empty() {
        out.push_str(
            "no filled specs (`specs` in book.toml names none; `mdbook-contract new-spec TYPE` writes one)\n",
        );
    }
    for state in &status.specs {
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
    for provider in &status.providers {
        provider_line(&mut out, provider, status.results.is_some());
    }
    sources(&mut out, status);
    out
}

/// A built provider's coverage: by outcome when test results were read, by citation when only
/// the source tree was, and as unknown without either.
fn provider_line(out: &mut String, provider: &ProviderCoverage, results: bool) {
    let _ = if provider.known && results {
        writeln!(
            out,
            "{}:{}: `{}`, {} of {} rules passed, {} failed, {} skipped, {} not run, {} implemented only, {} uncovered",
            provider.path.display(),
            provider.line,
            provider.provider,
            provider.verified,
            provider.bound,
            provider.failed,
            provider.skipped,
            provider.not_run,
            provider.implemented,
            provider.bound
                - provider.verified
                - provider.implemented
                - provider.failed
                - provider.skipped
                - provider.not_run
        )
    } else if provider.known {
        writeln!(
            out,
            "{}:{}: `{}`, {} of {} rules verified, {} implemented only, {} uncovered",
            provider.path.display(),
            provider.line,
            provider.provider,
            provider.verified,
            provider.bound,
            provider.implemented,
            provider.bound - provider.verified - provider.implemented
        )
    } else {
        writeln!(
            out,
            "{}:{}: `{}`, bound by {} rules; coverage unknown (book.toml sets no `source-root`)",
            provider.path.display(),
            provider.line,
            provider.provider,
            provider.bound
        )
    };
}

/// Which test results were read (or that none were), and what the source tree held.
fn sources(out: &mut String, status: &Status) {
    match &status.results {
        Some(files) => {
            let _ = writeln!(
                out,
                "test results read from {}: a rule is verified for a provider when every test citing it for that provider passed",
                files
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        None if status.providers.iter().any(|p| p.known) => {
            out.push_str("no test results were read (`test-results` in book.toml): a rule counts as verified where a test cites it\n");
        }
        None => {}
    }
    if let Some(source) = &status.source {
        let _ = writeln!(
            out,
            "the source tree (`{}`): {} files read, {} citations of rules found{}",
            source.root,
            source.files,
            source.citations,
            if source.citations == 0 {
                "; a test cites a rule in a comment, `// r[verify ID]`"
            } else {
                ""
            }
        );
    }
}
