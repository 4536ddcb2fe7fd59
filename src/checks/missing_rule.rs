//! `missing-rule`: once the contract has a rule marker, each sentence or list item with MUST
//! (or MUST NOT) in a contract chapter is labelled by one, so that every obligation can be
//! cited. The unit is `must-cite`'s: the innermost list item, else the sentence.

use std::ops::Range;

use super::must_cite::MUST;
use super::{Context, Draft};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    if cx.rules.rules.is_empty() {
        return;
    }
    for (number, chapter) in cx.each_chapter() {
        if !cx.config.is_contract(&chapter.key) {
            continue;
        }
        let labelled: Vec<&Range<usize>> = cx
            .rules
            .rules
            .iter()
            .filter(|r| r.chapter == number)
            .map(|r| &r.text)
            .collect();
        let mut reported: Vec<Range<usize>> = Vec::new();
        for prose in chapter.index.prose_ranges() {
            for m in MUST.find_iter(&chapter.content[prose.clone()]) {
                let at = prose.start + m.start();
                if labelled.iter().any(|r| r.contains(&at)) {
                    continue;
                }
                let unit = super::must_cite::unit_of(chapter, at);
                if reported.contains(&unit)
                    || super::must_cite::defines_keywords(&chapter.content[unit.clone()])
                {
                    continue;
                }
                reported.push(unit);
                // The example is the book's own: the nearest rule above, else the first.
                let example = cx
                    .rules
                    .rules
                    .iter()
                    .rfind(|r| r.chapter == number && r.marker.end <= at)
                    .or_else(|| cx.rules.rules.first())
                    .map_or_else(String::new, |r| {
                        format!(", as `r[{}]` labels its own", r.id)
                    });
                out.push(
                    Draft::new(
                        Check::MissingRule,
                        number,
                        at..at + 4,
                        "this MUST is labelled by no rule marker, so no code or test can cite it",
                    )
                    .help(format!("write a line `r[ID]` directly before its paragraph or list item, with a blank line before the marker{example}")),
                );
            }
        }
    }
}
