//! Shortcodes to Markdown.
//!
//! [`patches`] turns every well-formed shortcode of every chapter into a [`Patch`] of its byte
//! range; nothing outside those ranges changes. What is generated (links, claims, lists,
//! tables) is built as pulldown-cmark events and written by pulldown-cmark-to-cmark
//! ([`to_markdown`]), so escaping inside cells and link text is right by construction. Cells
//! taken from a `Profile` table are its own events, with relative links rebased when they are
//! shown in another chapter. Rendering reports nothing: a shortcode that names something
//! unknown is shown as written, in a code span, and the checks say why.
//!
//! This file walks a chapter's shortcodes (the `Renderer`); `shortcodes.rs` makes the events of
//! each of the contract's shortcodes, `rules.rs` those of the rules, `events.rs` holds the
//! builders they share, and `markdown.rs` writes events as Markdown and guards the result. A
//! new shortcode is a `Kind`, a method beside the others in `shortcodes.rs` (or a file of its
//! own for a family, as the rules have), and its arm in `Renderer::events`.

use std::collections::HashMap;
use std::ops::Range;

use mdbook_markdown::pulldown_cmark::Event;

use crate::model::spec::{Entry, Specs};
use crate::model::{Axis, Model, Provider};
use crate::read::chapter::Chapter;
use crate::read::markdown::after_last;
use crate::read::markdown::splice::Patch;
use crate::read::shortcode::{Kind, Shortcode};
use crate::util::paths;

mod events;
mod markdown;
mod matrix;
mod rules;
pub(crate) mod serve;
mod shortcodes;

use events::{as_written, code, link};
pub(crate) use markdown::unrendered;
use markdown::{indent_continuation, inline_markdown, line_prefix, to_markdown, write_lines};
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
}

/// `<strong>s</strong>` as inline HTML. Markdown emphasis would do as well, but
/// pulldown-cmark-to-cmark re-parses every block with emphasis to validate its delimiters, which
/// makes a large matrix several times slower to write; inline HTML needs no such check and
/// renders the same in both renderers.
/// Whether the text before offset `at` of `content` ends with a colon (spaces aside).
fn after_colon(content: &str, at: usize) -> bool {
    content[..at].trim_end_matches([' ', '\t']).ends_with(':')
}

/// Whether an evidence argument is a web address.
pub(crate) fn is_address(evidence: &str) -> bool {
    evidence.starts_with("https://") || evidence.starts_with("http://")
}
