//! `unanswered-entry`: an entry of a filled spec that is not answered yet: no answer, no
//! profile (or `unknown`) for one of the axes the template's entry asks, or an answer without
//! evidence. One finding per entry, naming everything it lacks, at the first place to fill. A
//! warning in a draft; in an accepted spec an error, since unanswered entries block
//! implementation.

use super::{Context, Draft};
use crate::model::spec::{Status, Unanswered, where_to_fill};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for spec in &cx.specs.specs {
        let accepted = spec.status == Status::Accepted;
        for (entry, why) in spec.unanswered(cx.model, cx.specs) {
            let Some(first) = why.first() else {
                continue;
            };
            let (range, help) = where_to_fill(entry, first);
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
