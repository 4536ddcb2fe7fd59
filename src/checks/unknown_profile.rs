//! `unknown-profile`: a claim names a profile its axis does not list.

use super::{Context, Draft};
use crate::model::UNKNOWN_PROFILE;
use crate::util::suggest;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for claim in &cx.model.claims {
        // Without a `Profile` table, `malformed-section` reports the axis with this claim.
        let Some(axis) = cx
            .model
            .axis(&claim.axis.text)
            .filter(|a| a.table.is_some())
        else {
            continue;
        };
        let (profile, range) = (&claim.profile.text, &claim.profile.range);
        if claim.is_unknown() || axis.profile(profile).is_some() {
            continue;
        }
        let names = axis.profiles.iter().map(|p| p.name.as_str());
        let hint = suggest::hint(profile, names.clone());
        let listed: Vec<String> = names.map(|n| format!("`{n}`")).collect();
        let help = if listed.is_empty() {
            format!(
                "axis `{}` lists no profiles yet: its `Profile` table has no rows; `{UNKNOWN_PROFILE}` marks a fact not verified yet",
                axis.code
            )
        } else {
            format!(
                "the profiles of `{}` are {}; `{UNKNOWN_PROFILE}` marks a fact not verified yet",
                axis.code,
                listed.join(", ")
            )
        };
        out.push(
            Draft::new(
                Check::UnknownProfile,
                claim.chapter,
                range.clone(),
                format!("axis `{}` has no profile `{profile}`{hint}", axis.code),
            )
            .help(help)
            .related(axis.chapter, axis.range.clone(), "axis defined here"),
        );
    }
}
