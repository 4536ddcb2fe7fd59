//! Each tool's answer, from the loaded book: the structured content (what `export` and
//! `status` hold, picked for the question) and a short text of it.
//!
//! A name that is not in the book is a refusal that names the nearest one there is, never an
//! empty answer.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::tools::{Answer, Refusal};
use super::watch::Loaded;
use crate::export::{AxisOut, CoverageOut, CoverageRuleOut, ProviderOut, RuleOut};
use crate::status::{ProviderCoverage, SpecState};

/// How many names a refusal lists.
const LISTED: usize = 12;

/// How many lines of findings the text of `contract_check` shows.
const SHOWN_FINDINGS: usize = 20;

/// "no axis `x` in this book; did you mean `y`? It has `a`, `b`."
fn unknown<'a>(what: &str, word: &str, known: impl Iterator<Item = &'a str> + Clone) -> Refusal {
    let mut seen = std::collections::HashSet::new();
    let names: Vec<&str> = known.clone().filter(|n| seen.insert(*n)).collect();
    if names.is_empty() {
        return format!("no {what} `{word}`: this book has none");
    }
    let hint = crate::suggest::hint(word, known);
    let mut list: Vec<String> = names
        .iter()
        .take(LISTED)
        .map(|n| format!("`{n}`"))
        .collect();
    if names.len() > LISTED {
        list.push(format!("and {} more", names.len() - LISTED));
    }
    format!(
        "no {what} `{word}` in this book{hint} (it has {})",
        list.join(", ")
    )
}

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

fn spec_value(spec: &SpecState) -> Value {
    json!({
        "provider": spec.provider,
        "path": spec.path,
        "status": spec.status,
        "answered": spec.answered,
        "entries": spec.entries,
        "open": spec.open,
    })
}

fn spec_line(spec: &SpecState) -> String {
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
        rule.level.unwrap_or("no RFC 2119 keyword"),
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

/// `contract_check`.
pub(crate) fn check(loaded: &Loaded, path: Option<&str>) -> Result<Answer, Refusal> {
    let all = loaded
        .export
        .findings
        .as_array()
        .cloned()
        .unwrap_or_default();
    let findings: Vec<Value> = match path {
        None => all,
        Some(path) => {
            let shown = file_of(loaded, path)?;
            all.into_iter()
                .filter(|f| f["path"] == shown.as_str())
                .collect()
        }
    };
    let count = |severity: &str| {
        findings
            .iter()
            .filter(|f| f["severity"] == severity)
            .count()
    };
    let (errors, warnings) = (count("error"), count("warning"));
    let mut text = format!(
        "{} errors, {} warnings{}",
        errors,
        warnings,
        path.map_or_else(String::new, |p| format!(" in `{p}`"))
    );
    for f in findings.iter().take(SHOWN_FINDINGS) {
        let _ = write!(
            text,
            "\n{}:{}:{}: {}[{}]: {}",
            f["path"].as_str().unwrap_or_default(),
            f["line"],
            f["column"],
            f["severity"].as_str().unwrap_or_default(),
            f["check"].as_str().unwrap_or_default(),
            f["message"].as_str().unwrap_or_default()
        );
    }
    if findings.len() > SHOWN_FINDINGS {
        let _ = write!(text, "\nand {} more", findings.len() - SHOWN_FINDINGS);
    }
    Ok(Answer {
        value: json!({ "errors": errors, "warnings": warnings, "findings": findings }),
        text,
    })
}

/// The path findings show for the file `path` names (relative to the book root or to its
/// source folder), or a refusal naming the nearest file of the book.
fn file_of(loaded: &Loaded, path: &str) -> Result<String, Refusal> {
    let path = path.trim_start_matches("./").replace('\\', "/");
    let src = &loaded.src;
    let mut files: Vec<String> = vec!["book.toml".to_owned()];
    for item in loaded.book.iter() {
        if let mdbook_preprocessor::book::BookItem::Chapter(ch) = item
            && let Some(source) = &ch.source_path
        {
            files.push(format!(
                "{src}/{}",
                source.to_string_lossy().replace('\\', "/")
            ));
        }
    }
    for f in loaded.export.findings.as_array().into_iter().flatten() {
        if let Some(p) = f["path"].as_str() {
            files.push(p.to_owned());
        }
    }
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    let inside = format!("{src}/{path}");
    if let Some(file) = files.iter().find(|f| **f == path || **f == inside) {
        return Ok(file.clone());
    }
    // The nearest by file name: `contract.md` for `src/provider-contract.md`.
    let name = |f: &str| f.rsplit('/').next().unwrap_or(f).to_owned();
    let names: Vec<String> = files.iter().map(|f| name(f)).collect();
    let nearest = crate::suggest::did_you_mean(&name(&path), names.iter().map(String::as_str))
        .and_then(|n| files.iter().find(|f| name(f) == n));
    Err(match nearest {
        Some(file) => format!(
            "no file `{path}` in this book; did you mean `{file}`? (paths are relative to the book root or to `{src}`)"
        ),
        None => unknown("file", &path, files.iter().map(String::as_str)),
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
                v["level"].as_str().unwrap_or("no keyword"),
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

    #[test]
    fn an_unknown_name_is_answered_with_the_nearest() {
        let refusal = unknown(
            "axis",
            "readines",
            ["readiness", "create-return"].into_iter(),
        );
        assert!(refusal.contains("did you mean `readiness`?"), "{refusal}");
        assert!(refusal.contains("`create-return`"), "{refusal}");
        assert_eq!(
            unknown("axis", "x", std::iter::empty()),
            "no axis `x`: this book has none"
        );
    }
}
