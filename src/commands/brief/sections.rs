//! The brief's own sections, in the order written: the title and purpose, what was not found,
//! the spec's status, the profiles chosen, and the rules that bind the provider.

use mdbook_markdown::pulldown_cmark::{CowStr, Event, Tag, TagEnd};

use super::Writer;
use super::markdown::{heading, paragraph, shown, strong, text, with_code_spans};
use super::plan::{Choice, Plan};
use crate::model::spec::{Status, Unanswered};
use crate::model::{Axis, section_of};

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
    let mut line = vec![text("Permitted, with nothing to verify (a MAY): ")];
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

impl<'r> Writer<'r> {
    /// With test results, how the built providers' tests of `rule` did in the last run
    /// (`; the existing providers' tests: \`kafka\` passed, \`nats\` failed`).
    fn results_of(&self, events: &mut Vec<Event<'static>>, rule: &crate::model::rules::Rule) {
        use crate::model::rules::status::Kind;
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
            .filter_map(|(&p, &status)| {
                // What the run said of the provider's tests: nothing for a rule no test cites.
                let kind = coverage.kind(status);
                let ran = [Kind::Passed, Kind::Failed, Kind::Skipped, Kind::NotRun];
                (ran.contains(&kind) || kind == Kind::Unattributed).then_some((p, kind.word()))
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

    /// The book's own noun for what it specifies ("backend", from a "Backend spec template").
    pub(super) fn noun(&self) -> String {
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
    pub(super) fn title_and_purpose(
        &self,
        events: &mut Vec<Event<'static>>,
        provider_type: &str,
        noun: &str,
    ) {
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
    pub(super) fn not_found(&self, events: &mut Vec<Event<'static>>, plan: &Plan) {
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
    pub(super) fn status(&mut self, events: &mut Vec<Event<'static>>) {
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

    /// Lists the book's errors outside the spec, which a build of the book fails on.
    pub(super) fn errors_elsewhere(&self, events: &mut Vec<Event<'static>>) {
        if self.elsewhere.is_empty() {
            return;
        }
        heading(
            events,
            2,
            "errors",
            vec![text("Errors elsewhere in the book")],
        );
        paragraph(
            events,
            vec![text(&format!(
                "The book has {} outside this spec: a build of the book fails on them, this brief does not.",
                crate::util::counted(self.elsewhere.len(), "error")
            ))],
        );
        events.push(Event::Start(Tag::List(None)));
        for finding in &self.elsewhere {
            let l = &finding.location;
            events.push(Event::Start(Tag::Item));
            events.push(Event::Code(CowStr::from(format!(
                "{}:{}:{}",
                crate::util::paths::slashed(&l.path),
                l.line,
                l.column
            ))));
            events.push(text(&format!(" {}: ", finding.check)));
            events.extend(with_code_spans(&finding.message));
            events.push(Event::End(TagEnd::Item));
        }
        events.push(Event::End(TagEnd::List(false)));
    }

    /// Writes the profiles, axis by axis.
    pub(super) fn profiles(
        &mut self,
        events: &mut Vec<Event<'static>>,
        chosen: &[Choice<'_>],
        noun: &str,
    ) {
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

    /// The rules that bind the provider, given the profiles its spec chose, each with the
    /// citation its tests put in a comment; then those that will bind it if it chooses the
    /// profile they apply to on an axis it has not answered yet.
    pub(super) fn rules(&mut self, events: &mut Vec<Event<'static>>, provider: usize, noun: &str) {
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
                    let answered = model.claims_of(provider, axis).any(|c| model.answers(c));
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
            events.push(text(&format!(
                " ({})",
                crate::model::rules::level_name(rule.level)
            )));
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
}
