//! `forbidden-term`: a term banned in a chapter. The lists come from `forbidden-terms` in
//! book.toml, and every provider's name is banned in contract chapters. Whole words,
//! case-insensitive, anywhere in the chapter (prose, code spans and blocks, link targets), as the
//! plan's `grep -niE` does: `internal/provider/kvm` is caught.

use std::collections::HashMap;
use std::ops::Range;

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;

use super::{Context, Draft};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let mut patterns: HashMap<String, Option<Matcher>> = HashMap::new();
    for (number, chapter) in cx.each_chapter() {
        let terms = terms_of(cx, &chapter.key);
        if terms.is_empty() {
            continue;
        }
        let alternatives: Vec<String> =
            terms.iter().map(|(t, _)| regex::escape(t.trim())).collect();
        // Chapters with the same terms (every contract chapter bans the same provider names)
        // share one compiled pattern.
        let source = alternatives.join("|");
        let compiled = patterns
            .entry(source)
            .or_insert_with(|| Matcher::new(terms.iter().map(|(t, _)| t.trim())));
        let Some(pattern) = compiled.as_ref() else {
            continue;
        };
        let text = chapter.content;
        let mut from = 0;
        while let Some(range) = pattern.find_at(text, from) {
            from = range.start + text[range.start..].chars().next().map_or(1, char::len_utf8);
            let before = text[..range.start].chars().next_back();
            let after = text[range.end..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            if word(before) || word(after) {
                continue;
            }
            from = range.end;
            let found = &text[range.clone()];
            let is_provider = terms
                .iter()
                .find(|(t, _)| t.trim().eq_ignore_ascii_case(found))
                .is_some_and(|(_, p)| *p);
            let (message, help) = if is_provider {
                (
                    format!("`{found}` names a provider; a contract chapter stays abstract"),
                    "describe the behaviour the term stands for, not who has it; facts about one provider belong in its own section",
                )
            } else {
                (
                    format!("`{found}` is a forbidden term in this chapter"),
                    "the term is listed under `forbidden-terms` in book.toml",
                )
            };
            out.push(Draft::new(Check::ForbiddenTerm, number, range, message).help(help));
        }
    }
}

/// The terms banned in the chapter `key`, each with whether it is a provider's name, longest
/// first (so `compute engine` wins over `compute`).
fn terms_of(cx: &Context<'_>, key: &str) -> Vec<(String, bool)> {
    let mut terms: Vec<(String, bool)> = cx
        .config
        .forbidden_terms
        .get(key)
        .into_iter()
        .flatten()
        .map(|t| (t.clone(), false))
        .collect();
    if cx.config.is_contract(key) {
        terms.extend(cx.model.providers.iter().map(|p| (p.name.clone(), true)));
    }
    terms.retain(|(t, _)| !t.trim().is_empty());
    terms.sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));
    terms
}

/// Finds any of a list of terms, ignoring case: Aho-Corasick when every term is ASCII (the usual
/// case, and far cheaper to build than a case-insensitive Unicode regex), else a regex.
enum Matcher {
    Ascii(AhoCorasick),
    Unicode(Regex),
}

impl Matcher {
    /// The terms, longest first.
    fn new<'a>(terms: impl Iterator<Item = &'a str> + Clone) -> Option<Matcher> {
        if terms.clone().all(|t| t.is_ascii()) {
            let automaton = AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::LeftmostFirst)
                .build(terms)
                .ok()?;
            return Some(Matcher::Ascii(automaton));
        }
        let alternatives: Vec<String> = terms.map(regex::escape).collect();
        Regex::new(&format!("(?i)(?:{})", alternatives.join("|")))
            .ok()
            .map(Matcher::Unicode)
    }

    fn find_at(&self, text: &str, from: usize) -> Option<Range<usize>> {
        match self {
            Matcher::Ascii(automaton) => automaton
                .find(aho_corasick::Input::new(text).span(from..text.len()))
                .map(|m| m.range()),
            Matcher::Unicode(regex) => regex.find_at(text, from).map(|m| m.range()),
        }
    }
}
