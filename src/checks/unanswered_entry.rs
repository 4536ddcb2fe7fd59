//! `unanswered-entry`: an entry of a filled spec that is not answered yet: no answer, no
//! profile (or `unknown`) for one of the axes the template's entry asks, or an answer without
//! evidence. One finding per entry, naming everything it lacks, at the first place to fill. A
//! warning in a draft; in an accepted spec an error, since unanswered entries block
//! implementation.

use super::{Context, Draft};
use crate::spec::{Entry, Status, Unanswered};
use crate::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for spec in &cx.specs.specs {
        let accepted = spec.status == Status::Accepted;
        for (entry, why) in spec.unanswered(cx.model, cx.specs) {
            let Some(first) = why.first() else {
                continue;
            };
            let (range, help) = place(entry, first);
            let reasons: Vec<String> = why.iter().map(Unanswered::describe).collect();
            let state = if accepted {
                "; the spec is accepted, and unanswered entries block implementation"
            } else {
                ""
            };
            out.push(
                Draft::new(
                    Check::UnansweredEntry,
                    spec.chapter,
                    range,
                    format!("entry `{}`: {}{state}", entry.title, reasons.join(", ")),
                )
                .help(help)
                .blocking(accepted),
            );
        }
    }
}

/// Where to fill what `reason` says is missing, and how.
fn place(entry: &Entry, reason: &Unanswered) -> (std::ops::Range<usize>, String) {
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
        Unanswered::NoEvidence => (
            entry
                .evidence
                .as_ref()
                .map_or(entry.range.clone(), |e| e.label.clone()),
            "say what the answer rests on after `**Evidence:**`: the API reference, a documented limit, an experiment".to_owned(),
        ),
    }
}
