//! What changed in the book between two calls of one client, in one or two lines.
//!
//! The contract's changes are `diff`'s, compared between the two readings of the book (rules
//! added or revised, claims changed, entries answered); beside them, the rules whose coverage
//! changed for a provider, and the findings fixed and new. A finding is the same finding when
//! its check, file and message are: one that only moved with the lines above it is neither
//! fixed nor new.

use std::collections::HashMap;

use super::watch::{Loaded, State};
use crate::report::diagnostic::Finding;

/// How many items a line names before it counts the rest.
const NAMED: usize = 3;

/// What changed from `before` to `after`: no line when nothing did.
pub(crate) fn between(before: &State, after: &State) -> Vec<String> {
    match (before, after) {
        (State::Loaded(before), State::Loaded(after)) => loaded(before, after),
        (State::Loaded(_), State::Failed(_)) => {
            vec!["the book cannot be loaded now (see the error)".to_owned()]
        }
        (State::Failed(_), State::Loaded(_)) => {
            vec!["the book loads again".to_owned()]
        }
        (State::Failed(was), State::Failed(now)) if was != now => {
            vec!["the book still cannot be loaded, for another reason".to_owned()]
        }
        (State::Failed(_), State::Failed(_)) => Vec::new(),
    }
}

fn loaded(before: &Loaded, after: &Loaded) -> Vec<String> {
    let mut contract: Vec<String> =
        crate::commands::diff::between(&before.agent.snapshot, &after.agent.snapshot)
            .into_iter()
            .map(|c| c.message)
            .collect();
    contract.extend(coverage(before, after));
    let mut lines = Vec::new();
    if !contract.is_empty() {
        lines.push(format!("contract: {}", named(&contract)));
    }
    if let Some(line) = findings(&before.agent.report.findings, &after.agent.report.findings) {
        lines.push(line);
    }
    lines
}

/// `"`pods`: r[a.b] uncovered → verified"` for each rule whose cell changed.
fn coverage(before: &Loaded, after: &Loaded) -> Vec<String> {
    let mut out = Vec::new();
    for now in &after.export.coverage {
        let Some(was) = before
            .export
            .coverage
            .iter()
            .find(|c| c.provider == now.provider)
        else {
            continue;
        };
        let old: HashMap<&str, &str> = was
            .rules
            .iter()
            .map(|r| (r.rule.as_str(), r.status))
            .collect();
        for cell in &now.rules {
            match old.get(cell.rule.as_str()) {
                Some(&status) if status != cell.status => out.push(format!(
                    "`{}`: r[{}] {status} → {}",
                    now.provider, cell.rule, cell.status
                )),
                _ => {}
            }
        }
    }
    out
}

/// `"findings: 1 fixed (...), 2 new (...)"`, or nothing when the findings are the same.
fn findings(before: &[Finding], after: &[Finding]) -> Option<String> {
    let key = |f: &Finding| {
        (
            f.check.name(),
            f.location.path.to_string_lossy().into_owned(),
            f.message.clone(),
        )
    };
    let mut left: HashMap<_, usize> = HashMap::new();
    for finding in before {
        *left.entry(key(finding)).or_default() += 1;
    }
    let mut new = Vec::new();
    for finding in after {
        match left.get_mut(&key(finding)) {
            Some(n) if *n > 0 => *n -= 1,
            _ => new.push(describe(finding)),
        }
    }
    let mut fixed = Vec::new();
    for finding in before {
        if let Some(n) = left.get_mut(&key(finding))
            && *n > 0
        {
            *n -= 1;
            fixed.push(describe(finding));
        }
    }
    let mut parts = Vec::new();
    if !fixed.is_empty() {
        parts.push(format!("{} fixed ({})", fixed.len(), named(&fixed)));
    }
    if !new.is_empty() {
        parts.push(format!("{} new ({})", new.len(), named(&new)));
    }
    (!parts.is_empty()).then(|| format!("findings: {}", parts.join(", ")))
}

fn describe(finding: &Finding) -> String {
    format!(
        "{} at {}:{}:{}",
        finding.check.name(),
        finding.location.path.display(),
        finding.location.line,
        finding.location.column
    )
}

/// The first [`NAMED`] of `items`, and how many more.
fn named(items: &[String]) -> String {
    let mut out = items
        .iter()
        .take(NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if items.len() > NAMED {
        out.push_str(&format!("; and {} more", items.len() - NAMED));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_is_counted_after_three() {
        let items: Vec<String> = (1..=5).map(|i| i.to_string()).collect();
        assert_eq!(named(&items), "1; 2; 3; and 2 more");
        assert_eq!(named(&items[..2]), "1; 2");
    }
}
