//! A chapter's shortcodes read into the model: each `{{#profile}}` a claim of the provider
//! whose section holds it (or an orphan, with the heading meant as its provider's), each
//! `{{#answers}}` an answer site of the template or of a spec. A new shortcode that states
//! something about a provider is read here, in [`Shortcodes::of`].

use std::ops::Range;

use super::{owner_heading, problem};
use crate::model::{AnswerSite, Claim, Problem, Provider};
use crate::read::chapter::Chapter;
use crate::read::config::Config;
use crate::read::shortcode::Kind;
use crate::util::vocab::Check;

/// The claims, answer sites and problems of one chapter's shortcodes.
#[derive(Default)]
pub(super) struct Shortcodes {
    pub(super) claims: Vec<Claim>,
    pub(super) answer_sites: Vec<AnswerSite>,
    pub(super) spec_sites: Vec<AnswerSite>,
    pub(super) problems: Vec<Problem>,
    /// Claims outside every provider section: chapter, the heading meant as their provider's,
    /// the shortcode.
    pub(super) orphans: Vec<(usize, Option<usize>, Range<usize>)>,
}

impl Shortcodes {
    pub(super) fn of(
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
                Kind::Profile { .. } => {
                    let mine = &providers[first..last];
                    let before = first + mine.partition_point(|p| p.section.start <= at);
                    let provider = (first..before)
                        .rev()
                        .find(|&i| providers[i].section.contains(&at));
                    match provider {
                        Some(provider) => found.claim(provider, number, chapter, shortcode),
                        None => {
                            let owner = owner_heading(headings, at);
                            found.orphans.push((number, owner, shortcode.range.clone()));
                        }
                    }
                }
                Kind::Answers { code } => {
                    found.answers(
                        code.clone(),
                        number,
                        chapter,
                        config,
                        shortcode.range.clone(),
                    );
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

    /// The claim `{{#profile ...}}` (`shortcode`) of `provider`, in chapter `number`.
    fn claim(
        &mut self,
        provider: usize,
        number: usize,
        chapter: &Chapter<'_>,
        shortcode: &crate::read::shortcode::Shortcode,
    ) {
        let Kind::Profile {
            axis,
            profile,
            evidence,
        } = &shortcode.kind
        else {
            return;
        };
        let headings = &chapter.index.headings;
        let before = headings.partition_point(|h| h.range.start <= shortcode.range.start);
        self.claims.push(Claim {
            provider,
            chapter: number,
            range: shortcode.range.clone(),
            axis: axis.clone(),
            profile: profile.clone(),
            evidence: evidence.clone(),
            section_anchor: headings[before - 1].id.clone(),
        });
    }

    /// An answer site `{{#answers CODE}}` at `range`: in the template or a spec, else a
    /// problem.
    fn answers(
        &mut self,
        code: crate::read::shortcode::Spanned,
        number: usize,
        chapter: &Chapter<'_>,
        config: &Config,
        range: Range<usize>,
    ) {
        if !config.may_hold_answers(&chapter.key) {
            let message = format!(
                "`{{{{#answers}}}}` marks a template entry and belongs in the template ({}) or in a filled spec; to make `{}` a spec, add it to `specs` under `[preprocessor.contract]` in book.toml (`mdbook-contract new-spec TYPE` writes a new spec and adds it)",
                config.template.join(", "),
                chapter.key
            );
            problem(
                &mut self.problems,
                Check::MalformedShortcode,
                number,
                range,
                message,
            );
            return;
        }
        let headings = &chapter.index.headings;
        let before = headings.partition_point(|h| h.range.start <= range.start);
        let site = AnswerSite {
            axis: code,
            chapter: number,
            range,
            heading: before.checked_sub(1),
        };
        if config.is_spec(&chapter.key) {
            self.spec_sites.push(site);
        } else {
            self.answer_sites.push(site);
        }
    }
}
