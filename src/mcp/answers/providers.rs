//! `contract_provider`: one provider's state, and where each rule stands for it, in pages of
//! [`PAGE_BYTES`] of rules as JSON. A provider only a spec describes so far is answered too:
//! the rules that bind it by the profiles its spec claims (a rule on an axis whose profile it has
//! not stated is `profile-unknown`), and what its own code cites so far. A provider known by
//! its report (`provider-reports`) is answered as a local one, its report named (file,
//! repository, commit, the rules reworded since), a declared status never counted verified.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::Serialize;

use super::{NAMED, PAGE_BYTES, ProviderRule, Refusal, Typed, provider_rules, unknown};
use crate::commands::export::{CoverageOut, ProviderOut, RuleOut};
use crate::mcp::watch::Loaded;
use crate::model::rules::status::Kind;
use crate::pipeline::status::{CitedPlace, ProviderCoverage, SpecState};

/// `contract_provider`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct ProviderAnswer {
    name: String,
    /// `built`, `proposed`, or `spec` (only a spec describes it so far).
    status: &'static str,
    /// Its sections (a built or proposed provider's) or its spec's provider, with the claims
    /// each makes.
    sections: Vec<ProviderOut>,
    /// A built provider's counts, as `status` gives them, but for `must_short`: the first
    /// 20 of them.
    coverage: Option<ProviderCoverage>,
    /// How many MUST rules not verified `coverage.must_short` leaves out
    /// (`contract_uncovered` lists every one).
    must_short_more: usize,
    /// Every rule of the contract and where it stands for the provider, this page's: for one
    /// only a spec describes, bound by the profiles its spec claims, with what its own code
    /// cites so far.
    rules: Vec<ProviderRule>,
    /// The cursor of the next page of rules; none on the last.
    next_cursor: Option<String>,
    /// Its spec, when it has one: status, entries answered, the open ones.
    spec: Option<SpecState>,
    /// For a built provider: the files no provider's places hold whose citations count for
    /// it as for every built provider (a shared suite), each with its citations.
    shared_files: Vec<CitedPlace>,
    /// The folders beside providers' folders no provider of the book is named after: their
    /// citations count for none, this provider included.
    unplaced: Vec<CitedPlace>,
    /// What to do next for it, in a sentence.
    next: String,
}

/// `contract_provider`, its rules from `cursor` on, in pages of `page_size` bytes as JSON.
pub(crate) fn provider(
    loaded: &Loaded,
    name: &str,
    cursor: Option<&str>,
    page_size: Option<usize>,
) -> Result<Typed<ProviderAnswer>, Refusal> {
    let export = &loaded.export;
    let sections = sections_of(loaded, name)?;
    let status = provider_status(&sections);
    let built = &loaded.agent.status.providers;
    let coverage = built.iter().find(|p| p.provider == name).cloned();
    let cells = cells_of(loaded, name);
    let rules = cells
        .map(|c| provider_rules(c, &export.rules))
        .unwrap_or_default();
    let specs = &loaded.agent.status.specs;
    let spec = specs.iter().find(|s| s.provider == name).cloned();
    let next = next_step(name, &sections, coverage.as_ref(), spec.as_ref(), &rules);
    let mut text = summary(name, &sections, coverage.as_ref(), &rules, &export.rules);
    if let Some(spec) = &spec {
        let _ = writeln!(text, "{}", spec_line(spec));
    }
    let (shared_files, unplaced) = places_of(loaded, status, &mut text);
    let _ = write!(text, "next: {next}");
    let start = super::cursor_start(cursor, |at| at < rules.len(), "these rules", "`name`")?;
    let end = super::page_end(&rules, start, usize::MAX, page_size.unwrap_or(PAGE_BYTES));
    let next_cursor = (end < rules.len()).then(|| end.to_string());
    if let Some(c) = &next_cursor {
        let _ = write!(
            text,
            "\n(rules {} to {end} of {}; the next page is `cursor` \"{c}\")",
            start + 1,
            rules.len()
        );
    }
    let mut coverage = coverage;
    let must_short_more = coverage.as_mut().map_or(0, |c| {
        let more = c.must_short.len().saturating_sub(NAMED);
        c.must_short.truncate(NAMED);
        more
    });
    let value = ProviderAnswer {
        name: name.to_owned(),
        status,
        sections,
        coverage,
        must_short_more,
        rules: rules[start..end].to_vec(),
        next_cursor,
        spec,
        shared_files,
        unplaced,
        next,
    };
    Ok(Typed::new(value, text))
}

/// The answer's first lines: each section of the provider `name` with its claims, then its
/// coverage (and its report), or what binds it when only a spec describes it.
fn summary(
    name: &str,
    sections: &[ProviderOut],
    coverage: Option<&ProviderCoverage>,
    rules: &[ProviderRule],
    contract: &[RuleOut],
) -> String {
    let mut text = String::new();
    for section in sections {
        let _ = writeln!(text, "{}", claims_line(name, section));
    }
    let claims_nothing = sections.iter().all(|s| s.claims.is_empty());
    match coverage {
        Some(c) => {
            let _ = writeln!(text, "{}", coverage_line(c));
            if let Some(line) = report_line(c) {
                let _ = writeln!(text, "{line}");
            }
        }
        None if !rules.is_empty() => {
            let _ = writeln!(text, "{}", pending_line(rules, contract, claims_nothing));
        }
        None => {}
    }
    text
}

/// A section of the provider `name`, where it is and what it claims.
fn claims_line(name: &str, section: &ProviderOut) -> String {
    let claims: Vec<String> = section
        .claims
        .iter()
        .map(|c| format!("`{}` {}", c.axis, c.profile))
        .collect();
    format!(
        "`{name}` ({}, {}:{}): claims {}",
        section.status,
        section.place.path,
        section.place.line,
        if claims.is_empty() {
            "nothing".to_owned()
        } else {
            claims.join(", ")
        }
    )
}

/// The sections of the provider `name`; a refusal with a did-you-mean when the book has none.
fn sections_of(loaded: &Loaded, name: &str) -> Result<Vec<ProviderOut>, Refusal> {
    let providers = &loaded.export.providers;
    let sections: Vec<ProviderOut> = providers
        .iter()
        .filter(|p| p.name == name)
        .cloned()
        .collect();
    if sections.is_empty() {
        let names = providers.iter().map(|p| p.name.as_str());
        return Err(unknown("provider", name, names));
    }
    Ok(sections)
}

/// The files that count for a provider in `status` (a built one: the shared suites) and the
/// folders that count for none, each said in a line of `text` when there are any.
fn places_of(
    loaded: &Loaded,
    status: &str,
    text: &mut String,
) -> (Vec<CitedPlace>, Vec<CitedPlace>) {
    let agent = &loaded.agent.status;
    let shared_files = match status {
        "built" => agent.shared_files.clone(),
        _ => Vec::new(),
    };
    let unplaced = agent.unplaced.clone();
    places_lines(text, &shared_files, &unplaced);
    (shared_files, unplaced)
}

/// The files that count for every built provider and the folders that count for none, a line
/// each when there are any.
fn places_lines(text: &mut String, shared_files: &[CitedPlace], unplaced: &[CitedPlace]) {
    let listed = |places: &[CitedPlace]| {
        let each = places.iter().map(|p| {
            let n = crate::util::counted(p.citations, "citation");
            format!("{} ({n})", p.path)
        });
        each.collect::<Vec<_>>().join(", ")
    };
    if !shared_files.is_empty() {
        let _ = writeln!(
            text,
            "counted for it as for every built provider (no provider's places hold them): {}",
            listed(shared_files)
        );
    }
    if !unplaced.is_empty() {
        let _ = writeln!(
            text,
            "counted for no provider (folders beside the providers' folders that no provider is named after): {}",
            listed(unplaced)
        );
    }
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
            ", {} declared by its report without evidence (not verified",
            c.declared
        );
        if c.declared_not_implemented > 0 {
            let _ = write!(
                line,
                "; {} of them not implemented",
                c.declared_not_implemented
            );
        }
        line.push(')');
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

/// What binds a provider only a spec describes, and what its code cites so far: the rules
/// that bind every provider apart from those its claims bind, and the axes whose profile it
/// has not stated yet, each with how many rules wait on it.
fn pending_line(rules: &[ProviderRule], contract: &[RuleOut], claims_nothing: bool) -> String {
    let applies = |id: &str| {
        contract
            .iter()
            .find(|r| r.id == id)
            .and_then(|r| r.applies.as_ref())
    };
    let bound: Vec<&ProviderRule> = rules.iter().filter(|r| r.status.obliges()).collect();
    let every = bound.iter().filter(|r| applies(&r.rule).is_none()).count();
    let cited = bound.iter().filter(|r| r.citation.is_some()).count();
    let mut waiting: Vec<(&str, usize)> = Vec::new();
    for rule in rules.iter().filter(|r| r.status == Kind::ProfileUnknown) {
        let axis = applies(&rule.rule).map_or("", |a| a.axis.as_str());
        match waiting.iter_mut().find(|(a, _)| *a == axis) {
            Some((_, n)) => *n += 1,
            None => waiting.push((axis, 1)),
        }
    }
    let mut line = if claims_nothing {
        let that = if every == 1 {
            "rule that binds"
        } else {
            "rules that bind"
        };
        format!(
            "so far only the {every} {that} every provider, whatever it claims, bind it; its own code cites {cited} of them so far"
        )
    } else {
        format!(
            "bound by {} ({every} every provider's, {} by the profiles its spec claims); its own code cites {cited} of them so far",
            crate::util::counted(bound.len(), "rule"),
            bound.len() - every
        )
    };
    if !waiting.is_empty() {
        let axes: Vec<String> = waiting
            .iter()
            .map(|(axis, n)| format!("`{axis}` ({})", crate::util::counted(*n, "rule")))
            .collect();
        let total = waiting.iter().map(|(_, n)| n).sum();
        let _ = write!(
            line,
            "; whether {} bind it waits on the profile it claims on {}",
            crate::util::counted(total, "more rule"),
            axes.join(", ")
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
        let mut named: Vec<String> = c
            .must_short
            .iter()
            .take(NAMED)
            .map(|r| format!("r[{r}]"))
            .collect();
        if c.must_short.len() > NAMED {
            named.push(format!(
                "and {} more (`contract_uncovered` lists them)",
                c.must_short.len() - NAMED
            ));
        }
        return format!(
            "verify the MUST rules not verified yet, citing each in a test (`// r[verify ID]`): {}",
            named.join(", ")
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
