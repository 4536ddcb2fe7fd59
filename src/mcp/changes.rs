//! What changed in the book between two calls of one client, in one or two lines.
//!
//! The contract's changes are `diff`'s, compared between the two readings of the book (rules
//! added or revised, claims changed, entries answered); beside them, the rules whose coverage
//! changed for a provider (built or only a spec), the chapters SUMMARY.md added or took out,
//! the findings fixed and new, and those whose severity changed (book.toml's `checks`). A
//! finding is the same finding when its check, file and message are: one that only moved with
//! the lines above it is neither fixed nor new.

use std::collections::{BTreeSet, HashMap, VecDeque};

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
    lines.extend(chapters(before, after));
    let (was, now) = (&before.agent.report.findings, &after.agent.report.findings);
    lines.extend(findings(was, now));
    lines.extend(severities(was, now));
    lines
}

/// `"chapters: added src/faq.md; removed src/old.md"`, or nothing when SUMMARY.md names the
/// same chapter files.
fn chapters(before: &Loaded, after: &Loaded) -> Option<String> {
    let files = |loaded: &Loaded| -> BTreeSet<String> {
        loaded
            .book
            .iter()
            .filter_map(|item| match item {
                mdbook_preprocessor::book::BookItem::Chapter(c) => c.source_path.as_ref(),
                _ => None,
            })
            .map(|path| {
                loaded.paths.of_book(&format!(
                    "{}/{}",
                    loaded.src,
                    crate::util::paths::slashed(path)
                ))
            })
            .collect()
    };
    let (was, now) = (files(before), files(after));
    let added: Vec<String> = now.difference(&was).cloned().collect();
    let removed: Vec<String> = was.difference(&now).cloned().collect();
    let mut parts = Vec::new();
    if !added.is_empty() {
        parts.push(format!("added {}", named(&added)));
    }
    if !removed.is_empty() {
        parts.push(format!("removed {}", named(&removed)));
    }
    (!parts.is_empty()).then(|| format!("chapters: {}", parts.join("; ")))
}

/// `"severities: 25 changed (unanswered-entry at ...: warning → error; ...)"` for the findings
/// found before and after whose severity is not the same, or nothing.
fn severities(before: &[Finding], after: &[Finding]) -> Option<String> {
    let mut was: HashMap<_, VecDeque<_>> = HashMap::new();
    for finding in before {
        was.entry(key(finding))
            .or_default()
            .push_back(finding.severity);
    }
    let changed: Vec<String> = after
        .iter()
        .filter_map(|finding| {
            let old = was.get_mut(&key(finding))?.pop_front()?;
            (old != finding.severity).then(|| {
                format!(
                    "{}: {} → {}",
                    describe(finding),
                    old.as_str(),
                    finding.severity.as_str()
                )
            })
        })
        .collect();
    (!changed.is_empty()).then(|| {
        format!(
            "severities: {} changed ({})",
            changed.len(),
            named(&changed)
        )
    })
}

/// What makes a finding the same finding: its check, file and message.
fn key(f: &Finding) -> (&'static str, String, String) {
    (
        f.check.name(),
        f.location.path.to_string_lossy().into_owned(),
        f.message.clone(),
    )
}

/// `"`pods`: r[a.b] uncovered → verified"` for each rule whose cell changed.
fn coverage(before: &Loaded, after: &Loaded) -> Vec<String> {
    let mut out = Vec::new();
    let mut told = false;
    // A provider only a spec describes is told as a built one: its own code's citations.
    for now in after.export.coverage.iter().chain(&after.pending) {
        let Some(was) = before
            .export
            .coverage
            .iter()
            .chain(&before.pending)
            .find(|c| c.provider == now.provider)
        else {
            continue;
        };
        use crate::model::rules::status::Kind;
        let old: HashMap<&str, Kind> = was
            .rules
            .iter()
            .map(|r| (r.rule.as_str(), r.status))
            .collect();
        // The source read for the first time (or no longer): said once, not per rule whose
        // coverage only became known (nothing cites it) or unknown again.
        let learnt = |from: Kind, to: Kind| {
            matches!(
                (from, to),
                (Kind::Unknown, Kind::Uncovered) | (Kind::Uncovered, Kind::Unknown)
            )
        };
        if was.known != now.known && !told {
            told = true;
            out.push(format!(
                "the source tree is {} now",
                if now.known { "read" } else { "not read" }
            ));
        }
        for cell in &now.rules {
            match old.get(cell.rule.as_str()) {
                Some(&status) if status != cell.status && !learnt(status, cell.status) => {
                    out.push(format!(
                        "`{}`: r[{}] {status} → {}",
                        now.provider, cell.rule, cell.status
                    ))
                }
                _ => {}
            }
        }
    }
    out
}

/// `"findings: 1 fixed (...), 2 new (...)"`, or nothing when the findings are the same.
fn findings(before: &[Finding], after: &[Finding]) -> Option<String> {
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
