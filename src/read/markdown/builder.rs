//! The event loop of a chapter's one parse: pulldown-cmark's events, with their byte ranges,
//! turned into a [`ChapterIndex`]. To record something new: a field of the index, and the arm
//! of [`Builder::event`] (or `start`, `end`) that meets it.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::LazyLock;

use mdbook_markdown::pulldown_cmark::{CowStr, Event, InlineStr, LinkType, Tag, TagEnd};
use mdbook_markdown::{MarkdownOptions, new_cmark_parser};
use regex::Regex;

use super::ids::{IdSet, id_from_content};
use super::index::{
    ChapterIndex, CodeSpan, Heading, HtmlChunk, Link, LinkOrigin, Table, TableCell, TableRow,
};

impl ChapterIndex {
    /// Parses `text` once with mdBook's parser and `options`.
    pub fn parse(text: &str, options: &MarkdownOptions) -> ChapterIndex {
        ChapterIndex::parse_with(text, options, true)
    }

    /// Parses `text` once, recording [`ChapterIndex::tables`] only when `tables` is true.
    ///
    /// Tables are the largest part of an index (every cell keeps its events), and only the
    /// chapters that can define something with a table need them; the rest of the index is the
    /// same either way.
    pub fn parse_with(text: &str, options: &MarkdownOptions, tables: bool) -> ChapterIndex {
        Builder {
            tables,
            ..Builder::default()
        }
        .run(text, options)
    }
}

/// An element that takes an id from the shared per-page set.
///
/// mdBook gives ids in the order elements were created, which is source order, footnote
/// definitions included where they are written; it then moves referenced definitions to the
/// end of the page and leaves unreferenced ones out, but their ids are taken all the same.
struct IdSlot {
    text: String,
    explicit: Option<String>,
    heading: Option<usize>,
    /// The footnote definition it is written in, if any.
    footnote: Option<String>,
}

struct OpenHeading {
    level: u8,
    range: Range<usize>,
    explicit: Option<String>,
    classes: Vec<String>,
    text: String,
    first_code: Option<(String, Range<usize>)>,
}

static HTML_ID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\sid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"#).expect("valid regex")
});
/// A link label as CommonMark matches labels: case-folded, runs of whitespace as one space.
fn label_key(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether `haystack` contains `needle` (ASCII), ignoring ASCII case.
fn contains_ascii_nocase(haystack: &str, needle: &str) -> bool {
    haystack
        .as_bytes()
        .windows(needle.len())
        .any(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Whether `html` holds `<a` or `<A` followed by whitespace, as [`HTML_A_NAME`] and
/// [`HTML_HREF`] require.
fn has_anchor_tag(html: &str) -> bool {
    html.match_indices('<').any(|(i, _)| {
        let mut rest = html[i + 1..].chars();
        matches!(rest.next(), Some('a' | 'A')) && rest.next().is_some_and(char::is_whitespace)
    })
}

static HTML_A_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)<a\s[^>]*?\bname\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"#)
        .expect("valid regex")
});
static HTML_HREF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)<a\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"#)
        .expect("valid regex")
});

fn first_group<'h>(caps: &regex::Captures<'h>) -> Option<regex::Match<'h>> {
    caps.get(1).or_else(|| caps.get(2)).or_else(|| caps.get(3))
}

#[derive(Default)]
struct Builder {
    index: ChapterIndex,
    slots: Vec<IdSlot>,
    /// Headings inside a duplicate footnote definition, which mdBook drops unread.
    dropped: HashSet<usize>,
    /// Whether the previous event was a footnote reference (mdBook puts a space between two).
    after_footnote_reference: bool,
    heading: Option<OpenHeading>,
    term: Option<String>,
    image_depth: usize,
    code_block_depth: usize,
    html_block_depth: usize,
    /// Footnote definitions being read (their names, or `None` for a duplicate definition,
    /// which mdBook drops).
    footnote_stack: Vec<Option<String>>,
    footnote_numbers: HashMap<String, (usize, u32)>,
    defined_footnotes: HashSet<String>,
    /// Whether tables are recorded.
    tables: bool,
    /// The labels of the reference links read so far (see [`label_key`]).
    used_labels: HashSet<String>,
    table: Option<Table>,
    cell: Option<TableCell>,
}

impl Builder {
    fn run(mut self, text: &str, options: &MarkdownOptions) -> ChapterIndex {
        let mut events = new_cmark_parser(text, options).into_offset_iter();
        for (event, range) in &mut events {
            self.event(text, event, range);
        }
        for (label, definition) in events.reference_definitions().iter() {
            if !self.used_labels.contains(&label_key(label)) {
                self.index.unused_definitions.push(Link {
                    range: definition.span.clone(),
                    dest: definition.dest.to_string(),
                    origin: LinkOrigin::Markdown,
                });
            }
        }
        self.index.unused_definitions.sort_by_key(|d| d.range.start);
        self.finish()
    }

    fn event(&mut self, source: &str, event: Event<'_>, range: Range<usize>) {
        let after_footnote_reference = std::mem::take(&mut self.after_footnote_reference);
        if let Some(cell) = &mut self.cell {
            let inside = !matches!(
                event,
                Event::Start(Tag::TableCell) | Event::End(TagEnd::TableCell)
            );
            if inside {
                cell.events.push(event.clone().into_static());
                cell.spans.push(range.clone());
            }
        }
        match event {
            Event::Start(tag) => self.start(source, tag, range),
            Event::End(tag) => self.end(tag, range),
            Event::Text(text) => {
                if self.code_block_depth > 0 || self.html_block_depth > 0 {
                    return;
                }
                self.push_text(&text);
                if let Some(cell) = &mut self.cell {
                    cell.text.push_str(&text);
                }
                if source.get(range.clone()) != Some(&*text) {
                    let at = self.index.text.len();
                    self.index.rendered.push((at, text.as_ref().into()));
                }
                self.index.text.push(range);
            }
            Event::Code(code) => self.code(code, range),
            Event::Html(html) => {
                self.raw_html(&html, range.start);
            }
            Event::InlineHtml(html) => {
                self.raw_html(&html, range.start);
                self.index.html.push(HtmlChunk {
                    range,
                    block: false,
                });
            }
            Event::FootnoteReference(name) => {
                let next = self.footnote_numbers.len() + 1;
                let (number, count) = self
                    .footnote_numbers
                    .entry(name.to_string())
                    .or_insert((next, 0));
                *count += 1;
                let (number, count) = (*number, *count);
                self.index.anchors.insert(format!("fr-{name}-{count}"));
                if after_footnote_reference {
                    self.push_text(" ");
                }
                self.push_text(&number.to_string());
                self.after_footnote_reference = true;
            }
            Event::SoftBreak => self.push_text("\n"),
            Event::HardBreak | Event::Rule | Event::TaskListMarker(_) => {}
            Event::InlineMath(_) | Event::DisplayMath(_) => {}
        }
    }

    /// A code span: text of the heading, term or cell it is in (the first one names a heading's
    /// provider or axis, a cell's profile), and a span of the index.
    fn code(&mut self, code: CowStr<'_>, range: Range<usize>) {
        // An image's content all goes into its `alt` attribute, which is not text.
        let in_image = self.image_depth > 0;
        if let Some(heading) = self.heading.as_mut().filter(|_| !in_image) {
            heading.text.push_str(&code);
            if heading.first_code.is_none() {
                heading.first_code = Some((code.to_string(), range.clone()));
            }
        } else if let Some(term) = self.term.as_mut().filter(|_| !in_image) {
            term.push_str(&code);
        }
        if let Some(cell) = &mut self.cell {
            cell.text.push_str(&code);
            if cell.first_code.is_none() {
                cell.first_code = Some(code.to_string());
            }
        }
        self.index.code_spans.push(CodeSpan {
            range,
            text: compact(code),
        });
    }

    /// Adds rendered text to the heading or definition term being read.
    fn push_text(&mut self, text: &str) {
        if self.image_depth > 0 {
            return;
        }
        if let Some(heading) = &mut self.heading {
            heading.text.push_str(text);
        } else if let Some(term) = &mut self.term {
            term.push_str(text);
        }
    }

    fn start(&mut self, source: &str, tag: Tag<'_>, range: Range<usize>) {
        if is_block(&tag) {
            self.index.blocks.push(range.clone());
        }
        if matches!(tag, Tag::BlockQuote(_)) {
            self.index.quotes.push(range.clone());
        }
        match tag {
            Tag::Heading { .. } => self.heading = open_heading(tag, range),
            Tag::DefinitionListTitle => self.term = Some(String::new()),
            Tag::Image { .. } => self.image_depth += 1,
            Tag::CodeBlock(_) => {
                self.code_block_depth += 1;
                self.index.code_blocks.push(range);
            }
            Tag::HtmlBlock => {
                self.html_block_depth += 1;
                self.index.html.push(HtmlChunk { range, block: true });
            }
            Tag::Paragraph => self.index.paragraphs.push(range),
            Tag::Item => self.index.items.push(range),
            Tag::Link {
                link_type,
                dest_url,
                id,
                ..
            } => self.link(link_type, dest_url.into_string(), &id, range),
            Tag::FootnoteDefinition(name) => {
                let name = name.to_string();
                if self.defined_footnotes.insert(name.clone()) {
                    self.footnote_stack.push(Some(name));
                } else {
                    self.footnote_stack.push(None);
                }
            }
            _ => self.start_table(source, tag, range),
        }
    }

    /// A link: its destination and where it came from, and the reference label it uses.
    fn link(&mut self, link_type: LinkType, dest: String, id: &str, range: Range<usize>) {
        if !id.is_empty() {
            self.used_labels.insert(label_key(id));
        }
        let origin = match link_type {
            LinkType::Autolink | LinkType::Email => LinkOrigin::Autolink,
            _ => LinkOrigin::Markdown,
        };
        self.index.links.push(Link {
            range,
            dest,
            origin,
        });
    }

    /// A table, a row or a cell opening, when tables are read.
    fn start_table(&mut self, source: &str, tag: Tag<'_>, range: Range<usize>) {
        match tag {
            Tag::Table(_) if self.tables => {
                self.table = Some(Table {
                    range,
                    rows: Vec::new(),
                })
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(table) = &mut self.table {
                    table.rows.push(TableRow {
                        range,
                        cells: Vec::new(),
                    });
                }
            }
            Tag::TableCell if self.table.is_some() => {
                let trimmed = trim_range(source, range);
                self.cell = Some(TableCell {
                    range: trimmed,
                    events: Vec::new(),
                    spans: Vec::new(),
                    first_code: None,
                    text: String::new(),
                });
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd, _range: Range<usize>) {
        match tag {
            TagEnd::Heading(_) => {
                if let Some(open) = self.heading.take() {
                    let heading_index = self.index.headings.len();
                    self.index.headings.push(Heading {
                        level: open.level,
                        range: open.range,
                        id: String::new(),
                        explicit_id: open.explicit.is_some(),
                        classes: open.classes,
                        text: open.text.clone(),
                        first_code: open.first_code,
                    });
                    self.add_slot(IdSlot {
                        text: open.text,
                        explicit: open.explicit,
                        heading: Some(heading_index),
                        footnote: None,
                    });
                }
            }
            TagEnd::DefinitionListTitle => {
                if let Some(text) = self.term.take() {
                    self.add_slot(IdSlot {
                        text,
                        explicit: None,
                        heading: None,
                        footnote: None,
                    });
                }
            }
            TagEnd::Image => self.image_depth = self.image_depth.saturating_sub(1),
            TagEnd::CodeBlock => self.code_block_depth = self.code_block_depth.saturating_sub(1),
            TagEnd::HtmlBlock => self.html_block_depth = self.html_block_depth.saturating_sub(1),
            TagEnd::FootnoteDefinition => {
                self.footnote_stack.pop();
            }
            TagEnd::TableCell => {
                if let (Some(cell), Some(table)) = (self.cell.take(), &mut self.table)
                    && let Some(row) = table.rows.last_mut()
                {
                    row.cells.push(cell);
                }
            }
            TagEnd::Table => {
                if let Some(table) = self.table.take() {
                    self.index.tables.push(table);
                }
            }
            _ => {}
        }
    }

    fn add_slot(&mut self, mut slot: IdSlot) {
        match self.footnote_stack.last() {
            None => self.slots.push(slot),
            Some(Some(name)) => {
                slot.footnote = Some(name.clone());
                self.slots.push(slot);
            }
            // Inside a duplicate footnote definition, which mdBook does not render.
            Some(None) => {
                if let Some(heading) = slot.heading {
                    self.dropped.insert(heading);
                }
            }
        }
    }

    fn raw_html(&mut self, html: &str, offset: usize) {
        // Most raw HTML in a book is a comment or a tag such as `<br>`: the regexes, compiled on
        // first use, are not even compiled for it. Both tests are necessary conditions of a
        // match (`id` then `=`; `<a` then whitespace), so nothing they skip could match.
        let attribute = contains_ascii_nocase(html, "id") && html.contains('=');
        let anchor = has_anchor_tag(html);
        if !attribute && !anchor {
            return;
        }
        let ids = attribute.then(|| HTML_ID.captures_iter(html));
        let names = anchor.then(|| HTML_A_NAME.captures_iter(html));
        for caps in ids.into_iter().flatten().chain(names.into_iter().flatten()) {
            if let Some(id) = first_group(&caps) {
                self.index.anchors.insert(id.as_str().to_owned());
            }
        }
        if !anchor {
            return;
        }
        for caps in HTML_HREF.captures_iter(html) {
            if let (Some(whole), Some(href)) = (caps.get(0), first_group(&caps)) {
                let start = offset + whole.start();
                self.index.links.push(Link {
                    range: start..start + whole.len(),
                    dest: href.as_str().to_owned(),
                    origin: LinkOrigin::Html,
                });
            }
        }
    }

    fn finish(mut self) -> ChapterIndex {
        let mut ids = IdSet::default();
        // Only referenced definitions are rendered.
        for name in &self.defined_footnotes {
            if self.footnote_numbers.contains_key(name) {
                self.index.anchors.insert(format!("footnote-{name}"));
            }
        }
        for slot in std::mem::take(&mut self.slots) {
            let id = match slot.explicit {
                Some(explicit) => explicit,
                None => ids.unique(&id_from_content(&slot.text)),
            };
            let shown = slot
                .footnote
                .as_ref()
                .is_none_or(|name| self.footnote_numbers.contains_key(name));
            if !shown {
                if let Some(heading) = slot.heading {
                    self.dropped.insert(heading);
                }
                continue;
            }
            self.index.anchors.insert(id.clone());
            if let Some(heading) = slot.heading {
                self.index.headings[heading].id = id;
            }
        }
        let mut number = 0;
        let dropped = std::mem::take(&mut self.dropped);
        self.index.headings.retain(|_| {
            number += 1;
            !dropped.contains(&(number - 1))
        });
        // Every chapter's index lives until the book is rendered: the lists give back what
        // they grew past their length (a third of the index's memory on a large book).
        let index = &mut self.index;
        index.headings.shrink_to_fit();
        index.links.shrink_to_fit();
        index.code_spans.shrink_to_fit();
        index.code_blocks.shrink_to_fit();
        index.html.shrink_to_fit();
        index.text.shrink_to_fit();
        index.rendered.shrink_to_fit();
        index.paragraphs.shrink_to_fit();
        index.items.shrink_to_fit();
        index.tables.shrink_to_fit();
        index.blocks.shrink_to_fit();
        index.quotes.shrink_to_fit();
        self.index
    }
}

/// `text` as an owned string, inline when it is short enough.
fn compact(text: CowStr<'_>) -> CowStr<'static> {
    match InlineStr::try_from(&*text) {
        Ok(inline) => CowStr::Inlined(inline),
        Err(_) => CowStr::Boxed(text.into_string().into_boxed_str()),
    }
}

fn is_block(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Paragraph
            | Tag::Heading { .. }
            | Tag::BlockQuote(_)
            | Tag::CodeBlock(_)
            | Tag::HtmlBlock
            | Tag::List(_)
            | Tag::Item
            | Tag::FootnoteDefinition(_)
            | Tag::Table(_)
            | Tag::DefinitionList
            | Tag::MetadataBlock(_)
    )
}

/// `range` without leading and trailing whitespace (and a table cell's pipes, which are not
/// part of a cell's range).
fn trim_range(source: &str, range: Range<usize>) -> Range<usize> {
    let Some(slice) = source.get(range.clone()) else {
        return range;
    };
    let start = range.start + (slice.len() - slice.trim_start().len());
    let end = range.end - (slice.len() - slice.trim_end().len());
    start..end.max(start)
}

/// A heading as it opens: its level, its `{#id}` or `id=` attribute, its classes.
fn open_heading(tag: Tag<'_>, range: Range<usize>) -> Option<OpenHeading> {
    let Tag::Heading {
        level,
        id,
        classes,
        attrs,
    } = tag
    else {
        return None;
    };
    let attr_id = attrs
        .iter()
        .rev()
        .find(|(name, _)| name.as_ref() == "id")
        .and_then(|(_, value)| value.as_ref().map(|v| v.to_string()));
    Some(OpenHeading {
        level: level as u8,
        range,
        explicit: id.map(|id| id.to_string()).or(attr_id),
        classes: classes.iter().map(|c| c.to_string()).collect(),
        text: String::new(),
        first_code: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> ChapterIndex {
        ChapterIndex::parse(text, &MarkdownOptions::default())
    }

    #[test]
    fn raw_html_ids_names_and_hrefs_are_read_and_other_html_skipped() {
        let index = parse(
            "<span ID = \"x\">a</span> <A\thref='y.md'>b</A> <a name=z></a>\n\n\
             <div class=\"valid\" data-x=1>\n\n<br> <!-- an idea --> <abbr>c</abbr>\n",
        );
        let mut anchors: Vec<&str> = index.anchors.iter().map(String::as_str).collect();
        anchors.sort();
        assert_eq!(anchors, ["x", "z"]);
        let dests: Vec<&str> = index.links.iter().map(|l| l.dest.as_str()).collect();
        assert_eq!(dests, ["y.md"]);
        assert!(contains_ascii_nocase("a <P iD=1>", "id"));
        assert!(!contains_ascii_nocase("<br>", "id"));
        assert!(has_anchor_tag("x <a\nhref=q>"));
        assert!(has_anchor_tag("<A name=q>"));
        assert!(!has_anchor_tag("<abbr> <a> <br>"));
    }

    #[test]
    fn heading_ids_follow_mdbook() {
        let index = parse(
            "# Hello World\n\n## Hello World\n\n### `readiness` {.axis}\n\n## Custom {#mine}\n\n## mine\n",
        );
        let ids: Vec<&str> = index.headings.iter().map(|h| h.id.as_str()).collect();
        assert_eq!(
            ids,
            ["hello-world", "hello-world-1", "readiness", "mine", "mine"]
        );
        assert!(index.headings[2].has_class("axis"));
        assert_eq!(
            index.headings[2].first_code.as_ref().map(|c| c.0.as_str()),
            Some("readiness")
        );
        assert!(index.headings[3].explicit_id);
    }

    #[test]
    fn smart_punctuation_changes_ids_and_is_recorded() {
        let index = parse("# A -- B --- C\n\nx --- y\n");
        assert_eq!(index.headings[0].id, "a--b--c");
        let dash = index
            .text()
            .filter(|t| t.rendered == Some("—"))
            .last()
            .unwrap();
        assert_eq!(dash.range, 18..21);
        let mut plain = MarkdownOptions::default();
        plain.smart_punctuation = false;
        assert_eq!(
            ChapterIndex::parse("# A -- B --- C\n", &plain).headings[0].id,
            "a----b-----c"
        );
    }

    #[test]
    fn footnotes_and_raw_ids_are_anchors() {
        let index =
            parse("Text[^n].\n\n<div id=\"raw\"></div>\n\n[^n]: Note.\n\n[^unused]: Never.\n");
        for id in ["fr-n-1", "footnote-n", "raw"] {
            assert!(index.anchors.contains(id), "{id}");
        }
        assert!(!index.anchors.contains("footnote-unused"));
    }

    #[test]
    fn verbatim_ranges_cover_code_and_html() {
        let text = "a `{{#x}}` b\n\n```\n{{#y}}\n```\n\n<!-- {{#z}} -->\n";
        let index = parse(text);
        for needle in ["{{#x}}", "{{#y}}", "{{#z}}"] {
            assert!(index.is_verbatim(text.find(needle).unwrap()), "{needle}");
        }
        assert!(!index.is_verbatim(0));
    }

    #[test]
    fn verbatim_lookups_agree_with_one_sorted_list() {
        let text = "a `x` <b>y</b> `z`\n\n```\ncode\n```\n\n<div>\nhtml\n</div>\n\n- `i` <!-- c -->\n\n    indented\n\n> `q` <i>j</i>\n";
        let index = parse(text);
        let mut all: Vec<Range<usize>> = index.code_spans.iter().map(|c| c.range.clone()).collect();
        all.extend(index.code_blocks.iter().cloned());
        all.extend(index.html.iter().map(|h| h.range.clone()));
        all.sort_by_key(|r| r.start);
        assert!(all.windows(2).all(|w| w[0].end <= w[1].start), "{all:?}");
        for offset in 0..=text.len() {
            let i = all.partition_point(|r| r.start <= offset);
            let expected = (i > 0 && offset < all[i - 1].end).then(|| all[i - 1].clone());
            assert_eq!(index.verbatim_at(offset), expected, "{offset}");
        }
    }

    #[test]
    fn tables_keep_cells() {
        let text = "| Profile | Meaning |\n|---|---|\n| `a` | first *one* |\n";
        let index = parse(text);
        let table = &index.tables[0];
        assert_eq!(table.rows.len(), 2);
        assert_eq!(table.rows[0].cells[0].text, "Profile");
        assert_eq!(table.rows[1].cells[0].first_code.as_deref(), Some("a"));
        assert_eq!(&text[table.rows[1].cells[1].range.clone()], "first *one*");
        assert_eq!(table.rows[1].cells[1].text, "first one");
    }

    #[test]
    fn tables_can_be_left_out() {
        let text =
            "# T\n\n| Profile | Meaning |\n|---|---|\n| `a` | [first](#t) *one* |\n\nx `b`\n";
        let with = parse(text);
        let without = ChapterIndex::parse_with(text, &MarkdownOptions::default(), false);
        assert_eq!(with.tables.len(), 1);
        assert!(without.tables.is_empty());
        assert_eq!(with.headings, without.headings);
        assert_eq!(with.anchors, without.anchors);
        assert_eq!(with.links, without.links);
        assert_eq!(with.code_spans, without.code_spans);
        assert!(with.text().eq(without.text()));
        assert_eq!(with.blocks, without.blocks);
    }
}
