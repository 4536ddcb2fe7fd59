//! Each tool's answer, from the loaded book: a typed value (its `JsonSchema` is the tool's
//! `outputSchema`, its JSON the structured content) and a short text of it. `contract.rs`
//! answers of the contract (the overview, an axis, a rule), `rules.rs` the rules filtered,
//! `providers.rs` of a provider (its state, built, only specified or known by its report),
//! `uncovered.rs` the rules still waiting for a test, `brief.rs` its brief by section and
//! page, `findings.rs` of the checks, `new_spec.rs` the one tool that writes. A long list is
//! answered in pages ([`page_end`]), each under 10k tokens by default.
//!
//! Every path an answer gives is from the repository's root (as `check --format github`
//! prints it), or from the book's root outside a repository ([`crate::mcp::watch::Paths`]).
//!
//! A name that is not in the book is a refusal that names the nearest one there is, never an
//! empty answer ([`unknown`]).

mod brief;
mod contract;
mod findings;
mod new_spec;
mod providers;
mod rules;
mod uncovered;

use schemars::JsonSchema;
use serde::Serialize;

pub(crate) use brief::brief;
pub(crate) use contract::{axis, overview, rule};
pub(crate) use findings::check;
pub(crate) use new_spec::new_spec;
pub(crate) use providers::provider;
pub(crate) use rules::{Filter, rules};
pub(crate) use uncovered::uncovered;

use crate::commands::export::{CitationOut, CoverageOut, ResultOut, RuleOut};
use crate::model::rules::status::Kind;

/// What a tool answers: the structured content (a JSON object) and a short text of it.
pub(crate) struct Answer {
    pub(crate) value: serde_json::Value,
    pub(crate) text: String,
}

impl Answer {
    /// `out` as the structured content, with `text`.
    pub(crate) fn of<T: Serialize>(out: &T, text: String) -> Answer {
        let value = serde_json::to_value(out)
            .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }));
        Answer { value, text }
    }
}

/// A tool's answer before it is JSON: its type is the tool's output schema.
pub(crate) struct Typed<T> {
    pub(crate) value: T,
    pub(crate) text: String,
}

impl<T> Typed<T> {
    pub(crate) fn new(value: T, text: String) -> Typed<T> {
        Typed { value, text }
    }
}

/// How many bytes of a list (as JSON) one answer holds by default: with the summary and the
/// counts, a page stays under 10k tokens.
pub(crate) const PAGE_BYTES: usize = 24 * 1024;

/// How many rule IDs one sentence or list of an answer names before it counts the rest.
pub(crate) const NAMED: usize = 20;

/// Where the page of `all` that starts at `start` ends: after `most` items, or before the one
/// that would take its JSON over `bytes` (one at least, so that every page moves on).
pub(super) fn page_end<T: Serialize>(all: &[T], start: usize, most: usize, bytes: usize) -> usize {
    let mut used = 2;
    let mut end = start;
    for item in all.iter().skip(start).take(most) {
        let size = serde_json::to_string(item).map_or(0, |s| s.len()) + 1;
        if end > start && used + size > bytes {
            break;
        }
        used += size;
        end += 1;
    }
    end
}

/// Why a tool gives no answer, in a sentence the agent can act on.
pub(crate) type Refusal = String;

/// How many names a refusal lists.
const LISTED: usize = 12;

/// The longest argument a refusal repeats whole.
const ECHOED: usize = 100;

/// `word` as a refusal repeats it: whole when short, else its start and its length, so that a
/// 10 MiB argument is not sent back.
pub(crate) fn echoed(word: &str) -> String {
    if word.len() <= ECHOED {
        return word.to_owned();
    }
    let mut end = 40;
    while !word.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &word[..end], word.len())
}

/// "no axis `x` in this book; did you mean `y`? It has `a`, `b`."
pub(super) fn unknown<'a>(
    what: &str,
    word: &str,
    known: impl Iterator<Item = &'a str> + Clone,
) -> Refusal {
    let mut seen = std::collections::HashSet::new();
    let names: Vec<&str> = known.clone().filter(|n| seen.insert(*n)).collect();
    let shown = echoed(word);
    if names.is_empty() {
        return format!("no {what} `{shown}`: this book has none");
    }
    // No name is that long: no nearest one to look for (and no quadratic distance to pay).
    let hint = if word.len() > ECHOED {
        String::new()
    } else {
        crate::util::suggest::hint(word, known)
    };
    let word = shown;
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

/// Where one rule stands for one provider, with the rule's level and words.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ProviderRule {
    /// The rule's ID.
    pub(crate) rule: String,
    /// `MUST`, `SHOULD` or `MAY`; none for a marker without a keyword (required, as a MUST).
    pub(crate) level: Option<&'static str>,
    /// The rule's words, as a reader sees them.
    pub(crate) text: String,
    /// Where the rule stands for the provider, as the rule matrix and the export say it.
    pub(crate) status: Kind,
    /// The citation that decides the status, from the repository's root; for a provider
    /// report's, its `url` in the provider's repository at the report's commit.
    pub(crate) citation: Option<CitationOut>,
    /// The test result that decided a `failed` or `skipped` status.
    pub(crate) result: Option<ResultOut>,
}

/// A provider's cells as [`ProviderRule`]s, in the contract's order.
pub(super) fn provider_rules(coverage: &CoverageOut, rules: &[RuleOut]) -> Vec<ProviderRule> {
    coverage
        .rules
        .iter()
        .map(|cell| {
            let rule = rules.iter().find(|r| r.id == cell.rule);
            ProviderRule {
                rule: cell.rule.clone(),
                level: rule.and_then(|r| r.level),
                text: rule.map(|r| r.text.clone()).unwrap_or_default(),
                status: cell.status,
                citation: cell.citation.clone(),
                result: cell.result.clone(),
            }
        })
        .collect()
}

/// Where the page a `cursor` names starts (0 without one): the number a previous answer gave
/// as `next_cursor`, if `valid`; else why not, naming `what` is paged and the arguments to
/// keep (`same`).
fn cursor_start(
    cursor: Option<&str>,
    valid: impl Fn(usize) -> bool,
    what: &str,
    same: &str,
) -> Result<usize, String> {
    let Some(c) = cursor else {
        return Ok(0);
    };
    c.parse::<usize>().ok().filter(|&at| valid(at)).ok_or_else(|| {
        format!(
            "`{}` is not a cursor of {what}: pass the `next_cursor` of the previous answer, with the same {same}",
            echoed(c)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_cursor_is_a_start_the_last_answer_gave() {
        let valid = |at: usize| at < 10;
        assert_eq!(cursor_start(None, valid, "this list", "filters"), Ok(0));
        assert_eq!(
            cursor_start(Some("4"), valid, "this list", "filters"),
            Ok(4)
        );
        for bad in ["10", "-1", "x", ""] {
            let why = cursor_start(Some(bad), valid, "this list", "filters").unwrap_err();
            assert_eq!(
                why,
                format!(
                    "`{bad}` is not a cursor of this list: pass the `next_cursor` of the previous answer, with the same filters"
                )
            );
        }
    }
}
