//! Filled specs: the template's entries, and each spec chapter's status, entries and answers.
//!
//! An *entry* is a heading of the template whose own body (up to the next heading, of any
//! level) holds a paragraph that begins with `**Answer:**`; its identity is its heading text
//! without leading numbering, compared case-insensitively. A spec chapter (`specs` in
//! book.toml) is a filled copy of the template: [`Specs::collect`] finds its `**Status:**`, its
//! entries by the same identity, their answers and evidence, and the claims written in each.
//! What is unanswered is worked out once, here ([`Spec::unanswered`]), for the
//! `unanswered-entry` check, the `{{#spec-status}}` box, the matrix and `mdbook-contract
//! status`. To extend the entry format, extend [`Part`] and its reading in `entries_of`.

use std::ops::Range;

use crate::model::{AnswerSite, Claim, Model, Problem, UNKNOWN_PROFILE};
use crate::read::chapter::Chapter;
use crate::read::config::Config;
use crate::read::markdown::Heading;
use crate::read::shortcode::Spanned;
use crate::util::vocab::Check;

/// The label that opens an entry's answer.
pub(crate) const ANSWER: &str = "**Answer:**";
/// The label that opens an entry's evidence.
pub(crate) const EVIDENCE: &str = "**Evidence:**";
/// The label of a spec's status paragraph.
pub(crate) const STATUS: &str = "**Status:**";

/// The answer or the evidence of an entry: the paragraph that begins with its label, and the
/// blocks after it up to the next part or heading.
#[derive(Debug, Clone)]
pub(crate) struct Part {
    /// The label.
    pub(crate) label: Range<usize>,
    /// Whether what follows the label holds nothing but white space.
    pub(crate) empty: bool,
}

/// An entry of the template or of a spec.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// The chapter.
    pub(crate) chapter: usize,
    /// Its heading's text, trimmed, as rendered.
    pub(crate) title: String,
    /// Its identity (see the module docs).
    pub(crate) name: String,
    /// Its heading's id.
    pub(crate) anchor: String,
    /// Its heading's range.
    pub(crate) range: Range<usize>,
    /// From the end of its heading to the next heading.
    pub(crate) body: Range<usize>,
    /// The axes its `{{#answers}}` ask, in order.
    pub(crate) axes: Vec<Spanned>,
    /// Its answer, if it has the paragraph.
    pub(crate) answer: Option<Part>,
    /// Its evidence, if it has the paragraph.
    pub(crate) evidence: Option<Part>,
}

/// Where a spec stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// Being filled: unanswered entries are warnings.
    Draft,
    /// Accepted: unanswered entries block implementation, and fail the build.
    Accepted,
}

impl Status {
    /// The word of the `**Status:**` line.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Draft => "draft",
            Status::Accepted => "accepted",
        }
    }
}

/// One spec chapter.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    /// The chapter.
    pub(crate) chapter: usize,
    /// Its provider (an index into [`Model::providers`]), when its heading was found.
    pub(crate) provider: Option<usize>,
    /// Its status (draft when it says none).
    pub(crate) status: Status,
    /// Its entries, in document order: every heading that is a template entry by name, and
    /// every other heading with an `**Answer:**` paragraph.
    pub(crate) entries: Vec<Entry>,
}

/// Why an entry of a spec is not answered yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unanswered {
    /// It has no `**Answer:**` paragraph.
    NoAnswerLine,
    /// Its answer is empty.
    NoAnswer,
    /// It claims no profile for this axis of the template's entry.
    NoClaim(String),
    /// Its claim on this axis is `unknown`.
    Unknown(String, Range<usize>),
    /// Its claim on this axis names a profile the axis does not list: the axis, the profile
    /// as written, its range, and the did-you-mean (`; did you mean `x`?`, or empty).
    NotAProfile(String, String, Range<usize>, String),
    /// It is answered, but its evidence is empty (or it has no `**Evidence:**` paragraph).
    NoEvidence,
}

impl Unanswered {
    /// What is missing, for a reader.
    pub(crate) fn describe(&self) -> String {
        match self {
            Unanswered::NoAnswerLine => "no `**Answer:**` line".to_owned(),
            Unanswered::NoAnswer => "no answer yet".to_owned(),
            Unanswered::NoClaim(axis) => format!("no profile for `{axis}`"),
            Unanswered::Unknown(axis, _) => format!("`{axis}` left `{UNKNOWN_PROFILE}`"),
            Unanswered::NotAProfile(axis, profile, _, hint) => {
                format!("`{axis}` has no profile `{profile}`{hint}")
            }
            Unanswered::NoEvidence => "answered without evidence".to_owned(),
        }
    }
}

/// The template's entries and the specs.
#[derive(Debug, Default)]
pub(crate) struct Specs {
    /// The entries of the template chapters, in document order.
    pub(crate) template: Vec<Entry>,
    /// The spec chapters, in document order.
    pub(crate) specs: Vec<Spec>,
    /// What could not be read (a status that is neither `draft` nor `accepted`).
    pub(crate) problems: Vec<Problem>,
}

impl Specs {
    /// Reads the template's entries and every spec chapter.
    pub(crate) fn collect(chapters: &[Chapter<'_>], model: &Model, config: &Config) -> Specs {
        let mut specs = Specs::default();
        for (number, chapter) in chapters.iter().enumerate() {
            if config.is_template(&chapter.key) {
                let entries = entries_of(number, chapter, &model.answer_sites, |_| false);
                specs.template.extend(entries);
            }
        }
        for (number, chapter) in chapters.iter().enumerate() {
            if !config.is_spec(&chapter.key) {
                continue;
            }
            let names: Vec<&str> = specs.template.iter().map(|e| e.name.as_str()).collect();
            let entries = entries_of(number, chapter, &model.spec_sites, |name| {
                names.contains(&name)
            });
            let provider = model
                .providers
                .iter()
                .position(|p| p.spec && p.chapter == number);
            let first_entry = entries
                .first()
                .map_or(chapter.content.len(), |e| e.range.start);
            let status = status_of(number, chapter, first_entry, &mut specs.problems);
            specs.specs.push(Spec {
                chapter: number,
                provider,
                status,
                entries,
            });
        }
        specs
    }

    /// The template entry called `name`.
    pub(crate) fn template_entry(&self, name: &str) -> Option<&Entry> {
        self.template.iter().find(|e| e.name == name)
    }

    /// The template entry that asks `axis`.
    pub(crate) fn entry_of_axis(&self, axis: &str) -> Option<&Entry> {
        self.template
            .iter()
            .find(|e| e.axes.iter().any(|a| a.text == axis))
    }
}

impl Spec {
    /// Every entry of the template this spec answers, with why it is not answered yet (empty
    /// when it is), in the order of the spec; template entries the spec lacks are not here
    /// (`spec-drift` reports them).
    pub(crate) fn unanswered<'s>(
        &'s self,
        model: &Model,
        specs: &Specs,
    ) -> Vec<(&'s Entry, Vec<Unanswered>)> {
        let mut out = Vec::new();
        for entry in &self.entries {
            let Some(asked) = specs.template_entry(&entry.name) else {
                continue;
            };
            // An empty answer lacks everything; what a written one lacks is said in detail.
            let why = match &entry.answer {
                None => vec![Unanswered::NoAnswerLine],
                Some(answer) if answer.empty => vec![Unanswered::NoAnswer],
                Some(_) => self.incomplete(entry, asked, model),
            };
            out.push((entry, why));
        }
        out
    }

    /// What the written answer of `entry` (a copy of the template's `asked`) lacks: a known
    /// profile for each axis it asks, and evidence.
    fn incomplete(&self, entry: &Entry, asked: &Entry, model: &Model) -> Vec<Unanswered> {
        let mut why = Vec::new();
        for axis in &asked.axes {
            let claim = self.provider.and_then(|p| {
                model
                    .claims_of(p, &axis.text)
                    .find(|c| c.chapter == self.chapter && entry.body.contains(&c.range.start))
            });
            match claim {
                None => why.push(Unanswered::NoClaim(axis.text.clone())),
                Some(claim) if claim.is_unknown() => {
                    why.push(Unanswered::Unknown(axis.text.clone(), claim.range.clone()))
                }
                Some(claim) if !model.answers(claim) => why.push(not_a_profile(claim, model)),
                Some(_) => {}
            }
        }
        if entry.evidence.as_ref().is_none_or(|e| e.empty) {
            why.push(Unanswered::NoEvidence);
        }
        why
    }
}

/// Why `claim`, whose profile its axis does not list, leaves its entry open.
fn not_a_profile(claim: &Claim, model: &Model) -> Unanswered {
    let hint = model.axis(&claim.axis.text).map_or(String::new(), |axis| {
        crate::util::suggest::hint(
            &claim.profile.text,
            axis.profiles.iter().map(|p| p.name.as_str()),
        )
    });
    Unanswered::NotAProfile(
        claim.axis.text.clone(),
        claim.profile.text.clone(),
        claim.profile.range.clone(),
        hint,
    )
}

/// Whether `name` is a DNS-1123 label, as Kubernetes names (and this operator's provider types)
/// are.
pub(crate) fn is_dns_label(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 63
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && bytes.first().is_some_and(u8::is_ascii_alphanumeric)
        && bytes.last().is_some_and(u8::is_ascii_alphanumeric)
}

/// The identity of an entry: its heading text without leading numbering (`1.`, `2.3`, `4)`),
/// What the book calls a spec, from its template's title: "Backend spec template" gives
/// "backend spec", "Provider spec template" "provider spec"; a title without "template" in it
/// gives "spec".
pub(crate) fn spec_kind(template: &str) -> String {
    let title = template
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(|t| t.split(" {").next().unwrap_or(t).trim())
        .unwrap_or("");
    let lower = title.to_lowercase();
    match lower
        .strip_suffix(" template")
        .or_else(|| lower.strip_suffix("template"))
    {
        Some(kind) if !kind.trim().is_empty() && !kind.contains('`') => kind.trim().to_owned(),
        _ => "spec".to_owned(),
    }
}

/// What the book calls a provider, from what it calls a spec: "backend spec" gives
/// "backend"; "spec" alone gives "provider".
pub(crate) fn provider_noun(kind: &str) -> String {
    match kind.strip_suffix(" spec") {
        Some(noun) if !noun.trim().is_empty() => noun.trim().to_owned(),
        _ => "provider".to_owned(),
    }
}

/// white space collapsed, lowercase.
pub(crate) fn identity(title: &str) -> String {
    let mut words: Vec<&str> = title.split_whitespace().collect();
    let numbering = |w: &str| {
        !w.is_empty()
            && w.trim_end_matches(['.', ')'])
                .split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    if words.first().is_some_and(|w| numbering(w)) {
        words.remove(0);
    }
    words.join(" ").to_lowercase()
}

/// The entries of `chapter`: headings whose own body holds an `**Answer:**` paragraph, and
/// headings that `known` names (a spec's copy of a template entry that lost its answer line is
/// still that entry). `sites` are the `{{#answers}}` of the book, to give each entry its axes.
fn entries_of(
    number: usize,
    chapter: &Chapter<'_>,
    sites: &[AnswerSite],
    known: impl Fn(&str) -> bool,
) -> Vec<Entry> {
    let content = chapter.content;
    let headings = &chapter.index.headings;
    let mut entries = Vec::new();
    for (i, heading) in headings.iter().enumerate() {
        let end = headings.get(i + 1).map_or(content.len(), |h| h.range.start);
        let body = heading.range.end..end;
        let answer = part(chapter, &body, ANSWER, None);
        let name = identity(&heading.text);
        if answer.is_none() && !known(&name) || is_provider(heading) {
            continue;
        }
        let evidence = part(chapter, &body, EVIDENCE, None);
        // The answer runs up to the evidence, when that follows it.
        let answer = answer.map(|a| match &evidence {
            Some(e) if e.label.start > a.label.start => {
                part(chapter, &body, ANSWER, Some(e.label.start)).unwrap_or(a)
            }
            _ => a,
        });
        let axes = sites
            .iter()
            .filter(|s| s.chapter == number && body.contains(&s.range.start))
            .map(|s| s.axis.clone())
            .collect();
        entries.push(Entry {
            chapter: number,
            title: heading.text.trim().to_owned(),
            name,
            anchor: heading.id.clone(),
            range: heading.range.clone(),
            body,
            axes,
            answer,
            evidence,
        });
    }
    entries
}

fn is_provider(heading: &Heading) -> bool {
    heading.has_class("provider") || heading.has_class("proposed")
}

/// The part of `body` that begins with the paragraph opening with `label`, up to `until` (or
/// the end of the body).
fn part(
    chapter: &Chapter<'_>,
    body: &Range<usize>,
    label: &str,
    until: Option<usize>,
) -> Option<Part> {
    let content = chapter.content;
    let paragraph = chapter
        .index
        .paragraphs
        .iter()
        .find(|p| body.contains(&p.start) && content[p.start..p.end].starts_with(label))?;
    let label = paragraph.start..paragraph.start + label.len();
    let end = until.unwrap_or(body.end).max(label.end);
    let empty = content[label.end..end].trim().is_empty();
    Some(Part { label, empty })
}

/// The status of a spec chapter: its `**Status:**` paragraph before the first entry (`end`).
fn status_of(
    number: usize,
    chapter: &Chapter<'_>,
    end: usize,
    problems: &mut Vec<Problem>,
) -> Status {
    let content = chapter.content;
    let Some(paragraph) = chapter
        .index
        .paragraphs
        .iter()
        .find(|p| p.start < end && content[p.start..p.end].starts_with(STATUS))
    else {
        return Status::Draft;
    };
    let value = content[paragraph.start + STATUS.len()..paragraph.end].trim();
    let word = value.trim_end_matches('.');
    match word.to_ascii_lowercase().as_str() {
        "draft" => Status::Draft,
        "accepted" => Status::Accepted,
        _ => {
            problems.push(Problem {
                check: Check::MalformedSection,
                chapter: number,
                range: paragraph.clone(),
                message: format!(
                    "the status of a spec is `draft` or `accepted`, not `{value}`; it is read as `draft`"
                ),
            });
            Status::Draft
        }
    }
}

/// Where to fill what `reason` says is missing, and how: the one place `unanswered-entry` and
/// `status` name for an open entry.
pub(crate) fn where_to_fill(entry: &Entry, reason: &Unanswered) -> (Range<usize>, String) {
    let answer = entry
        .answer
        .as_ref()
        .map_or(entry.range.clone(), |a| a.label.clone());
    match reason {
        Unanswered::NoAnswerLine => (
            entry.range.clone(),
            "copy the entry's `**Answer:**` and `**Evidence:**` lines from the template, then answer them".to_owned(),
        ),
        Unanswered::NoAnswer => (
            answer,
            "write the answer after `**Answer:**` (with `{{#profile CODE PROFILE}}` for each axis the entry asks), or \"not applicable\" and why".to_owned(),
        ),
        Unanswered::NoClaim(axis) => (
            answer,
            format!("answer with `{{{{#profile {axis} PROFILE}}}}`, one of the profiles listed in the entry"),
        ),
        Unanswered::Unknown(axis, claim) => (
            claim.clone(),
            format!("replace `unknown` with the profile of `{axis}` the backend has, once it is known"),
        ),
        Unanswered::NotAProfile(axis, profile, range, hint) => (
            range.clone(),
            format!("replace `{profile}` with a profile `{axis}` lists{hint}"),
        ),
        Unanswered::NoEvidence => (
            entry
                .evidence
                .as_ref()
                .map_or(entry.range.clone(), |e| e.label.clone()),
            "say what the answer rests on after `**Evidence:**`: the API reference, a documented limit, an experiment".to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::identity;

    #[test]
    fn identities_drop_numbering_and_case() {
        assert_eq!(
            identity("Network and IP discovery"),
            "network and ip discovery"
        );
        assert_eq!(
            identity("  3.2  Network and   IP discovery "),
            "network and ip discovery"
        );
        assert_eq!(identity("4) Create"), "create");
        assert_eq!(identity("1. Identity"), "identity");
        assert_eq!(identity("2026 plans"), "plans");
        assert_eq!(identity("Create 2"), "create 2");
    }
}
