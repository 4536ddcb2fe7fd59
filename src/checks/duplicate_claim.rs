//! `duplicate-claim`: a provider claims one axis twice.

use super::{Context, Draft};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for claim in &cx.model.claims {
        let first = cx.model.claims_of(claim.provider, &claim.axis.text).next();
        if let Some(first) =
            first.filter(|first| first.range != claim.range || first.chapter != claim.chapter)
        {
            let provider = &cx.model.providers[claim.provider].name;
            out.push(
                Draft::new(
                    Check::DuplicateClaim,
                    claim.chapter,
                    claim.range.clone(),
                    format!(
                        "provider `{provider}` claims axis `{}` twice",
                        claim.axis.text
                    ),
                )
                .related(first.chapter, first.range.clone(), "first claim here")
                .help("keep one claim per axis; the profile matrix shows the first"),
            );
        }
    }
}
