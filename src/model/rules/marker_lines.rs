//! The marker lines of a chapter: where a rule's `r[...]` stands (outside code and HTML, at the
//! start of a line or of a blockquote's line) and what it labels (the rest of its quote, or the
//! paragraph, item, heading or table after it). What a marker says is `marker.rs`'s; this reads
//! only where it is. To let a marker label another kind of block, add it to [`labelled`].

use std::ops::Range;

use super::marker;
use crate::read::chapter::Chapter;

/// A marker line of a chapter.
pub(crate) struct MarkerLine<'c> {
    /// The marker, `PREFIX[...]`, after any blockquote prefix and without its line ending.
    pub line: Range<usize>,
    /// Its prefix (`r`, or `req` as tracey lets a spec choose).
    pub prefix: &'c str,
    /// The text between the brackets.
    pub inner: &'c str,
    /// Where `inner` starts.
    pub inner_at: usize,
    /// The blockquote whose first line it is (tracey's form for a rule of several paragraphs):
    /// the rule's text is the rest of the quote.
    pub quote: Option<Range<usize>>,
}

/// The marker lines of `chapter` outside code and HTML, at the start of a line or of a
/// blockquote's line (`> r[ID]`, as in an admonition or tracey's multi-paragraph rules).
pub(crate) fn markers<'c>(chapter: &'c Chapter<'_>) -> impl Iterator<Item = MarkerLine<'c>> + 'c {
    let content = chapter.content;
    let bytes = content.as_bytes();
    // Every chapter is read for markers (one outside the contract chapters is reported), so
    // only the `[`s are visited, not every line: a marker's `[` follows a word of lowercase
    // letters and digits that starts its line (after a blockquote's `>`s).
    memchr::memchr_iter(b'[', bytes).filter_map(move |open| {
        let word = bytes[..open]
            .iter()
            .rposition(|b| !(b.is_ascii_lowercase() || b.is_ascii_digit()))
            .map_or(0, |at| at + 1);
        if word == open {
            return None;
        }
        let start = memchr::memrchr(b'\n', &bytes[..word]).map_or(0, |at| at + 1);
        let end = memchr::memchr(b'\n', &bytes[open..]).map_or(bytes.len(), |at| open + at + 1);
        let line = &content[start..end];
        let quoted = quote_prefix(line);
        let begin = start + quoted;
        if begin != word {
            return None;
        }
        let (prefix, inner, offset) = marker::marker_line(&line[quoted..])?;
        if chapter.index.is_verbatim(begin) {
            return None;
        }
        let end = start + line.trim_end().len();
        let quote = (quoted > 0)
            .then(|| chapter.index.quote_at(begin))
            .flatten()
            .filter(|q| content[q.start..begin].find('\n').is_none());
        Some(MarkerLine {
            line: begin..end,
            prefix,
            inner,
            inner_at: begin + offset,
            quote,
        })
    })
}

/// The length of the blockquote prefix of `line` (`> `, `> > `, up to three spaces before
/// each `>`); 0 when it has none.
fn quote_prefix(line: &str) -> usize {
    let bytes = line.as_bytes();
    let mut at = 0;
    let mut quoted = 0;
    loop {
        let spaces = bytes[at..].iter().take_while(|&&b| b == b' ').count();
        if spaces > 3 || bytes.get(at + spaces) != Some(&b'>') {
            return quoted;
        }
        at += spaces + 1;
        if bytes.get(at) == Some(&b' ') {
            at += 1;
        }
        quoted = at;
    }
}

/// The offset just after the line that `line` (a range within one line) is on.
fn after_line(content: &str, line: &Range<usize>) -> usize {
    content[line.end..]
        .find('\n')
        .map_or(content.len(), |i| line.end + i + 1)
}

/// What the marker on `line` labels: the rest of its paragraph, or the paragraph, list item,
/// heading or table that starts next with nothing but blank lines between.
fn labelled(chapter: &Chapter<'_>, line: &Range<usize>) -> Option<Range<usize>> {
    let content = chapter.content;
    let index = &chapter.index;
    let after = after_line(content, line);
    if let Some(paragraph) = index.paragraph_at(line.start)
        && paragraph.end > after
        && !content[after..paragraph.end].trim().is_empty()
    {
        return Some(after..paragraph.end);
    }
    let starts = index
        .paragraphs
        .iter()
        .chain(&index.items)
        .chain(index.headings.iter().map(|h| &h.range))
        .chain(index.tables.iter().map(|t| &t.range))
        .filter(|r| r.start >= after)
        .min_by_key(|r| (r.start, std::cmp::Reverse(r.end)))?;
    // Between them: blank lines, in a quote blank but for its `>`.
    content[after..starts.start]
        .trim_matches(|c: char| c.is_whitespace() || c == '>')
        .is_empty()
        .then(|| starts.clone())
}

/// What the marker `found` labels: the rest of its quote (tracey's form: a marker on a quote's
/// first line), or the paragraph or item after it; `None` when that is empty.
pub(super) fn labelled_by(chapter: &Chapter<'_>, found: &MarkerLine<'_>) -> Option<Range<usize>> {
    let line = &found.line;
    match &found.quote {
        Some(quote) => Some(after_line(chapter.content, line)..quote.end).filter(|rest| {
            !chapter.content[rest.clone()]
                .replace('>', "")
                .trim()
                .is_empty()
        }),
        None => labelled(chapter, line),
    }
}
