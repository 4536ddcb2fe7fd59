//! `contract_overview`, `contract_axis` and `contract_rule`: the contract's own parts.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::{Answer, Refusal, spec_line, spec_value, unknown};
use crate::commands::export::{AxisOut, CoverageOut, CoverageRuleOut, ProviderOut, RuleOut};
use crate::mcp::watch::Loaded;

/// `contract_overview`.
pub(crate) fn overview(loaded: &Loaded) -> Answer {
    let export = &loaded.export;
    let report = &loaded.agent.report;
    let count = |level: Option<&str>| export.rules.iter().filter(|r| r.level == level).count();
    let levels = json!({
        "MUST": count(Some("MUST")),
        "SHOULD": count(Some("SHOULD")),
        "MAY": count(Some("MAY")),
        "none": count(None),
    });
    let specs: Vec<Value> = loaded.agent.status.specs.iter().map(spec_value).collect();
    let value = json!({
        "book": export.book,
        "axes": export.axes.iter().map(|a| json!({
            "code": a.code,
            "question": a.question,
            "profiles": a.profiles.iter().map(|p| &p.name).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "providers": export.providers.iter().map(|p| json!({
            "name": p.name, "status": p.status, "place": p.place,
        })).collect::<Vec<_>>(),
        "rules": { "count": export.rules.len(), "by_level": levels },
        "specs": specs,
        "findings": { "errors": report.errors(), "warnings": report.warnings() },
    });
    let mut text = format!(
        "{}{}: {} axes, {} rules ({} MUST, {} SHOULD, {} MAY), {} provider sections, {} specs; {}.",
        export.book.title.as_deref().unwrap_or("the book"),
        export
            .book
            .version
            .as_ref()
            .map_or_else(String::new, |v| format!(" (version {v})")),
        export.axes.len(),
        export.rules.len(),
        count(Some("MUST")),
        count(Some("SHOULD")),
        count(Some("MAY")),
        export.providers.len(),
        loaded.agent.status.specs.len(),
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
    Answer { value, text }
}
/// `contract_axis`.
pub(crate) fn axis(loaded: &Loaded, code: &str) -> Result<Answer, Refusal> {
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
    let profiles: Vec<Value> = axis
        .profiles
        .iter()
        .map(|p| {
            let mut value = serde_json::to_value(p).unwrap_or(Value::Null);
            value["rules"] = json!(rules_of(&p.name));
            value
        })
        .collect();
    let claims: Vec<Value> = claims_on(&export.providers, code);
    let value = json!({
        "code": axis.code,
        "question": axis.question,
        "question_markdown": axis.question_markdown,
        "place": axis.place,
        "anchor": axis.anchor,
        "profiles": profiles,
        "claims": claims,
    });
    Ok(Answer {
        text: axis_text(axis, &claims, rules_of),
        value,
    })
}

fn claims_on(providers: &[ProviderOut], code: &str) -> Vec<Value> {
    providers
        .iter()
        .flat_map(|p| {
            p.claims.iter().filter(|c| c.axis == code).map(|c| {
                json!({
                    "provider": p.name,
                    "provider_status": p.status,
                    "profile": c.profile,
                    "evidence": c.evidence,
                    "place": c.place,
                })
            })
        })
        .collect()
}

fn axis_text<'a>(
    axis: &AxisOut,
    claims: &[Value],
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
        let _ = write!(
            text,
            "\nclaim: `{}` ({}) is `{}`{}",
            claim["provider"].as_str().unwrap_or_default(),
            claim["provider_status"].as_str().unwrap_or_default(),
            claim["profile"].as_str().unwrap_or_default(),
            evidence_words(&claim["evidence"])
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

fn evidence_words(evidence: &Value) -> String {
    let items: Vec<&str> = evidence
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if items.is_empty() {
        String::new()
    } else {
        format!(", evidence: {}", items.join(" "))
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

/// `contract_rule`.
pub(crate) fn rule(loaded: &Loaded, written: &str) -> Result<Answer, Refusal> {
    let export = &loaded.export;
    let id = rule_id(written);
    let Some(rule) = export.rules.iter().find(|r| r.id == id) else {
        return Err(unknown(
            "rule",
            id,
            export.rules.iter().map(|r| r.id.as_str()),
        ));
    };
    let providers: Vec<Value> = export
        .coverage
        .iter()
        .filter_map(|c| Some((c, c.rules.iter().find(|cell| cell.rule == id)?)))
        .map(|(c, cell)| cell_value(c, cell))
        .collect();
    let citations: Vec<_> = loaded
        .agent
        .citations
        .iter()
        .filter(|c| c.rule == id)
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
    let value = json!({
        "rule": rule,
        "providers": providers,
        "citations": citations,
        "source_root": loaded.agent.source_root,
    });
    Ok(Answer { value, text })
}

fn rule_line(rule: &RuleOut) -> String {
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

/// One built provider's cell of a rule: whether it binds it, and its coverage.
fn cell_value(coverage: &CoverageOut, cell: &CoverageRuleOut) -> Value {
    let bound = match cell.status {
        "not-bound" => json!(false),
        "profile-unknown" => Value::Null,
        _ => json!(true),
    };
    json!({
        "provider": coverage.provider,
        "bound": bound,
        "status": cell.status,
        "citation": cell.citation,
        "result": cell.result,
        "source_read": coverage.known,
    })
}

fn cell_line(cell: &Value) -> String {
    let provider = cell["provider"].as_str().unwrap_or_default();
    let status = cell["status"].as_str().unwrap_or_default();
    let at = cell["citation"]
        .as_object()
        .map(|c| {
            format!(
                " ({}:{})",
                c["path"].as_str().unwrap_or_default(),
                c["line"]
            )
        })
        .unwrap_or_default();
    let why = cell["result"]["message"]
        .as_str()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    let status = match status {
        "not-bound" => "not bound (it does not claim the profile the rule applies to)",
        "profile-unknown" => "bound or not is unknown (its profile on the axis is not stated)",
        "optional" => "bound, optional (it obliges nothing)",
        other => other,
    };
    format!("`{provider}`: {status}{at}{why}")
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
