//! `malformed-section`: an `.axis` or `.provider` heading whose section cannot be read.

use super::{Context, Draft, problems};

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    problems(cx, "malformed-section", out);
    for (i, provider) in cx.model.providers.iter().enumerate() {
        if let Some(first) = cx.model.providers[..i]
            .iter()
            .find(|p| p.name == provider.name)
        {
            out.push(
                Draft::new(
                    "malformed-section",
                    provider.chapter,
                    provider.range.clone(),
                    format!("provider `{}` has two sections", provider.name),
                )
                .related(first.chapter, first.range.clone(), "first section here"),
            );
        }
    }
}
