//! The contract as the book states it: axes, profiles, providers, claims and answer sites.
//!
//! [`Model::collect`] reads every chapter's [`ChapterIndex`](crate::read::markdown::ChapterIndex) and shortcodes once, in document
//! order, and records what is written, duplicates and dangling names included; deciding what is
//! wrong with it is the job of `checks`, and turning it into Markdown the job of `render`. What
//! cannot even be recorded (an `.axis` heading without a code, a claim outside any provider)
//! goes into [`Model::problems`] for the check named there.
//!
//! This file holds the model's types and what the stages ask of it; `collect/` reads it from
//! the chapters, `spec.rs` the filled specs against the template, `rules/` the rules and their
//! coverage.

mod collect;
pub(crate) mod rules;
pub(crate) mod spec;

use std::collections::HashMap;
use std::ops::Range;

use crate::read::shortcode::Spanned;
use crate::util::vocab::Check;

pub(crate) use collect::{provider_slip, section_of};

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

    /// Whether `claim` answers its axis: with a profile the axis lists. `unknown` and a
    /// profile the axis does not list (a typo, which `unknown-profile` reports) answer
    /// nothing; on an axis without a readable `Profile` table every profile is taken.
    pub(crate) fn answers(&self, claim: &Claim) -> bool {
        !claim.is_unknown()
            && self.axis(&claim.axis.text).is_none_or(|axis| {
                axis.table.is_none() || axis.profile(&claim.profile.text).is_some()
            })
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
}
