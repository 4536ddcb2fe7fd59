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
//! (an example in a doc comment, as tracey reads it). An ID starts with a letter: `r[...]` and
//! `r[1.2]` in a sentence are placeholders, no citation.

use super::marker::{Versioned, parse_versioned};
use crate::read::code::{Parsed, Spot, TestSite, fallback};

/// What a citation says the code does for the rule.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
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
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
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
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct Remote {
    /// The report (an index into the reports read).
    pub report: usize,
    /// The address of its line at the report's commit, when the host's form is known.
    pub link: Option<String>,
}

/// What a file's matches are: a citation, or the opening of an ignore region never closed
/// (`unclosed-ignore`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) enum Found {
    Citation(CodeCitation),
    Unclosed(Spot),
}

/// The citations of `found`, and the ignore regions never closed, each in the order found.
pub(crate) fn split(found: Vec<Found>) -> (Vec<CodeCitation>, Vec<Spot>) {
    let mut citations = Vec::new();
    let mut unclosed = Vec::new();
    for f in found {
        match f {
            Found::Citation(c) => citations.push(c),
            Found::Unclosed(spot) => unclosed.push(spot),
        }
    }
    (citations, unclosed)
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
) -> Vec<Found> {
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
) -> Vec<Found> {
    found.sort_unstable();
    let mut out = Vec::new();
    let mut text: Option<String> = None;
    let mut line = 1;
    let mut line_start = 0;
    let mut scanned = 0;
    let ignored = ignored_lines(path, data, parsed);
    for &(at, opener) in found.iter() {
        for newline in memchr::memchr_iter(b'\n', &data[scanned..at]) {
            line += 1;
            line_start = scanned + newline + 1;
        }
        scanned = at;
        if ignored.lines.iter().any(|r| r.contains(&line)) {
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
        let hit = Hit {
            at,
            opener,
            line,
            line_start,
        };
        if let Some(citation) = citation_at(path, data, hit, parsed, &mut text) {
            out.push(Found::Citation(citation));
        }
    }
    out.extend(ignored.unclosed.map(Found::Unclosed));
    out
}

/// Where a `PREFIX[` in a comment was found: its offset and length, and its line (from 1)
/// with the line's start.
#[derive(Clone, Copy)]
struct Hit {
    at: usize,
    opener: usize,
    line: usize,
    line_start: usize,
}

/// The citation that opens at `hit` of `data`, when a verb and an ID follow and `]` closes it
/// on its line; `text` is the file as text, made once if a test must be found without a
/// syntax tree.
fn citation_at(
    path: &str,
    data: &[u8],
    hit: Hit,
    parsed: Option<&Parsed<'_>>,
    text: &mut Option<String>,
) -> Option<CodeCitation> {
    let Hit {
        at,
        opener,
        line,
        line_start,
    } = hit;
    let inside = at + opener;
    let rest = &data[inside..];
    let line_end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    let close = memchr::memchr(b']', &rest[..line_end])?;
    let (verb, skip) = verb_of(&rest[..close])?;
    // The ID starts after the verb and any more spaces: its column is where a rename writes.
    let id_start = inside + skip;
    let written = String::from_utf8_lossy(&data[id_start..inside + close])
        .trim()
        .to_owned();
    // An ID starts with a letter, as the guide's syntax says: `r[...]`, `r[N]` and other
    // placeholders in a sentence are prose, not a citation to report.
    if !written.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let column = String::from_utf8_lossy(&data[line_start..id_start])
        .chars()
        .count()
        + 1;
    let test = (verb == Verb::Verify)
        .then(|| match parsed {
            Some(parsed) => parsed.test_at(at),
            None => {
                let text = text.get_or_insert_with(|| String::from_utf8_lossy(data).into_owned());
                // A language without a grammar whose tests are line-shaped (its row says how),
                // else the line rules of every other file.
                match crate::read::code::for_path(path).and_then(|l| l.line_tests) {
                    Some(tests) => crate::read::code::languages::lines::test_at(tests, text, line),
                    None => fallback::test_function(text, line).map(|name| TestSite {
                        name,
                        scope: Vec::new(),
                        line,
                        titled: false,
                        parameters: None,
                    }),
                }
            }
        })
        .flatten();
    Some(CodeCitation {
        path: path.to_owned(),
        line,
        column,
        verb,
        cited: parse_versioned(&written),
        written,
        text: String::from_utf8_lossy(&data[at..=inside + close]).into_owned(),
        line_text: String::from_utf8_lossy(&data[line_start..inside + line_end])
            .trim_end_matches('\r')
            .to_owned(),
        test,
        remote: None,
    })
}

/// What tracey's directives take out of reading in a file: the lines (from 1) after each
/// `@tracey:ignore-next-line`, every line from `@tracey:ignore-start` to `@tracey:ignore-end`
/// (to the end of the file when it is not closed), and the opening of a region never closed.
#[derive(Default)]
struct Ignored {
    lines: Vec<std::ops::Range<usize>>,
    unclosed: Option<Spot>,
}

/// The directives, each with whether it opens (`Some(true)`), closes (`Some(false)`) or takes
/// out the next line (`None`).
const DIRECTIVES: [(&[u8], Option<bool>); 3] = [
    (b"@tracey:ignore-next-line", None),
    (b"@tracey:ignore-start", Some(true)),
    (b"@tracey:ignore-end", Some(false)),
];

/// Reads tracey's directives in `data`, the file at `path`. A directive counts only where a
/// comment holds it alone, as a citation counts only in a comment: in a comment (as the tree,
/// or the line rule without one, says), with nothing before it on its line but the comment's
/// opener and nothing after it but a closer. A string that holds one (`"// @tracey:ignore-start"`)
/// and a sentence that quotes one are not directives.
fn ignored_lines(path: &str, data: &[u8], parsed: Option<&Parsed<'_>>) -> Ignored {
    let mut out = Ignored::default();
    if memchr::memmem::find(data, b"@tracey:ignore-").is_none() {
        return out;
    }
    let mut open: Option<(usize, Spot)> = None;
    let mut line_start = 0;
    for (i, text) in data.split(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let start = line_start;
        line_start += text.len() + 1;
        let Some((directive, at)) = directive_in(text, start, parsed) else {
            continue;
        };
        match directive {
            None => out.lines.push(line + 1..line + 2),
            Some(true) if open.is_none() => {
                let column = String::from_utf8_lossy(&text[..at]).chars().count() + 1;
                let spot = Spot {
                    path: path.to_owned(),
                    line,
                    column,
                    width: "@tracey:ignore-start".len(),
                    line_text: String::from_utf8_lossy(text)
                        .trim_end_matches('\r')
                        .to_owned(),
                };
                open = Some((line, spot));
            }
            Some(true) => {}
            Some(false) => {
                if let Some((from, _)) = open.take() {
                    out.lines.push(from..line + 1);
                }
            }
        }
    }
    if let Some((from, spot)) = open {
        out.lines.push(from..usize::MAX);
        out.unclosed = Some(spot);
    }
    out
}

/// The directive a comment on the line `text` (starting at byte `start` of the file) holds
/// alone, with its offset in the line.
fn directive_in(
    text: &[u8],
    start: usize,
    parsed: Option<&Parsed<'_>>,
) -> Option<(Option<bool>, usize)> {
    let at = memchr::memmem::find(text, b"@tracey:ignore-")?;
    let (word, directive) = DIRECTIVES
        .iter()
        .find(|(word, _)| text[at..].starts_with(word))?;
    let before = &text[..at];
    let after = &text[at + word.len()..];
    let opener = |b: &u8| b.is_ascii_whitespace() || b"/*#-;!<%".contains(b);
    let closer = |b: &u8| b.is_ascii_whitespace() || b"*/->".contains(b);
    let alone = before.iter().all(opener) && after.iter().all(closer);
    let commented = match parsed {
        Some(parsed) => parsed.in_comment(start + at),
        None => fallback::in_comment(before),
    };
    (alone && commented).then_some((*directive, at))
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
            .into_iter()
            .filter_map(|f| match f {
                Found::Citation(c) => Some(c),
                Found::Unclosed(_) => None,
            })
            .collect()
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
        let text = "s := \"r[verify a.b]\"\nattr[impl a.b]\n// r[verify a.b\n/// Write `r[impl a.b]` in a test.\n/// without its r[...] marker, r[1.2] or r[impl _x.y]\n";
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
