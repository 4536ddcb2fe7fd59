//! `contract_overview`, `contract_axis` and `contract_rule`: the contract's own parts.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::Serialize;

use super::providers::spec_line;
use super::{Refusal, Typed, unknown};
use crate::commands::export::{
    AxisOut, BookOut, CitationOut, CoverageOut, CoverageRuleOut, PlaceOut, ProfileOut, ProviderOut,
    ResultOut, RuleOut,
};
use crate::mcp::watch::Loaded;
use crate::model::rules::status::{Binds, Kind};
use crate::pipeline::RuleCitation;
use crate::pipeline::status::SpecState;

/// `contract_overview`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct Overview {
    /// The book's title and the contract's version.
    book: BookOut,
    /// Each axis: its code, its question and its profiles' names.
    axes: Vec<AxisSummary>,
    /// Each provider section or spec: its name, status (`built`, `proposed` or `spec`) and
    /// place.
    providers: Vec<ProviderSummary>,
    /// How many rules, by level.
    rules: RuleCounts,
    /// Each filled spec: its status, entries answered of all, and the open ones.
    specs: Vec<SpecState>,
    /// How many findings a build reports.
    findings: FindingCounts,
}

#[derive(Serialize, JsonSchema)]
struct AxisSummary {
    code: String,
    question: String,
    profiles: Vec<String>,
}

#[derive(Serialize, JsonSchema)]
struct ProviderSummary {
    name: String,
    /// `built`, `proposed` or `spec`.
    status: &'static str,
    place: PlaceOut,
}

#[derive(Serialize, JsonSchema)]
struct RuleCounts {
    /// All the rules.
    count: usize,
    /// By level; `required` counts markers without an RFC 2119 keyword (required, as a MUST).
    by_level: Levels,
}

#[derive(Serialize, JsonSchema)]
struct Levels {
    #[serde(rename = "MUST")]
    must: usize,
    #[serde(rename = "SHOULD")]
    should: usize,
    #[serde(rename = "MAY")]
    may: usize,
    required: usize,
}

#[derive(Serialize, JsonSchema)]
struct FindingCounts {
    errors: usize,
    warnings: usize,
}

/// `contract_overview`.
pub(crate) fn overview(loaded: &Loaded) -> Typed<Overview> {
    let export = &loaded.export;
    let report = &loaded.agent.report;
    let count = |level: Option<&str>| export.rules.iter().filter(|r| r.level == level).count();
    let value = Overview {
        book: export.book.clone(),
        axes: export
            .axes
            .iter()
            .map(|a| AxisSummary {
                code: a.code.clone(),
                question: a.question.clone(),
                profiles: a.profiles.iter().map(|p| p.name.clone()).collect(),
            })
            .collect(),
        providers: export
            .providers
            .iter()
            .map(|p| ProviderSummary {
                name: p.name.clone(),
                status: p.status,
                place: p.place.clone(),
            })
            .collect(),
        rules: RuleCounts {
            count: export.rules.len(),
            by_level: Levels {
                must: count(Some("MUST")),
                should: count(Some("SHOULD")),
                may: count(Some("MAY")),
                required: count(None),
            },
        },
        specs: loaded.agent.status.specs.clone(),
        findings: FindingCounts {
            errors: report.errors(),
            warnings: report.warnings(),
        },
    };
    let mut text = format!(
        "{}{}: {}, {} ({} MUST, {} SHOULD, {} MAY), {}, {}; {}.",
        export.book.title.as_deref().unwrap_or("the book"),
        export
            .book
            .version
            .as_ref()
            .map_or_else(String::new, |v| format!(" (version {v})")),
        crate::util::counted(export.axes.len(), "axis").replace("axiss", "axes"),
        crate::util::counted(export.rules.len(), "rule"),
        count(Some("MUST")),
        count(Some("SHOULD")),
        count(Some("MAY")),
        crate::util::counted(export.providers.len(), "provider section"),
        crate::util::counted(loaded.agent.status.specs.len(), "spec"),
        report.summary()
    );
    for axis in &export.axes {
        let profiles: Vec<&str> = axis.profiles.iter().map(|p| p.name.as_str()).collect();
        let _ = write!(
            text,
            "\naxis `{}` ({}): {}",
            axis.code,
            profiles.join(", "),
            axis.question
        );
    }
    for provider in &export.providers {
        let _ = write!(text, "\nprovider `{}`: {}", provider.name, provider.status);
    }
    for spec in &loaded.agent.status.specs {
        let _ = write!(text, "\n{}", spec_line(spec));
    }
    Typed::new(value, text)
}

/// `contract_axis`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct AxisAnswer {
    code: String,
    /// The axis's question, as a reader sees it.
    question: String,
    question_markdown: String,
    place: PlaceOut,
    /// The id of its heading on its page.
    anchor: String,
    /// Each profile: its meaning, what it obliges, who tolerates it, and the rules that apply
    /// to it (`applies=`).
    profiles: Vec<ProfileRules>,
    /// Each provider's claim on the axis, with its evidence.
    claims: Vec<ClaimOn>,
}

#[derive(Serialize, JsonSchema)]
struct ProfileRules {
    #[serde(flatten)]
    profile: ProfileOut,
    /// The IDs of the rules that apply to this profile only.
    rules: Vec<String>,
}

#[derive(Serialize, JsonSchema)]
struct ClaimOn {
    provider: String,
    /// `built`, `proposed` or `spec`.
    provider_status: &'static str,
    profile: String,
    /// The paths and symbols it cites.
    evidence: Vec<String>,
    place: PlaceOut,
}

/// `contract_axis`.
pub(crate) fn axis(loaded: &Loaded, code: &str) -> Result<Typed<AxisAnswer>, Refusal> {
    let export = &loaded.export;
    let Some(axis) = export.axes.iter().find(|a| a.code == code) else {
        return Err(unknown(
            "axis",
            code,
            export.axes.iter().map(|a| a.code.as_str()),
        ));
    };
    let rules_of = |profile: &str| -> Vec<&str> {
        export
            .rules
            .iter()
            .filter(|r| {
                r.applies
                    .as_ref()
                    .is_some_and(|a| a.axis == code && a.profile == profile)
            })
            .map(|r| r.id.as_str())
            .collect()
    };
    let profiles = axis
        .profiles
        .iter()
        .map(|p| ProfileRules {
            profile: p.clone(),
            rules: rules_of(&p.name).into_iter().map(str::to_owned).collect(),
        })
        .collect();
    let claims = claims_on(&export.providers, code);
    let text = axis_text(axis, &claims, rules_of);
    let value = AxisAnswer {
        code: axis.code.clone(),
        question: axis.question.clone(),
        question_markdown: axis.question_markdown.clone(),
        place: axis.place.clone(),
        anchor: axis.anchor.clone(),
        profiles,
        claims,
    };
    Ok(Typed::new(value, text))
}

fn claims_on(providers: &[ProviderOut], code: &str) -> Vec<ClaimOn> {
    providers
        .iter()
        .flat_map(|p| {
            p.claims.iter().filter(|c| c.axis == code).map(|c| ClaimOn {
                provider: p.name.clone(),
                provider_status: p.status,
                profile: c.profile.clone(),
                evidence: c.evidence.clone(),
                place: c.place.clone(),
            })
        })
        .collect()
}

fn axis_text<'a>(
    axis: &AxisOut,
    claims: &[ClaimOn],
    rules_of: impl Fn(&str) -> Vec<&'a str>,
) -> String {
    let mut text = format!(
        "axis `{}` ({}:{}): {}",
        axis.code, axis.place.path, axis.place.line, axis.question
    );
    for p in &axis.profiles {
        let _ = write!(
            text,
            "\nprofile `{}`: {}\n  obliges: {}\n  tolerated by: {}",
            p.name,
            or_unstated(&p.meaning),
            or_unstated(&p.obliges),
            or_unstated(&p.tolerated_by),
        );
        let rules: Vec<String> = rules_of(&p.name)
            .iter()
            .map(|r| format!("r[{r}]"))
            .collect();
        if !rules.is_empty() {
            let _ = write!(text, "\n  rules: {}", rules.join(", "));
        }
    }
    for claim in claims {
        let evidence = if claim.evidence.is_empty() {
            String::new()
        } else {
            format!(", evidence: {}", claim.evidence.join(" "))
        };
        let _ = write!(
            text,
            "\nclaim: `{}` ({}) is `{}`{evidence}",
            claim.provider, claim.provider_status, claim.profile
        );
    }
    text
}

fn or_unstated(text: &str) -> &str {
    if text.is_empty() {
        "(not stated)"
    } else {
        text
    }
}

/// The ID in `written`: `r[verify a.b+2]` and `a.b+2` are both `a.b`.
fn rule_id(written: &str) -> &str {
    let inner = written
        .trim()
        .split_once('[')
        .map_or(written.trim(), |(_, rest)| rest.trim_end_matches(']'));
    let id = inner.rsplit(' ').next().unwrap_or(inner);
    id.split_once('+').map_or(id, |(id, _)| id)
}

/// `contract_rule`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct RuleAnswer {
    rule: RuleOut,
    /// Where it stands for each built provider, then for each provider only a spec describes
    /// so far (bound by the profiles the spec claims; only citations in its own places
    /// count).
    providers: Vec<RuleCell>,
    /// Every citation of the rule in the source tree.
    citations: Vec<RuleCitation>,
    /// `source-root` as book.toml gives it: without it no citation was read.
    source_root: Option<String>,
}

/// Where a rule stands for one provider.
#[derive(Serialize, JsonSchema)]
struct RuleCell {
    provider: String,
    /// `built`, or `spec` for one only a spec describes so far.
    provider_status: &'static str,
    /// Whether the rule binds it; none when that waits on a profile it has not stated.
    bound: Option<bool>,
    /// As `contract_rules` and the rule matrix say it (`passed`, `uncovered`, ...).
    status: Kind,
    citation: Option<CitationOut>,
    result: Option<ResultOut>,
    /// Whether the source tree was read (`source-root`).
    source_read: bool,
}

/// `contract_rule`.
pub(crate) fn rule(loaded: &Loaded, written: &str) -> Result<Typed<RuleAnswer>, Refusal> {
    let export = &loaded.export;
    let id = rule_id(written);
    let Some(rule) = export.rules.iter().find(|r| r.id == id) else {
        return Err(unknown(
            "rule",
            id,
            export.rules.iter().map(|r| r.id.as_str()),
        ));
    };
    let built = export.coverage.iter().map(|c| (c, "built"));
    let pending = loaded.pending.iter().map(|c| (c, "spec"));
    let providers: Vec<RuleCell> = built
        .chain(pending)
        .filter_map(|(c, status)| Some((c, status, c.rules.iter().find(|cell| cell.rule == id)?)))
        .map(|(c, status, cell)| cell_of(c, status, cell))
        .collect();
    let citations: Vec<RuleCitation> = loaded
        .agent
        .citations
        .iter()
        .filter(|c| c.rule == id)
        .cloned()
        .collect();
    let mut text = rule_line(rule);
    for p in &providers {
        let _ = write!(text, "\n{}", cell_line(p));
    }
    if !citations.is_empty() {
        let list: Vec<String> = citations
            .iter()
            .map(|c| {
                let stale = if c.version == rule.version {
                    String::new()
                } else {
                    format!(" (cites version {})", c.version)
                };
                format!("{} {}:{}{stale}", c.verb, c.path, c.line)
            })
            .collect();
        let _ = write!(text, "\ncitations: {}", list.join("; "));
    }
    let value = RuleAnswer {
        rule: rule.clone(),
        providers,
        citations,
        source_root: loaded.agent.source_root.clone(),
    };
    Ok(Typed::new(value, text))
}

pub(super) fn rule_line(rule: &RuleOut) -> String {
    format!(
        "r[{}] ({}, version {}{}; {}:{}): {}",
        rule.id,
        rule.level.unwrap_or("required (no RFC 2119 keyword)"),
        rule.version,
        rule.applies.as_ref().map_or_else(String::new, |a| format!(
            ", applies to `{}` `{}`",
            a.axis, a.profile
        )),
        rule.place.path,
        rule.place.line,
        rule.text
    )
}

/// One provider's cell of a rule: whether it binds it, and its coverage.
fn cell_of(coverage: &CoverageOut, status: &'static str, cell: &CoverageRuleOut) -> RuleCell {
    let bound = match cell.status.binds() {
        Binds::No => Some(false),
        Binds::NotKnown => None,
        Binds::Yes | Binds::Permits => Some(true),
    };
    RuleCell {
        provider: coverage.provider.clone(),
        provider_status: status,
        bound,
        status: cell.status,
        citation: cell.citation.clone(),
        result: cell.result.clone(),
        source_read: coverage.known,
    }
}

fn cell_line(cell: &RuleCell) -> String {
    let at = cell
        .citation
        .as_ref()
        .map(|c| format!(" ({}:{})", c.path, c.line))
        .unwrap_or_default();
    let why = cell
        .result
        .as_ref()
        .and_then(|r| r.message.as_deref())
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    let status = match cell.status.binds() {
        Binds::Yes => cell.status.word().to_owned(),
        _ => format!("{} ({})", cell.status.word(), cell.status.meaning()),
    };
    let spec = if cell.provider_status == "spec" {
        " (spec)"
    } else {
        ""
    };
    format!("`{}`{spec}: {status}{at}{why}", cell.provider)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_id_is_read_past_its_marker_verb_and_version() {
        assert_eq!(rule_id("a.b"), "a.b");
        assert_eq!(rule_id("r[a.b]"), "a.b");
        assert_eq!(rule_id("r[verify a.b+2]"), "a.b");
        assert_eq!(rule_id(" a.b+3 "), "a.b");
    }
}
