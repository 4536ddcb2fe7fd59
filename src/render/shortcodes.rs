//! The Markdown of each shortcode of the contract: a claim, an axis's answers and copied
//! cells, the axis table, the profile matrix, a spec's status box. The rules' shortcodes are
//! `rules.rs`'s.

use mdbook_markdown::pulldown_cmark::{CowStr, Event, Tag, TagEnd};

use super::events::{
    code, emphasis, in_div, link, push_joined, rebase, shown_as_text, strong, table, text,
};
use super::{Events, Renderer, after_colon, is_address};
use crate::model::Axis;
use crate::model::spec::{Entry, Status, Unanswered};
use crate::read::shortcode::{Kind, Shortcode};

impl<'a> Renderer<'a> {
    /// A spec's status box: its status, how many of the template's entries it answers, and a
    /// list of the others, each linked, with what it lacks.
    pub(super) fn spec_status(&self, from: usize) -> Option<Events<'a>> {
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
    pub(super) fn reason(&self, from: usize, reason: &Unanswered) -> Events<'a> {
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
            Unanswered::NotAProfile(code_of, profile, _, _) => {
                let mut events = axis(code_of);
                events.push(text(" has no profile "));
                events.push(Event::Code(CowStr::from(profile.clone())));
                events
            }
            Unanswered::NoEvidence => vec![text("answered without evidence")],
        }
    }

    /// A claim: the axis link, the profile and the evidence (code spans, an address a link).
    pub(super) fn claim(&self, from: usize, shortcode: &Shortcode) -> Option<Events<'a>> {
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
    pub(super) fn cell(
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
    pub(super) fn copied(&self, home: usize, shortcode: &'a Shortcode, to: usize) -> Events<'a> {
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
    pub(super) fn answers(&self, from: usize, axis: &'a Axis) -> Events<'a> {
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

    pub(super) fn axis_table(&self, from: usize) -> Events<'a> {
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
    pub(super) fn profile_matrix(&self, from: usize) -> Events<'a> {
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
        // A built provider's claims whose profile is known (with their evidence); a spec's
        // entries answered; a proposed section's claims stated. Named for what it counts, apart
        // from the rule matrix's tests passed.
        let mut last = vec![strong("known claims")];
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
