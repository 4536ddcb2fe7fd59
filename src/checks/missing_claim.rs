//! `missing-claim`: a provider has no claim for some axis.

use super::{Context, Draft};
use crate::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (index, provider) in cx.model.providers.iter().enumerate() {
        for axis in cx.model.unique_axes() {
            let claimed = cx.model.claims_of(index, &axis.code).next().is_some();
            if claimed {
                continue;
            }
            out.push(
                Draft::new(
                    Check::MissingClaim,
                    provider.chapter,
                    provider.range.clone(),
                    format!("provider `{}` has no claim for axis `{}`", provider.name, axis.code),
                )
                .help(format!(
                    "add `{{{{#profile {code} PROFILE EVIDENCE}}}}` to its section, or `{{{{#profile {code} unknown}}}}` until it is verified",
                    code = axis.code
                )),
            );
        }
    }
}
