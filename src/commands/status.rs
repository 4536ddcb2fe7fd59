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
        provider_line(&mut out, provider, status.results.is_some(), status.rules);
    }
    sources(&mut out, status);
    if let Some(unmapped) = &status.unmapped {
        unmapped_units(&mut out, unmapped);
    }
    out
}

/// The units no citation maps, per owner: the share mapped, then each unit as `path:line:
/// kind name`, tests apart.
fn unmapped_units(out: &mut String, unmapped: &crate::Unmapped) {
    if unmapped.owners.is_empty() {
        out.push_str("unmapped: no code units (no file of the source tree has a grammar)\n");
        return;
    }
    let share = |mapped: usize, of: usize, what: &str| match (mapped * 100).checked_div(of) {
        Some(percent) => format!("{mapped} of {of} {what} units mapped ({percent}%)"),
        None => format!("no {what} units"),
    };
    for owner in &unmapped.owners {
        let who = if owner.owner.is_empty() {
            "shared code (no provider's places hold it)".to_owned()
        } else {
            format!("`{}`", owner.owner)
        };
        let _ = writeln!(
            out,
            "unmapped in {who}: {}, {}",
            share(owner.code_mapped, owner.code_units, "code"),
            share(owner.test_mapped, owner.test_units, "test")
        );
        for unit in &owner.code {
            let _ = writeln!(
                out,
                "  {}:{}: {} {}",
                unit.path, unit.line, unit.kind, unit.name
            );
        }
        for unit in &owner.tests {
            let _ = writeln!(
                out,
                "  {}:{}: {} {} (test code)",
                unit.path, unit.line, unit.kind, unit.name
            );
        }
    }
}

/// A built provider's coverage: by outcome when test results were read, by citation when only
/// the source tree was, and as unknown without either.
fn provider_line(out: &mut String, provider: &ProviderCoverage, results: bool, rules: usize) {
    provider_counts(out, provider, results, rules);
    if results && !provider.reports.is_empty() {
        let _ = writeln!(
            out,
            "  its results from {}",
            provider
                .reports
                .iter()
                .map(|r| format!("`{r}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

/// A built provider's counts, with what a provider report adds (declared without evidence, or
/// no report at all) and the rules not counted for it, so that the line adds up to the
/// contract's rules.
fn provider_counts(out: &mut String, provider: &ProviderCoverage, results: bool, rules: usize) {
    let rest = not_counted(provider, rules);
    let at = format!(
        "{}:{}: `{}`",
        provider.path.display(),
        provider.line,
        provider.provider
    );
    let _ = if provider.known && results {
        write!(out, "{at}, {}", tested_counts(provider))
    } else if provider.known {
        let reported = provider.declared + provider.no_report;
        write!(
            out,
            "{at}, {} of {} rules verified, {} implemented only, {} uncovered",
            provider.verified,
            provider.bound,
            provider.implemented,
            provider.bound - provider.verified - provider.implemented - reported
        )
    } else {
        write!(
            out,
            "{at}, bound by {} rules; coverage unknown (book.toml sets no `source-root`)",
            provider.bound
        )
    };
    if provider.known && provider.declared > 0 {
        let _ = write!(out, ", {} declared (no evidence", provider.declared);
        if provider.declared_not_implemented > 0 {
            let _ = write!(
                out,
                "; {} of them not implemented",
                provider.declared_not_implemented
            );
        }
        out.push(')');
    }
    if provider.known && provider.no_report > 0 {
        let _ = write!(out, ", {} no report", provider.no_report);
    }
    if provider.known {
        out.push_str(&rest);
    }
    out.push('\n');
}

/// A provider's counts with test results: passed of bound, then each kind of cell that is
/// not passed, so that they add up.
fn tested_counts(provider: &ProviderCoverage) -> String {
    let reported = provider.declared + provider.no_report;
    let unplaced: String = [
        (provider.unattributed, "unattributed"),
        (provider.unmatched, "unmatched"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, word)| format!("{n} {word}, "))
    .collect();
    let uncovered = provider.bound
        - provider.verified
        - provider.implemented
        - provider.failed
        - provider.skipped
        - provider.not_run
        - provider.unattributed
        - provider.unmatched
        - reported;
    format!(
        "{} of {} rules passed, {} failed, {} skipped, {} not run, {unplaced}{} implemented only, {uncovered} uncovered",
        provider.verified,
        provider.bound,
        provider.failed,
        provider.skipped,
        provider.not_run,
        provider.implemented,
    )
}

/// The rules of the contract a provider's counts leave out, when there are any: `, and 19
/// optional (MAY) not counted, of the contract's 317 rules`.
fn not_counted(provider: &ProviderCoverage, rules: usize) -> String {
    let parts: Vec<String> = [
        (provider.optional, "optional (MAY)"),
        (provider.not_bound, "not binding it (`applies=`)"),
        (provider.undecided, "undecided (its profile not stated)"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    if parts.is_empty() {
        return String::new();
    }
    format!(
        ", and {} not counted, of the contract's {rules} rules",
        parts.join(" and ")
    )
}

/// Which test results were read (or that none were), and what the source tree held.
fn sources(out: &mut String, status: &Status) {
    match &status.results {
        Some(files) if files.is_empty() => {
            let _ = writeln!(
                out,
                "no test results were read: {}; every cell a test cites is not run until they are",
                status.results_problems.join("; ")
            );
        }
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
            for problem in &status.results_problems {
                let _ = writeln!(out, "  not read: {problem}");
            }
        }
        None if status.providers.iter().any(|p| p.known) => {
            out.push_str("no test results were read (`test-results` in book.toml): a rule counts as verified where a test cites it\n");
        }
        None => {}
    }
    for note in &status.notes {
        let _ = writeln!(out, "note: {note}");
    }
    if let Some(source) = &status.source {
        let rules = !status.providers.is_empty();
        let _ = writeln!(
            out,
            "the source tree (`{}`): {} files read{}",
            source.root,
            source.files,
            match (rules, source.citations) {
                (false, _) => String::new(),
                (true, 0) => ", 0 citations of rules found; a test cites a rule in a comment, `// r[verify ID]`".to_owned(),
                (true, n) => format!(", {n} citations of rules found"),
            }
        );
        reading(out, source);
    }
}

/// How the files of the source tree were read: as code by language, as text, passed over.
fn reading(out: &mut String, source: &crate::SourceRead) {
    let list = |counts: &std::collections::BTreeMap<String, usize>| {
        counts
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !source.code.is_empty() {
        let _ = writeln!(out, "  read as code: {}", list(&source.code));
    }
    if !source.text.is_empty() {
        let _ = writeln!(
            out,
            "  read as text (no grammar; a comment is what follows //, /*, # or -- on a line): {}",
            list(&source.text)
        );
        // Robot's and Perl's tests are declared one to a line, and read so.
        let by_lines: Vec<String> = source
            .text
            .iter()
            .filter(|(extension, _)| {
                crate::read::code::for_path(&format!("x{extension}"))
                    .is_some_and(|l| l.line_tests.is_some())
            })
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        if !by_lines.is_empty() {
            let _ = writeln!(
                out,
                "  their test declarations read line by line (Robot Framework's test cases, Perl's subtests): {}",
                by_lines.join(", ")
            );
        }
    }
    passed_over(out, source);
}

/// What of the source tree was not read as it is (not source, too large, unreadable, with
/// syntax errors), what came from the cache, and where cited symbols were looked up.
fn passed_over(out: &mut String, source: &crate::SourceRead) {
    for (why, n) in &source.not_source {
        let files = if *n == 1 { "file" } else { "files" };
        let _ = writeln!(out, "  not source, {why}: {n} {files}");
    }
    if source.from_cache > 0 {
        let files = if source.from_cache == 1 {
            "file"
        } else {
            "files"
        };
        let _ = writeln!(
            out,
            "  from the cache (unchanged since a run parsed them): {} {files}",
            source.from_cache
        );
    }
    if !source.too_large.is_empty() {
        let _ = writeln!(
            out,
            "  read as text, too large to parse (over {} MiB): {}",
            crate::read::code::LARGEST_PARSED >> 20,
            source.too_large.join(", ")
        );
    }
    for at in &source.unreadable {
        let path = if at.path.is_empty() {
            "(the walk)"
        } else {
            &at.path
        };
        let _ = writeln!(
            out,
            "  {path}: could not be read, so its citations and symbols are not known: {}",
            at.why
        );
    }
    for at in &source.syntax_errors {
        let _ = writeln!(
            out,
            "  {}:{}: {} syntax error(s); read as far as the parser recovered",
            at.path, at.line, at.errors
        );
    }
    if !source.symbol_files.is_empty() {
        let _ = writeln!(
            out,
            "  cited symbols are looked up in: {}",
            source.symbol_files.join(", ")
        );
    }
}
