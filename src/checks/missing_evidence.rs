//! `missing-evidence`: a claim of a built (not proposed) provider cites no evidence.

use super::{Context, Draft};
use crate::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for claim in &cx.model.claims {
        let provider = &cx.model.providers[claim.provider];
        if provider.proposed || claim.is_unknown() || !claim.evidence.is_empty() {
            continue;
        }
        out.push(
            Draft::new(
                Check::MissingEvidence,
                claim.chapter,
                claim.range.clone(),
                format!("the claim of `{}` on axis `{}` cites no evidence", provider.name, claim.axis.text),
            )
            .help(format!(
                "name the symbol or path that shows it: `{{{{#profile {} {} path/to/file.go Type.Method}}}}`",
                claim.axis.text, claim.profile.text
            )),
        );
    }
}
