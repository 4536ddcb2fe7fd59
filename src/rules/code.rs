//! Citations of rules in the source tree: `r[impl ID]` and `r[verify ID]` (tracey's verbs) in
//! a comment, `ID+N` for a version past the first.
//!
//! The source index finds where each verb starts in its one pass over a file (its
//! Aho-Corasick automaton has [`VERBS`] beside the cited symbols); [`read`] turns those
//! offsets into citations with the line and column of the ID. A citation is one only in a
//! comment: the text before it on its line has `//`, `/*`, `#` or `--`, or starts with `*`
//! (a block comment's continuation), which covers Go, Rust, C, shell, YAML, SQL and Markdown
//! comments without parsing any language.

use super::marker::{Versioned, parse_versioned};

/// What a citation says the code does for the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Verb {
    /// `r[impl ID]`: this code meets the rule.
    Impl,
    /// `r[verify ID]`: this test verifies it.
    Verify,
}

impl Verb {
    /// The verb as written.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Verb::Impl => "impl",
            Verb::Verify => "verify",
        }
    }
}

/// The text that starts a citation, for each verb.
pub(crate) const VERBS: [(&str, Verb); 2] = [("r[impl ", Verb::Impl), ("r[verify ", Verb::Verify)];

/// One citation of a rule in a file of the source tree.
#[derive(Debug, Clone)]
pub(crate) struct CodeCitation {
    /// The file, relative to `source-root`, `/`-separated.
    pub path: String,
    /// The line of the ID, from 1.
    pub line: usize,
    /// The column of the ID in characters, from 1.
    pub column: usize,
    /// Its verb.
    pub verb: Verb,
    /// The ID as written, with its `+N`.
    pub written: String,
    /// The text of its line, for snippets.
    pub line_text: String,
    /// The rule and version it cites, or why the text is no rule ID.
    pub cited: Result<Versioned, String>,
}

/// The patterns the source index searches for: each verb's text, in the order of [`VERBS`].
pub(crate) const PATTERNS: [&str; 2] = [VERBS[0].0, VERBS[1].0];

/// [`read`] for the source index's matches: each a start and an index into [`PATTERNS`].
pub(crate) fn read_matches(
    path: &str,
    data: &[u8],
    hits: &mut [(usize, usize)],
) -> Vec<CodeCitation> {
    let mut found: Vec<(usize, Verb)> = hits.iter().map(|&(at, p)| (at, VERBS[p].1)).collect();
    read(path, data, &mut found)
}

/// The citations in `data`, the file at `path`, given where each verb's text was found
/// (`found`, in any order).
pub(crate) fn read(path: &str, data: &[u8], found: &mut [(usize, Verb)]) -> Vec<CodeCitation> {
    found.sort_unstable();
    let mut out = Vec::new();
    let mut line = 1;
    let mut line_start = 0;
    let mut scanned = 0;
    for &(at, verb) in found.iter() {
        for newline in memchr::memchr_iter(b'\n', &data[scanned..at]) {
            line += 1;
            line_start = scanned + newline + 1;
        }
        scanned = at;
        if at > 0 && is_word_byte(data[at - 1]) {
            continue;
        }
        if !in_comment(&data[line_start..at]) {
            continue;
        }
        let after_verb = at + VERBS[verb as usize].0.len();
        // The ID starts after any more spaces: its column is where a rename writes.
        let id_start = after_verb
            + data[after_verb..]
                .iter()
                .take_while(|b| **b == b' ' || **b == b'\t')
                .count();
        let rest = &data[id_start..];
        let line_end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let Some(close) = memchr::memchr(b']', &rest[..line_end]) else {
            continue;
        };
        let written = String::from_utf8_lossy(&rest[..close]).trim().to_owned();
        let column = String::from_utf8_lossy(&data[line_start..id_start])
            .chars()
            .count()
            + 1;
        let cited = parse_versioned(&written);
        let line_text = String::from_utf8_lossy(&data[line_start..id_start + line_end])
            .trim_end_matches('\r')
            .to_owned();
        out.push(CodeCitation {
            path: path.to_owned(),
            line,
            column,
            verb,
            written,
            line_text,
            cited,
        });
    }
    out
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether the text before a citation on its line opens a comment.
fn in_comment(before: &[u8]) -> bool {
    let text = String::from_utf8_lossy(before);
    text.contains("//")
        || text.contains("/*")
        || text.contains('#')
        || text.contains("--")
        || text.trim_start().starts_with('*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn citations(text: &str) -> Vec<CodeCitation> {
        let mut found = Vec::new();
        for (pattern, verb) in VERBS {
            for (at, _) in text.match_indices(pattern) {
                found.push((at, verb));
            }
        }
        read("x_test.go", text.as_bytes(), &mut found)
    }

    #[test]
    fn citations_in_comments_with_their_place() {
        let text = "package x\n\n// r[verify create.idempotent]\nfunc TestCreate() {\n\t/* é r[impl get.found+2] */\n}\n";
        let found = citations(text);
        assert_eq!(found.len(), 2);
        assert_eq!((found[0].line, found[0].column), (3, 13));
        assert_eq!(found[0].verb, Verb::Verify);
        assert_eq!(found[0].cited.as_ref().unwrap().id, "create.idempotent");
        assert_eq!((found[1].line, found[1].column), (5, 14));
        assert_eq!(found[1].cited.as_ref().unwrap().version, 2);
        let spaced = citations("// r[verify  a.b]\n");
        assert_eq!((spaced[0].column, spaced[0].written.as_str()), (14, "a.b"));
    }

    #[test]
    fn not_in_code_strings_or_words() {
        let text = "s := \"r[verify a.b]\"\nattr[impl a.b]\n// r[verify a.b\n";
        assert!(citations(text).is_empty());
    }

    #[test]
    fn a_bad_id_is_kept_with_why() {
        let found = citations("# r[verify Not.An.Id]\n");
        assert_eq!(found.len(), 1);
        assert!(found[0].cited.is_err());
        assert_eq!(found[0].written, "Not.An.Id");
    }
}
