//! Shortcodes to Markdown.
//!
//! [`patches`] turns every well-formed shortcode of every chapter into a [`Patch`] of its byte
//! range; nothing outside those ranges changes. What is generated (links, lists, tables) is
//! built as pulldown-cmark events and written by [`write`]: pulldown-cmark-to-cmark, so escaping
//! inside cells and link text is right by construction, or a fast path proptested to write the
//! same bytes. Claims, the most frequent shortcode, are put together from a cached link and code
//! spans (`code_span`). Cells taken from a `Profile` table are its own events, with relative
//! links rebased when they are shown in another chapter. Rendering
//! reports nothing: a shortcode that names something unknown is shown as written, in a code
//! span, and the checks say why.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

use mdbook_markdown::pulldown_cmark::{Alignment, CowStr, Event, LinkType, Tag, TagEnd};

use crate::book::Chapter;
use crate::links;
use crate::markdown::splice::Patch;
use crate::model::{Axis, Claim, Model};
use crate::shortcode::{Kind, Shortcode};

mod write;

use write::{push_code_span, to_markdown};

/// Events borrow from the model and the chapters; only link destinations are built.
type Events<'e> = Vec<Event<'e>>;

/// The patches of every chapter, indexed like `chapters`.
pub fn patches(chapters: &[Chapter<'_>], model: &Model) -> Vec<Vec<Patch>> {
    // Chapters are rendered on several threads, each with its own caches.
    let renderer = || Renderer {
        chapters,
        model,
        paths: RefCell::default(),
        axis_links: RefCell::default(),
    };
    let work = chapters.iter().map(|chapter| chapter.content.len()).sum();
    crate::parallel::map(chapters, work, renderer, |renderer, number, chapter| {
        chapter
            .scan
            .shortcodes
            .iter()
            .map(|shortcode| Patch {
                range: shortcode.range.clone(),
                text: renderer.shortcode(number, shortcode),
            })
            .collect()
    })
}

struct Renderer<'a> {
    chapters: &'a [Chapter<'a>],
    model: &'a Model,
    /// The relative paths between chapters, worked out once per pair.
    paths: RefCell<Paths>,
    /// `{{#axis}}` links already written, by path (see [`Paths`]) and axis code. A book links
    /// the same few axes from many chapters, and writing Markdown costs far more than a lookup;
    /// the Markdown of a link depends on nothing else.
    axis_links: RefCell<HashMap<(usize, &'a str), String>>,
}

/// Relative paths between chapters, each distinct one held once: chapters in one folder link
/// another chapter by the same path, so a link's Markdown can be cached by path.
#[derive(Default)]
struct Paths {
    /// The path from one chapter to another, by their numbers: an index into `paths`.
    by_pair: HashMap<(usize, usize), usize>,
    /// The index of each path in `paths`.
    ids: HashMap<Option<String>, usize>,
    /// `None` within one page (a link to an anchor only), else the relative path.
    paths: Vec<Option<String>>,
}

impl<'a> Renderer<'a> {
    fn shortcode(&self, number: usize, shortcode: &Shortcode) -> String {
        let chapter = &self.chapters[number];
        let markdown = match shortcode.kind {
            Kind::Axis => self
                .model
                .axis(&shortcode.args[0].text)
                .map(|axis| self.axis_link(number, axis)),
            Kind::Profile => self.claim(number, shortcode),
            Kind::Answers => self
                .model
                .axis(&shortcode.args[0].text)
                .map(|axis| to_markdown(&self.answers(number, axis))),
            Kind::AxisTable => Some(to_markdown(&self.axis_table(number))),
            Kind::ProfileMatrix => Some(to_markdown(&self.profile_matrix(number))),
        };
        let Some(markdown) = markdown else {
            return code_span(&chapter.content[shortcode.range.clone()]);
        };
        if shortcode.kind.is_block() {
            indent_continuation(
                &markdown,
                line_prefix(chapter.content, shortcode.range.start),
            )
        } else {
            markdown
        }
    }

    /// The index in [`Paths`] of the path from chapter `from` to chapter `to`.
    fn path_id(&self, from: usize, to: usize) -> usize {
        let mut paths = self.paths.borrow_mut();
        if let Some(id) = paths.by_pair.get(&(from, to)) {
            return *id;
        }
        let (from_path, to_path) = (
            self.chapters[from].link_path(),
            self.chapters[to].link_path(),
        );
        let path = (links::components(from_path) != links::components(to_path))
            .then(|| links::relative(from_path, to_path));
        let Paths {
            by_pair,
            ids,
            paths,
        } = &mut *paths;
        let id = *ids.entry(path).or_insert_with_key(|path| {
            paths.push(path.clone());
            paths.len() - 1
        });
        by_pair.insert((from, to), id);
        id
    }

    /// [`links::to_anchor`] from chapter `from` to `anchor` in chapter `to`.
    fn dest(&self, from: usize, to: usize, anchor: &str) -> String {
        let id = self.path_id(from, to);
        let paths = self.paths.borrow();
        let path = paths.paths[id].as_deref().unwrap_or("");
        let mut dest = String::with_capacity(path.len() + 1 + anchor.len());
        dest.push_str(path);
        dest.push('#');
        links::encode_into(&mut dest, anchor);
        dest
    }

    /// The events of a link to `axis`, for the tables.
    fn axis_link_events(&self, from: usize, axis: &'a Axis) -> Events<'a> {
        link(
            self.dest(from, axis.chapter, &axis.anchor),
            vec![code(&axis.code)],
        )
    }

    /// The Markdown of a link to `axis` from chapter `from`, written once per path.
    fn axis_link(&self, from: usize, axis: &'a Axis) -> String {
        let key = (self.path_id(from, axis.chapter), axis.code.as_str());
        if let Some(markdown) = self.axis_links.borrow().get(&key) {
            return markdown.clone();
        }
        let markdown = to_markdown(&self.axis_link_events(from, axis));
        self.axis_links.borrow_mut().insert(key, markdown.clone());
        markdown
    }

    /// A claim: the axis link (written once per path), the profile and the evidence as code
    /// spans. A book has a claim per provider and axis, so this
    /// is the most frequent shortcode, and it is put together from those pieces rather than
    /// written as a whole (see [`code_span`]).
    fn claim(&self, from: usize, shortcode: &Shortcode) -> Option<String> {
        let claim = self.model.claim_at(from, shortcode.range.start)?;
        let axis = self.model.axis(&claim.axis.0)?;
        let mut out = self.axis_link(from, axis);
        out.reserve(64);
        out.push_str(": ");
        if claim.is_unknown() {
            out.push_str("<strong>unknown</strong>, not verified yet");
            return Some(out);
        }
        axis.profile(&claim.profile.0)?;
        push_code_span(&mut out, &claim.profile.0);
        if !claim.evidence.is_empty() {
            out.push_str(" (");
            for (i, evidence) in claim.evidence.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_code_span(&mut out, evidence);
            }
            out.push(')');
        }
        Some(out)
    }

    /// The events of cell `column` of `axis`'s profile row `row`, shown in chapter `to`.
    fn cell(
        &self,
        axis: &Axis,
        row: usize,
        column: Option<usize>,
        to: usize,
    ) -> Option<Events<'a>> {
        let table = &self.chapters[axis.chapter].index.tables[axis.table?];
        let cell = table.rows.get(row)?.cells.get(column?)?;
        if cell.events.is_empty() {
            return None;
        }
        Some(rebase(
            &cell.events,
            self.chapters[axis.chapter].link_path(),
            self.chapters[to].link_path(),
        ))
    }

    fn answers(&self, from: usize, axis: &'a Axis) -> Events<'a> {
        let mut events = vec![Event::Start(Tag::List(None))];
        for profile in &axis.profiles {
            events.push(Event::Start(Tag::Item));
            events.extend(link(
                self.dest(from, axis.chapter, &axis.anchor),
                vec![code(&profile.name)],
            ));
            if let Some(meaning) = self.cell(axis, profile.row, axis.columns.meaning, from) {
                events.push(text(": "));
                events.extend(meaning);
            }
            if let Some(obliges) = self.cell(axis, profile.row, axis.columns.obliges, from) {
                let ends_sentence = matches!(events.last(), Some(Event::Text(t)) if t.trim_end().ends_with(['.', '!', '?']));
                events.push(text(if ends_sentence { " " } else { ". " }));
                events.extend(emphasis("Obliges:"));
                events.push(text(" "));
                events.extend(obliges);
            }
            events.push(Event::End(TagEnd::Item));
        }
        events.push(Event::End(TagEnd::List(false)));
        events
    }

    fn axis_table(&self, from: usize) -> Events<'a> {
        let mut rows: Vec<Vec<Events<'a>>> = Vec::new();
        for axis in self.model.unique_axes() {
            let profiles = axis.profiles.iter().map(|p| vec![code(&p.name)]);
            let mut profile_cell = Vec::new();
            push_joined(&mut profile_cell, profiles, ", ");
            let mut tolerated = Vec::new();
            let tolerated_parts = axis.profiles.iter().filter_map(|p| {
                let cell = self.cell(axis, p.row, axis.columns.tolerated_by, from)?;
                let mut part = vec![code(&p.name), text(": ")];
                part.extend(cell);
                Some(part)
            });
            push_joined(&mut tolerated, tolerated_parts, "; ");
            let entry = self
                .model
                .answer_sites_of(&axis.code)
                .next()
                .and_then(|site| {
                    let heading = &self.chapters[site.chapter].index.headings[site.heading?];
                    Some(link(
                        self.dest(from, site.chapter, &heading.id),
                        vec![text(heading.text.trim())],
                    ))
                });
            rows.push(vec![
                self.axis_link_events(from, axis),
                profile_cell,
                tolerated,
                entry.unwrap_or_else(|| emphasis("none")),
            ]);
        }
        let header = ["Axis", "Profiles", "Tolerated by", "Template entry"]
            .map(|h| vec![text(h)])
            .to_vec();
        table(header, rows)
    }

    fn profile_matrix(&self, from: usize) -> Events<'a> {
        let providers = &self.model.providers;
        let mut header = vec![vec![text("Axis")]];
        for provider in providers {
            let mut cell = link(
                self.dest(from, provider.chapter, &provider.anchor),
                vec![code(&provider.name)],
            );
            if provider.proposed {
                cell.push(text(" (proposed)"));
            }
            header.push(cell);
        }
        let mut rows = Vec::new();
        for axis in self.model.unique_axes() {
            let mut row = vec![self.axis_link_events(from, axis)];
            for (p, _) in providers.iter().enumerate() {
                let claim = self.model.claims_of(p, &axis.code).next();
                row.push(match claim {
                    Some(claim) => self.matrix_cell(from, claim),
                    None => emphasis("missing"),
                });
            }
            rows.push(row);
        }
        table(header, rows)
    }

    fn matrix_cell(&self, from: usize, claim: &'a Claim) -> Events<'a> {
        let dest = self.dest(from, claim.chapter, &claim.section_anchor);
        if claim.is_unknown() {
            return link(dest, strong("unknown"));
        }
        let mut events = link(dest, vec![code(&claim.profile.0)]);
        if !claim.evidence.is_empty() {
            events.push(text(" "));
            push_joined(
                &mut events,
                claim.evidence.iter().map(|e| vec![code(e)]),
                ", ",
            );
        }
        events
    }
}

fn text(s: &str) -> Event<'_> {
    Event::Text(CowStr::Borrowed(s))
}

fn code(s: &str) -> Event<'_> {
    Event::Code(CowStr::Borrowed(s))
}

/// `<strong>s</strong>` as inline HTML. Markdown emphasis would do as well, but
/// pulldown-cmark-to-cmark re-parses every block with emphasis to validate its delimiters, which
/// makes a large matrix several times slower to write; inline HTML needs no such check and
/// renders the same in both renderers.
fn strong(s: &str) -> Events<'_> {
    vec![
        Event::InlineHtml(CowStr::Borrowed("<strong>")),
        text(s),
        Event::InlineHtml(CowStr::Borrowed("</strong>")),
    ]
}

/// `<em>s</em>` as inline HTML (see [`strong`]).
fn emphasis(s: &str) -> Events<'_> {
    vec![
        Event::InlineHtml(CowStr::Borrowed("<em>")),
        text(s),
        Event::InlineHtml(CowStr::Borrowed("</em>")),
    ]
}

fn link(dest: String, inner: Events<'_>) -> Events<'_> {
    let mut events = vec![Event::Start(Tag::Link {
        link_type: LinkType::Inline,
        dest_url: CowStr::from(dest),
        title: CowStr::Borrowed(""),
        id: CowStr::Borrowed(""),
    })];
    events.extend(inner);
    events.push(Event::End(TagEnd::Link));
    events
}

fn push_joined<'e>(
    out: &mut Events<'e>,
    parts: impl Iterator<Item = Events<'e>>,
    separator: &'e str,
) {
    for (i, part) in parts.enumerate() {
        if i > 0 {
            out.push(text(separator));
        }
        out.extend(part);
    }
}

fn table<'e>(header: Vec<Events<'e>>, rows: Vec<Vec<Events<'e>>>) -> Events<'e> {
    let mut events = vec![
        Event::Start(Tag::Table(vec![Alignment::None; header.len()])),
        Event::Start(Tag::TableHead),
    ];
    for cell in header {
        events.push(Event::Start(Tag::TableCell));
        events.extend(cell);
        events.push(Event::End(TagEnd::TableCell));
    }
    events.push(Event::End(TagEnd::TableHead));
    for row in rows {
        events.push(Event::Start(Tag::TableRow));
        for cell in row {
            events.push(Event::Start(Tag::TableCell));
            events.extend(cell);
            events.push(Event::End(TagEnd::TableCell));
        }
        events.push(Event::End(TagEnd::TableRow));
    }
    events.push(Event::End(TagEnd::Table));
    events
}

/// Relative links of `events`, written in the chapter at `from`, made to work in `to`.
fn rebase(events: &[Event<'static>], from: &Path, to: &Path) -> Events<'static> {
    if links::components(from) == links::components(to) {
        return events.to_vec();
    }
    events
        .iter()
        .map(|event| match event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) if !links::is_external(dest_url) && !dest_url.starts_with('/') => {
                let (path, fragment) = match dest_url.split_once('#') {
                    Some((path, fragment)) => (path, Some(fragment)),
                    None => (dest_url.as_ref(), None),
                };
                let target = if path.is_empty() {
                    from.to_path_buf()
                } else {
                    from.parent().unwrap_or(Path::new("")).join(path)
                };
                let mut dest = links::relative(to, &target);
                if let Some(fragment) = fragment {
                    dest.push('#');
                    dest.push_str(fragment);
                }
                Event::Start(Tag::Link {
                    link_type: *link_type,
                    dest_url: CowStr::from(dest),
                    title: title.clone(),
                    id: id.clone(),
                })
            }
            other => other.clone(),
        })
        .collect()
}

/// `text` as an inline code span (see [`push_code_span`]).
fn code_span(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_code_span(&mut out, text);
    out
}

/// What stands before `offset` on its line (`> ` of a blockquote, the indent of a list item).
fn line_prefix(content: &str, offset: usize) -> &str {
    let start = content[..offset].rfind('\n').map_or(0, |i| i + 1);
    &content[start..offset]
}

/// Repeats the container prefix of a block's first line on its other lines: `>` markers are
/// kept, everything else (list markers, indentation) becomes spaces.
fn indent_continuation(markdown: &str, first_line_prefix: &str) -> String {
    if first_line_prefix.is_empty() || !markdown.contains('\n') {
        return markdown.to_owned();
    }
    let prefix: String = first_line_prefix
        .chars()
        .map(|c| if c == '>' || c == '\t' { c } else { ' ' })
        .collect();
    let mut out = String::with_capacity(markdown.len() + prefix.len() * 8);
    for (i, line) in markdown.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            if line.is_empty() {
                out.push_str(prefix.trim_end());
            } else {
                out.push_str(&prefix);
            }
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    fn parsed_code(markdown: &str) -> Vec<String> {
        mdbook_markdown::new_cmark_parser(markdown, &Default::default())
            .filter_map(|event| match event {
                Event::Code(code) => Some(code.into_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn code_spans_survive_backticks_and_spaces() {
        for text in [
            "a",
            "`",
            "a`b",
            "``x``",
            " a ",
            " ",
            "  ",
            "`a",
            "a`",
            "Pkg.Func",
            "a|b",
            " \t ",
            " \u{3000} ",
        ] {
            assert_eq!(
                parsed_code(&format!("x {} y", code_span(text))),
                [text],
                "{text:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn code_spans_parse_back_to_their_text(text in "[^\\n\\r]{1,40}") {
            let markdown = format!("before {} after", code_span(&text));
            prop_assert_eq!(parsed_code(&markdown), vec![text]);
        }
    }

    use super::*;

    #[test]
    fn links_and_tables_are_escaped_by_construction() {
        let events = link("a.md#x".into(), vec![text("a [b] *c*")]);
        assert_eq!(to_markdown(&events), r"[a \[b\] \*c\*](a.md#x)");
        let t = table(
            vec![vec![text("A")], vec![text("B")]],
            vec![vec![vec![text("x | y")], vec![code("z")]]],
        );
        let markdown = to_markdown(&t);
        assert!(markdown.starts_with("|A|B|\n|-|-|\n"), "{markdown}");
        assert!(markdown.contains(r"x \| y"), "{markdown}");
    }

    #[test]
    fn continuation_lines_keep_their_container() {
        assert_eq!(indent_continuation("|a|\n|-|", "> "), "|a|\n> |-|");
        assert_eq!(indent_continuation("- a\n- b", "1. "), "- a\n   - b");
        assert_eq!(indent_continuation("x\ny", ""), "x\ny");
    }

    #[test]
    fn rebased_links_follow_the_chapter() {
        let events = link("other.md#y".into(), vec![text("o")]);
        let moved = rebase(
            &events,
            Path::new("a/contract.md"),
            Path::new("b/appendix.md"),
        );
        assert_eq!(to_markdown(&moved), "[o](../a/other.md#y)");
        let fragment = link("#y".into(), vec![text("o")]);
        let moved = rebase(
            &fragment,
            Path::new("a/contract.md"),
            Path::new("b/appendix.md"),
        );
        assert_eq!(to_markdown(&moved), "[o](../a/contract.md#y)");
    }
}
