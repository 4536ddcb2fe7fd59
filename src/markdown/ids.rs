//! The ids mdBook 0.5 gives headings and definition terms.
//!
//! These mirror `id_from_content` and `unique_id` of mdbook-html; the golden test in
//! `tests/heading_ids.rs` compares them with real rendered HTML, so a change in mdBook shows up
//! there first.

use std::collections::HashSet;

/// The id mdBook derives from a heading's rendered text: trimmed, lowercased, alphanumerics,
/// `_` and `-` kept, whitespace turned into `-`, everything else dropped.
pub fn id_from_content(text: &str) -> String {
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
pub struct IdSet {
    used: HashSet<String>,
}

impl IdSet {
    /// Takes `id` if it is free, else the first of `id-1`, `id-2`, ... that is.
    pub fn unique(&mut self, id: &str) -> String {
        if self.used.insert(id.to_owned()) {
            return id.to_owned();
        }
        let mut counter: u32 = 1;
        loop {
            let candidate = format!("{id}-{counter}");
            if self.used.insert(candidate.clone()) {
                return candidate;
            }
            counter += 1;
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
}
