//! Shortcodes to Markdown.
//!
//! [`patches`] turns every well-formed shortcode of every chapter into a [`Patch`] of its byte
//! range; nothing outside those ranges changes. What is generated (links, claims, lists,
//! tables) is built as pulldown-cmark events and written by pulldown-cmark-to-cmark
//! ([`to_markdown`]), so escaping inside cells and link text is right by construction. Cells
//! taken from a `Profile` table are its own events, with relative links rebased when they are
//! shown in another chapter. Rendering reports nothing: a shortcode that names something
//! unknown is shown as written, in a code span, and the checks say why.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use mdbook_markdown::pulldown_cmark::{Alignment, CowStr, Event, LinkType, Tag, TagEnd};

use crate::model::spec::{Entry, Specs, Status, Unanswered};
use crate::model::{Axis, Model, Provider};
use crate::read::chapter::Chapter;
use crate::read::markdown::splice::Patch;
use crate::read::markdown::{ChapterIndex, MarkdownOptions, after_last};
use crate::read::shortcode::{Kind, Shortcode};
use crate::util::paths;

mod rules;
pub(crate) mod serve;

pub(crate) use rules::{Repository, RuleView};

/// Events borrow from the model and the chapters; only link destinations are built.
type Events<'e> = Vec<Event<'e>>;

/// A shortcode (or a whole chapter, at `0..0`) whose rendering hit a bug: it is left as
/// written, shown as code, and reported as an `internal-error` finding.
#[derive(Debug)]
pub(crate) struct Failed {
    pub(crate) chapter: usize,
    pub(crate) range: Range<usize>,
    pub(crate) panic: crate::util::guard::Panic,
}

/// The patches of every chapter, indexed like `chapters`, and the shortcodes whose rendering
/// failed.
pub(crate) fn patches(
    chapters: &[Chapter<'_>],
    model: &Model,
    specs: &Specs,
    rules: RuleView<'_>,
) -> (Vec<Vec<Patch>>, Vec<Failed>) {
    let renderer = Renderer {
        chapters,
        model,
        specs,
        rules,
        paths: chapters
            .iter()
            .map(|c| paths::components(c.link_path()))
            .collect(),
    };
    let work = chapters.iter().map(|chapter| chapter.content.len()).sum();
    let rendered = crate::util::parallel::map(chapters, work, |number, _| {
        let mut failed = Vec::new();
        let patches = crate::util::guard::catch(|| renderer.chapter(number, &mut failed))
            .unwrap_or_else(|panic| {
                // The writer failed for the chapter: all of it stays as written.
                failed.push(Failed {
                    chapter: number,
                    range: 0..0,
                    panic,
                });
                Vec::new()
            });
        (patches, failed)
    });
    let mut failures = Vec::new();
    let patches = rendered
        .into_iter()
        .map(|(patches, failed)| {
            failures.extend(failed);
            patches
        })
        .collect();
    (patches, failures)
}

struct Renderer<'a> {
    chapters: &'a [Chapter<'a>],
    model: &'a Model,
    specs: &'a Specs,
    rules: RuleView<'a>,
    /// The path each chapter is rendered at, as its components: links between chapters are
    /// worked out from them.
    paths: Vec<Vec<String>>,
}

impl<'a> Renderer<'a> {
    /// The patches of chapter `number`. Blocks (lists, tables) are written one by one. The
    /// inline shortcodes (links and claims, nearly all of a book's) are written together, as
    /// the lines of one paragraph, and each distinct one once: a chapter links the same few
    /// axes many times, and the writer's cost is per block and per link.
    fn chapter(&self, number: usize, failed: &mut Vec<Failed>) -> Vec<Patch> {
        let chapter = &self.chapters[number];
        let mut patches = Vec::with_capacity(chapter.scan.shortcodes.len());
        // What an inline shortcode renders depends on its words, its chapter and whether a
        // colon comes before it only, so shortcodes written alike render alike: the patches of
        // each are its written text's.
        let mut inline: Vec<(usize, Events<'a>)> = Vec::new();
        let mut written: HashMap<(&str, bool), usize> = HashMap::new();
        let mut uses: Vec<(usize, usize)> = Vec::new();
        // A bug met while rendering one shortcode leaves it as written, as code, and is reported.
        let mut events = |shortcode: &'a Shortcode| {
            crate::util::guard::catch(|| self.events(number, shortcode)).unwrap_or_else(|panic| {
                failed.push(Failed {
                    chapter: number,
                    range: shortcode.range.clone(),
                    panic,
                });
                None
            })
        };
        for shortcode in &chapter.scan.shortcodes {
            let source = &chapter.content[shortcode.range.clone()];
            let mut text = String::new();
            if shortcode.kind.name().is_block() {
                let markdown = match events(shortcode) {
                    Some(events) => to_markdown(&events),
                    None => inline_markdown(vec![as_written(source)]),
                };
                text = indent_continuation(
                    &markdown,
                    line_prefix(chapter.content, shortcode.range.start),
                );
            } else {
                let next = inline.len();
                let key = (source, after_colon(chapter.content, shortcode.range.start));
                let fragment = *written.entry(key).or_insert(next);
                if fragment == next {
                    let events = events(shortcode).unwrap_or_else(|| vec![as_written(source)]);
                    inline.push((next, events));
                }
                uses.push((patches.len(), fragment));
            }
            patches.push(Patch {
                range: shortcode.range.clone(),
                text,
            });
        }
        let lines = write_lines(inline);
        for (patch, fragment) in uses {
            patches[patch].text.clone_from(&lines[fragment].1);
        }
        // Each rule's marker line becomes its anchor; a marker that defines no rule (a
        // duplicate, a malformed one) stays as written, and the checks say why.
        let markers: Vec<Patch> = self
            .rules
            .rules
            .rules
            .iter()
            .filter(|rule| rule.chapter == number)
            .map(|rule| {
                // In a blockquote the anchor's line ends the quote's HTML block with a line of
                // the quote's own `>`, so the quote goes on.
                let line = after_last(&chapter.content[..rule.marker.start], |c| c == '\n');
                let quote = chapter.content[line..rule.marker.start].trim_end();
                let mut text = to_markdown(&rules::marker(rule)) + "\n";
                text.push_str(quote);
                Patch {
                    range: rule.marker.clone(),
                    text,
                }
            })
            .collect();
        if !markers.is_empty() {
            patches.extend(markers);
            patches.sort_by_key(|p| p.range.start);
        }
        patches
    }

    /// What `shortcode` renders as; `None` when it names something unknown.
    fn events(&self, number: usize, shortcode: &'a Shortcode) -> Option<Events<'a>> {
        crate::util::guard::fault("render");
        match &shortcode.kind {
            Kind::Axis { code } => self
                .model
                .axis(&code.text)
                .map(|axis| self.axis_link(number, axis)),
            Kind::Profile { .. } => self.claim(number, shortcode),
            Kind::Answers { code } => self
                .model
                .axis(&code.text)
                .map(|axis| self.answers(number, axis)),
            Kind::AxisTable => Some(self.axis_table(number)),
            Kind::ProfileMatrix => Some(self.profile_matrix(number)),
            Kind::SpecStatus => self.spec_status(number),
            Kind::Rule { id } => self.rule_link(number, &id.text),
            Kind::RuleMatrix => Some(self.rule_matrix(number)),
        }
    }

    /// The entry of `provider`'s spec that asks `axis`, if the spec has it.
    fn spec_entry_of(&self, provider: &Provider, axis: &str) -> Option<&'a Entry> {
        let spec = self
            .specs
            .specs
            .iter()
            .find(|s| s.chapter == provider.chapter)?;
        let asked = self.specs.entry_of_axis(axis)?;
        spec.entries.iter().find(|e| e.name == asked.name)
    }

    /// A spec's status box: its status, how many of the template's entries it answers, and a
    /// list of the others, each linked, with what it lacks.
    fn spec_status(&self, from: usize) -> Option<Events<'a>> {
        let spec = self.specs.specs.iter().find(|s| s.chapter == from)?;
        let unanswered = spec.unanswered(self.model, self.specs);
        let present: Vec<&str> = unanswered.iter().map(|(e, _)| e.name.as_str()).collect();
        let missing: Vec<&'a Entry> = self
            .specs
            .template
            .iter()
            .filter(|t| !present.contains(&t.name.as_str()))
            .collect();
        let open: Vec<&(&'a Entry, Vec<Unanswered>)> = unanswered
            .iter()
            .filter(|(_, why)| !why.is_empty())
            .collect();
        let answered = unanswered.len() - open.len();
        let total = self.specs.template.len();
        let mut events = vec![Event::Start(Tag::Paragraph)];
        events.push(text(match spec.status {
            Status::Draft => "This spec is a ",
            Status::Accepted => "This spec is ",
        }));
        events.extend(strong(spec.status.as_str()));
        events.push(Event::Text(CowStr::from(format!(
            ": {answered} of {total} entries answered{}",
            if open.is_empty() && missing.is_empty() {
                "."
            } else {
                "; still open:"
            }
        ))));
        events.push(Event::End(TagEnd::Paragraph));
        if open.is_empty() && missing.is_empty() {
            return Some(events);
        }
        events.push(Event::Start(Tag::List(None)));
        for (entry, why) in open {
            events.push(Event::Start(Tag::Item));
            events.extend(link(
                self.dest(from, entry.chapter, &entry.anchor),
                shown_as_text(&entry.title),
            ));
            events.push(text(": "));
            for (i, reason) in why.iter().enumerate() {
                if i > 0 {
                    events.push(text("; "));
                }
                events.extend(self.reason(from, reason));
            }
            events.push(Event::End(TagEnd::Item));
        }
        for entry in missing {
            events.push(Event::Start(Tag::Item));
            events.extend(shown_as_text(&entry.title));
            events.push(text(": not in this spec (the template has it)"));
            events.push(Event::End(TagEnd::Item));
        }
        events.push(Event::End(TagEnd::List(false)));
        Some(events)
    }

    /// Why an entry is not answered, for the status box.
    fn reason(&self, from: usize, reason: &Unanswered) -> Events<'a> {
        let axis = |code: &str| match self.model.axis(code) {
            Some(axis) => self.axis_link(from, axis),
            None => vec![Event::Code(CowStr::from(code.to_owned()))],
        };
        match reason {
            Unanswered::NoAnswerLine => {
                vec![text("no "), code(crate::model::spec::ANSWER), text(" line")]
            }
            Unanswered::NoAnswer => vec![text("no answer yet")],
            Unanswered::NoClaim(code) => {
                let mut events = vec![text("no profile for ")];
                events.extend(axis(code));
                events
            }
            Unanswered::Unknown(code, _) => {
                let mut events = axis(code);
                events.push(text(" left unknown"));
                events
            }
            Unanswered::NoEvidence => vec![text("answered without evidence")],
        }
    }

    /// The link from chapter `from` to `anchor` in chapter `to`.
    fn dest(&self, from: usize, to: usize, anchor: &str) -> String {
        paths::to_anchor(&self.paths[from], &self.paths[to], anchor)
    }

    /// A link to `axis`, its code as the text.
    fn axis_link(&self, from: usize, axis: &'a Axis) -> Events<'a> {
        link(
            self.dest(from, axis.chapter, &axis.anchor),
            vec![code(&axis.code)],
        )
    }

    /// A claim: the axis link, the profile and the evidence (code spans, an address a link).
    fn claim(&self, from: usize, shortcode: &Shortcode) -> Option<Events<'a>> {
        let claim = self.model.claim_at(from, shortcode.range.start)?;
        let axis = self.model.axis(&claim.axis.text)?;
        // After a colon of the author's ("acknowledged: {{#profile ...}}") the claim reads
        // "`at-least-once` on `delivery`", not a second colon.
        let after_colon = after_colon(self.chapters[from].content, shortcode.range.start);
        let profile = if claim.is_unknown() {
            strong("unknown")
        } else {
            axis.profile(&claim.profile.text)?;
            vec![code(&claim.profile.text)]
        };
        let mut events = if after_colon {
            let mut events = profile;
            events.push(text(" on "));
            events.extend(self.axis_link(from, axis));
            events
        } else {
            let mut events = self.axis_link(from, axis);
            events.push(text(": "));
            events.extend(profile);
            events
        };
        if claim.is_unknown() {
            events.push(text(", not verified yet"));
            return Some(events);
        }
        if !claim.evidence.is_empty() {
            events.push(text(" ("));
            push_joined(
                &mut events,
                claim.evidence.iter().map(|e| {
                    // An address is a link to what it names; the rest is code as written.
                    if is_address(&e.text) {
                        link(e.text.clone(), vec![text(&e.text)])
                    } else {
                        vec![code(&e.text)]
                    }
                }),
                text(", "),
            );
            events.push(text(")"));
        }
        Some(events)
    }

    /// The events of cell `column` of `axis`'s profile row `row`, shown in chapter `to`: the
    /// cell's own events with their relative links rebased, and every shortcode written in it
    /// rendered for `to` (a copy must not show `{{#axis x}}` where the contract shows a link).
    fn cell(
        &self,
        axis: &Axis,
        row: usize,
        column: Option<usize>,
        to: usize,
    ) -> Option<Events<'a>> {
        let home = &self.chapters[axis.chapter];
        let table = &home.index.tables[axis.table?];
        let cell = table.rows.get(row)?.cells.get(column?)?;
        if cell.events.is_empty() {
            return None;
        }
        let events = rebase(
            &cell.events,
            home.link_path(),
            self.chapters[to].link_path(),
        );
        let first = home
            .scan
            .shortcodes
            .partition_point(|s| s.range.start < cell.range.start);
        let inside: Vec<&'a Shortcode> = home.scan.shortcodes[first..]
            .iter()
            .take_while(|s| s.range.end <= cell.range.end)
            .collect();
        if inside.is_empty() && !home.content[cell.range.clone()].contains("{{") {
            return Some(events);
        }
        let mut out = Vec::with_capacity(events.len());
        // The shortcodes are rendered where their text starts; the events they were parsed
        // into (a backticked argument is a code span) are left out.
        let mut next = 0;
        let mut last: Option<&std::ops::Range<usize>> = None;
        for (event, span) in events.into_iter().zip(&cell.spans) {
            let within_last = last.is_some_and(|l| l.start <= span.start && span.end <= l.end);
            let Event::Text(written) = &event else {
                if !within_last {
                    out.push(event);
                }
                continue;
            };
            let mut at = match last {
                Some(l) if l.start <= span.start => span.start.max(l.end),
                _ => span.start,
            };
            while let Some(shortcode) = inside.get(next).filter(|s| s.range.start < span.end) {
                // A text event that holds the start of a shortcode is plain text, its bytes
                // as written (escapes and smart punctuation are events of their own).
                if shortcode.range.start > at {
                    out.extend(shown_as_text(&home.content[at..shortcode.range.start]));
                }
                out.extend(self.copied(axis.chapter, shortcode, to));
                at = shortcode.range.end;
                last = Some(&shortcode.range);
                next += 1;
            }
            if at == span.start {
                out.extend(shown_as_text(written));
            } else if at < span.end {
                out.extend(shown_as_text(&home.content[at..span.end]));
            }
        }
        Some(out)
    }

    /// What `shortcode`, written in chapter `home`, shows as in a copy in chapter `to`: a link
    /// to its axis, or (for anything else, which has no place in a table cell) its text as code.
    fn copied(&self, home: usize, shortcode: &'a Shortcode, to: usize) -> Events<'a> {
        let written = &self.chapters[home].content[shortcode.range.clone()];
        match &shortcode.kind {
            Kind::Axis { code: axis } => match self.model.axis(&axis.text) {
                Some(axis) => self.axis_link(to, axis),
                None => vec![code(written)],
            },
            _ => vec![code(written)],
        }
    }

    /// The allowed answers of `axis`: a line naming the axis, so that two answer sites of one
    /// entry stay two lists, each saying which axis it answers; then one item per profile.
    fn answers(&self, from: usize, axis: &'a Axis) -> Events<'a> {
        let mut events = vec![Event::Start(Tag::Paragraph), text("Answers for ")];
        events.extend(self.axis_link(from, axis));
        events.extend([
            text(":"),
            Event::End(TagEnd::Paragraph),
            Event::Start(Tag::List(None)),
        ]);
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
            push_joined(&mut profile_cell, profiles, text(", "));
            let mut tolerated = Vec::new();
            let tolerated_parts = axis.profiles.iter().filter_map(|p| {
                let cell = self.cell(axis, p.row, axis.columns.tolerated_by, from)?;
                let mut part = vec![code(&p.name), text(": ")];
                part.extend(cell);
                Some(part)
            });
            // One profile a line: a run of `profile: callers; profile: ...` is hard to scan.
            push_joined(
                &mut tolerated,
                tolerated_parts,
                Event::InlineHtml(CowStr::Borrowed("<br>")),
            );
            let entry = self
                .model
                .answer_sites_of(&axis.code)
                .next()
                .and_then(|site| {
                    let heading = &self.chapters[site.chapter].index.headings[site.heading?];
                    Some(link(
                        self.dest(from, site.chapter, &heading.id),
                        shown_as_text(heading.text.trim()),
                    ))
                });
            rows.push(vec![
                self.axis_link(from, axis),
                profile_cell,
                tolerated,
                entry.unwrap_or_else(|| emphasis("none")),
            ]);
        }
        let header = ["Axis", "Profiles", "Tolerated by", "Template entry"]
            .map(|h| vec![text(h)])
            .to_vec();
        in_div("<div class=\"contract-table\">\n", table(header, rows))
    }

    /// One row per axis, one column per provider, and a last row of how many of each
    /// provider's claims are verified. A cell is the profile, linked to the section that
    /// states the claim with its evidence (which stays there, so that four providers fit the
    /// page); a claim not verified yet is *unknown*, in plain italics, unlinked.
    fn profile_matrix(&self, from: usize) -> Events<'a> {
        let providers = self.model.matrix_providers();
        let mut header = vec![vec![text("Axis")]];
        for (_, provider) in &providers {
            let mut cell = link(
                self.dest(from, provider.chapter, &provider.anchor),
                vec![code(&provider.name)],
            );
            if provider.proposed {
                cell.push(Event::InlineHtml(CowStr::Borrowed("<br>")));
                cell.extend(emphasis("proposed"));
            }
            header.push(cell);
        }
        let axes: Vec<&Axis> = self.model.unique_axes().collect();
        let mut verified = vec![0usize; providers.len()];
        let mut rows = Vec::new();
        for axis in &axes {
            let mut row = vec![self.axis_link(from, axis)];
            for (&(p, provider), count) in providers.iter().zip(verified.iter_mut()) {
                let claim = self.model.claims_of(p, &axis.code).next();
                row.push(match claim {
                    Some(claim) if !claim.is_unknown() => {
                        *count += 1;
                        link(
                            self.dest(from, claim.chapter, &claim.section_anchor),
                            vec![code(&claim.profile.text)],
                        )
                    }
                    // A spec's cell leads to the entry that asks the axis.
                    _ if provider.spec => match self.spec_entry_of(provider, &axis.code) {
                        Some(entry) => link(
                            self.dest(from, entry.chapter, &entry.anchor),
                            emphasis("unanswered"),
                        ),
                        None => emphasis("unanswered"),
                    },
                    Some(_) => emphasis("unknown"),
                    None => emphasis("missing"),
                });
            }
            rows.push(row);
        }
        // A built provider's known claims are verified in its section; a spec's known
        // entries are answered, and a proposed section's claims stated, not verified.
        let mut last = vec![strong("verified")];
        for (count, (_, provider)) in verified.into_iter().zip(&providers) {
            let what = if provider.spec {
                " answered"
            } else if provider.proposed {
                " stated"
            } else {
                ""
            };
            last.push(vec![Event::Text(CowStr::from(format!(
                "{count} of {}{what}",
                axes.len()
            )))]);
        }
        rows.push(last);
        in_div("<div class=\"contract-matrix\">\n", table(header, rows))
    }
}

fn text(s: &str) -> Event<'_> {
    Event::Text(CowStr::Borrowed(s))
}

/// `s`, copied from the author's text, as text events. A `{{` in it is a shortcode the author
/// escaped (real ones are rendered before anything is copied), so its first brace is written as
/// `&#123;`: it shows as written, and the output holds no `{{#` that looks unrendered.
fn shown_as_text(s: &str) -> Events<'static> {
    let mut events = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find("{{") {
        if i > 0 {
            events.push(Event::Text(CowStr::from(rest[..i].to_owned())));
        }
        events.push(Event::InlineHtml(CowStr::Borrowed("&#123;")));
        rest = &rest[i + 1..];
    }
    if !rest.is_empty() {
        events.push(Event::Text(CowStr::from(rest.to_owned())));
    }
    events
}

fn code(s: &str) -> Event<'_> {
    Event::Code(CowStr::Borrowed(s))
}

/// A shortcode that names something unknown, shown as written in a code span. A carriage
/// return in it (a line ending to CommonMark, not to the shortcode scanner) would end the
/// span's paragraph and leave the shortcode outside code: it is shown as a space.
fn as_written(source: &str) -> Event<'_> {
    if source.contains('\r') {
        Event::Code(CowStr::from(source.replace('\r', " ")))
    } else {
        code(source)
    }
}

/// `<strong>s</strong>` as inline HTML. Markdown emphasis would do as well, but
/// pulldown-cmark-to-cmark re-parses every block with emphasis to validate its delimiters, which
/// makes a large matrix several times slower to write; inline HTML needs no such check and
/// renders the same in both renderers.
/// Whether the text before offset `at` of `content` ends with a colon (spaces aside).
fn after_colon(content: &str, at: usize) -> bool {
    content[..at].trim_end_matches([' ', '\t']).ends_with(':')
}

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

/// Whether an evidence argument is a web address.
pub(crate) fn is_address(evidence: &str) -> bool {
    evidence.starts_with("https://") || evidence.starts_with("http://")
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

/// `inner` in the `<div>` that `open` starts (one of a class of the stylesheet that `install`
/// ships; without it the table reads the same, only wider and with codes that may wrap).
fn in_div<'e>(open: &'static str, inner: Events<'e>) -> Events<'e> {
    let mut events = vec![
        Event::Start(Tag::HtmlBlock),
        Event::Html(CowStr::Borrowed(open)),
        Event::End(TagEnd::HtmlBlock),
    ];
    events.extend(inner);
    events.extend([
        Event::Start(Tag::HtmlBlock),
        Event::Html(CowStr::Borrowed("</div>\n")),
        Event::End(TagEnd::HtmlBlock),
    ]);
    events
}

fn push_joined<'e>(
    out: &mut Events<'e>,
    parts: impl Iterator<Item = Events<'e>>,
    separator: Event<'e>,
) {
    for (i, part) in parts.enumerate() {
        if i > 0 {
            out.push(separator.clone());
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
    if paths::components(from) == paths::components(to) {
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
            }) if !paths::is_external(dest_url) && !dest_url.starts_with('/') => {
                let (path, fragment) = match dest_url.split_once('#') {
                    Some((path, fragment)) => (path, Some(fragment)),
                    None => (dest_url.as_ref(), None),
                };
                let target = if path.is_empty() {
                    from.to_path_buf()
                } else {
                    from.parent().unwrap_or(Path::new("")).join(path)
                };
                let mut dest = paths::relative(to, &target);
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

/// The first shortcode of this preprocessor that `patches` would leave in the book unrendered
/// (outside code, not escaped), with the number of its chapter. Whatever the book holds, the
/// renderer must never write one, so this is a guard against its own bugs (such as author text
/// copied into a generated table without its shortcodes rendered); only generated text that
/// holds `{{` is parsed again.
pub(crate) fn unrendered(
    patches: &[Vec<Patch>],
    options: &MarkdownOptions,
) -> Option<(usize, String)> {
    for (number, chapter) in patches.iter().enumerate() {
        for patch in chapter {
            if !patch.text.contains("{{") {
                continue;
            }
            let index = ChapterIndex::parse_with(&patch.text, options, false);
            let scan = crate::read::shortcode::scan(&patch.text, &index, &|_| false);
            let left = scan
                .shortcodes
                .first()
                .map(|s| s.range.clone())
                .or_else(|| scan.malformed.first().map(|m| m.range.clone()));
            if let Some(range) = left {
                return Some((number, patch.text[range].to_owned()));
            }
        }
    }
    None
}

/// `events` as Markdown, written by pulldown-cmark-to-cmark, without trailing newlines.
fn to_markdown(events: &[Event<'_>]) -> String {
    let write = |events: &mut dyn Iterator<Item = &Event<'_>>| {
        let mut out = String::new();
        let options = pulldown_cmark_to_cmark::Options {
            list_token: '-',
            ..Default::default()
        };
        pulldown_cmark_to_cmark::cmark_with_options(
            events,
            &mut out,
            mdbook_markdown::pulldown_cmark::Options::ENABLE_TABLES,
            options,
        )
        .map(|_| out)
    };
    // pulldown-cmark-to-cmark checks that a block with emphasis parses back to the same events,
    // and fails (`Unrepresentable`) when no spelling does, as with text it cannot escape in a
    // table cell (found by fuzzing). The same block without emphasis is written unchecked:
    // `*missing*` shows as `missing`, and nothing panics.
    let mut out = write(&mut events.iter())
        .or_else(|_| {
            write(&mut events.iter().filter(|e| {
                !matches!(
                    e,
                    Event::Start(Tag::Emphasis | Tag::Strong)
                        | Event::End(TagEnd::Emphasis | TagEnd::Strong)
                )
            }))
        })
        .unwrap_or_default();
    out.truncate(out.trim_end_matches('\n').len());
    out
}

/// Inline `events` as Markdown, written as the inside of a paragraph: on its own, a text that
/// starts with a space would have it escaped as if it began a line.
fn inline_markdown(mut events: Events<'_>) -> String {
    events.insert(0, Event::Start(Tag::Paragraph));
    events.push(Event::End(TagEnd::Paragraph));
    to_markdown(&events)
}

/// Each inline fragment (tagged with a number) as Markdown, as [`inline_markdown`] writes it:
/// written together as the lines of one paragraph, each line a fragment. Every line is written
/// as it would be alone (each starts a line, as a paragraph's first line does), and no fragment
/// holds a line break (the writer escapes a newline in text); should the lines not come out
/// one per fragment all the same, each is written alone.
fn write_lines<'e>(fragments: Vec<(usize, Events<'e>)>) -> Vec<(usize, String)> {
    if fragments.len() < 2 {
        return fragments
            .into_iter()
            .map(|(i, events)| (i, inline_markdown(events)))
            .collect();
    }
    let mut events = Vec::with_capacity(fragments.iter().map(|(_, e)| e.len() + 1).sum());
    for (n, (_, fragment)) in fragments.iter().enumerate() {
        if n > 0 {
            events.push(Event::SoftBreak);
        }
        events.extend(fragment.iter().cloned());
    }
    let written = inline_markdown(events);
    let lines: Vec<&str> = written.split('\n').collect();
    if lines.len() != fragments.len() {
        return fragments
            .into_iter()
            .map(|(i, events)| (i, inline_markdown(events)))
            .collect();
    }
    fragments
        .iter()
        .zip(lines)
        .map(|((i, _), line)| (*i, line.to_owned()))
        .collect()
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

    /// `text` as an inline code span.
    fn code_span(text: &str) -> String {
        to_markdown(&[code(text)])
    }

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

#[cfg(test)]
mod guard {
    use super::*;

    fn patches(text: &str) -> Vec<Vec<Patch>> {
        vec![
            vec![],
            vec![Patch {
                range: 0..0,
                text: text.to_owned(),
            }],
        ]
    }

    #[test]
    fn the_guard_fires_on_a_shortcode_left_in_generated_text() {
        let options = MarkdownOptions::default();
        let left = unrendered(&patches("- [`a`](x.md#a): see {{#axis gc-mark}}"), &options);
        assert_eq!(left, Some((1, "{{#axis gc-mark}}".to_owned())));
        let broken = unrendered(&patches("see {{#axis}} here"), &options);
        assert_eq!(broken, Some((1, "{{#axis}}".to_owned())));
    }

    #[test]
    fn the_guard_is_silent_on_code_escapes_and_other_directives() {
        let options = MarkdownOptions::default();
        for text in [
            "see [`gc-mark`](a.md#gc-mark)",
            "`{{#axis gc-mark}}` in code",
            "an escaped one: &#123;{#axis gc-mark}}",
            "\\{{#axis gc-mark}}",
            "{{#include other.md}}",
        ] {
            assert_eq!(unrendered(&patches(text), &options), None, "{text}");
        }
    }

    #[test]
    fn escaped_text_keeps_no_double_brace() {
        let events = shown_as_text("a {{#axis x}} b {{ c");
        let markdown = inline_markdown(events);
        assert_eq!(markdown, "a &#123;{#axis x}} b &#123;{ c");
        assert!(!markdown.contains("{{"));
    }
}
