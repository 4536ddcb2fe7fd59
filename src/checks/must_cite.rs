//! `must-cite`: in a contract chapter, each sentence or list item with an RFC 2119 MUST (or
//! MUST NOT) cites at least one path or symbol of the shared layer: the caller that relies on
//! it.
//!
//! The unit is the innermost list item that holds the MUST, else its sentence. A citation is a
//! code span (or link target) naming a repository path under a `shared-layer` root, or a
//! symbol; with `source-root` set, the symbol must occur in a file under those roots. A unit
//! that names RFC 2119, RFC 8174 or BCP 14 defines the keywords ("MUST, MUST NOT ... are to be
//! interpreted as described in RFC 2119") and is not a rule.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::{Context, Draft};
use crate::read::chapter::Chapter;
use crate::read::citation::{Citation, classify};
use crate::read::markdown::after_last;
use crate::util::vocab::Check;

pub(super) static MUST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bMUST\b").expect("valid regex"));

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (number, chapter) in cx.each_chapter() {
        if !cx.config.is_contract(&chapter.key) {
            continue;
        }
        let mut reported: Vec<Range<usize>> = Vec::new();
        for prose in chapter.index.prose_ranges() {
            for m in MUST.find_iter(&chapter.content[prose.clone()]) {
                let at = prose.start + m.start();
                let unit = unit_of(chapter, at);
                if reported.contains(&unit)
                    || defines_keywords(&chapter.content[unit.clone()])
                    || cites_shared_layer(cx, chapter, &unit)
                {
                    continue;
                }
                reported.push(unit);
                let roots = if cx.config.shared_layer.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (under {})",
                        cx.config
                            .shared_layer
                            .iter()
                            .map(|r| format!("`{r}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                out.push(
                    Draft::new(
                        Check::MustCite,
                        number,
                        at..at + 4,
                        if cx.config.shared_layer.is_empty() {
                            "this MUST cites no code: its sentence names no path or symbol".to_owned()
                        } else {
                            format!("this MUST cites no code: its sentence names no path or symbol of the shared layer{roots}")
                        },
                    )
                    .help("name, as a code span, the code it is about: the interface or type it constrains, or the caller that breaks without it (and say what breaks)"),
                );
            }
        }
    }
}

/// Whether `unit` is the sentence that says what the keywords mean: it names the RFC that
/// defines them.
pub(super) fn defines_keywords(unit: &str) -> bool {
    let squeezed: String = unit
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    ["RFC2119", "RFC8174", "BCP14"]
        .iter()
        .any(|name| squeezed.contains(name))
}

/// The list item or sentence that holds offset `at`.
pub(super) fn unit_of(chapter: &Chapter<'_>, at: usize) -> Range<usize> {
    if let Some(item) = chapter.index.item_at(at) {
        return item;
    }
    let block = chapter
        .index
        .blocks
        .iter()
        .filter(|b| b.contains(&at))
        .max_by_key(|b| b.start)
        .cloned()
        .unwrap_or(0..chapter.content.len());
    sentence_of(chapter, block, at)
}

const ABBREVIATIONS: &[&str] = &["e.g", "i.e", "etc", "vs", "cf", "approx"];

/// The sentence of `block` that holds `at`: bounded by `.`, `!` or `?` followed by whitespace,
/// outside code, and not after a common abbreviation.
fn sentence_of(chapter: &Chapter<'_>, block: Range<usize>, at: usize) -> Range<usize> {
    let text = &chapter.content[block.clone()];
    let bytes = text.as_bytes();
    let mut start = block.start;
    for (i, &b) in bytes.iter().enumerate() {
        let end_mark = matches!(b, b'.' | b'!' | b'?');
        let followed_by_space = bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace());
        if !end_mark || !followed_by_space || chapter.index.is_verbatim(block.start + i) {
            continue;
        }
        let word_start = after_last(&text[..i], |c| c.is_whitespace() || c == '(');
        if ABBREVIATIONS
            .iter()
            .any(|a| text[word_start..i].eq_ignore_ascii_case(a))
        {
            continue;
        }
        let end = block.start + i + 1;
        if at < end {
            return start..end;
        }
        start = end;
    }
    start..block.end
}

fn cites_shared_layer(cx: &Context<'_>, chapter: &Chapter<'_>, unit: &Range<usize>) -> bool {
    let excluded = |word: &str| cx.is_excluded_word(word);
    let spans = chapter
        .index
        .code_spans
        .iter()
        .filter(|c| unit.contains(&c.range.start))
        .map(|c| &*c.text);
    let links = chapter
        .index
        .links
        .iter()
        .filter(|l| unit.contains(&l.range.start))
        .map(|l| l.dest.as_str());
    spans
        .chain(links)
        .any(|text| match classify(text, &excluded) {
            Some(Citation::Path(path)) => cx.shared.is_empty() || cx.shared.contains(path),
            Some(Citation::Symbol(parts)) => match cx.source {
                Some(source) if !cx.shared.is_empty() => {
                    parts.iter().all(|p| source.has_word_in_shared(p))
                }
                _ => true,
            },
            None => false,
        })
}
