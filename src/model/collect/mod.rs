//! Reading the model from the chapters: each chapter's headings (axes, providers, their
//! sections), each axis's `Profile` table, and each chapter's shortcodes (claims, answer sites),
//! in document order. To read a new kind of thing: a field of [`Model`], and the method here
//! that meets it in the chapter.

use std::collections::HashMap;
use std::ops::Range;

use super::{
    Axis, Columns, Model, Problem, Profile, Provider, UNKNOWN_PROFILE, Unclassed, Unprovided,
};
use crate::read::chapter::Chapter;
use crate::read::config::Config;
use crate::read::markdown::{Heading, Table};
use crate::read::shortcode::is_code as is_kebab;
use crate::util::vocab::Check;
use shortcodes::Shortcodes;

mod shortcodes;

impl Model {
    /// Reads the model out of the chapters.
    pub(crate) fn collect(chapters: &[Chapter<'_>], config: &Config) -> Model {
        let mut model = Model::default();
        for (number, chapter) in chapters.iter().enumerate() {
            model.collect_headings(number, chapter, config);
        }
        // Claims and answer sites depend only on the providers found above: each chapter's are
        // read on their own (in parallel), then appended in chapter order.
        let work = chapters.iter().map(|chapter| chapter.content.len()).sum();
        let found = crate::util::parallel::map(chapters, work, |number, chapter| {
            Shortcodes::of(&model.providers, number, chapter, config)
        });
        for found in found {
            model.claims.extend(found.claims);
            model.answer_sites.extend(found.answer_sites);
            model.spec_sites.extend(found.spec_sites);
            model.problems.extend(found.problems);
            for (chapter, heading, claim) in found.orphans {
                model.orphan(chapter, heading, claim);
            }
        }
        model.claims_by = vec![HashMap::new(); model.providers.len()];
        for (i, claim) in model.claims.iter().enumerate() {
            model.claims_by[claim.provider]
                .entry(claim.axis.text.clone())
                .or_default()
                .push(i);
            model.claim_at.insert((claim.chapter, claim.range.start), i);
        }
        for (i, site) in model.answer_sites.iter().enumerate() {
            model
                .sites_by_axis
                .entry(site.axis.text.clone())
                .or_default()
                .push(i);
        }
        model
    }

    /// Records a claim outside every provider section with the others of its heading, or
    /// with its spec chapter's missing provider heading.
    pub(super) fn orphan(&mut self, chapter: usize, heading: Option<usize>, claim: Range<usize>) {
        let group = self
            .unprovided
            .iter_mut()
            .find(|u| u.chapter == chapter && (u.spec || u.heading == heading));
        match group {
            Some(group) => group.claims.push(claim),
            None => self.unprovided.push(Unprovided {
                chapter,
                heading,
                spec: false,
                claims: vec![claim],
            }),
        }
    }

    /// A heading with a kebab-case code over a profile table and no `.axis` class: an axis
    /// that only lacks its class.
    fn unclassed_axis(
        &mut self,
        number: usize,
        chapter: &Chapter<'_>,
        heading: &crate::read::markdown::Heading,
        section: &std::ops::Range<usize>,
    ) {
        if let Some((code, _)) = heading.first_code.as_ref().filter(|(c, _)| is_kebab(c))
            && chapter.index.tables.iter().any(|t| {
                t.range.start >= section.start
                    && t.range.end <= section.end
                    && (is_profile_table(t) || near_profile_header(t).is_some())
            })
        {
            self.unclassed.push(Unclassed {
                code: code.clone(),
                chapter: number,
                range: heading.range.clone(),
                classes: heading.classes.clone(),
            });
        }
    }

    /// The provider a `.provider` heading of chapter `number` opens, with its section (the
    /// whole chapter for a spec's); a problem for a heading without a name.
    fn provider(&mut self, number: usize, heading: &Heading, section: Range<usize>, spec: bool) {
        let name = match &heading.first_code {
            Some((code, _)) => code.clone(),
            None => heading.text.trim().to_owned(),
        };
        if name.is_empty() {
            problem(
                &mut self.problems,
                Check::MalformedSection,
                number,
                heading.range.clone(),
                "a `.provider` heading needs a name".into(),
            );
            return;
        }
        self.providers.push(Provider {
            name,
            chapter: number,
            anchor: heading.id.clone(),
            range: heading.range.clone(),
            section,
            proposed: spec || heading.has_class("proposed"),
            spec,
        });
    }

    pub(super) fn collect_headings(
        &mut self,
        number: usize,
        chapter: &Chapter<'_>,
        config: &Config,
    ) {
        let headings = &chapter.index.headings;
        let spec = config.is_spec(&chapter.key);
        let mut spec_provider = None;
        for (i, heading) in headings.iter().enumerate() {
            let mut section = section_of(headings, i, chapter.content.len());
            if heading.has_class("axis") {
                self.collect_axis(number, chapter, config, heading, section.clone());
            } else if config.may_define_axes(&chapter.key) {
                self.unclassed_axis(number, chapter, heading, &section);
            }
            if heading.has_class("provider") || heading.has_class("proposed") {
                if spec {
                    // A spec describes one provider, and the whole chapter is its section.
                    if let Some(first) = spec_provider {
                        let first: &Provider = &self.providers[first];
                        let message = format!(
                            "a spec describes one provider, `{}`; this heading would make a second",
                            first.name
                        );
                        problem(
                            &mut self.problems,
                            Check::MalformedSection,
                            number,
                            heading.range.clone(),
                            message,
                        );
                        continue;
                    }
                    section = 0..chapter.content.len();
                    spec_provider = Some(self.providers.len());
                }
                self.provider(number, heading, section, spec);
            }
        }
        if spec && spec_provider.is_none() {
            self.unprovided.push(Unprovided {
                chapter: number,
                heading: (!headings.is_empty()).then_some(0),
                spec: true,
                claims: Vec::new(),
            });
        }
    }

    pub(super) fn collect_axis(
        &mut self,
        number: usize,
        chapter: &Chapter<'_>,
        config: &Config,
        heading: &Heading,
        section: Range<usize>,
    ) {
        let Some((code, _)) = self.axis_code(number, chapter, config, heading) else {
            return;
        };
        let table = chapter.index.tables.iter().position(|t| {
            t.range.start >= section.start && t.range.end <= section.end && is_profile_table(t)
        });
        let near_table = table.is_none().then(|| {
            chapter
                .index
                .tables
                .iter()
                .filter(|t| t.range.start >= section.start && t.range.end <= section.end)
                .find_map(near_profile_header)
        });
        let mut axis = Axis {
            code: code.clone(),
            chapter: number,
            anchor: heading.id.clone(),
            range: heading.range.clone(),
            section: section.clone(),
            table,
            near_table: near_table.flatten(),
            columns: Columns::default(),
            profiles: Vec::new(),
        };
        // Without a table, `malformed-section` reports the axis, with its claims as notes.
        if let Some(t) = table {
            self.read_profiles(number, &chapter.index.tables[t], &mut axis);
        }
        if self.by_code.contains_key(&code) {
            // Kept, so `duplicate-axis` can point at both.
        } else {
            self.by_code.insert(code, self.axes.len());
        }
        self.axes.push(axis);
    }

    /// The code of the `.axis` heading `heading`, with its range; `None`, with a problem, in a
    /// chapter that is no contract or for a heading without a kebab-case code.
    fn axis_code(
        &mut self,
        number: usize,
        chapter: &Chapter<'_>,
        config: &Config,
        heading: &Heading,
    ) -> Option<(String, Range<usize>)> {
        if !config.may_define_axes(&chapter.key) {
            let message = format!(
                "axes are defined in contract chapters only ({}); `{}` is not one",
                config.contract.join(", "),
                chapter.key
            );
            problem(
                &mut self.problems,
                Check::MalformedSection,
                number,
                heading.range.clone(),
                message,
            );
            return None;
        }
        let Some((code, code_range)) = heading.first_code.clone() else {
            problem(
                &mut self.problems,
                Check::MalformedSection,
                number,
                heading.range.clone(),
                "an `.axis` heading needs its code as the first code span, a kebab-case word, as in ``### `axis-code` {.axis}``".into(),
            );
            return None;
        };
        if !is_kebab(&code) {
            problem(
                &mut self.problems,
                Check::MalformedSection,
                number,
                code_range,
                format!(
                    "axis code `{code}` is not kebab-case (lowercase letters, digits and single hyphens)"
                ),
            );
            return None;
        }
        Some((code, code_range))
    }

    pub(super) fn read_profiles(&mut self, number: usize, table: &Table, axis: &mut Axis) {
        let header = &table.rows[0].cells;
        let column = |names: &[&str]| {
            header
                .iter()
                .position(|c| names.iter().any(|n| c.text.trim().eq_ignore_ascii_case(n)))
        };
        axis.columns = Columns {
            meaning: column(&["meaning"]).or((header.len() > 1).then_some(1)),
            obliges: column(&["obliges", "obligations", "obliges the provider"]),
            tolerated_by: column(&["tolerated by"]),
        };
        for (row_index, row) in table.rows.iter().enumerate().skip(1) {
            let Some(first) = row.cells.first() else {
                continue;
            };
            let Some(name) = first.first_code.clone().filter(|n| is_kebab(n)) else {
                problem(
                    &mut self.problems,
                    Check::MalformedSection,
                    number,
                    first.range.clone(),
                    format!(
                        "each row of the `Profile` table of `{}` starts with the profile name as a kebab-case code span",
                        axis.code
                    ),
                );
                continue;
            };
            if name == UNKNOWN_PROFILE {
                problem(
                    &mut self.problems,
                    Check::MalformedSection,
                    number,
                    first.range.clone(),
                    format!(
                        "`{UNKNOWN_PROFILE}` is reserved for claims not verified yet and is accepted on every axis; remove the row"
                    ),
                );
                continue;
            }
            if axis.profile(&name).is_some() {
                problem(
                    &mut self.problems,
                    Check::MalformedSection,
                    number,
                    first.range.clone(),
                    format!("profile `{name}` is listed twice for axis `{}`", axis.code),
                );
                continue;
            }
            axis.profiles.push(Profile {
                name,
                row: row_index,
            });
        }
    }
}

fn problem(
    problems: &mut Vec<Problem>,
    check: Check,
    chapter: usize,
    range: Range<usize>,
    message: String,
) {
    problems.push(Problem {
        check,
        chapter,
        range,
        message,
    });
}

/// The heading meant as the provider's of a claim at `at` outside every provider section:
/// among the headings whose sections hold it, innermost first, the first that reads as a
/// provider's (a code span in its text, as providers are named, or a class one slip from
/// `provider`); none when no heading does.
fn owner_heading(headings: &[Heading], at: usize) -> Option<usize> {
    let mut i = headings
        .partition_point(|h| h.range.start <= at)
        .checked_sub(1)?;
    loop {
        if headings[i].first_code.is_some() || provider_slip(&headings[i]).is_some() {
            return Some(i);
        }
        let level = headings[i].level;
        i = (0..i).rev().find(|&j| headings[j].level < level)?;
    }
}

/// A class of `heading` one slip from `provider` or `proposed` (`providers`, `provder`).
pub(crate) fn provider_slip(heading: &Heading) -> Option<&str> {
    heading
        .classes
        .iter()
        .find(|c| {
            crate::util::suggest::edit_distance(c, "provider") <= 2
                || crate::util::suggest::edit_distance(c, "proposed") <= 2
        })
        .map(String::as_str)
}

/// The range of heading `i`'s section: to the next heading of the same level or higher.
pub(crate) fn section_of(headings: &[Heading], i: usize, end: usize) -> Range<usize> {
    let level = headings[i].level;
    let stop = headings[i + 1..]
        .iter()
        .find(|h| h.level <= level)
        .map_or(end, |h| h.range.start);
    headings[i].range.start..stop
}

/// The first header cell of `table` when it is near `Profile` without being it (`Profiles`,
/// `Profil`), with its range.
fn near_profile_header(table: &Table) -> Option<(String, Range<usize>)> {
    let cell = table.rows.first()?.cells.first()?;
    let text = cell.text.trim();
    let lower = text.to_ascii_lowercase();
    (lower != "profile" && crate::util::suggest::edit_distance(&lower, "profile") <= 2)
        .then(|| (text.to_owned(), cell.range.clone()))
}

fn is_profile_table(table: &Table) -> bool {
    table
        .rows
        .first()
        .and_then(|r| r.cells.first())
        .is_some_and(|c| c.text.trim().eq_ignore_ascii_case("profile"))
}
