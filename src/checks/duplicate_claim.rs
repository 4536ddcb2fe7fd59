//! `duplicate-claim`: a provider claims one axis twice.

use super::{Context, Draft};

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let claims = &cx.model.claims;
    for (i, claim) in claims.iter().enumerate() {
        let first = claims[..i]
            .iter()
            .find(|c| c.provider == claim.provider && c.axis.0 == claim.axis.0);
        if let Some(first) = first {
            let provider = &cx.model.providers[claim.provider].name;
            out.push(
                Draft::new(
                    "duplicate-claim",
                    claim.chapter,
                    claim.range.clone(),
                    format!("provider `{provider}` claims axis `{}` twice", claim.axis.0),
                )
                .related(first.chapter, first.range.clone(), "first claim here")
                .help("keep one claim per axis; the profile matrix shows the first"),
            );
        }
    }
}
