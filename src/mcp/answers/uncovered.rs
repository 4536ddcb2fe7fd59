//! `contract_uncovered`: the rules that bind a provider and still wait for a test, for every
//! built provider or the one asked for (built, only specified, or known by its report, whose
//! declared rules still wait), in pages: each page names every provider with how many of its
//! rules wait, and holds the next stretch of them, as many as fit [`PAGE_BYTES`] of JSON.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::Serialize;

use super::{NAMED, PAGE_BYTES, ProviderRule, Refusal, Typed, provider_rules, unknown};
use crate::commands::export::CoverageOut;
use crate::mcp::watch::Loaded;

/// `contract_uncovered`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct UncoveredAnswer {
    /// The test results files read (from the repository's root), when `test-results` names
    /// some: with them, a rule waits until its test passed.
    results_read: Option<Vec<String>>,
    /// Per provider (each built one, or the one asked for, built or only specified).
    providers: Vec<UncoveredOf>,
    /// The cursor of the next page; none on the last.
    next_cursor: Option<String>,
}

/// One provider's rules still waiting for a test.
#[derive(Serialize, JsonSchema)]
struct UncoveredOf {
    provider: String,
    /// `built`, or `spec` for one only a spec describes so far.
    provider_status: &'static str,
    /// Whether the source tree was read (`source-root`).
    source_read: bool,
    /// How many rules bind it, oblige it and are not verified (passed) yet, on every page.
    waiting: usize,
    /// Of those, this page's.
    rules: Vec<ProviderRule>,
    /// The rules whose binding waits on a profile it has not stated.
    undecided: Vec<String>,
}

/// `contract_uncovered`, from `cursor` on, in pages of `page_size` bytes of rules as JSON.
pub(crate) fn uncovered(
    loaded: &Loaded,
    provider: Option<&str>,
    cursor: Option<&str>,
    page_size: Option<usize>,
) -> Result<Typed<UncoveredAnswer>, Refusal> {
    let export = &loaded.export;
    let results_read = loaded.agent.status.results.clone();
    if export.rules.is_empty() {
        let value = UncoveredAnswer {
            results_read,
            providers: Vec::new(),
            next_cursor: None,
        };
        return Ok(Typed::new(value, "the contract has no rules (no `r[ID]` marker lines in a contract chapter), so no rule waits for a test".to_owned()));
    }
    let asked: Vec<(&CoverageOut, &'static str)> = match provider {
        None => export.coverage.iter().map(|c| (c, "built")).collect(),
        Some(name) => vec![asked_for(loaded, name)?],
    };
    let mut providers: Vec<UncoveredOf> = asked
        .into_iter()
        .map(|(c, status)| uncovered_of(c, status, loaded))
        .collect();
    let total: usize = providers.iter().map(|of| of.waiting).sum();
    let start = super::cursor_start(cursor, |at| at < total, "these rules", "`provider`")?;
    let all: Vec<&ProviderRule> = providers.iter().flat_map(|of| &of.rules).collect();
    let end = super::page_end(&all, start, usize::MAX, page_size.unwrap_or(PAGE_BYTES));
    // Each provider keeps the part of the page that is its own.
    let mut at = 0;
    for of in &mut providers {
        let n = of.waiting;
        let (from, to) = (start.clamp(at, at + n) - at, end.clamp(at, at + n) - at);
        of.rules = of.rules.drain(from..to).collect();
        at += n;
    }
    let mut text = String::new();
    for of in &providers {
        let _ = writeln!(text, "{}", uncovered_line(of));
    }
    if providers.is_empty() {
        text.push_str("no built provider: nothing binds a rule yet (`contract_uncovered` with a spec's provider lists what binds it)\n");
    }
    let next_cursor = (end < total).then(|| end.to_string());
    if let Some(next) = &next_cursor {
        let _ = write!(
            text,
            "(rules {} to {end} of {total} waiting; the next page is `cursor` \"{next}\")",
            start + 1
        );
    }
    let value = UncoveredAnswer {
        results_read,
        providers,
        next_cursor,
    };
    Ok(Typed::new(value, text.trim_end().to_owned()))
}

/// The cells of the provider `name`, built or only specified, or why there are none.
fn asked_for<'l>(
    loaded: &'l Loaded,
    name: &str,
) -> Result<(&'l CoverageOut, &'static str), Refusal> {
    let export = &loaded.export;
    if let Some(c) = export.coverage.iter().find(|c| c.provider == name) {
        return Ok((c, "built"));
    }
    if let Some(c) = loaded.pending.iter().find(|c| c.provider == name) {
        return Ok((c, "spec"));
    }
    if export.providers.iter().any(|p| p.name == name) {
        return Err(format!(
            "`{name}` is proposed, without a spec: nothing says which profiles it claims yet (`contract_new_spec` writes its spec)"
        ));
    }
    Err(unknown(
        "provider",
        name,
        export
            .coverage
            .iter()
            .chain(&loaded.pending)
            .map(|c| c.provider.as_str()),
    ))
}

/// Whether a status is of a rule that still waits for a test: bound, obliging, and not
/// verified (passed). A status a provider's report declares is a claim: it still waits.
fn open(status: &str) -> bool {
    matches!(
        status,
        "uncovered"
            | "implemented"
            | "failed"
            | "skipped"
            | "not-run"
            | "unattributed"
            | "declared"
            | "declared-not-implemented"
            | "no-report"
    )
}

fn uncovered_of(c: &CoverageOut, status: &'static str, loaded: &Loaded) -> UncoveredOf {
    let all = provider_rules(c, &loaded.export.rules);
    let undecided = all
        .iter()
        .filter(|r| r.status == "profile-unknown")
        .map(|r| r.rule.clone())
        .collect();
    let rules: Vec<ProviderRule> = all.into_iter().filter(|r| open(r.status)).collect();
    UncoveredOf {
        provider: c.provider.clone(),
        provider_status: status,
        source_read: c.known,
        waiting: rules.len(),
        rules,
        undecided,
    }
}

fn uncovered_line(of: &UncoveredOf) -> String {
    let rules = crate::util::counted(of.waiting, "bound rule");
    let spec = if of.provider_status == "spec" {
        " (spec)"
    } else {
        ""
    };
    let mut line = if of.source_read {
        format!("`{}`{spec}: {rules} not verified", of.provider)
    } else {
        format!(
            "`{}`{spec}: {rules}, none known to be verified (book.toml sets no `source-root`)",
            of.provider
        )
    };
    let mut named: Vec<String> = of
        .rules
        .iter()
        .take(NAMED)
        .map(|r| {
            format!(
                "r[{}] ({}, {})",
                r.rule,
                r.level.unwrap_or("required"),
                r.status
            )
        })
        .collect();
    if of.rules.len() > NAMED {
        named.push(format!("and {} more on this page", of.rules.len() - NAMED));
    }
    if !named.is_empty() {
        let _ = write!(line, ": {}", named.join(", "));
    }
    if !of.undecided.is_empty() {
        let _ = write!(
            line,
            "; whether {} bind it is unknown until it states its profile",
            of.undecided.join(", ")
        );
    }
    line
}
