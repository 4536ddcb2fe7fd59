//! `malformed-section`: an `.axis` or `.provider` heading whose section cannot be read.

use super::{Context, Draft, problems};
use crate::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    problems(cx, Check::MalformedSection, out);
    let mut seen: std::collections::HashMap<&str, &crate::model::Provider> =
        std::collections::HashMap::new();
    for provider in &cx.model.providers {
        if let Some(first) = seen.get(provider.name.as_str()).copied() {
            out.push(
                Draft::new(
                    Check::MalformedSection,
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
