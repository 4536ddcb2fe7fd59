//! `contract_uncovered`: the rules that still wait for a provider's tests, of every built
//! provider or of the one asked for (built or only specified), a page at a time: a page holds
//! as many rules as fit `page_size` bytes of JSON, and each provider is named on the page of
//! its first rule (with what waits on its profiles), its count of waiting rules on every page
//! it is on.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::Serialize;

use super::{ProviderRule, Refusal, Typed, provider_rules, unknown};
use crate::commands::export::CoverageOut;
use crate::mcp::watch::Loaded;

/// `contract_uncovered`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct UncoveredAnswer {
    /// The test results files read (from the repository's root), when `test-results` names
    /// some: with them, a rule waits until its test passed.
    results_read: Option<Vec<String>>,
    /// Per provider (each built one, or the one asked for, built or only specified), those
    /// with a rule on this page (on the first, those with none too).
    providers: Vec<UncoveredOf>,
    /// How many rules wait, of every provider asked for, on every page.
    waiting: usize,
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
    /// How many of its rules wait, on every page.
    waiting: usize,
    /// This page's rules that bind it, oblige it and are not verified (passed) yet.
    rules: Vec<ProviderRule>,
    /// The rules whose binding waits on a profile it has not stated (on the page of its
    /// first rule).
    undecided: Vec<String>,
}

/// `contract_uncovered`: a page of `page_size` bytes of rules (as JSON) from `cursor`.
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
            waiting: 0,
            next_cursor: None,
        };
        return Ok(Typed::new(value, "the contract has no rules (no `r[ID]` marker lines in a contract chapter), so no rule waits for a test".to_owned()));
    }
    let asked: Vec<(&CoverageOut, &'static str)> = match provider {
        None => export.coverage.iter().map(|c| (c, "built")).collect(),
        Some(name) => vec![asked_for(loaded, name)?],
    };
    let all: Vec<UncoveredOf> = asked
        .into_iter()
        .map(|(c, status)| uncovered_of(c, status, loaded))
        .collect();
    let waiting: usize = all.iter().map(|of| of.waiting).sum();
    let start = super::cursor_start(cursor, |at| at < waiting, "these rules", "`provider`")?;
    let bytes = page_size.unwrap_or(super::PAGE_BYTES);
    let (providers, end) = page(all, start, bytes);
    let mut text = String::new();
    for of in &providers {
        let _ = writeln!(text, "{}", uncovered_line(of));
    }
    if providers.is_empty() {
        text.push_str("no built provider: nothing binds a rule yet (`contract_uncovered` with a spec's provider lists what binds it)\n");
    }
    let next_cursor = (end < waiting).then(|| end.to_string());
    if let Some(next) = &next_cursor {
        let _ = writeln!(
            text,
            "(rules {} to {end} of {waiting}; the next page is `cursor` \"{next}\")",
            start + 1
        );
    }
    let value = UncoveredAnswer {
        results_read,
        providers,
        waiting,
        next_cursor,
    };
    Ok(Typed::new(value, text.trim_end().to_owned()))
}

/// The page of `all`'s rules (counted across the providers in order) that starts at `start`:
/// as many as fit `bytes` of JSON, one at least so that every page moves on; each provider
/// with a rule on it, its `undecided` only where its first rule is, and on the first page the
/// providers with no rule waiting. With where the page ends.
fn page(all: Vec<UncoveredOf>, start: usize, bytes: usize) -> (Vec<UncoveredOf>, usize) {
    let mut out = Vec::new();
    let (mut at, mut end, mut used) = (0, start, 2);
    let mut full = false;
    for mut of in all {
        let first = at;
        at += of.rules.len();
        if of.rules.is_empty() {
            if start == 0 {
                out.push(of);
            }
            continue;
        }
        if at <= start || full {
            continue;
        }
        let skip = start.saturating_sub(first);
        let mut kept = Vec::new();
        for rule in of.rules.drain(..).skip(skip) {
            let size = serde_json::to_string(&rule).map_or(0, |s| s.len()) + 1;
            if end > start && used + size > bytes {
                full = true;
                break;
            }
            used += size;
            end += 1;
            kept.push(rule);
        }
        if kept.is_empty() {
            continue;
        }
        if first < start {
            of.undecided.clear();
        }
        of.rules = kept;
        out.push(of);
    }
    (out, end)
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

fn uncovered_of(c: &CoverageOut, status: &'static str, loaded: &Loaded) -> UncoveredOf {
    let all = provider_rules(c, &loaded.export.rules);
    let undecided = all
        .iter()
        .filter(|r| r.status == crate::model::rules::status::Kind::ProfileUnknown)
        .map(|r| r.rule.clone())
        .collect();
    UncoveredOf {
        provider: c.provider.clone(),
        provider_status: status,
        source_read: c.known,
        waiting: all.iter().filter(|r| r.status.open()).count(),
        rules: all.into_iter().filter(|r| r.status.open()).collect(),
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
    let named: Vec<String> = of
        .rules
        .iter()
        .map(|r| {
            format!(
                "r[{}] ({}, {})",
                r.rule,
                r.level.unwrap_or("required"),
                r.status
            )
        })
        .collect();
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
