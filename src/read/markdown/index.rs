//! What the one parse of a chapter records: its headings, links, code, HTML, text and tables,
//! each with its byte range, and the lookups the checks make in them. The parse itself, the
//! event loop that fills a [`ChapterIndex`], is `builder.rs`'s.

use std::collections::HashSet;
use std::ops::Range;

use mdbook_markdown::pulldown_cmark::{CowStr, Event};

/// A heading as mdBook renders it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 for `#`, 6 for `######`.
    pub level: u8,
    /// The whole heading, attribute block and setext underline included.
    pub range: Range<usize>,
    /// The id mdBook gives it: the explicit `{#id}`, or the text's id made unique on the page.
    pub id: String,
    /// Whether `id` was written by the author (`{#id}`).
    pub explicit_id: bool,
    /// The classes of its attribute block (`{.axis}` gives `["axis"]`).
    pub classes: Vec<String>,
    /// The rendered text mdBook derives the id from.
    pub text: String,
    /// The text and range (backticks included) of its first code span.
    pub first_code: Option<(String, Range<usize>)>,
}

impl Heading {
    /// Whether the attribute block carries `class`.
    pub fn has_class(&self, class: &str) -> bool {
        self.classes.iter().any(|c| c == class)
    }
}

/// Where a link was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkOrigin {
    /// `[text](dest)`, `[text][ref]` and the like.
    Markdown,
    /// `<https://...>` or `<me@example.com>`.
    Autolink,
    /// `href` of a raw HTML `<a>`.
    Html,
}

/// A link and its destination as written (reference links resolved).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The whole link; for HTML, the `<a ...>` tag.
    pub range: Range<usize>,
    /// The destination, unchanged.
    pub dest: String,
    /// How it was written.
    pub origin: LinkOrigin,
}

/// An inline code span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeSpan {
    /// Backticks included.
    pub range: Range<usize>,
    /// The code, as rendered; short code (most of it: names and paths) is held inline,
    /// without an allocation of its own.
    pub text: CowStr<'static>,
}

/// Raw HTML, a block or an inline tag or comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HtmlChunk {
    /// The bytes of the HTML.
    pub range: Range<usize>,
    /// Whether it is an HTML block (else inline HTML).
    pub block: bool,
}

/// A run of prose text outside code and raw HTML (see [`ChapterIndex::text`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextRun<'a> {
    /// The bytes as written.
    pub range: Range<usize>,
    /// The rendered text where it differs from the bytes as written (smart punctuation,
    /// entities, backslash escapes); `None` where they are the same.
    pub rendered: Option<&'a str>,
}

/// One cell of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct TableCell {
    /// The cell's content, trimmed, without the pipes.
    pub range: Range<usize>,
    /// The inline events of the cell, to render it elsewhere.
    pub events: Vec<Event<'static>>,
    /// The bytes each of `events` was written in.
    pub spans: Vec<Range<usize>>,
    /// The text of its first code span, if any.
    pub first_code: Option<String>,
    /// Its plain rendered text (code span text included).
    pub text: String,
}

/// One row of a table (the header row included).
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    /// The row's bytes.
    pub range: Range<usize>,
    /// Its cells, left to right.
    pub cells: Vec<TableCell>,
}

/// A table; `rows[0]` is the header.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The whole table.
    pub range: Range<usize>,
    /// Header first, then the body rows.
    pub rows: Vec<TableRow>,
}

/// What one chapter holds, with byte ranges into its content.
///
/// Every range lies on character boundaries of the text given to [`ChapterIndex::parse`]; every
/// list is in document order.
#[derive(Debug, Default, Clone)]
pub struct ChapterIndex {
    /// Headings (h1 to h6), raw HTML headings excluded.
    pub headings: Vec<Heading>,
    /// Every fragment id the rendered page will have, except mdBook's own `mdbook-` chrome.
    pub anchors: HashSet<String>,
    /// Links, Markdown and raw HTML.
    pub links: Vec<Link>,
    /// Inline code spans.
    pub code_spans: Vec<CodeSpan>,
    /// Fenced and indented code blocks.
    pub code_blocks: Vec<Range<usize>>,
    /// Raw HTML.
    pub html: Vec<HtmlChunk>,
    /// Prose text outside code and HTML, run by run (see [`ChapterIndex::text`]): the ranges,
    /// and apart, the few runs whose rendered text differs from the bytes, by their position in
    /// `text` (a book has millions of runs, nearly all rendered as written).
    pub(super) text: Vec<Range<usize>>,
    pub(super) rendered: Vec<(usize, Box<str>)>,
    /// Paragraphs.
    pub paragraphs: Vec<Range<usize>>,
    /// List items (nested items are listed after their parent).
    pub items: Vec<Range<usize>>,
    /// Tables.
    pub tables: Vec<Table>,
    /// Every block element (paragraphs, headings, lists, items, quotes, code, HTML, tables,
    /// footnote definitions), outer before inner.
    pub blocks: Vec<Range<usize>>,
    /// Link reference definitions (`[label]: target`) that no link of the chapter uses, in
    /// document order (the links that use one are in `links`).
    pub unused_definitions: Vec<Link>,
    /// Blockquotes (admonitions among them), outer before inner.
    pub quotes: Vec<Range<usize>>,
}

impl ChapterIndex {
    /// Whether `offset` lies inside a code span, a code block or raw HTML.
    pub fn is_verbatim(&self, offset: usize) -> bool {
        self.verbatim_at(offset).is_some()
    }

    /// The verbatim range (code or raw HTML) that contains `offset`, if any.
    ///
    /// Code spans, code blocks and raw HTML never overlap, and each list is in document order,
    /// so each is searched by bisection.
    pub(super) fn verbatim_at(&self, offset: usize) -> Option<Range<usize>> {
        containing(&self.code_spans, |c| &c.range, offset)
            .or_else(|| containing(&self.code_blocks, |r| r, offset))
            .or_else(|| containing(&self.html, |h| &h.range, offset))
    }

    /// The heading that contains `offset`, if any.
    pub fn heading_at(&self, offset: usize) -> Option<&Heading> {
        let i = self.headings.partition_point(|h| h.range.start <= offset);
        (i > 0 && offset < self.headings[i - 1].range.end).then(|| &self.headings[i - 1])
    }

    /// Prose text as contiguous ranges: adjacent runs joined, so a pattern split by an escape or
    /// by smart punctuation is still seen whole.
    pub fn prose_ranges(&self) -> Vec<Range<usize>> {
        let mut out: Vec<Range<usize>> = Vec::new();
        for range in &self.text {
            match out.last_mut() {
                Some(last) if last.end == range.start => last.end = range.end,
                _ => out.push(range.clone()),
            }
        }
        out
    }

    /// The runs of prose text outside code and raw HTML, in document order.
    pub fn text(&self) -> impl Iterator<Item = TextRun<'_>> {
        let mut rendered = self.rendered.iter().peekable();
        self.text.iter().enumerate().map(move |(i, range)| TextRun {
            range: range.clone(),
            rendered: rendered
                .next_if(|(at, _)| *at == i)
                .map(|(_, text)| &**text),
        })
    }

    /// The innermost list item that contains `offset`, if any.
    pub fn item_at(&self, offset: usize) -> Option<Range<usize>> {
        self.items
            .iter()
            .filter(|r| r.contains(&offset))
            .max_by_key(|r| r.start)
            .cloned()
    }

    /// The innermost blockquote that contains `offset`, if any.
    pub fn quote_at(&self, offset: usize) -> Option<Range<usize>> {
        self.quotes
            .iter()
            .filter(|r| r.contains(&offset))
            .max_by_key(|r| r.start)
            .cloned()
    }

    /// The paragraph that contains `offset`, if any.
    pub fn paragraph_at(&self, offset: usize) -> Option<Range<usize>> {
        let i = self.paragraphs.partition_point(|r| r.start <= offset);
        (i > 0 && offset < self.paragraphs[i - 1].end).then(|| self.paragraphs[i - 1].clone())
    }

    /// Gives back everything but [`ChapterIndex::headings`] and [`ChapterIndex::tables`]: the
    /// bulk of an index (prose text, code, links, blocks) is read while checking, and a book's
    /// indexes are its largest data after the book itself.
    pub fn keep_headings_and_tables(&mut self) {
        let ChapterIndex {
            headings: _,
            tables: _,
            anchors,
            links,
            code_spans,
            code_blocks,
            html,
            text,
            rendered,
            paragraphs,
            items,
            blocks,
            unused_definitions,
            quotes,
        } = self;
        *anchors = HashSet::new();
        *links = Vec::new();
        *code_spans = Vec::new();
        *code_blocks = Vec::new();
        *html = Vec::new();
        *text = Vec::new();
        *rendered = Vec::new();
        *paragraphs = Vec::new();
        *items = Vec::new();
        *blocks = Vec::new();
        *unused_definitions = Vec::new();
        *quotes = Vec::new();
    }
}

/// The range of the item of `list` (in document order, without overlaps) that contains
/// `offset`, if any.
fn containing<T>(
    list: &[T],
    range: impl Fn(&T) -> &Range<usize>,
    offset: usize,
) -> Option<Range<usize>> {
    let i = list.partition_point(|item| range(item).start <= offset);
    let last = range(list.get(i.checked_sub(1)?)?);
    (offset < last.end).then(|| last.clone())
}
