//! What a file of a language with a grammar yields when parsed, for what a build asks of it:
//! which cited words are names of its code, what the caller makes of its patterns' matches
//! (the citations of rules and the tests around them), its syntax errors, its units. Taken
//! from the [`Cache`] when an entry for its path and bytes answers all that is asked; else the
//! file is parsed once, the answers added to what the entry had, and the entry kept again.
//!
//! Everything a [`Yield`] holds depends on the file's path and bytes and on the settings the
//! cache's first line names, nothing else: a word is asked by its text, never by its index in
//! this build's list. To keep something new, add a field (optional, so that an entry made
//! without it is asked again), fill it in [`yields`] and ask for it in [`Yield::answers`].

use std::collections::BTreeMap;
use std::ops::Range;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::cache::Cache;
use super::index::Extra;
use super::{Lang, Parsed, Spot, SyntaxErrors, Unit};

/// What a parse of one file yielded.
#[derive(Serialize, Deserialize)]
#[serde(bound = "T: Serialize + DeserializeOwned")]
pub(super) struct Yield<T> {
    /// Whether the grammar gave a tree.
    pub(super) parsed: bool,
    /// Its syntax errors, with the place of the first.
    pub(super) errors: Option<(SyntaxErrors, Spot)>,
    /// The cited words asked of it, each with whether one of its places is a name of the code.
    names: BTreeMap<String, bool>,
    /// What the caller made of its patterns' matches, once asked.
    pub(super) made: Option<Vec<T>>,
    /// Its code units with the lines each spans, once asked.
    pub(super) units: Option<Vec<(Unit, Range<usize>)>>,
}

/// What a build asks of a file.
pub(super) struct Ask<'a, 'e, T> {
    /// This build's cited words, by index.
    pub(super) words: &'a [&'a String],
    /// Where each cited word was found in the file, with its index.
    pub(super) word_hits: &'a [(Range<usize>, usize)],
    /// Each extra pattern's start and index; when there is none, nothing is made.
    pub(super) hits: &'a mut [(usize, usize)],
    pub(super) extra: Option<&'a Extra<'e, T>>,
    pub(super) units: bool,
}

impl<T> Ask<'_, '_, T> {
    pub(super) fn wants_made(&self) -> bool {
        self.extra.is_some() && !self.hits.is_empty()
    }
}

impl<T> Yield<T> {
    /// Whether it answers all of `ask`.
    pub(super) fn answers(&self, ask: &Ask<'_, '_, T>) -> bool {
        (!ask.wants_made() || self.made.is_some())
            && (!ask.units || self.units.is_some() || !self.parsed)
            && ask
                .word_hits
                .iter()
                .all(|(_, id)| self.names.contains_key(ask.words[*id].as_str()))
    }

    /// The indices of the words of `ask` that are names of the code, sorted.
    pub(super) fn ids(&self, ask: &Ask<'_, '_, T>) -> Vec<usize> {
        let mut ids: Vec<usize> = ask
            .word_hits
            .iter()
            .map(|(_, id)| *id)
            .filter(|id| self.names.get(ask.words[*id].as_str()) == Some(&true))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

/// What the file at `path` (relative to the root; its bytes `data`, of `lang`, which has a grammar) yields for `ask`, and whether
/// it came from the cache.
pub(super) fn yields<T: Serialize + DeserializeOwned>(
    cache: &Cache,
    path: &str,
    lang: &'static Lang,
    data: &[u8],
    ask: &mut Ask<'_, '_, T>,
) -> (Yield<T>, bool) {
    let key = cache.key(path, data);
    let kept: Option<Yield<T>> = key.as_ref().and_then(|key| cache.get(key));
    let kept = match kept {
        Some(kept) if kept.answers(ask) => return (kept, true),
        kept => kept,
    };
    let parsed = super::parse(lang, data);
    let mut out = kept.unwrap_or(Yield {
        parsed: false,
        errors: None,
        names: BTreeMap::new(),
        made: None,
        units: None,
    });
    out.parsed = parsed.is_some();
    out.errors = errors_of(path, data, parsed.as_ref());
    for (word, id) in ask.word_hits {
        let name = out.names.entry(ask.words[*id].clone()).or_default();
        if !*name {
            *name = parsed.as_ref().is_none_or(|p| p.names(word.clone()));
        }
    }
    if let Some(extra) = ask
        .extra
        .filter(|_| !ask.hits.is_empty() && out.made.is_none())
    {
        out.made = Some((extra.read)(path, data, ask.hits, parsed.as_ref()));
    }
    if ask.units
        && out.units.is_none()
        && let Some(parsed) = parsed.as_ref()
    {
        out.units = Some(units_of(data, parsed));
    }
    if let Some(key) = key {
        cache.put(key, &out);
    }
    (out, false)
}

/// The syntax errors of a parsed file, with the place of the first.
fn errors_of(path: &str, data: &[u8], parsed: Option<&Parsed<'_>>) -> Option<(SyntaxErrors, Spot)> {
    let errors = parsed?.errors()?;
    let text = data
        .split(|&b| b == b'\n')
        .nth(errors.first_line - 1)
        .unwrap_or_default();
    let before = &text[..errors.first_byte.min(text.len())];
    let spot = Spot {
        path: path.to_owned(),
        line: errors.first_line,
        column: String::from_utf8_lossy(before).chars().count() + 1,
        width: 1,
        line_text: String::from_utf8_lossy(text)
            .trim_end_matches('\r')
            .to_owned(),
    };
    Some((errors, spot))
}

/// The code units of a parsed file, each with the lines it spans (from 1, end exclusive).
fn units_of(data: &[u8], parsed: &Parsed<'_>) -> Vec<(Unit, Range<usize>)> {
    let newlines: Vec<usize> = memchr::memchr_iter(b'\n', data).collect();
    let line_of = |at: usize| newlines.partition_point(|&n| n < at) + 1;
    parsed
        .code_units()
        .into_iter()
        .map(|u| {
            let lines = line_of(u.range.start)..line_of(u.range.end) + 1;
            (u, lines)
        })
        .collect()
}
