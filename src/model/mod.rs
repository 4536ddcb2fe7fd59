//! The contract as the book states it: axes, profiles, providers, claims and answer sites.
//!
//! [`Model::collect`] reads every chapter's [`ChapterIndex`](crate::read::markdown::ChapterIndex) and shortcodes once, in document
//! order, and records what is written, duplicates and dangling names included; deciding what is
//! wrong with it is the job of `checks`, and turning it into Markdown the job of `render`. What
//! cannot even be recorded (an `.axis` heading without a code, a claim outside any provider)
//! goes into [`Model::problems`] for the check named there.

pub(crate) mod rules;
pub(crate) mod spec;

use std::collections::HashMap;
use std::ops::Range;

use crate::read::chapter::Chapter;
use crate::read::config::Config;
use crate::read::markdown::{Heading, Table};
use crate::read::shortcode::{Kind, Spanned, is_code as is_kebab};
use crate::util::vocab::Check;

/// The profile every axis accepts for a fact not verified yet.
pub(crate) const UNKNOWN_PROFILE: &str = "unknown";

/// One allowed answer of an axis: a row of its `Profile` table.
#[derive(Debug, Clone)]
pub(crate) struct Profile {
    /// The profile name (the row's first code span).
    pub name: String,
    /// The row's index in the table.
    pub row: usize,
}

/// The columns of a `Profile` table that the rendered tables reuse.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Columns {
    /// `Meaning` (else the second column).
    pub meaning: Option<usize>,
    /// `Obliges` or `Obligations`.
    pub obliges: Option<usize>,
    /// `Tolerated by`.
    pub tolerated_by: Option<usize>,
}

/// A heading that reads as an axis but lacks the class `axis` (see [`Model::unclassed`]).
#[derive(Debug, Clone)]
pub(crate) struct Unclassed {
    /// The code in the heading.
    pub code: String,
    /// Its chapter.
    pub chapter: usize,
    /// The heading's range.
    pub range: Range<usize>,
    /// The heading's classes (`axes`, a slip for `axis`).
    pub classes: Vec<String>,
}

/// One behaviour axis, defined by an `.axis` heading.
#[derive(Debug, Clone)]
pub(crate) struct Axis {
    /// Its kebab-case code.
    pub code: String,
    /// The chapter that defines it.
    pub chapter: usize,
    /// The heading's id.
    pub anchor: String,
    /// The heading's range.
    pub range: Range<usize>,
    /// Its section: from the heading to the next heading of its level or higher.
    pub section: Range<usize>,
    /// The index of its `Profile` table in the chapter, if it has one.
    pub table: Option<usize>,
    /// Without one: the first header cell of a table in its section that is near `Profile`
    /// (`Profiles`, `profil`), with the cell's range, the likely slip.
    pub near_table: Option<(String, Range<usize>)>,
    /// The columns of that table.
    pub columns: Columns,
    /// Its profiles, in table order.
    pub profiles: Vec<Profile>,
}

impl Axis {
    /// The profile called `name`.
    pub(crate) fn profile(&self, name: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.name == name)
    }
}

/// Claims that belong to no provider, gathered at their cause: a heading whose section holds
/// them but that lacks the class `provider`, or a spec chapter without its provider's heading
/// (see [`Model::unprovided`]).
#[derive(Debug, Clone)]
pub(crate) struct Unprovided {
    pub chapter: usize,
    /// The heading meant as the provider's (an index into the chapter's headings, see
    /// `owner_heading`); none when no heading above the claims reads as a provider's.
    pub heading: Option<usize>,
    /// A spec chapter that lacks its provider's heading.
    pub spec: bool,
    /// The claims' shortcodes, in document order.
    pub claims: Vec<Range<usize>>,
}

/// A provider section, from an `.provider` heading to the next heading of its level or higher.
#[derive(Debug, Clone)]
pub(crate) struct Provider {
    /// Its name (the heading's first code span, else its text).
    pub name: String,
    /// The chapter it is in.
    pub chapter: usize,
    /// The heading's id.
    pub anchor: String,
    /// The heading's range.
    pub range: Range<usize>,
    /// The section's range.
    pub section: Range<usize>,
    /// Specified but not built yet (`.proposed`, or a spec).
    pub proposed: bool,
    /// Described by a spec chapter (see `specs` in book.toml).
    pub spec: bool,
}

/// "Provider P has profile X on axis A, evidence E": one `{{#profile}}`.
#[derive(Debug, Clone)]
pub(crate) struct Claim {
    /// Index into [`Model::providers`].
    pub provider: usize,
    /// The chapter it is written in.
    pub chapter: usize,
    /// The shortcode's range.
    pub range: Range<usize>,
    /// The axis code as written.
    pub axis: Spanned,
    /// The profile as written.
    pub profile: Spanned,
    /// The evidence: symbols or repository paths.
    pub evidence: Vec<Spanned>,
    /// The id of the heading the claim stands under.
    pub section_anchor: String,
}

impl Claim {
    /// Whether the profile is `unknown`.
    pub(crate) fn is_unknown(&self) -> bool {
        self.profile.text == UNKNOWN_PROFILE
    }
}

/// The place in a template chapter that asks the question of one axis: one `{{#answers}}`.
#[derive(Debug, Clone)]
pub(crate) struct AnswerSite {
    /// The axis code as written.
    pub axis: Spanned,
    /// The chapter.
    pub chapter: usize,
    /// The shortcode's range.
    pub range: Range<usize>,
    /// The heading it stands under (index into the chapter's headings).
    pub heading: Option<usize>,
}

/// Something written that the model cannot take in, for the check named by `check`.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    /// The check that reports it.
    pub check: Check,
    /// The chapter.
    pub chapter: usize,
    /// What to point at.
    pub range: Range<usize>,
    /// What is wrong.
    pub message: String,
}

/// Everything the book says about the contract.
#[derive(Debug, Default)]
pub(crate) struct Model {
    /// Axes in document order, duplicates included.
    pub axes: Vec<Axis>,
    /// The first definition of each code.
    by_code: HashMap<String, usize>,
    /// Providers in document order.
    pub providers: Vec<Provider>,
    /// Claims in document order.
    pub claims: Vec<Claim>,
    /// Answer sites of the template chapters, in document order.
    pub answer_sites: Vec<AnswerSite>,
    /// The `{{#answers}}` of spec chapters, in document order: copies of the template's
    /// answer sites, not answer sites of their own.
    pub spec_sites: Vec<AnswerSite>,
    /// What could not be taken in.
    pub problems: Vec<Problem>,
    /// Headings of the contract chapters that have a kebab-case code and a `Profile` table
    /// in their section but not the class `axis`: axes meant and not defined.
    pub unclassed: Vec<Unclassed>,
    /// Claims outside every provider section, gathered by the heading meant as their
    /// provider's, and spec chapters without a provider heading: one finding each.
    pub unprovided: Vec<Unprovided>,
    /// Claims by provider (an index into `providers`), then by axis code, in document order;
    /// looked up with a borrowed code.
    claims_by: Vec<HashMap<String, Vec<usize>>>,
    /// Claims by chapter and the start of their shortcode.
    claim_at: HashMap<(usize, usize), usize>,
    /// Answer sites by axis code, in document order.
    sites_by_axis: HashMap<String, Vec<usize>>,
}

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
    fn orphan(&mut self, chapter: usize, heading: Option<usize>, claim: Range<usize>) {
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

    /// The claims of provider `provider` (an index into [`Model::providers`]) on axis `code`,
    /// in document order.
    pub(crate) fn claims_of(&self, provider: usize, code: &str) -> impl Iterator<Item = &Claim> {
        self.claims_by
            .get(provider)
            .and_then(|by_code| by_code.get(code))
            .into_iter()
            .flatten()
            .map(|&i| &self.claims[i])
    }

    /// The claim written by the shortcode starting at `start` in chapter `chapter`.
    pub(crate) fn claim_at(&self, chapter: usize, start: usize) -> Option<&Claim> {
        self.claim_at
            .get(&(chapter, start))
            .map(|&i| &self.claims[i])
    }

    /// The answer sites of axis `code`, in document order.
    pub(crate) fn answer_sites_of(&self, code: &str) -> impl Iterator<Item = &AnswerSite> {
        self.sites_by_axis
            .get(code)
            .into_iter()
            .flatten()
            .map(|&i| &self.answer_sites[i])
    }

    /// The axis with `code` (its first definition).
    pub(crate) fn axis(&self, code: &str) -> Option<&Axis> {
        self.by_code.get(code).map(|&i| &self.axes[i])
    }

    /// The codes of all axes, for suggestions.
    pub(crate) fn codes(&self) -> impl Iterator<Item = &str> {
        self.axes.iter().map(|a| a.code.as_str())
    }

    /// The axes without duplicates, in the order of their first definition.
    pub(crate) fn unique_axes(&self) -> impl Iterator<Item = &Axis> {
        self.axes
            .iter()
            .enumerate()
            .filter(|(i, a)| self.by_code.get(&a.code) == Some(i))
            .map(|(_, a)| a)
    }

    /// The providers that have a column in the profile matrix, built ones first, then the
    /// proposed ones (each group in document order). A provider with a spec and a built section
    /// has one column, from the built section; a proposed section beside a spec of its own has
    /// the spec's column.
    pub(crate) fn matrix_providers(&self) -> Vec<(usize, &Provider)> {
        let providers = &self.providers;
        let mut columns: Vec<(usize, &Provider)> = providers
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                if p.spec {
                    !providers
                        .iter()
                        .any(|b| !b.spec && !b.proposed && b.name == p.name)
                } else {
                    !p.proposed || !providers.iter().any(|s| s.spec && s.name == p.name)
                }
            })
            .collect();
        columns.sort_by_key(|(_, p)| p.proposed);
        columns
    }

    fn collect_headings(&mut self, number: usize, chapter: &Chapter<'_>, config: &Config) {
        let headings = &chapter.index.headings;
        let spec = config.is_spec(&chapter.key);
        let mut spec_provider = None;
        for (i, heading) in headings.iter().enumerate() {
            let mut section = section_of(headings, i, chapter.content.len());
            if heading.has_class("axis") {
                self.collect_axis(number, chapter, config, heading, section.clone());
            } else if config.may_define_axes(&chapter.key)
                && let Some((code, _)) = heading.first_code.as_ref().filter(|(c, _)| is_kebab(c))
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
                    continue;
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

    fn collect_axis(
        &mut self,
        number: usize,
        chapter: &Chapter<'_>,
        config: &Config,
        heading: &Heading,
        section: Range<usize>,
    ) {
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
            return;
        }
        let Some((code, code_range)) = heading.first_code.clone() else {
            problem(
                &mut self.problems,
                Check::MalformedSection,
                number,
                heading.range.clone(),
                "an `.axis` heading needs its code as the first code span, a kebab-case word, as in ``### `axis-code` {.axis}``".into(),
            );
            return;
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
            return;
        }
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

    fn read_profiles(&mut self, number: usize, table: &Table, axis: &mut Axis) {
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

/// The claims, answer sites and problems of one chapter's shortcodes.
#[derive(Default)]
struct Shortcodes {
    claims: Vec<Claim>,
    answer_sites: Vec<AnswerSite>,
    spec_sites: Vec<AnswerSite>,
    problems: Vec<Problem>,
    /// Claims outside every provider section: chapter, the heading meant as their provider's,
    /// the shortcode.
    orphans: Vec<(usize, Option<usize>, Range<usize>)>,
}

impl Shortcodes {
    fn of(
        providers: &[Provider],
        number: usize,
        chapter: &Chapter<'_>,
        config: &Config,
    ) -> Shortcodes {
        let mut found = Shortcodes::default();
        let headings = &chapter.index.headings;
        // This chapter's providers, in document order (so sorted by section start).
        let first = providers.partition_point(|p| p.chapter < number);
        let last = providers.partition_point(|p| p.chapter <= number);
        for shortcode in &chapter.scan.shortcodes {
            let at = shortcode.range.start;
            match &shortcode.kind {
                Kind::Profile {
                    axis,
                    profile,
                    evidence,
                } => {
                    let before =
                        first + providers[first..last].partition_point(|p| p.section.start <= at);
                    let provider = (first..before)
                        .rev()
                        .find(|&i| providers[i].section.contains(&at));
                    let Some(provider) = provider else {
                        let owner = owner_heading(headings, at);
                        found.orphans.push((number, owner, shortcode.range.clone()));
                        continue;
                    };
                    let before = headings.partition_point(|h| h.range.start <= at);
                    let section_anchor = headings[before - 1].id.clone();
                    found.claims.push(Claim {
                        provider,
                        chapter: number,
                        range: shortcode.range.clone(),
                        axis: axis.clone(),
                        profile: profile.clone(),
                        evidence: evidence.clone(),
                        section_anchor,
                    });
                }
                Kind::Answers { code } => {
                    if !config.may_hold_answers(&chapter.key) {
                        let message = format!(
                            "`{{{{#answers}}}}` marks a template entry and belongs in the template ({}) or in a filled spec; to make `{}` a spec, add it to `specs` under `[preprocessor.contract]` in book.toml (`mdbook-contract new-spec TYPE` writes a new spec and adds it)",
                            config.template.join(", "),
                            chapter.key
                        );
                        problem(
                            &mut found.problems,
                            Check::MalformedShortcode,
                            number,
                            shortcode.range.clone(),
                            message,
                        );
                        continue;
                    }
                    let before = headings.partition_point(|h| h.range.start <= at);
                    let site = AnswerSite {
                        axis: code.clone(),
                        chapter: number,
                        range: shortcode.range.clone(),
                        heading: before.checked_sub(1),
                    };
                    if config.is_spec(&chapter.key) {
                        found.spec_sites.push(site);
                    } else {
                        found.answer_sites.push(site);
                    }
                }
                Kind::SpecStatus => {
                    if !config.is_spec(&chapter.key) {
                        problem(
                            &mut found.problems,
                            Check::MalformedShortcode,
                            number,
                            shortcode.range.clone(),
                            "`{{#spec-status}}` shows a filled spec's status and belongs in a spec chapter (see `specs` in book.toml)".into(),
                        );
                    }
                }
                Kind::Axis { .. }
                | Kind::AxisTable
                | Kind::ProfileMatrix
                | Kind::Rule { .. }
                | Kind::RuleMatrix => {}
            }
        }
        found
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
