//! `contract_provider` and `contract_uncovered`: one provider's state, and the rules that
//! still wait for its tests. A provider only a spec describes so far is answered too: the
//! rules that bind it by the profiles its spec claims (a rule on an axis whose profile it has
//! not stated is `profile-unknown`), and what its own code cites so far. A provider known by
//! its report (`provider-reports`) is answered as a local one, its report named (file,
//! repository, commit, the rules reworded since), a declared status never counted verified.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::Serialize;

use super::{ProviderRule, Refusal, Typed, binds, provider_rules, unknown};
use crate::commands::export::{CoverageOut, ProviderOut};
use crate::mcp::watch::Loaded;
use crate::pipeline::status::{ProviderCoverage, SpecState};

/// `contract_provider`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct ProviderAnswer {
    name: String,
    /// `built`, `proposed`, or `spec` (only a spec describes it so far).
    status: &'static str,
    /// Its sections (a built or proposed provider's) or its spec's provider, with the claims
    /// each makes.
    sections: Vec<ProviderOut>,
    /// A built provider's counts, as `status` gives them.
    coverage: Option<ProviderCoverage>,
    /// Every rule of the contract and where it stands for the provider: for one only a spec
    /// describes, bound by the profiles its spec claims, with what its own code cites so far.
    rules: Vec<ProviderRule>,
    /// Its spec, when it has one: status, entries answered, the open ones.
    spec: Option<SpecState>,
    /// What to do next for it, in a sentence.
    next: String,
}

/// `contract_provider`.
pub(crate) fn provider(loaded: &Loaded, name: &str) -> Result<Typed<ProviderAnswer>, Refusal> {
    let export = &loaded.export;
    let sections: Vec<ProviderOut> = export
        .providers
        .iter()
        .filter(|p| p.name == name)
        .cloned()
        .collect();
    if sections.is_empty() {
        return Err(unknown(
            "provider",
            name,
            export.providers.iter().map(|p| p.name.as_str()),
        ));
    }
    let status = provider_status(&sections);
    let coverage = loaded
        .agent
        .status
        .providers
        .iter()
        .find(|p| p.provider == name)
        .cloned();
    let cells = cells_of(loaded, name);
    let rules = cells
        .map(|c| provider_rules(c, &export.rules))
        .unwrap_or_default();
    let spec = loaded
        .agent
        .status
        .specs
        .iter()
        .find(|s| s.provider == name)
        .cloned();
    let next = next_step(name, &sections, coverage.as_ref(), spec.as_ref(), &rules);
    let mut text = String::new();
    for section in &sections {
        let claims: Vec<String> = section
            .claims
            .iter()
            .map(|c| format!("`{}` {}", c.axis, c.profile))
            .collect();
        let _ = writeln!(
            text,
            "`{name}` ({}, {}:{}): claims {}",
            section.status,
            section.place.path,
            section.place.line,
            if claims.is_empty() {
                "nothing".to_owned()
            } else {
                claims.join(", ")
            }
        );
    }
    match &coverage {
        Some(c) => {
            let _ = writeln!(text, "{}", coverage_line(c));
            if let Some(line) = report_line(c) {
                let _ = writeln!(text, "{line}");
            }
        }
        None if !rules.is_empty() => {
            let _ = writeln!(text, "{}", pending_line(&rules));
        }
        None => {}
    }
    if let Some(spec) = &spec {
        let _ = writeln!(text, "{}", spec_line(spec));
    }
    let _ = write!(text, "next: {next}");
    let value = ProviderAnswer {
        name: name.to_owned(),
        status,
        sections,
        coverage,
        rules,
        spec,
        next,
    };
    Ok(Typed::new(value, text))
}

/// `built` when a section is built, else `spec` when a spec describes it, else `proposed`.
fn provider_status(sections: &[ProviderOut]) -> &'static str {
    ["built", "spec", "proposed"]
        .into_iter()
        .find(|s| sections.iter().any(|p| p.status == *s))
        .unwrap_or("proposed")
}

/// The cells of the provider `name`: a built one's, else those of one only a spec describes.
fn cells_of<'l>(loaded: &'l Loaded, name: &str) -> Option<&'l CoverageOut> {
    let built = loaded.export.coverage.iter().find(|c| c.provider == name);
    built.or_else(|| loaded.pending.iter().find(|c| c.provider == name))
}

fn coverage_line(c: &ProviderCoverage) -> String {
    if !c.known {
        return format!(
            "bound by {}; coverage unknown (book.toml sets no `source-root`)",
            crate::util::counted(c.bound, "rule")
        );
    }
    let mut line = format!(
        "coverage: {} of {} bound rules verified ({} of {} MUST), {} failed, {} skipped, {} not run, {} implemented only",
        c.verified, c.bound, c.must_verified, c.must, c.failed, c.skipped, c.not_run, c.implemented
    );
    if c.declared > 0 {
        let _ = write!(
            line,
            ", {} declared by its report without evidence (not verified)",
            c.declared
        );
    }
    if c.no_report > 0 {
        let _ = write!(line, ", {} with no report", c.no_report);
    }
    line
}

/// Where a provider's cells come from when `provider-reports` names its report, or that it
/// has none.
fn report_line(c: &ProviderCoverage) -> Option<String> {
    let Some(report) = &c.report else {
        return (c.no_report > 0).then(|| {
            format!(
                "no report among `provider-reports`: nothing is known of `{}` until its CI's report is downloaded",
                c.provider
            )
        });
    };
    let from = match (&report.repository, &report.commit) {
        (Some(repository), Some(commit)) => format!(" of {repository} at {commit}"),
        (Some(repository), None) => format!(" of {repository}"),
        _ => String::new(),
    };
    let mut line = format!("from its report `{}`{from}", report.file);
    if !report.older_text.is_empty() {
        let _ = write!(
            line,
            "; made against an older text of {}: run its CI again",
            report
                .older_text
                .iter()
                .map(|r| format!("r[{r}]"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Some(line)
}

/// What binds a provider only a spec describes, and what its code cites so far.
fn pending_line(rules: &[ProviderRule]) -> String {
    let bound = rules.iter().filter(|r| binds(r.status)).count();
    let cited = rules
        .iter()
        .filter(|r| binds(r.status) && r.citation.is_some())
        .count();
    let undecided = rules
        .iter()
        .filter(|r| r.status == "profile-unknown")
        .count();
    let mut line = format!(
        "bound by {} by the profiles its spec claims; its own code cites {cited} of them so far",
        crate::util::counted(bound, "rule")
    );
    if undecided > 0 {
        let _ = write!(
            line,
            "; whether {} bind it waits on a profile the spec has not stated",
            crate::util::counted(undecided, "more rule")
        );
    }
    line
}

pub(super) fn spec_line(spec: &SpecState) -> String {
    let open: Vec<String> = spec
        .open
        .iter()
        .map(|o| format!("\"{}\"", o.entry))
        .collect();
    format!(
        "spec of `{}` ({}): {}, {} of {} entries answered{}",
        spec.provider,
        spec.path.display(),
        spec.status,
        spec.answered,
        spec.entries,
        if open.is_empty() {
            String::new()
        } else {
            format!("; open: {}", open.join(", "))
        }
    )
}

/// What to do next for a provider, as `status` would have it: answer its spec, then verify
/// its rules, MUST first.
fn next_step(
    name: &str,
    sections: &[ProviderOut],
    coverage: Option<&ProviderCoverage>,
    spec: Option<&SpecState>,
    rules: &[ProviderRule],
) -> String {
    if let Some(open) = spec.and_then(|s| s.open.first()) {
        let count = spec.map_or(0, |s| s.open.len());
        return format!(
            "answer the spec's {count} open entries, first \"{}\" at {}:{} ({})",
            open.entry,
            open.path.display(),
            open.line,
            open.lacks
        );
    }
    let unknown: Vec<String> = sections
        .iter()
        .flat_map(|s| &s.claims)
        .filter(|c| c.profile == crate::model::UNKNOWN_PROFILE)
        .map(|c| format!("`{}`", c.axis))
        .collect();
    if !unknown.is_empty() {
        return format!("state its profile on {}", unknown.join(", "));
    }
    match (coverage, spec) {
        (Some(c), _) => built_next(c),
        (None, Some(s)) if s.status == "draft" => format!(
            "every entry is answered: mark the spec `**Status:** accepted` ({})",
            s.path.display()
        ),
        (None, Some(_)) if rules.is_empty() => {
            "build it from its brief (`contract_brief`)".to_owned()
        }
        (None, Some(_)) => format!(
            "build it from its brief (`contract_brief`), citing each rule that binds it in a test (`contract_uncovered` lists them), then list `{name}` as a built provider so its coverage is counted"
        ),
        (None, None) => format!("write its spec: `contract_new_spec` with name `{name}`"),
    }
}

fn built_next(c: &ProviderCoverage) -> String {
    if !c.known {
        return "set `source-root` in book.toml, so that the rules its code and tests cite are read"
            .to_owned();
    }
    if c.failed > 0 {
        return format!(
            "make the failing tests pass: {} have a failing test (`contract_uncovered`)",
            crate::util::counted(c.failed, "rule")
        );
    }
    if c.no_report > 0 {
        return format!(
            "download `{}`'s report from its CI into `provider-reports` (its repository runs `mdbook-contract report`)",
            c.provider
        );
    }
    if let Some(report) = c.report.as_ref().filter(|r| !r.older_text.is_empty()) {
        return format!(
            "run `{}`'s CI again: its report `{}` checked an older text of {}",
            c.provider,
            report.file,
            crate::util::counted(report.older_text.len(), "rule")
        );
    }
    if !c.must_short.is_empty() {
        return format!(
            "verify the MUST rules not verified yet, citing each in a test (`// r[verify ID]`): {}",
            c.must_short
                .iter()
                .map(|r| format!("r[{r}]"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if c.verified < c.bound {
        return format!(
            "verify the {} not verified yet (`contract_uncovered`)",
            crate::util::counted(c.bound - c.verified, "bound rule")
        );
    }
    "nothing: every rule that binds it is verified".to_owned()
}

/// `contract_uncovered`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct UncoveredAnswer {
    /// The test results files read (from the repository's root), when `test-results` names
    /// some: with them, a rule waits until its test passed.
    results_read: Option<Vec<String>>,
    /// Per provider (each built one, or the one asked for, built or only specified).
    providers: Vec<UncoveredOf>,
}

/// One provider's rules still waiting for a test.
#[derive(Serialize, JsonSchema)]
struct UncoveredOf {
    provider: String,
    /// `built`, or `spec` for one only a spec describes so far.
    provider_status: &'static str,
    /// Whether the source tree was read (`source-root`).
    source_read: bool,
    /// The rules that bind it, oblige it and are not verified (passed) yet.
    rules: Vec<ProviderRule>,
    /// The rules whose binding waits on a profile it has not stated.
    undecided: Vec<String>,
}

/// `contract_uncovered`.
pub(crate) fn uncovered(
    loaded: &Loaded,
    provider: Option<&str>,
) -> Result<Typed<UncoveredAnswer>, Refusal> {
    let export = &loaded.export;
    let results_read = loaded.agent.status.results.clone();
    if export.rules.is_empty() {
        let value = UncoveredAnswer {
            results_read,
            providers: Vec::new(),
        };
        return Ok(Typed::new(value, "the contract has no rules (no `r[ID]` marker lines in a contract chapter), so no rule waits for a test".to_owned()));
    }
    let asked: Vec<(&CoverageOut, &'static str)> = match provider {
        None => export.coverage.iter().map(|c| (c, "built")).collect(),
        Some(name) => vec![asked_for(loaded, name)?],
    };
    let mut text = String::new();
    let mut providers = Vec::new();
    for (c, status) in asked {
        let of = uncovered_of(c, status, loaded);
        let _ = writeln!(text, "{}", uncovered_line(&of));
        providers.push(of);
    }
    if providers.is_empty() {
        text.push_str("no built provider: nothing binds a rule yet (`contract_uncovered` with a spec's provider lists what binds it)\n");
    }
    let value = UncoveredAnswer {
        results_read,
        providers,
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
    UncoveredOf {
        provider: c.provider.clone(),
        provider_status: status,
        source_read: c.known,
        rules: all.into_iter().filter(|r| open(r.status)).collect(),
        undecided,
    }
}

fn uncovered_line(of: &UncoveredOf) -> String {
    let rules = crate::util::counted(of.rules.len(), "bound rule");
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
