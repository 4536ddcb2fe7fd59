//! `unknown-claim`: a claim whose profile is `unknown`, for a fact not verified yet. In a spec,
//! an `unknown` answer is an unanswered entry, which `unanswered-entry` reports.

use super::{Context, Draft};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let in_a_spec = |c: &&crate::model::Claim| cx.model.providers[c.provider].spec;
    for claim in cx
        .model
        .claims
        .iter()
        .filter(|c| c.is_unknown() && !in_a_spec(c))
    {
        let provider = &cx.model.providers[claim.provider].name;
        out.push(
            Draft::new(
                Check::UnknownClaim,
                claim.chapter,
                claim.range.clone(),
                format!(
                    "the profile of `{provider}` on axis `{}` is not verified yet",
                    claim.axis.text
                ),
            )
            .help("replace `unknown` with the profile and its evidence once the code is checked"),
        );
    }
}
