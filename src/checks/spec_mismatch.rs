//! `spec-mismatch`: a provider that has both an accepted spec and a built section in the
//! appendix, where the appendix's claim on an axis names another profile than the spec's
//! answer. A deliberate change updates the spec; an accidental one fixes the code or the
//! appendix.

use super::{Context, Draft};
use crate::model::spec::Status;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for spec in cx
        .specs
        .specs
        .iter()
        .filter(|s| s.status == Status::Accepted)
    {
        let Some(specified) = spec.provider else {
            continue;
        };
        let name = &cx.model.providers[specified].name;
        let built = cx
            .model
            .providers
            .iter()
            .position(|p| !p.spec && !p.proposed && p.name == *name);
        let Some(built) = built else {
            continue;
        };
        for axis in cx.model.unique_axes() {
            let known = |provider: usize| {
                cx.model
                    .claims_of(provider, &axis.code)
                    .find(|c| !c.is_unknown())
            };
            let (Some(answer), Some(claim)) = (known(specified), known(built)) else {
                continue;
            };
            if answer.profile.text == claim.profile.text {
                continue;
            }
            out.push(
                Draft::new(
                    Check::SpecMismatch,
                    claim.chapter,
                    claim.profile.range.clone(),
                    format!(
                        "provider `{name}` is `{}` on `{}` here, but its accepted spec answers `{}`",
                        claim.profile.text, axis.code, answer.profile.text
                    ),
                )
                .related(answer.chapter, answer.profile.range.clone(), "the spec's answer")
                .help("if the provider changed on purpose, change the spec too; otherwise fix the provider or this claim"),
            );
        }
    }
}
