//! `line-reference`: a source line reference such as `provider.go:120` or `:12-30`, in prose and
//! in code spans, as the plan's `grep -nE '\.go:[0-9]+|:[0-9]+-[0-9]+'` finds them.
//!
//! What is quoted is not a citation: code blocks (listings, tool output) are not searched, and
//! with the default patterns a position with a column, `src/main.rs:2:5`, is not reported
//! either, since compilers, panics and debuggers print positions that way and authors citing
//! code do not.

use std::cell::OnceCell;
use std::ops::Range;

use regex::Regex;

use super::{Context, Draft};
use crate::read::config::DEFAULT_LINE_REFERENCE_PATTERNS;
use crate::read::markdown::after_last;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    // Validated when the configuration was read; compiled once per build, when first needed
    // (the default patterns are Unicode-aware and cost more to compile than most books take
    // to search).
    let patterns = OnceCell::new();
    let patterns = || -> &Vec<Regex> {
        patterns.get_or_init(|| {
            cx.config
                .line_reference_patterns
                .iter()
                .filter_map(|p| Regex::new(p).ok())
                .collect()
        })
    };
    // Text that cannot hold a match of the default patterns is not searched: a search per range
    // costs more than this scan, and compiling the patterns more than most books take.
    let prefilter = cx.config.line_reference_patterns == DEFAULT_LINE_REFERENCE_PATTERNS;
    let may_match = |text: &str| !prefilter || may_hold_default(text);
    for source in cx.texts() {
        if !may_match(source.content) {
            continue;
        }
        let spans = source.index.code_spans.iter().map(|c| c.range.clone());
        for range in source.index.prose_ranges().into_iter().chain(spans) {
            let text = &source.content[range.clone()];
            if !may_match(text) {
                continue;
            }
            let mut found: Vec<Range<usize>> = Vec::new();
            for pattern in patterns() {
                for m in pattern.find_iter(text) {
                    let quoted = prefilter && has_column(&text[m.end()..]);
                    if !quoted && !in_url(text, m.start()) {
                        found.push(range.start + m.start()..range.start + m.end());
                    }
                }
            }
            found.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
            let mut last_end = 0;
            for hit in found {
                if hit.start < last_end {
                    continue;
                }
                last_end = hit.end;
                let written = &source.content[hit.clone()];
                out.push(
                    Draft::at(
                        Check::LineReference,
                        source.place.clone(),
                        hit,
                        format!("source line reference `{written}`: line numbers go stale"),
                    )
                    .help(citation_help(written)),
                );
            }
        }
    }
}

/// What to write instead of `written`: its file (when it names one) plus a symbol.
fn citation_help(written: &str) -> String {
    let file = written.split(':').next().filter(|f| !f.is_empty());
    match file {
        Some(file) => format!(
            "cite the file plus a symbol instead: `{file}` and the function or type at that line, which stay true when lines move"
        ),
        None => "cite a path plus a symbol instead (the file and the function or type the lines are in), which stay true when lines move".to_owned(),
    }
}

/// Whether `text` may hold a match of the default patterns: both need a `:` followed by a
/// digit, the first with `.` and one to five ASCII letters right before it (`provider.go:120`),
/// the second with digits, `-` and a digit after it (`:12-30`).
fn may_hold_default(text: &str) -> bool {
    let bytes = text.as_bytes();
    for colon in memchr::memchr_iter(b':', bytes) {
        if !bytes.get(colon + 1).is_some_and(u8::is_ascii_digit) {
            continue;
        }
        let letters = bytes[..colon]
            .iter()
            .rev()
            .take(6)
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        if (1..=5).contains(&letters) && colon > letters && bytes[colon - letters - 1] == b'.' {
            return true;
        }
        let digits = bytes[colon + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if bytes.get(colon + 1 + digits) == Some(&b'-')
            && bytes
                .get(colon + 2 + digits)
                .is_some_and(u8::is_ascii_digit)
        {
            return true;
        }
    }
    false
}

/// Whether the text after a `file:line` match goes on with `:column`, as a position printed by a
/// tool does (`src/main.rs:2:5`).
fn has_column(after: &str) -> bool {
    after
        .strip_prefix(':')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// Whether the match at `at` is part of a URL (`https://host:8080/...`).
fn in_url(text: &str, at: usize) -> bool {
    let token_start = after_last(&text[..at], char::is_whitespace);
    text[token_start..]
        .split(char::is_whitespace)
        .next()
        .is_some_and(|token| token.contains("://"))
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use super::*;
    use regex::Regex;

    static DEFAULTS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
        DEFAULT_LINE_REFERENCE_PATTERNS
            .iter()
            .map(|p| Regex::new(p).unwrap())
            .collect()
    });

    #[test]
    fn the_prefilter_passes_every_text_the_default_patterns_match() {
        let patterns = &*DEFAULTS;
        let matching = [
            "provider.go:120",
            ":12-30",
            "x.md:1-2",
            "a:b:3-4",
            "é.go:9",
            "see gc.go:40-52.",
            "a.ABCDE:7",
            "x :1-2 y",
        ];
        for text in matching {
            assert!(patterns.iter().any(|p| p.is_match(text)), "{text}");
            assert!(may_hold_default(text), "{text}");
        }
        let other = [
            "no colon at all",
            "a: b c:",
            "time: 10m",
            "host:8080",
            "a.abcdef:1",
            ":12",
            "http://x:80/a",
            "12:30",
            ":1-x",
        ];
        for text in other {
            assert!(!may_hold_default(text), "{text}");
            assert!(!patterns.iter().any(|p| p.is_match(text)), "{text}");
        }
    }

    proptest::proptest! {
        #[test]
        fn the_prefilter_never_hides_a_match(text in "[a-zA-Z.:0-9/ é-]{0,24}") {
            if DEFAULTS.iter().any(|p| p.is_match(&text)) {
                proptest::prop_assert!(may_hold_default(&text), "{}", text);
            }
        }
    }
}
