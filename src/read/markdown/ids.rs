//! The ids mdBook 0.5 gives headings and definition terms.
//!
//! These mirror `id_from_content` and `unique_id` of mdbook-html; the golden test in
//! `tests/testsuite/heading_ids.rs` compares them with real rendered HTML, so a change in mdBook shows up
//! there first.

use std::collections::{HashMap, HashSet};

/// The id mdBook derives from a heading's rendered text: trimmed, lowercased, alphanumerics,
/// `_` and `-` kept, whitespace turned into `-`, everything else dropped.
pub(crate) fn id_from_content(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|ch| {
            if ch.is_alphanumeric() || ch == '_' || ch == '-' {
                Some(ch)
            } else if ch.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The ids already given out on one page, shared by h1 to h6 and definition terms.
#[derive(Debug, Default)]
pub(crate) struct IdSet {
    used: HashSet<String>,
    /// For each id asked for more than once, the first suffix not yet probed. Every suffix
    /// below it is taken and ids are never given back, so probing resumes there: the same ids
    /// as probing from 1, as mdBook does, without its quadratic time on a page with thousands
    /// of equal headings.
    next: HashMap<String, u32>,
}

impl IdSet {
    /// Takes `id` if it is free, else the first of `id-1`, `id-2`, ... that is.
    pub(crate) fn unique(&mut self, id: &str) -> String {
        if self.used.insert(id.to_owned()) {
            return id.to_owned();
        }
        let counter = self.next.entry(id.to_owned()).or_insert(1);
        loop {
            let candidate = format!("{id}-{counter}");
            *counter += 1;
            if self.used.insert(candidate.clone()) {
                return candidate;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_from_mdbook() {
        assert_eq!(
            id_from_content("--passes: add more rustdoc passes"),
            "--passes-add-more-rustdoc-passes"
        );
        assert_eq!(
            id_from_content("Don’t stop believin’"),
            "dont-stop-believin"
        );
        assert_eq!(id_from_content("a & b < c > d"), "a--b--c--d");
        assert_eq!(id_from_content("1.2.3 Numbers"), "123-numbers");
        assert_eq!(id_from_content("Emoji 🐙 here"), "emoji--here");
        assert_eq!(id_from_content("  Überschrift_Ä  "), "überschrift_ä");
    }

    #[test]
    fn duplicates_get_suffixes() {
        let mut ids = IdSet::default();
        let got: Vec<String> = ["hello-world", "hello-world", "hello-world", "hello-world-1"]
            .iter()
            .map(|id| ids.unique(id))
            .collect();
        assert_eq!(
            got,
            [
                "hello-world",
                "hello-world-1",
                "hello-world-2",
                "hello-world-1-1"
            ]
        );
    }

    /// mdBook's `unique_id`: probe `id-1`, `id-2`, ... from 1 every time.
    fn naive(used: &mut HashSet<String>, id: &str) -> String {
        if used.insert(id.to_owned()) {
            return id.to_owned();
        }
        (1..)
            .map(|n| format!("{id}-{n}"))
            .find(|candidate| used.insert(candidate.clone()))
            .expect("a free suffix")
    }

    #[test]
    fn resumed_probing_gives_mdbooks_ids() {
        let sequence = [
            "a", "a-1", "a", "a-2", "a", "a-1", "a", "a-3-1", "a-3", "a", "b", "a-1-1", "a-1", "a",
            "b-1", "b", "b", "a-4",
        ];
        let (mut ids, mut used) = (IdSet::default(), HashSet::new());
        for id in sequence.iter().cycle().take(sequence.len() * 5) {
            assert_eq!(ids.unique(id), naive(&mut used, id), "for {id}");
        }
    }
}
