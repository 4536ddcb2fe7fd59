//! `missing-answer`: an axis has no answer site (`{{#answers}}`) in the template, or two.

use super::{Context, Draft};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    if cx.config.template.is_empty() {
        // No chapter has the template role: there is no questionnaire to hold answer sites.
        return;
    }
    for axis in cx.model.unique_axes() {
        let mut sites = cx.model.answer_sites_of(&axis.code);
        let Some(first) = sites.next() else {
            out.push(
                Draft::new(
                    Check::MissingAnswer,
                    axis.chapter,
                    axis.range.clone(),
                    format!(
                        "axis `{}` has no answer site in the template ({})",
                        axis.code,
                        cx.config.template.join(", ")
                    ),
                )
                .help(format!(
                    "add `{{{{#answers {}}}}}` to the template entry that asks this question",
                    axis.code
                )),
            );
            continue;
        };
        for second in sites {
            out.push(
                Draft::new(
                    Check::MissingAnswer,
                    second.chapter,
                    second.range.clone(),
                    format!("axis `{}` has two answer sites in the template", axis.code),
                )
                .related(first.chapter, first.range.clone(), "first answer site here")
                .help("ask each axis in one template entry"),
            );
        }
    }
}
