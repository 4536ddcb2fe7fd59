//! `missing-claim`: a provider has no claim for some axis. A spec's provider is left to
//! `unanswered-entry`, which says which entry of the spec answers the axis.
//!
//! When one of the provider's claims names an axis that does not exist but is close to the
//! missing one (a typo, which `unknown-axis` reports), the finding points at that claim too.

use super::{Context, Draft};
use crate::util::suggest;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (index, provider) in cx.model.providers.iter().enumerate() {
        if provider.spec {
            continue;
        }
        for axis in cx.model.unique_axes() {
            let claimed = cx.model.claims_of(index, &axis.code).next().is_some();
            if claimed {
                continue;
            }
            let mut draft = Draft::new(
                Check::MissingClaim,
                provider.chapter,
                provider.range.clone(),
                format!(
                    "provider `{}` has no claim for axis `{}`",
                    provider.name, axis.code
                ),
            )
            .help(format!(
                "add `{{{{#profile {code} PROFILE EVIDENCE}}}}` to its section, or `{{{{#profile {code} unknown}}}}` until it is verified",
                code = axis.code
            ));
            let mistyped = cx.model.claims.iter().find(|c| {
                c.provider == index
                    && cx.model.axis(&c.axis.text).is_none()
                    && suggest::did_you_mean(&c.axis.text, [axis.code.as_str()]).is_some()
            });
            if let Some(claim) = mistyped {
                draft = draft.related(
                    claim.chapter,
                    claim.axis.range.clone(),
                    "a claim of this provider names an axis that does not exist, perhaps meant for this one",
                );
            }
            out.push(draft);
        }
    }
}
