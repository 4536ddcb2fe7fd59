//! Citations of rules in the source tree, in tracey's syntax: `r[impl ID]` and `r[verify ID]`
//! in a comment, `ID+N` for a version past the first; `define` is `impl`, `depends` and
//! `related` are read (an ID they name must exist) and count for nothing, and a citation with
//! no verb (`r[ID]`, the ID with a dot) is an `impl`. A contract whose markers use another
//! prefix (`req[...]`) is cited with that prefix (`req[impl ID]`).
//!
//! The source index finds where each prefix's `PREFIX[` starts in its one pass over a file
//! (its Aho-Corasick automaton has [`patterns`] beside the cited symbols); [`read`] turns those
//! offsets into citations with the line and column of the ID. A citation is one only in a
//! comment (line, block or doc comment, as the file's syntax tree says; in a file read as text,
//! by `read::code::fallback`'s line rule), never in a string, and not inside backticks there
//! (an example in a doc comment, as tracey reads it).

use super::marker::{Versioned, parse_versioned};
use crate::read::code::{Parsed, TestSite, fallback};

/// What a citation says the code does for the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Verb {
    /// `r[impl ID]` (or `r[define ID]`, or `r[ID]`): this code meets the rule.
    Impl,
    /// `r[verify ID]`: this test verifies it.
    Verify,
    /// `r[depends ID]` or `r[related ID]`: this code names the rule and meets nothing of it.
    Mentions,
}

/// The verbs a citation may start with, and what each says.
const VERBS: [(&str, Verb); 5] = [
    ("impl", Verb::Impl),
    ("verify", Verb::Verify),
    ("define", Verb::Impl),
    ("depends", Verb::Mentions),
    ("related", Verb::Mentions),
];

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
    /// The whole citation as written (`r[verify a.b]`, `req[a.b]`), for messages.
    pub text: String,
    /// The text of its line, for snippets.
    pub line_text: String,
    /// The rule and version it cites, or why the text is no rule ID.
    pub cited: Result<Versioned, String>,
    /// For a `verify`, the test it stands in (the innermost test that holds it, its comment
    /// above the test included), to find its results by.
    pub test: Option<TestSite>,
    /// For a citation read from a provider's report (`provider-reports`), not from the source
    /// tree: which report, and where its line is browsed.
    pub remote: Option<Remote>,
}

/// Where a citation of a provider's report is: in the provider's repository.
#[derive(Debug, Clone)]
pub(crate) struct Remote {
    /// The report (an index into the reports read).
    pub report: usize,
    /// The address of its line at the report's commit, when the host's form is known.
    pub link: Option<String>,
}

/// The patterns the source index searches for: `PREFIX[` for each prefix of the contract's
/// markers.
pub(crate) fn patterns(prefixes: &[String]) -> Vec<String> {
    prefixes.iter().map(|p| format!("{p}[")).collect()
}

/// [`read`] for the source index's matches: each a start and an index into the `patterns` of
/// `prefixes`.
pub(crate) fn read_matches(
    prefixes: &[String],
    path: &str,
    data: &[u8],
    hits: &mut [(usize, usize)],
    parsed: Option<&Parsed<'_>>,
) -> Vec<CodeCitation> {
    let mut found: Vec<(usize, usize)> = hits
        .iter()
        .map(|&(at, p)| (at, prefixes[p].len() + 1))
        .collect();
    read(path, data, &mut found, parsed)
}

/// The citations in `data`, the file at `path`, given where each `PREFIX[` was found and its
/// length (`found`, in any order), and the file's syntax tree when it was read as code.
pub(crate) fn read(
    path: &str,
    data: &[u8],
    found: &mut [(usize, usize)],
    parsed: Option<&Parsed<'_>>,
) -> Vec<CodeCitation> {
    found.sort_unstable();
    let mut out = Vec::new();
    let mut text: Option<String> = None;
    let mut line = 1;
    let mut line_start = 0;
    let mut scanned = 0;
    let ignored = ignored_lines(data);
    for &(at, opener) in found.iter() {
        for newline in memchr::memchr_iter(b'\n', &data[scanned..at]) {
            line += 1;
            line_start = scanned + newline + 1;
        }
        scanned = at;
        if ignored.iter().any(|r| r.contains(&line)) {
            continue;
        }
        if at > 0 && is_word_byte(data[at - 1]) {
            continue;
        }
        let before = &data[line_start..at];
        let commented = match parsed {
            Some(parsed) => parsed.in_comment(at),
            None => fallback::in_comment(before),
        };
        if !commented || before.iter().filter(|&&b| b == b'`').count() % 2 == 1 {
            continue;
        }
        let inside = at + opener;
        let rest = &data[inside..];
        let line_end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let Some(close) = memchr::memchr(b']', &rest[..line_end]) else {
            continue;
        };
        let Some((verb, skip)) = verb_of(&rest[..close]) else {
            continue;
        };
        // The ID starts after the verb and any more spaces: its column is where a rename
        // writes.
        let id_start = inside + skip;
        let written = String::from_utf8_lossy(&data[id_start..inside + close])
            .trim()
            .to_owned();
        let column = String::from_utf8_lossy(&data[line_start..id_start])
            .chars()
            .count()
            + 1;
        let cited = parse_versioned(&written);
        let written_as = String::from_utf8_lossy(&data[at..=inside + close]).into_owned();
        let line_text = String::from_utf8_lossy(&data[line_start..inside + line_end])
            .trim_end_matches('\r')
            .to_owned();
        let test = (verb == Verb::Verify)
            .then(|| match parsed {
                Some(parsed) => parsed.test_at(at),
                None => {
                    let text =
                        text.get_or_insert_with(|| String::from_utf8_lossy(data).into_owned());
                    fallback::test_function(text, line).map(|name| TestSite {
                        name,
                        scope: Vec::new(),
                        line,
                    })
                }
            })
            .flatten();
        out.push(CodeCitation {
            path: path.to_owned(),
            line,
            column,
            verb,
            written,
            text: written_as,
            line_text,
            cited,
            test,
            remote: None,
        });
    }
    out
}

/// The lines (from 1) that tracey's directives take out of reading: the line after
/// `@tracey:ignore-next-line`, and every line from `@tracey:ignore-start` to
/// `@tracey:ignore-end` (to the end of the file when it is not closed).
fn ignored_lines(data: &[u8]) -> Vec<std::ops::Range<usize>> {
    if memchr::memmem::find(data, b"@tracey:ignore").is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for (i, text) in data.split(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let has = |directive: &[u8]| memchr::memmem::find(text, directive).is_some();
        if has(b"@tracey:ignore-next-line") {
            out.push(line + 1..line + 2);
        } else if has(b"@tracey:ignore-start") {
            open.get_or_insert(line);
        } else if has(b"@tracey:ignore-end")
            && let Some(start) = open.take()
        {
            out.push(start..line + 1);
        }
    }
    if let Some(start) = open {
        out.push(start..usize::MAX);
    }
    out
}

/// The verb of a citation whose text between the brackets is `inside`, and where its ID
/// starts; `None` when it is no citation. A citation without a verb is an `impl` when its ID
/// has a dot (`r[i]` in a comment is an index, not a rule).
fn verb_of(inside: &[u8]) -> Option<(Verb, usize)> {
    for (word, verb) in VERBS {
        if let Some(rest) = inside.strip_prefix(word.as_bytes())
            && rest.first().is_some_and(|b| *b == b' ' || *b == b'\t')
        {
            let spaces = rest
                .iter()
                .take_while(|b| **b == b' ' || **b == b'\t')
                .count();
            return Some((verb, word.len() + spaces));
        }
    }
    let bare = !inside.is_empty()
        && inside.contains(&b'.')
        && !inside.iter().any(|b| b.is_ascii_whitespace());
    bare.then_some((Verb::Impl, 0))
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn citations_with(prefixes: &[&str], text: &str) -> Vec<CodeCitation> {
        let prefixes: Vec<String> = prefixes.iter().map(|p| (*p).to_owned()).collect();
        let mut found = Vec::new();
        for (i, pattern) in patterns(&prefixes).iter().enumerate() {
            for (at, _) in text.match_indices(pattern.as_str()) {
                found.push((at, i));
            }
        }
        read_matches(&prefixes, "x_test.go", text.as_bytes(), &mut found, None)
    }

    fn citations(text: &str) -> Vec<CodeCitation> {
        citations_with(&["r"], text)
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
    fn tracey_verbs_and_prefixes() {
        let found = citations(
            "// r[define a.b]\n// r[depends a.c]\n// r[related a.d]\n# r[a.e]\n// r[i] and r[impl]\n",
        );
        let read: Vec<(Verb, &str)> = found.iter().map(|c| (c.verb, c.written.as_str())).collect();
        assert_eq!(
            read,
            [
                (Verb::Impl, "a.b"),
                (Verb::Mentions, "a.c"),
                (Verb::Mentions, "a.d"),
                (Verb::Impl, "a.e"),
            ]
        );
        assert_eq!(found[3].column, 5);
        let found = citations_with(&["r", "req"], "// req[impl config.impl.test_include]\n");
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].cited.as_ref().unwrap().id,
            "config.impl.test_include"
        );
        assert!(citations("// req[impl a.b]\n").is_empty());
    }

    #[test]
    fn not_in_code_strings_words_or_backticks() {
        let text = "s := \"r[verify a.b]\"\nattr[impl a.b]\n// r[verify a.b\n/// Write `r[impl a.b]` in a test.\n";
        assert!(citations(text).is_empty());
    }

    #[test]
    fn traceys_ignore_directives_are_honoured() {
        let text = "// @tracey:ignore-next-line\n// r[impl a.skipped]\n// r[impl a.read]\n// @tracey:ignore-start\n// r[impl a.block]\n// @tracey:ignore-end\n// r[impl a.after]\n";
        let read: Vec<String> = citations(text).into_iter().map(|c| c.written).collect();
        assert_eq!(read, ["a.read", "a.after"]);
    }

    #[test]
    fn a_bad_id_is_kept_with_why() {
        let found = citations("# r[verify Not..An.Id]\n");
        assert_eq!(found.len(), 1);
        assert!(found[0].cited.is_err());
        assert_eq!(found[0].written, "Not..An.Id");
    }
}
