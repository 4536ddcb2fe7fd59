//! Each tool's answer, from the loaded book: the structured content (what `export` and
//! `status` hold, picked for the question) and a short text of it. `contract.rs` answers of
//! the contract (the overview, an axis, a rule), `providers.rs` of a provider (its state, its
//! brief, its rules still waiting for a test), `findings.rs` of the checks.
//!
//! A name that is not in the book is a refusal that names the nearest one there is, never an
//! empty answer ([`unknown`]).

mod contract;
mod findings;
mod providers;

use serde_json::{Value, json};

use crate::pipeline::status::SpecState;

pub(crate) use contract::{axis, overview, rule};
pub(crate) use findings::check;
pub(crate) use providers::{brief, provider, uncovered};

/// What a tool answers: the structured content (a JSON object) and a short text of it.
pub(crate) struct Answer {
    pub(crate) value: serde_json::Value,
    pub(crate) text: String,
}

/// Why a tool gives no answer, in a sentence the agent can act on.
pub(crate) type Refusal = String;

/// How many names a refusal lists.
const LISTED: usize = 12;

/// "no axis `x` in this book; did you mean `y`? It has `a`, `b`."
pub(super) fn unknown<'a>(
    what: &str,
    word: &str,
    known: impl Iterator<Item = &'a str> + Clone,
) -> Refusal {
    let mut seen = std::collections::HashSet::new();
    let names: Vec<&str> = known.clone().filter(|n| seen.insert(*n)).collect();
    if names.is_empty() {
        return format!("no {what} `{word}`: this book has none");
    }
    let hint = crate::util::suggest::hint(word, known);
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
pub(super) fn spec_value(spec: &SpecState) -> Value {
    json!({
        "provider": spec.provider,
        "path": spec.path,
        "status": spec.status,
        "answered": spec.answered,
        "entries": spec.entries,
        "open": spec.open,
    })
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
}
