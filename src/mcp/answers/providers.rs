//! `contract_provider`, `contract_brief` and `contract_uncovered`: one provider's state, its
//! brief, and the rules that still wait for its tests.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::{Answer, Refusal, spec_line, spec_value, unknown};
use crate::commands::export::{CoverageOut, ProviderOut, RuleOut};
use crate::mcp::watch::Loaded;
use crate::pipeline::status::{ProviderCoverage, SpecState};

/// `contract_provider`.
pub(crate) fn provider(loaded: &Loaded, name: &str) -> Result<Answer, Refusal> {
    let export = &loaded.export;
    let sections: Vec<&ProviderOut> = export.providers.iter().filter(|p| p.name == name).collect();
    if sections.is_empty() {
        return Err(unknown(
            "provider",
            name,
            export.providers.iter().map(|p| p.name.as_str()),
        ));
    }
    let coverage = loaded
        .agent
        .status
        .providers
        .iter()
        .find(|p| p.provider == name);
    let cells = export.coverage.iter().find(|c| c.provider == name);
    let spec = loaded
        .agent
        .status
        .specs
        .iter()
        .find(|s| s.provider == name);
    let next = next_step(&sections, coverage, spec, &loaded.export.rules);
    let value = json!({
        "name": name,
        "sections": sections,
        "coverage": coverage,
        "rules": cells.map(|c| &c.rules),
        "spec": spec.map(spec_value),
        "next": next,
    });
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
    if let Some(c) = coverage {
        let _ = writeln!(text, "{}", coverage_line(c));
    }
    if let Some(spec) = spec {
        let _ = writeln!(text, "{}", spec_line(spec));
    }
    let _ = write!(text, "next: {next}");
    Ok(Answer { value, text })
}

fn coverage_line(c: &ProviderCoverage) -> String {
    if !c.known {
        return format!(
            "bound by {} rules; coverage unknown (book.toml sets no `source-root`)",
            c.bound
        );
    }
    format!(
        "coverage: {} of {} bound rules verified ({} of {} MUST), {} failed, {} skipped, {} not run, {} implemented only",
        c.verified, c.bound, c.must_verified, c.must, c.failed, c.skipped, c.not_run, c.implemented
    )
}

/// What to do next for a provider, as `status` would have it: answer its spec, then verify
/// its rules, MUST first.
fn next_step(
    sections: &[&ProviderOut],
    coverage: Option<&ProviderCoverage>,
    spec: Option<&SpecState>,
    rules: &[RuleOut],
) -> String {
    let name = &sections[0].name;
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
        (Some(c), _) if !c.known => {
            "set `source-root` in book.toml, so that the rules its code and tests cite are read"
                .to_owned()
        }
        (Some(c), _) if c.failed > 0 => format!(
            "make the failing tests pass: {} rules have a failing test (`contract_uncovered`)",
            c.failed
        ),
        (Some(c), _) if !c.must_short.is_empty() => format!(
            "verify the MUST rules not verified yet, citing each in a test (`// r[verify ID]`): {}",
            c.must_short
                .iter()
                .map(|r| format!("r[{r}]"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (Some(c), _) if c.verified < c.bound => format!(
            "verify the {} bound rules not verified yet (`contract_uncovered`)",
            c.bound - c.verified
        ),
        (Some(_), _) => "nothing: every rule that binds it is verified".to_owned(),
        (None, Some(s)) if s.status == "draft" => format!(
            "every entry is answered: mark the spec `**Status:** accepted` ({})",
            s.path.display()
        ),
        (None, Some(_)) if rules.is_empty() => {
            "build it from its brief (`contract_brief`)".to_owned()
        }
        (None, Some(_)) => format!(
            "build it from its brief (`contract_brief`), then list `{name}` as a built provider so its coverage is counted"
        ),
        (None, None) => format!("write its spec: `mdbook-contract new-spec {name}`"),
    }
}

/// `contract_brief`.
pub(crate) fn brief(loaded: &Loaded, provider: &str) -> Result<Answer, Refusal> {
    let specs = &loaded.agent.status.specs;
    if !specs.iter().any(|s| s.provider == provider) {
        return Err(unknown(
            "provider with a spec",
            provider,
            specs.iter().map(|s| s.provider.as_str()),
        ));
    }
    let markdown = loaded.brief(provider)?;
    Ok(Answer {
        value: json!({ "provider": provider, "markdown": markdown }),
        text: markdown,
    })
}
/// `contract_uncovered`.
pub(crate) fn uncovered(loaded: &Loaded, provider: Option<&str>) -> Result<Answer, Refusal> {
    let export = &loaded.export;
    if export.rules.is_empty() {
        return Ok(Answer {
            value: json!({ "results_read": loaded.agent.status.results, "providers": [] }),
            text: "the contract has no rules (no `r[ID]` marker lines in a contract chapter), so no rule waits for a test".to_owned(),
        });
    }
    if let Some(name) = provider
        && !export.coverage.iter().any(|c| c.provider == name)
    {
        if let Some(p) = export.providers.iter().find(|p| p.name == name) {
            return Err(format!(
                "`{name}` is {}, not built: it has no code to cover rules yet",
                if p.status == "spec" {
                    "a spec"
                } else {
                    "proposed"
                }
            ));
        }
        return Err(unknown(
            "built provider",
            name,
            export.coverage.iter().map(|c| c.provider.as_str()),
        ));
    }
    let mut text = String::new();
    let mut providers = Vec::new();
    for c in export
        .coverage
        .iter()
        .filter(|c| provider.is_none_or(|p| p == c.provider))
    {
        let (value, line) = uncovered_of(c, &export.rules);
        providers.push(value);
        let _ = writeln!(text, "{line}");
    }
    if providers.is_empty() {
        text.push_str("no built provider: nothing binds a rule yet\n");
    }
    Ok(Answer {
        value: json!({ "results_read": loaded.agent.status.results, "providers": providers }),
        text: text.trim_end().to_owned(),
    })
}

/// Whether a cell's rule still waits for a test: bound, obliging, and not verified (passed).
fn open(status: &str) -> bool {
    matches!(
        status,
        "uncovered" | "implemented" | "failed" | "skipped" | "not-run"
    )
}

fn uncovered_of(c: &CoverageOut, rules: &[RuleOut]) -> (Value, String) {
    let rule = |id: &str| rules.iter().find(|r| r.id == id);
    let cells: Vec<Value> = c
        .rules
        .iter()
        .filter(|cell| open(cell.status))
        .map(|cell| {
            let r = rule(&cell.rule);
            json!({
                "rule": cell.rule,
                "level": r.and_then(|r| r.level),
                "text": r.map(|r| &r.text),
                "status": cell.status,
                "citation": cell.citation,
                "result": cell.result,
            })
        })
        .collect();
    let undecided: Vec<&str> = c
        .rules
        .iter()
        .filter(|cell| cell.status == "profile-unknown")
        .map(|cell| cell.rule.as_str())
        .collect();
    let mut line = if c.known {
        format!("`{}`: {} bound rules not verified", c.provider, cells.len())
    } else {
        format!(
            "`{}`: {} bound rules, none known to be verified (book.toml sets no `source-root`)",
            c.provider,
            cells.len()
        )
    };
    let named: Vec<String> = cells
        .iter()
        .map(|v| {
            format!(
                "r[{}] ({}, {})",
                v["rule"].as_str().unwrap_or_default(),
                v["level"].as_str().unwrap_or("required"),
                v["status"].as_str().unwrap_or_default()
            )
        })
        .collect();
    if !named.is_empty() {
        let _ = write!(line, ": {}", named.join(", "));
    }
    if !undecided.is_empty() {
        let _ = write!(
            line,
            "; whether {} bind it is unknown until it states its profile",
            undecided.join(", ")
        );
    }
    let value = json!({
        "provider": c.provider,
        "source_read": c.known,
        "rules": cells,
        "undecided": undecided,
    });
    (value, line)
}
