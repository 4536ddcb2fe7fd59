//! `line-reference`: a source line reference such as `provider.go:120` or `:12-30`, in prose and
//! in code spans, as the plan's `grep -nE '\.go:[0-9]+|:[0-9]+-[0-9]+'` finds them.

use std::ops::Range;

use regex::Regex;

use super::{Context, Draft};

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    // Validated when the configuration was read; compiled once per build.
    let patterns: Vec<Regex> = cx
        .config
        .line_reference_patterns
        .iter()
        .filter_map(|p| Regex::new(p).ok())
        .collect();
    for (number, chapter) in cx.chapters.iter().enumerate() {
        let spans = chapter.index.code_spans.iter().map(|c| c.range.clone());
        for range in chapter.index.prose_ranges().into_iter().chain(spans) {
            let text = &chapter.content[range.clone()];
            let mut found: Vec<Range<usize>> = Vec::new();
            for pattern in &patterns {
                for m in pattern.find_iter(text) {
                    if !in_url(text, m.start()) {
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
                let written = &chapter.content[hit.clone()];
                out.push(
                    Draft::new("line-reference", number, hit, format!("source line reference `{written}`: line numbers go stale"))
                        .help("cite a path plus a symbol instead, such as `internal/gc/gc.go` and `Sweeper.sweep`"),
                );
            }
        }
    }
}

/// Whether the match at `at` is part of a URL (`https://host:8080/...`).
fn in_url(text: &str, at: usize) -> bool {
    let token_start = text[..at].rfind(char::is_whitespace).map_or(0, |i| i + 1);
    text[token_start..]
        .split(char::is_whitespace)
        .next()
        .is_some_and(|token| token.contains("://"))
}
