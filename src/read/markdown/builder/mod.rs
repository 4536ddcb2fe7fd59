//! The event loop of a chapter's one parse: pulldown-cmark's events, with their byte ranges,
//! turned into a [`ChapterIndex`]. To record something new: a field of the index, and the arm
//! of [`Builder::event`] (or `start`, `end`) that meets it.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use mdbook_markdown::pulldown_cmark::{CowStr, Event, InlineStr, LinkType, Tag, TagEnd};
use mdbook_markdown::{MarkdownOptions, new_cmark_parser};

mod html;

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

/// A link label as CommonMark matches labels: case-folded, runs of whitespace as one space.
fn label_key(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
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
                html::raw_html(&mut self.index, &html, range.start);
            }
            Event::InlineHtml(html) => {
                html::raw_html(&mut self.index, &html, range.start);
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
mod tests;
