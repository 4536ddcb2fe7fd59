//! `malformed-section`: an `.axis` or `.provider` heading whose section cannot be read.

use super::{Context, Draft, problems};

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    problems(cx, "malformed-section", out);
    let mut seen: std::collections::HashMap<&str, &crate::model::Provider> =
        std::collections::HashMap::new();
    for provider in &cx.model.providers {
        if let Some(first) = seen.get(provider.name.as_str()).copied() {
            out.push(
                Draft::new(
                    "malformed-section",
                    provider.chapter,
                    provider.range.clone(),
                    format!("provider `{}` has two sections", provider.name),
                )
                .related(first.chapter, first.range.clone(), "first section here"),
            );
        } else {
            seen.insert(provider.name.as_str(), provider);
        }
    }
}
