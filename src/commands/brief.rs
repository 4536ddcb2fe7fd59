//! `mdbook-contract brief TYPE`: one self-contained Markdown document for whoever builds the
//! provider that a spec describes (the plan's "a self-contained set of rules for building a
//! new provider").
//!
//! [`brief`] checks the book first and refuses one with errors. It then takes the book as a
//! build renders it (`pipeline::rendered`), from the chapters as written (another
//! preprocessor's output is never copied: the book is loaded again with mdBook's own
//! preprocessors only, when it has others), and puts together, in this order: the spec's status
//! and its open entries; per axis the profile the spec chose, what it obliges and who tolerates
//! it (the contract's `Profile` row), with the existing providers that chose the same profile;
//! the filled spec; the contract's checklist for adding a provider; those providers' sections
//! that hold the matching claims, and their known gaps; and the whole contract.
//!
//! Each copied part is the chapter's events, parsed again, with its headings moved down a
//! level and given explicit ids made unique by a prefix per part (`contract-`, `spec-`,
//! `checklist-`, `examples-`), and every link rewritten: to the id it leads to inside the
//! brief, else to the published page when `output.html.site-url` is an absolute URL, else to
//! plain text. The whole is written by pulldown-cmark-to-cmark; the same book gives the same
//! bytes.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::ops::Range;
use std::path::{Component, Path};

use mdbook_markdown::pulldown_cmark::{CowStr, Event, HeadingLevel, LinkType, Tag, TagEnd};
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::Book;

use crate::model::spec::{Spec, Status, Unanswered, identity};
use crate::model::{Axis, section_of};
use crate::pipeline::{self, Rendered};
use crate::read::markdown::{ChapterIndex, MarkdownOptions};
use crate::report::diagnostic::Report;
use crate::util::paths;

/// A brief, written.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Brief {
    /// The document.
    pub markdown: String,
    /// How many links it holds, each one leading to a heading of the brief or to an absolute
    /// address.
    pub links: usize,
}

/// Why no brief was written.
#[derive(Debug)]
#[non_exhaustive]
pub enum BriefError {
    /// The book has error findings: a brief is written only from a book that builds.
    Findings(Report),
    /// Anything else: no spec of that provider, a book that cannot be read.
    Failed(anyhow::Error),
}

impl fmt::Display for BriefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BriefError::Findings(report) => write!(
                f,
                "the book has {}; a brief is written only from a book that builds",
                report.summary()
            ),
            BriefError::Failed(error) => write!(f, "{error:#}"),
        }
    }
}

impl std::error::Error for BriefError {}

impl From<anyhow::Error> for BriefError {
    fn from(error: anyhow::Error) -> BriefError {
        BriefError::Failed(error)
    }
}

/// The brief for the provider `provider_type` of `book` (see the module docs).
pub fn brief(
    ctx: &PreprocessorContext,
    book: &Book,
    provider_type: &str,
) -> Result<Brief, BriefError> {
    // The brief is Markdown made from the chapters as written (after `links`), never from what
    // another preprocessor turned them into (mermaid's `<pre>`, HTML of any kind); the book is
    // still refused for what a build of it would report.
    let (rendered, report) = if crate::read::chapter::external_preprocessors(&ctx.config).is_empty()
    {
        pipeline::rendered(ctx, book)?
    } else {
        let report = pipeline::check(ctx, book, std::path::PathBuf::new())?;
        let (mut written_ctx, as_written) = crate::read::load::load_as_written(&ctx.root)?;
        // The settings as given (the command line's among them), not as read again.
        written_ctx.config = ctx.config.clone();
        (pipeline::rendered(&written_ctx, &as_written)?.0, report)
    };
    if report.has_errors() {
        return Err(BriefError::Findings(report));
    }
    let spec = rendered.specs.specs.iter().find(|s| {
        s.provider
            .is_some_and(|p| rendered.model.providers[p].name == provider_type)
    });
    let Some(spec) = spec else {
        let known: Vec<String> = rendered
            .specs
            .specs
            .iter()
            .filter_map(|s| {
                s.provider
                    .map(|p| format!("`{}`", rendered.model.providers[p].name))
            })
            .collect();
        let known = if known.is_empty() {
            "it has none".to_owned()
        } else {
            format!("it has {}", known.join(", "))
        };
        return Err(BriefError::Failed(anyhow::anyhow!(
            "no spec of provider `{provider_type}` in this book ({known}); `mdbook-contract new-spec {provider_type}` writes one"
        )));
    };
    let site = ctx
        .config
        .html_config()
        .and_then(|html| html.site_url)
        .filter(|url| url.starts_with("https://") || url.starts_with("http://"));
    let title = ctx.config.book.title.clone().unwrap_or_default();
    Ok(Writer::new(&rendered, spec, site, title).write(provider_type))
}

/// The profile the spec chose on an axis, and the built providers that chose it too, each with
/// the id of the section that holds its claim.
struct Choice<'m> {
    axis: &'m Axis,
    profile: Option<&'m str>,
    same: Vec<(usize, String)>,
}

/// A part of a chapter copied into the brief.
struct Part {
    /// The chapter (an index into the rendered chapters).
    chapter: usize,
    /// Its bytes in the chapter's rendered content.
    range: Range<usize>,
    /// The prefix of its headings' ids.
    prefix: &'static str,
    /// How many levels its headings move down.
    shift: u8,
}

/// What the brief copies, in the order it copies it.
struct Plan {
    /// The filled spec.
    spec: Part,
    /// The contract's checklist for adding a provider, if it has one.
    checklist: Option<Part>,
    /// Per example provider, its sections that hold the matching claims and its known gaps.
    examples: Vec<(usize, Vec<Part>)>,
    /// The example providers whose section has no known-gaps sub-section.
    without_gaps: Vec<String>,
    /// The whole contract.
    contract: Vec<Part>,
}

struct Writer<'r> {
    rendered: &'r Rendered,
    spec: &'r Spec,
    /// The published book, when its address is absolute: links that lead out of the brief.
    site: Option<String>,
    title: String,
    /// The index of each chapter that is copied from, parsed again from its rendered text.
    indexes: HashMap<usize, ChapterIndex>,
    /// Every heading id of the brief, to resolve links against.
    ids: BTreeSet<String>,
    /// Which prefix the ids of each chapter's copied headings take, by chapter.
    prefixes: HashMap<usize, &'static str>,
    links: usize,
}

/// The ids of the brief's own headings.
const OWN_IDS: &[&str] = &["brief", "open-entries", "profiles", "examples"];

impl<'r> Writer<'r> {
    fn new(rendered: &'r Rendered, spec: &'r Spec, site: Option<String>, title: String) -> Self {
        // The chapters copied from: the contract, the spec, the providers' chapters.
        let mut indexes = HashMap::new();
        let copied = (0..rendered.chapters.len()).filter(|&c| {
            rendered.config.is_contract(&rendered.chapters[c].key)
                || c == spec.chapter
                || rendered.model.providers.iter().any(|p| p.chapter == c)
        });
        for chapter in copied {
            let content = &rendered.chapters[chapter].content;
            indexes.insert(chapter, ChapterIndex::parse(content, &rendered.options));
        }
        Writer {
            rendered,
            spec,
            site,
            title,
            indexes,
            ids: OWN_IDS.iter().map(|s| (*s).to_owned()).collect(),
            prefixes: HashMap::new(),
            links: 0,
        }
    }

    /// Whether `part` starts at the heading of provider `p`'s section.
    fn is_provider_heading(&self, part: &Part, p: usize) -> bool {
        let anchor = &self.rendered.model.providers[p].anchor;
        self.index(part.chapter)
            .headings
            .iter()
            .any(|h| h.id == *anchor && h.range.start == part.range.start)
    }

    /// With test results, how the built providers' tests of `rule` did in the last run
    /// (`; the existing providers' tests: \`kafka\` passed, \`nats\` failed`).
    fn results_of(&self, events: &mut Vec<Event<'static>>, rule: &crate::model::rules::Rule) {
        use crate::model::rules::coverage::Status;
        let rendered = self.rendered;
        let coverage = &rendered.coverage;
        if !coverage.results {
            return;
        }
        let Some(row) = rendered
            .rules
            .rules
            .iter()
            .position(|r| r.id == rule.id)
            .and_then(|i| coverage.cells.get(i))
        else {
            return;
        };
        let said: Vec<(usize, &str)> = coverage
            .providers
            .iter()
            .zip(row)
            .filter_map(|(&p, status)| {
                let word = match status {
                    Status::Verified(_) => "passed",
                    Status::Failed(..) => "failed",
                    Status::Skipped(..) => "skipped",
                    Status::NotRun(_) => "not run",
                    _ => return None,
                };
                Some((p, word))
            })
            .collect();
        if said.is_empty() {
            return;
        }
        events.push(text("; the existing providers' tests in the last run: "));
        for (i, (p, word)) in said.iter().enumerate() {
            if i > 0 {
                events.push(text(", "));
            }
            events.push(Event::Code(CowStr::from(
                rendered.model.providers[*p].name.clone(),
            )));
            events.push(text(&format!(" {word}")));
        }
    }

    fn options(&self) -> &MarkdownOptions {
        &self.rendered.options
    }

    fn index(&self, chapter: usize) -> &ChapterIndex {
        &self.indexes[&chapter]
    }

    fn write(mut self, provider_type: &str) -> Brief {
        let provider = self
            .spec
            .provider
            .expect("a spec with a brief has its provider");
        let (chosen, examples) = self.choices(provider);
        let plan = self.plan(&examples);
        self.collect_ids(&plan, &chosen);
        let noun = self.noun();
        let mut events: Vec<Event<'static>> = Vec::new();
        self.title_and_purpose(&mut events, provider_type, &noun);
        self.not_found(&mut events, &plan);
        self.status(&mut events);
        self.profiles(&mut events, &chosen, &noun);
        self.rules(&mut events, provider, &noun);
        self.copies(&mut events, &plan);
        Brief {
            markdown: written(&events),
            links: self.links,
        }
    }

    /// Per axis the profile the spec chose and the built providers that chose it too; and per
    /// such provider, in order, the anchors of the sections that hold those claims.
    fn choices(&self, provider: usize) -> (Vec<Choice<'r>>, Vec<(usize, Vec<String>)>) {
        let model = &self.rendered.model;
        let built: Vec<usize> = (0..model.providers.len())
            .filter(|&p| !model.providers[p].proposed && !model.providers[p].spec)
            .collect();
        let mut chosen: Vec<Choice<'r>> = Vec::new();
        let mut examples: Vec<(usize, Vec<String>)> = Vec::new();
        for axis in model.unique_axes() {
            let profile = model
                .claims_of(provider, &axis.code)
                .find(|c| !c.is_unknown())
                .map(|c| c.profile.text.as_str());
            let mut same = Vec::new();
            if let Some(profile) = profile {
                for &p in &built {
                    if let Some(claim) = model
                        .claims_of(p, &axis.code)
                        .find(|c| c.profile.text == profile)
                    {
                        same.push((p, claim.section_anchor.clone()));
                        match examples.iter_mut().find(|(q, _)| *q == p) {
                            Some((_, anchors)) if anchors.contains(&claim.section_anchor) => {}
                            Some((_, anchors)) => anchors.push(claim.section_anchor.clone()),
                            None => examples.push((p, vec![claim.section_anchor.clone()])),
                        }
                    }
                }
            }
            chosen.push(Choice {
                axis,
                profile,
                same,
            });
        }
        examples.sort_by_key(|(p, _)| *p);
        (chosen, examples)
    }

    /// The parts the brief copies, given the example providers and their claims' sections.
    fn plan(&self, examples: &[(usize, Vec<String>)]) -> Plan {
        let rendered = self.rendered;
        let contracts: Vec<usize> = (0..rendered.chapters.len())
            .filter(|&c| rendered.config.is_contract(&rendered.chapters[c].key))
            .collect();
        let whole = |chapter: usize, prefix: &'static str| -> Part {
            Part {
                chapter,
                range: 0..rendered.chapters[chapter].content.len(),
                prefix,
                shift: 1,
            }
        };
        let mut example_parts = Vec::new();
        let mut without_gaps = Vec::new();
        for (p, anchors) in examples {
            let (parts, gapless) = self.examples_of(*p, anchors);
            if gapless {
                without_gaps.push(rendered.model.providers[*p].name.clone());
            }
            example_parts.push((*p, parts));
        }
        Plan {
            spec: whole(self.spec.chapter, "spec"),
            checklist: self.checklist(&contracts),
            examples: example_parts,
            without_gaps,
            contract: contracts.iter().map(|&c| whole(c, "contract")).collect(),
        }
    }

    /// The contract's checklist for adding a provider: the first section of the contract
    /// whose heading holds the words `brief-checklist` names.
    fn checklist(&self, contracts: &[usize]) -> Option<Part> {
        let rendered = self.rendered;
        let checklist_words = identity(&rendered.config.brief_checklist);
        contracts.iter().find_map(|&c| {
            let index = self.index(c);
            let at = index
                .headings
                .iter()
                .position(|h| identity(&h.text).contains(&checklist_words))?;
            let range = section_of(&index.headings, at, rendered.chapters[c].content.len());
            let shift = 2u8.saturating_sub(index.headings[at].level);
            Some(Part {
                chapter: c,
                range,
                prefix: "checklist",
                shift,
            })
        })
    }

    /// The sections of provider `p` to copy as worked examples, those at `anchors` and its
    /// known gaps, in the chapter's order; and whether its section has no known-gaps
    /// sub-section.
    fn examples_of(&self, p: usize, anchors: &[String]) -> (Vec<Part>, bool) {
        let rendered = self.rendered;
        let model = &rendered.model;
        let chapter = model.providers[p].chapter;
        let content_len = rendered.chapters[chapter].content.len();
        let index = self.index(chapter);
        let provider_at = index
            .headings
            .iter()
            .position(|h| h.id == model.providers[p].anchor);
        let mut parts: Vec<Part> = Vec::new();
        let quote = |at: usize, parts: &mut Vec<Part>| {
            let range = section_of(&index.headings, at, content_len);
            if parts
                .iter()
                .any(|q| q.range.start <= range.start && range.end <= q.range.end)
            {
                return;
            }
            parts.push(Part {
                chapter,
                range,
                prefix: "examples",
                shift: 4u8.saturating_sub(index.headings[at].level),
            });
        };
        for anchor in anchors {
            if let Some(at) = index.headings.iter().position(|h| h.id == *anchor) {
                quote(at, &mut parts);
            }
        }
        let mut gapless = false;
        if let Some(top) = provider_at {
            match self.known_gaps(index, top, content_len) {
                Some(at) => quote(at, &mut parts),
                None => gapless = true,
            }
        }
        parts.sort_by_key(|q| q.range.start);
        // The provider's whole section is quoted when its claims stand under its own
        // heading: that heading is then the example's, one level under "Worked examples".
        if let Some(top) = provider_at
            && let Some(whole) = parts
                .iter_mut()
                .find(|q| q.range.start == index.headings[top].range.start)
        {
            whole.shift = 3u8.saturating_sub(index.headings[top].level);
        }
        (parts, gapless)
    }

    /// The heading of the provider's known gaps, a sub-section of its section at heading `top`.
    fn known_gaps(&self, index: &ChapterIndex, top: usize, content_len: usize) -> Option<usize> {
        let gaps_title = identity(&self.rendered.config.brief_known_gaps);
        let section = section_of(&index.headings, top, content_len);
        index
            .headings
            .iter()
            .enumerate()
            .skip(top + 1)
            .find(|(_, h)| section.contains(&h.range.start) && identity(&h.text) == gaps_title)
            .map(|(at, _)| at)
    }

    /// Records every id the brief will have, before any link is resolved, and which prefix
    /// a link into each copied chapter takes.
    fn collect_ids(&mut self, plan: &Plan, chosen: &[Choice<'_>]) {
        let model = &self.rendered.model;
        let mut all: Vec<&Part> = vec![&plan.spec];
        all.extend(plan.checklist.iter());
        all.extend(plan.examples.iter().flat_map(|(_, parts)| parts.iter()));
        all.extend(plan.contract.iter());
        for part in &all {
            let index = &self.indexes[&part.chapter];
            for heading in index
                .headings
                .iter()
                .filter(|h| part.range.contains(&h.range.start))
            {
                self.ids.insert(format!("{}-{}", part.prefix, heading.id));
            }
            // Links into a chapter lead to its whole copy, else to its examples.
            let entry = self.prefixes.entry(part.chapter).or_insert(part.prefix);
            if *entry == "checklist" {
                *entry = part.prefix;
            }
        }
        for (p, parts) in &plan.examples {
            if !parts
                .first()
                .is_some_and(|q| self.is_provider_heading(q, *p))
            {
                self.ids
                    .insert(format!("examples-of-{}", model.providers[*p].name));
            }
        }
        for Choice { axis, .. } in chosen {
            self.ids.insert(format!("profile-{}", axis.code));
        }
    }

    /// The book's own noun for what it specifies ("backend", from a "Backend spec template").
    fn noun(&self) -> String {
        let rendered = self.rendered;
        rendered
            .chapters
            .iter()
            .find(|c| rendered.config.is_template(&c.key))
            .map_or_else(
                || "provider".to_owned(),
                |t| crate::model::spec::provider_noun(&crate::model::spec::spec_kind(&t.content)),
            )
    }

    /// Writes the title and the paragraph that says what the brief holds.
    fn title_and_purpose(&self, events: &mut Vec<Event<'static>>, provider_type: &str, noun: &str) {
        heading(events, 1, "brief", {
            let mut title = vec![text("Implementer's brief: the ")];
            title.push(Event::Code(CowStr::from(provider_type.to_owned())));
            title.push(text(&format!(" {noun}")));
            title
        });
        paragraph(
            events,
            vec![
                text("Written by "),
                Event::Code(CowStr::Borrowed("mdbook-contract brief")),
                text(&format!(
                    " from the book \u{201c}{}\u{201d}, for whoever builds this {noun}: the profiles its spec chose with what they oblige, {}the spec, the contract's checklist, the sections of the existing providers that chose the same profiles, and the whole contract. Every link leads to a heading of this document{}.",
                    self.title,
                    if self.rendered.rules.rules.is_empty() {
                        ""
                    } else {
                        "the rules that bind it with the citation its tests carry, "
                    },
                    if self.site.is_some() {
                        " or to the published book"
                    } else {
                        ""
                    }
                )),
            ],
        );
    }

    /// Writes what the brief looked for and did not find, said rather than left out silently:
    /// the contract's checklist, the example providers' known gaps.
    fn not_found(&self, events: &mut Vec<Event<'static>>, plan: &Plan) {
        let config = &self.rendered.config;
        if plan.checklist.is_none() {
            paragraph(
                events,
                vec![
                    text(&format!(
                        "The contract has no checklist: none of its headings has \u{201c}{}\u{201d} in it (",
                        config.brief_checklist
                    )),
                    Event::Code(CowStr::Borrowed("brief-checklist")),
                    text(" in book.toml names other words)."),
                ],
            );
        }
        if !plan.without_gaps.is_empty() {
            let mut line = vec![text("No known gaps are copied for ")];
            for (i, name) in plan.without_gaps.iter().enumerate() {
                if i > 0 {
                    line.push(text(", "));
                }
                line.push(Event::Code(CowStr::from(name.clone())));
            }
            line.push(text(&format!(
                ": no sub-heading of their sections is titled \u{201c}{}\u{201d} (",
                config.brief_known_gaps
            )));
            line.push(Event::Code(CowStr::Borrowed("brief-known-gaps")));
            line.push(text(" in book.toml names another title)."));
            paragraph(events, line);
        }
    }

    /// Writes the spec's status, how many of its entries are answered, and the open ones.
    fn status(&mut self, events: &mut Vec<Event<'static>>) {
        let rendered = self.rendered;
        let spec = self.spec;
        let unanswered = spec.unanswered(&rendered.model, &rendered.specs);
        let open: Vec<_> = unanswered
            .iter()
            .filter(|(_, why)| !why.is_empty())
            .collect();
        let total = rendered.specs.template.len();
        let answered = unanswered.len() - open.len();
        let mut status = vec![text("The spec is ")];
        if spec.status == Status::Draft {
            status.push(text("a "));
        }
        status.extend(strong(spec.status.as_str()));
        status.push(text(&format!(": {answered} of {total} entries answered.")));
        paragraph(events, status);
        if open.is_empty() {
            return;
        }
        heading(events, 2, "open-entries", vec![text("Open entries")]);
        paragraph(
            events,
            vec![text(
                "Unanswered entries block implementation: these have to be answered in the spec first.",
            )],
        );
        events.push(Event::Start(Tag::List(None)));
        for (entry, why) in &open {
            events.push(Event::Start(Tag::Item));
            let id = format!("spec-{}", entry.anchor);
            events.extend(self.link_to(&id, shown(&entry.title)));
            let reasons: Vec<String> = why.iter().map(Unanswered::describe).collect();
            events.push(text(&format!(": {}", reasons.join(", ").replace('`', ""))));
            events.push(Event::End(TagEnd::Item));
        }
        events.push(Event::End(TagEnd::List(false)));
    }

    /// Writes the profiles, axis by axis.
    fn profiles(&mut self, events: &mut Vec<Event<'static>>, chosen: &[Choice<'_>], noun: &str) {
        heading(
            events,
            2,
            "profiles",
            vec![text(&format!("The profiles of this {noun}, axis by axis"))],
        );
        for choice in chosen {
            self.profile(events, choice);
        }
    }

    /// Writes the profile the spec chose on one axis: the axis, what the profile obliges, and
    /// the existing providers that chose it too.
    fn profile(&mut self, events: &mut Vec<Event<'static>>, choice: &Choice<'_>) {
        let Choice {
            axis,
            profile,
            same,
        } = choice;
        let id = format!("profile-{}", axis.code);
        let mut title = vec![Event::Code(CowStr::from(axis.code.clone())), text(": ")];
        match profile {
            Some(p) => title.push(Event::Code(CowStr::from((*p).to_owned()))),
            None => title.push(text("not answered yet")),
        }
        heading(events, 3, &id, title);
        let mut rule = vec![text("The axis: ")];
        rule.extend(self.link_to(
            &format!("contract-{}", axis.anchor),
            vec![Event::Code(CowStr::from(axis.code.clone()))],
        ));
        rule.push(text(" in the contract."));
        paragraph(events, rule);
        if let Some(row) = profile.and_then(|p| axis.profile(p)).map(|p| p.row) {
            self.profile_row(events, axis, row);
        }
        if profile.is_some() {
            self.same_profile(events, same);
        }
    }

    /// Writes the contract's row of a profile on `axis`: its meaning, what it obliges, who
    /// tolerates it.
    fn profile_row(&mut self, events: &mut Vec<Event<'static>>, axis: &Axis, row: usize) {
        let columns = [
            ("Meaning", axis.columns.meaning),
            ("Obliges", axis.columns.obliges),
            ("Tolerated by", axis.columns.tolerated_by),
        ];
        events.push(Event::Start(Tag::List(None)));
        for (label, column) in columns {
            let Some(cell) = self.cell(axis.chapter, axis, row, column) else {
                continue;
            };
            events.push(Event::Start(Tag::Item));
            events.extend(strong(&format!("{label}:")));
            events.push(text(" "));
            events.extend(cell);
            events.push(Event::End(TagEnd::Item));
        }
        events.push(Event::End(TagEnd::List(false)));
    }

    /// Writes the existing providers that chose the same profile, each a link to its example.
    fn same_profile(&mut self, events: &mut Vec<Event<'static>>, same: &[(usize, String)]) {
        if same.is_empty() {
            paragraph(
                events,
                vec![text("No existing provider chose this profile.")],
            );
            return;
        }
        let model = &self.rendered.model;
        let mut line = vec![text(
            "Worked examples, existing providers with the same profile: ",
        )];
        for (i, (p, anchor)) in same.iter().enumerate() {
            if i > 0 {
                line.push(text(", "));
            }
            let name = &model.providers[*p].name;
            line.extend(self.link_to(
                &format!("examples-{anchor}"),
                vec![Event::Code(CowStr::from(name.clone()))],
            ));
        }
        line.push(text("."));
        paragraph(events, line);
    }

    /// Copies the spec, the checklist, the worked examples and the contract.
    fn copies(&mut self, events: &mut Vec<Event<'static>>, plan: &Plan) {
        self.copy(events, &plan.spec);
        if let Some(part) = &plan.checklist {
            self.copy(events, part);
        }
        if !plan.examples.is_empty() {
            heading(
                events,
                2,
                "examples",
                vec![text("Worked examples from the existing providers")],
            );
            paragraph(
                events,
                vec![text(
                    "The sections of the appendix on existing providers that hold their claims on the axes where they chose the same profile as this provider, with their evidence, and each provider's known gaps.",
                )],
            );
            for (p, parts) in &plan.examples {
                let name = &self.rendered.model.providers[*p].name;
                if !parts
                    .first()
                    .is_some_and(|q| self.is_provider_heading(q, *p))
                {
                    heading(
                        events,
                        3,
                        &format!("examples-of-{name}"),
                        vec![Event::Code(CowStr::from(name.clone()))],
                    );
                }
                for part in parts {
                    self.copy(events, part);
                }
            }
        }
        for part in &plan.contract {
            self.copy(events, part);
        }
    }

    /// The rules that bind the provider, given the profiles its spec chose, each with the
    /// citation its tests put in a comment; then those that will bind it if it chooses the
    /// profile they apply to on an axis it has not answered yet.
    fn rules(&mut self, events: &mut Vec<Event<'static>>, provider: usize, noun: &str) {
        let rendered = self.rendered;
        let model = &rendered.model;
        if rendered.rules.rules.is_empty() {
            return;
        }
        heading(
            events,
            2,
            "rules",
            vec![text(&format!("The rules that bind this {noun}"))],
        );
        paragraph(
            events,
            vec![text(
                "Each rule of the contract that binds it, given the profiles above, with the citation to write in a comment of the test that verifies it (the rule's text is in the contract below, under its label).",
            )],
        );
        let mut bound = Vec::new();
        let mut pending = Vec::new();
        let mut optional = Vec::new();
        for rule in &rendered.rules.rules {
            match &rule.applies {
                Some((axis, profile)) if !rule.binds(model, provider) => {
                    let answered = model.claims_of(provider, axis).any(|c| !c.is_unknown());
                    if !answered && rule.obliges() {
                        pending.push((rule, axis, profile));
                    }
                }
                // A MAY permits: nothing to verify, listed apart.
                _ if !rule.obliges() => optional.push(rule),
                _ => bound.push(rule),
            }
        }
        self.bound_rules(events, &bound);
        permitted_rules(events, &optional);
        pending_rules(events, &pending);
    }

    /// Writes the rules that bind the provider, each with its citation and, with test
    /// results, how the existing providers' tests of it did.
    fn bound_rules(&self, events: &mut Vec<Event<'static>>, bound: &[&crate::model::rules::Rule]) {
        events.push(Event::Start(Tag::List(None)));
        for rule in bound {
            events.push(Event::Start(Tag::Item));
            events.push(Event::Code(CowStr::from(rule.id.clone())));
            if let Some(level) = rule.level {
                events.push(text(&format!(" ({})", level.as_str())));
            }
            if let Some((axis, profile)) = &rule.applies {
                events.push(text(", for "));
                events.push(Event::Code(CowStr::from(profile.clone())));
                events.push(text(" on "));
                events.push(Event::Code(CowStr::from(axis.clone())));
            }
            events.push(text(": "));
            events.push(citation(rule));
            self.results_of(events, rule);
            events.push(Event::End(TagEnd::Item));
        }
        events.push(Event::End(TagEnd::List(false)));
    }

    /// A link to `id`, a heading of the brief.
    fn link_to(&mut self, id: &str, inner: Vec<Event<'static>>) -> Vec<Event<'static>> {
        if !self.ids.contains(id) {
            return inner;
        }
        self.links += 1;
        let mut events = vec![Event::Start(Tag::Link {
            link_type: LinkType::Inline,
            dest_url: CowStr::from(format!("#{}", paths::encode(id))),
            title: CowStr::Borrowed(""),
            id: CowStr::Borrowed(""),
        })];
        events.extend(inner);
        events.push(Event::End(TagEnd::Link));
        events
    }

    /// Cell `column` of `axis`'s profile row `row`, from the rendered contract, its links
    /// resolved in the brief.
    fn cell(
        &mut self,
        contract: usize,
        axis: &Axis,
        row: usize,
        column: Option<usize>,
    ) -> Option<Vec<Event<'static>>> {
        let index = self.index(contract);
        let at = index.headings.iter().position(|h| h.id == axis.anchor)?;
        let section = section_of(
            &index.headings,
            at,
            self.rendered.chapters[contract].content.len(),
        );
        let table = index.tables.iter().find(|t| {
            section.contains(&t.range.start)
                && t.rows
                    .first()
                    .and_then(|r| r.cells.first())
                    .is_some_and(|c| c.text.trim().eq_ignore_ascii_case("profile"))
        })?;
        let events = table.rows.get(row)?.cells.get(column?)?.events.clone();
        Some(self.rewrite(contract, events))
    }

    /// Copies `part` into `events`.
    fn copy(&mut self, events: &mut Vec<Event<'static>>, part: &Part) {
        let content = &self.rendered.chapters[part.chapter].content;
        let ids: Vec<String> = self.indexes[&part.chapter]
            .headings
            .iter()
            .filter(|h| part.range.contains(&h.range.start))
            .map(|h| format!("{}-{}", part.prefix, h.id))
            .collect();
        let mut copied = Vec::new();
        let parser = mdbook_markdown::new_cmark_parser(content, self.options()).into_offset_iter();
        for (event, range) in parser {
            if range.start < part.range.start || range.start >= part.range.end {
                continue;
            }
            copied.push(event.into_static());
        }
        let mut ids = ids.into_iter();
        let copied: Vec<Event<'static>> = copied
            .into_iter()
            .map(|event| match event {
                Event::Start(Tag::Heading { level, attrs, .. }) => Event::Start(Tag::Heading {
                    level: shifted(level, part.shift),
                    id: ids.next().map(CowStr::from),
                    classes: Vec::new(),
                    attrs,
                }),
                Event::End(TagEnd::Heading(level)) => {
                    Event::End(TagEnd::Heading(shifted(level, part.shift)))
                }
                other => other,
            })
            .collect();
        events.extend(self.rewrite(part.chapter, copied));
    }

    /// `events` of chapter `from` with every link resolved in the brief (see the module docs)
    /// and every `{{` of the author's text kept from looking like a shortcode.
    fn rewrite(&mut self, from: usize, events: Vec<Event<'static>>) -> Vec<Event<'static>> {
        let mut out = Vec::with_capacity(events.len());
        let mut open: Vec<bool> = Vec::new();
        let mut images: Vec<bool> = Vec::new();
        for event in events {
            match event {
                // An image of the book's own files is not the reader's: its text stays.
                Event::Start(Tag::Image { ref dest_url, .. }) => {
                    let kept = paths::is_external(dest_url);
                    images.push(kept);
                    if kept {
                        out.push(event);
                    }
                }
                Event::End(TagEnd::Image) => {
                    if images.pop().unwrap_or(false) {
                        out.push(event);
                    }
                }
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }) => match self.resolve(from, &dest_url) {
                    Some(dest) => {
                        self.links += 1;
                        open.push(true);
                        out.push(Event::Start(Tag::Link {
                            link_type: match link_type {
                                LinkType::Autolink | LinkType::Email => link_type,
                                _ => LinkType::Inline,
                            },
                            dest_url: CowStr::from(dest),
                            title,
                            id: if matches!(link_type, LinkType::Autolink | LinkType::Email) {
                                id
                            } else {
                                CowStr::Borrowed("")
                            },
                        }));
                    }
                    None => open.push(false),
                },
                Event::End(TagEnd::Link) => {
                    if open.pop().unwrap_or(false) {
                        out.push(Event::End(TagEnd::Link));
                    }
                }
                Event::Text(text) if text.contains("{{") => out.extend(shown(&text)),
                other => out.push(other),
            }
        }
        out
    }

    /// Where the link `dest` of chapter `from` leads in the brief: a heading of it, an
    /// address on the published book, or (`None`) nowhere, and it becomes its text.
    fn resolve(&self, from: usize, dest: &str) -> Option<String> {
        if paths::is_external(dest) {
            return Some(dest.to_owned());
        }
        let (path, fragment) = match dest.split_once('#') {
            Some((path, fragment)) => (path, Some(paths::percent_decode(fragment).into_owned())),
            None => (dest, None),
        };
        let target = if path.is_empty() {
            Some(from)
        } else {
            self.chapter_at(from, path)
        };
        if let Some(target) = target
            && let Some(prefix) = self.prefixes.get(&target)
        {
            let fragment = match &fragment {
                Some(f) => f.clone(),
                None => self.indexes[&target].headings.first()?.id.clone(),
            };
            let id = format!("{prefix}-{fragment}");
            if self.ids.contains(&id) {
                return Some(format!("#{}", paths::encode(&id)));
            }
        }
        // Out of the brief: the published page, if the book says where it is.
        let site = self.site.as_ref()?;
        let target = target?;
        let page = paths::components(&self.rendered.chapters[target].link_path).join("/");
        let page = page
            .strip_suffix(".md")
            .map_or(page.clone(), |p| format!("{p}.html"));
        let page = if page == "README.html" || page.ends_with("/README.html") {
            page.replacen("README.html", "index.html", 1)
        } else {
            page
        };
        let base = site.trim_end_matches('/');
        Some(match fragment {
            Some(f) => format!("{base}/{page}#{}", paths::encode(&f)),
            None => format!("{base}/{page}"),
        })
    }

    /// The chapter the relative link `path` of chapter `from` names.
    fn chapter_at(&self, from: usize, path: &str) -> Option<usize> {
        let path = paths::percent_decode(path);
        let path = path.split('?').next().unwrap_or("");
        let base = &self.rendered.chapters[from].link_path;
        let mut parts: Vec<String> = if path.starts_with('/') {
            Vec::new()
        } else {
            let mut parts = paths::components(base);
            parts.pop();
            parts
        };
        for component in Path::new(path.trim_start_matches('/')).components() {
            match component {
                Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
                Component::ParentDir => {
                    parts.pop();
                }
                _ => {}
            }
        }
        let mut joined = parts.join("/");
        if let Some(stem) = joined.strip_suffix(".html") {
            joined = format!("{stem}.md");
        }
        self.rendered
            .chapters
            .iter()
            .position(|c| c.key == joined || paths::components(&c.link_path).join("/") == joined)
    }
}

/// The citation a test of `rule` puts in a comment (`r[verify id]`).
fn citation(rule: &crate::model::rules::Rule) -> Event<'static> {
    let id = crate::model::rules::marker::cited(&rule.id, rule.version);
    Event::Code(CowStr::from(format!("r[verify {id}]")))
}

/// Writes the rules that permit and oblige nothing, on one line.
fn permitted_rules(events: &mut Vec<Event<'static>>, optional: &[&crate::model::rules::Rule]) {
    if optional.is_empty() {
        return;
    }
    let mut line = vec![text(
        "Permitted, with nothing to verify (a MAY, or no RFC 2119 keyword): ",
    )];
    for (i, rule) in optional.iter().enumerate() {
        if i > 0 {
            line.push(text(", "));
        }
        line.push(Event::Code(CowStr::from(rule.id.clone())));
    }
    line.push(text("."));
    paragraph(events, line);
}

/// Writes the rules that bind the provider if it chooses the profile they apply to, on an
/// axis its spec has not answered yet, each with its citation.
fn pending_rules(
    events: &mut Vec<Event<'static>>,
    pending: &[(&crate::model::rules::Rule, &String, &String)],
) {
    if pending.is_empty() {
        return;
    }
    paragraph(
        events,
        vec![text(
            "These bind it too if it chooses the profile they apply to, on an axis its spec has not answered yet:",
        )],
    );
    events.push(Event::Start(Tag::List(None)));
    for (rule, axis, profile) in pending {
        events.push(Event::Start(Tag::Item));
        events.push(Event::Code(CowStr::from(rule.id.clone())));
        events.push(text(", if it chooses "));
        events.push(Event::Code(CowStr::from((*profile).clone())));
        events.push(text(" on "));
        events.push(Event::Code(CowStr::from((*axis).clone())));
        events.push(text(": "));
        events.push(citation(rule));
        events.push(Event::End(TagEnd::Item));
    }
    events.push(Event::End(TagEnd::List(false)));
}

/// `events` written as Markdown, ending with a newline.
fn written(events: &[Event<'static>]) -> String {
    let mut markdown = String::new();
    let options = pulldown_cmark_to_cmark::Options {
        list_token: '-',
        ..Default::default()
    };
    let written = pulldown_cmark_to_cmark::cmark_with_options(
        events.iter(),
        &mut markdown,
        mdbook_markdown::pulldown_cmark::Options::ENABLE_TABLES
            | mdbook_markdown::pulldown_cmark::Options::ENABLE_HEADING_ATTRIBUTES
            | mdbook_markdown::pulldown_cmark::Options::ENABLE_FOOTNOTES
            | mdbook_markdown::pulldown_cmark::Options::ENABLE_STRIKETHROUGH
            | mdbook_markdown::pulldown_cmark::Options::ENABLE_TASKLISTS,
        options,
    );
    if written.is_err() {
        // Only emphasis the writer cannot spell fails it; without emphasis it cannot fail.
        markdown.clear();
        let plain = events.iter().filter(|e| {
            !matches!(
                e,
                Event::Start(Tag::Emphasis | Tag::Strong)
                    | Event::End(TagEnd::Emphasis | TagEnd::Strong)
            )
        });
        let _ = pulldown_cmark_to_cmark::cmark_with_options(
            plain,
            &mut markdown,
            mdbook_markdown::pulldown_cmark::Options::ENABLE_TABLES
                | mdbook_markdown::pulldown_cmark::Options::ENABLE_HEADING_ATTRIBUTES,
            pulldown_cmark_to_cmark::Options {
                list_token: '-',
                ..Default::default()
            },
        );
    }
    if !markdown.ends_with('\n') {
        markdown.push('\n');
    }
    markdown
}

fn shifted(level: HeadingLevel, by: u8) -> HeadingLevel {
    let level = (level as usize + by as usize).min(6);
    HeadingLevel::try_from(level).unwrap_or(HeadingLevel::H6)
}

fn text(s: &str) -> Event<'static> {
    Event::Text(CowStr::from(s.to_owned()))
}

fn strong(s: &str) -> Vec<Event<'static>> {
    vec![
        Event::InlineHtml(CowStr::Borrowed("<strong>")),
        text(s),
        Event::InlineHtml(CowStr::Borrowed("</strong>")),
    ]
}

/// `s` as text, a `{{` in it written with its first brace as `&#123;` (see `render`).
fn shown(s: &str) -> Vec<Event<'static>> {
    let mut events = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find("{{") {
        if i > 0 {
            events.push(text(&rest[..i]));
        }
        events.push(Event::InlineHtml(CowStr::Borrowed("&#123;")));
        rest = &rest[i + 1..];
    }
    if !rest.is_empty() {
        events.push(text(rest));
    }
    events
}

fn heading(events: &mut Vec<Event<'static>>, level: usize, id: &str, inner: Vec<Event<'static>>) {
    let level = HeadingLevel::try_from(level).unwrap_or(HeadingLevel::H6);
    events.push(Event::Start(Tag::Heading {
        level,
        id: Some(CowStr::from(id.to_owned())),
        classes: Vec::new(),
        attrs: Vec::new(),
    }));
    events.extend(inner);
    events.push(Event::End(TagEnd::Heading(level)));
}

fn paragraph(events: &mut Vec<Event<'static>>, inner: Vec<Event<'static>>) {
    events.push(Event::Start(Tag::Paragraph));
    events.extend(inner);
    events.push(Event::End(TagEnd::Paragraph));
}
