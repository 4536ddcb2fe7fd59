//! What the brief copies and in which order: per axis the profile the spec chose and the built
//! providers that chose it too, the parts of chapters to copy (the spec, the checklist, the
//! examples' sections and known gaps, the contract), and the heading ids they bring.

use std::ops::Range;

use super::Writer;
use crate::model::spec::identity;
use crate::model::{Axis, section_of};
use crate::read::markdown::ChapterIndex;

/// The profile the spec chose on an axis, and the built providers that chose it too, each with
/// the id of the section that holds its claim.
pub(super) struct Choice<'m> {
    pub(super) axis: &'m Axis,
    pub(super) profile: Option<&'m str>,
    pub(super) same: Vec<(usize, String)>,
}

/// A part of a chapter copied into the brief.
pub(super) struct Part {
    /// The chapter (an index into the rendered chapters).
    pub(super) chapter: usize,
    /// Its bytes in the chapter's rendered content.
    pub(super) range: Range<usize>,
    /// The prefix of its headings' ids.
    pub(super) prefix: &'static str,
    /// How many levels its headings move down.
    pub(super) shift: u8,
}

/// What the brief copies, in the order it copies it.
pub(super) struct Plan {
    /// The filled spec.
    pub(super) spec: Part,
    /// The contract's checklist for adding a provider, if it has one.
    pub(super) checklist: Option<Part>,
    /// Per example provider, its sections that hold the matching claims and its known gaps.
    pub(super) examples: Vec<(usize, Vec<Part>)>,
    /// The example providers whose section has no known-gaps sub-section.
    pub(super) without_gaps: Vec<String>,
    /// The whole contract.
    pub(super) contract: Vec<Part>,
}

impl<'r> Writer<'r> {
    /// Whether `part` starts at the heading of provider `p`'s section.
    pub(super) fn is_provider_heading(&self, part: &Part, p: usize) -> bool {
        let anchor = &self.rendered.model.providers[p].anchor;
        self.index(part.chapter)
            .headings
            .iter()
            .any(|h| h.id == *anchor && h.range.start == part.range.start)
    }

    /// Per axis the profile the spec chose and the built providers that chose it too; and per
    /// such provider, in order, the anchors of the sections that hold those claims.
    pub(super) fn choices(&self, provider: usize) -> (Vec<Choice<'r>>, Vec<(usize, Vec<String>)>) {
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
    pub(super) fn plan(&self, examples: &[(usize, Vec<String>)]) -> Plan {
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
    pub(super) fn collect_ids(&mut self, plan: &Plan, chosen: &[Choice<'_>]) {
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
}
