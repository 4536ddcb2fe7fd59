//! The one search of a file's bytes: an Aho-Corasick automaton of every cited word and the
//! caller's patterns (for a symbol file), and one of the patterns alone (for the others, which
//! its prefilter skips through), and what a pass of it finds: each word where it stands as a
//! whole word, each pattern where it starts. To look for something new in every file, add its
//! patterns here and read their matches in [`Automata::matches`].

use std::ops::Range;

use aho_corasick::{AhoCorasick, MatchKind};
use anyhow::{Context as _, Result};

/// Where each cited word was found in a file, with the word's index.
pub(super) type WordHits = Vec<(Range<usize>, usize)>;

/// The automata of a search: all words and patterns for symbol files, the patterns alone for
/// the others.
pub(super) struct Automata {
    all: AhoCorasick,
    /// The other files are searched for the extra patterns alone (a much smaller automaton,
    /// which Aho-Corasick's prefilter skips through).
    citations_only: AhoCorasick,
    words: usize,
}

impl Automata {
    /// The automata of `words` and `patterns`.
    pub(super) fn new(words: &[&String], patterns: &[&str]) -> Result<Automata> {
        Ok(Automata {
            all: AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .build(
                    words
                        .iter()
                        .map(|w| w.as_bytes())
                        .chain(patterns.iter().map(|p| p.as_bytes())),
                )
                .context("cannot build the symbol search")?,
            citations_only: AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .build(patterns)
                .context("cannot build the citation search")?,
            words: words.len(),
        })
    }

    /// The matches in `data`: the cited words found as whole words (in a symbol file,
    /// `symbols`), and each extra pattern's start and index (in a file searched for them,
    /// `citing`).
    pub(super) fn matches(
        &self,
        data: &[u8],
        symbols: bool,
        citing: bool,
    ) -> (WordHits, Vec<(usize, usize)>) {
        let (searcher, offset) = if symbols {
            (&self.all, 0)
        } else {
            (&self.citations_only, self.words)
        };
        let mut word_hits: WordHits = Vec::new();
        let mut hits = Vec::new();
        for m in searcher.find_overlapping_iter(data) {
            let pattern = m.pattern().as_usize() + offset;
            if let Some(extra) = pattern.checked_sub(self.words) {
                if citing {
                    hits.push((m.start(), extra));
                }
                continue;
            }
            let before = m.start().checked_sub(1).map(|i| data[i]);
            let after = data.get(m.end()).copied();
            if !before.is_some_and(is_word_byte) && !after.is_some_and(is_word_byte) {
                word_hits.push((m.start()..m.end(), pattern));
            }
        }
        (word_hits, hits)
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}
