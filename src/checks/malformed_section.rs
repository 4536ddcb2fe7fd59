//! `malformed-section`: an `.axis` or `.provider` heading whose section cannot be read, a
//! provider with two sections (or two specs), a spec whose provider's name is not a DNS-1123
//! label, or a spec status that is neither `draft` nor `accepted`.

use std::collections::HashMap;

use super::{Context, Draft, problems};
use crate::model::Provider;
use crate::model::spec::is_dns_label;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    problems(cx, Check::MalformedSection, out);
    without_profile_table(cx, out);
    unclassed(cx, out);
    unprovided(cx, out);
    for problem in &cx.specs.problems {
        out.push(Draft::new(
            problem.check,
            problem.chapter,
            problem.range.clone(),
            problem.message.clone(),
        ));
    }
    // A provider has one section in the book, and may have a spec besides.
    let mut seen: [HashMap<&str, &Provider>; 2] = Default::default();
    for provider in &cx.model.providers {
        twice(&mut seen, provider, out);
        of_provider(cx, provider, out);
    }
}

/// A second section (or spec) of a provider, told at the second with the first as its note;
/// `seen` holds the first sections, then the first specs, by name.
fn twice<'m>(
    seen: &mut [HashMap<&'m str, &'m Provider>; 2],
    provider: &'m Provider,
    out: &mut Vec<Draft>,
) {
    let (seen, what) = if provider.spec {
        (&mut seen[1], "specs")
    } else {
        (&mut seen[0], "sections")
    };
    if let Some(first) = seen.get(provider.name.as_str()).copied() {
        out.push(
            Draft::new(
                Check::MalformedSection,
                provider.chapter,
                provider.range.clone(),
                format!("provider `{}` has two {what}", provider.name),
            )
            .related(first.chapter, first.range.clone(), "the first here"),
        );
    } else {
        seen.insert(provider.name.as_str(), provider);
    }
}

/// What is wrong with one provider's section: proposed both here and in a spec, a misspelt
/// `.proposed`, a spec's name that is no provider type.
fn of_provider(cx: &Context<'_>, provider: &Provider, out: &mut Vec<Draft>) {
    let draft = |message: String| {
        Draft::new(
            Check::MalformedSection,
            provider.chapter,
            provider.range.clone(),
            message,
        )
    };
    let also_specified = cx
        .model
        .providers
        .iter()
        .find(|s| s.spec && s.name == provider.name);
    if let Some(spec) = also_specified.filter(|_| !provider.spec && provider.proposed) {
        out.push(
            draft(format!(
                "provider `{}` is proposed both here and in its spec; the spec is its column in the matrix",
                provider.name
            ))
            .related(spec.chapter, spec.range.clone(), "the spec")
            .help("answer in the spec; the appendix gets the provider's section once it is built"),
        );
    }
    if let Some(class) = misspelt_proposed(cx, provider) {
        out.push(
            draft(format!(
                "provider `{}` has the class `{class}`, which this preprocessor does not know, so it counts as built",
                provider.name
            ))
            .help("write `{.provider .proposed}` for a provider that is specified but not built yet, or drop the class"),
        );
    }
    if provider.spec && !is_dns_label(&provider.name) {
        out.push(
            draft(format!(
                "`{}` is not a provider type: a type is a DNS-1123 label (lowercase letters, digits and `-`, at most 63, starting and ending with a letter or digit)",
                provider.name
            ))
            .help("name the provider by its type, a DNS-1123 label (lowercase letters, digits and `-`), as in ``# `TYPE` spec {.provider .proposed}``"),
        );
    }
}

/// An axis without a `Profile` table, once, with the likely slip (a `Profiles` header) and
/// its claims as notes: every claim on it names a profile it cannot list.
fn without_profile_table(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for axis in cx.model.axes.iter().filter(|a| a.table.is_none()) {
        let code = &axis.code;
        let mut draft = match &axis.near_table {
            Some((header, range)) => Draft::new(
                Check::MalformedSection,
                axis.chapter,
                range.clone(),
                format!(
                    "axis `{code}` has no `Profile` table: the table in its section starts with `{header}`; did you mean `Profile`?"
                ),
            )
            .help("write `Profile` as the first header cell: `| Profile | Meaning |`, and the axis's profiles are its rows"),
            None => Draft::new(
                Check::MalformedSection,
                axis.chapter,
                axis.range.clone(),
                format!("axis `{code}` has no `Profile` table in its section"),
            )
            .help("add a table whose first header cell is `Profile`, one row per profile: `| Profile | Meaning |`, then ``| `name` | what it means |``"),
        };
        for claim in cx.model.claims.iter().filter(|c| c.axis.text == *code) {
            draft = draft.related(claim.chapter, claim.profile.range.clone(), "a claim on it");
        }
        out.push(draft);
    }
}

/// A heading with an axis code and a `Profile` table but not the class `axis`, once, with
/// the fix; the shortcodes that name its code are notes of it, not `unknown-axis` errors.
fn unclassed(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for heading in &cx.model.unclassed {
        let code = &heading.code;
        let slip = heading
            .classes
            .iter()
            .find(|c| crate::util::suggest::edit_distance(c, "axis") <= 2);
        let fix = match slip {
            Some(class) => format!("its class is `{class}`; write `{{.axis}}` instead"),
            None => "add `{.axis}` at its end".to_owned(),
        };
        let mut draft = Draft::new(
            Check::MalformedSection,
            heading.chapter,
            heading.range.clone(),
            format!(
                "this heading has the code `{code}` and a `Profile` table but not the class `axis`, so it defines no axis"
            ),
        )
        .help(format!("{fix}: ``### `{code}` {{.axis}}``"));
        for (number, chapter) in cx.chapters.iter().enumerate() {
            for shortcode in &chapter.scan.shortcodes {
                if shortcode.kind.axis().is_some_and(|c| c.text == *code) {
                    draft = draft.related(number, shortcode.range.clone(), "names it");
                }
            }
        }
        out.push(draft);
    }
}

/// Claims outside every provider section, once per heading meant as their provider's (or
/// per spec chapter without its provider's heading), with the fix and the claims as notes.
/// Claims under no heading that reads as a provider's have none to blame: each is reported
/// where it stands (`malformed-shortcode`).
fn unprovided(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for group in &cx.model.unprovided {
        let chapter = &cx.chapters[group.chapter];
        let heading = group.heading.map(|h| &chapter.index.headings[h]);
        let mut draft = match (heading, group.spec) {
            (_, true) => Draft::new(
                Check::MalformedSection,
                group.chapter,
                heading.map_or(0..0, |h| h.range.clone()),
                "a spec chapter starts with its provider's heading: its type as a code span and the classes `provider` and `proposed`, such as ``# `TYPE` spec {.provider .proposed}``",
            ),
            (Some(heading), false) => {
                let (fix, classes) = match crate::model::provider_slip(heading) {
                    Some(class) if crate::util::suggest::edit_distance(class, "proposed") <= 2 => (
                        format!("its class is `{class}`; write `{{.provider .proposed}}` instead"),
                        "{.provider .proposed}",
                    ),
                    Some(class) => (
                        format!("its class is `{class}`; write `{{.provider}}` instead"),
                        "{.provider}",
                    ),
                    None => ("add `{.provider}` at its end".to_owned(), "{.provider}"),
                };
                let name = heading
                    .first_code
                    .as_ref()
                    .map_or_else(|| heading.text.trim().to_owned(), |(c, _)| format!("`{c}`"));
                let hashes = "#".repeat(usize::from(heading.level));
                let claims = match group.claims.len() {
                    1 => "a claim".to_owned(),
                    n => format!("{n} claims"),
                };
                Draft::new(
                    Check::MalformedSection,
                    group.chapter,
                    heading.range.clone(),
                    format!(
                        "the section of this heading holds {claims} (`{{{{#profile}}}}`), but the heading does not have the class `provider`, so no provider makes them"
                    ),
                )
                .help(format!("{fix}: ``{hashes} {name} {classes}``"))
            }
            (None, false) => {
                for claim in &group.claims {
                    out.push(Draft::new(
                        Check::MalformedShortcode,
                        group.chapter,
                        claim.clone(),
                        "`{{#profile}}` states a provider's claim and belongs inside a `.provider` section",
                    ));
                }
                continue;
            }
        };
        for claim in &group.claims {
            draft = draft.related(group.chapter, claim.clone(), "a claim");
        }
        out.push(draft);
    }
}

/// A class of `provider`'s heading one slip from `proposed` (`propsed`, `proposal`), when the
/// heading lacks `proposed` itself.
fn misspelt_proposed<'c>(cx: &Context<'c>, provider: &Provider) -> Option<&'c str> {
    let heading = cx.chapters[provider.chapter]
        .index
        .headings
        .iter()
        .find(|h| h.range == provider.range)?;
    if heading.has_class("proposed") {
        return None;
    }
    heading
        .classes
        .iter()
        .find(|c| crate::util::suggest::edit_distance(c, "proposed") <= 2)
        .map(String::as_str)
}
