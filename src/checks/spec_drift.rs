//! `spec-drift`: a filled spec that has fallen behind the template. Every entry of the template
//! must be in the spec once, in the template's order, with every `{{#answers}}` the template's
//! entry has and no other; an entry the template does not have, and a claim written in the
//! entry of another axis, are drift too. So when the contract gains an axis and the template
//! its answer site, every spec says what it now lacks.

use std::collections::HashMap;

use super::{Context, Draft};
use crate::model::spec::{Entry, Spec};
use crate::util::suggest;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let template = &cx.specs.template;
    if template.is_empty() {
        return;
    }
    for spec in &cx.specs.specs {
        let seen = entries_against_template(spec, template, out);
        lacking_entries(cx, spec, &seen, out);
        // A claim answers the axis of the entry it stands in.
        if let Some(provider) = spec.provider {
            misplaced_claims(cx, spec, provider, out);
        }
    }
}

/// Reports each entry of the spec the template lacks, has once already, or orders earlier,
/// and each answer site it differs in; returns the entries seen, by name.
fn entries_against_template<'a>(
    spec: &'a Spec,
    template: &[Entry],
    out: &mut Vec<Draft>,
) -> HashMap<&'a str, &'a Entry> {
    let mut seen: HashMap<&str, &Entry> = HashMap::new();
    let mut furthest: Option<usize> = None;
    for entry in &spec.entries {
        let Some(at) = template.iter().position(|t| t.name == entry.name) else {
            let hint = suggest::hint(&entry.title, template.iter().map(|t| t.title.as_str()));
            out.push(
                Draft::new(
                    Check::SpecDrift,
                    spec.chapter,
                    entry.range.clone(),
                    format!("entry `{}` is not in the template{hint}", entry.title),
                )
                .help("name the entry as the template does, or remove it"),
            );
            continue;
        };
        if let Some(first) = seen.get(entry.name.as_str()) {
            out.push(
                Draft::new(
                    Check::SpecDrift,
                    spec.chapter,
                    entry.range.clone(),
                    format!("entry `{}` is in the spec twice", entry.title),
                )
                .related(first.chapter, first.range.clone(), "first here")
                .help("keep one answer per entry"),
            );
            continue;
        }
        seen.insert(&entry.name, entry);
        if let Some(before) = furthest.filter(|&f| at < f) {
            out.push(
                Draft::new(
                    Check::SpecDrift,
                    spec.chapter,
                    entry.range.clone(),
                    format!(
                        "entry `{}` comes after `{}` here, but before it in the template",
                        entry.title, template[before].title
                    ),
                )
                .help("keep the template's order, so that the spec and the template read side by side"),
            );
        }
        furthest = furthest.max(Some(at));
        answer_sites_against_template(spec, entry, &template[at], out);
    }
    seen
}

/// Reports each `{{#answers}}` the template's entry `asked` has and the spec's `entry` lacks,
/// then each the entry has and the template's does not.
fn answer_sites_against_template(spec: &Spec, entry: &Entry, asked: &Entry, out: &mut Vec<Draft>) {
    for axis in &asked.axes {
        if !entry.axes.iter().any(|a| a.text == axis.text) {
            out.push(
                Draft::new(
                    Check::SpecDrift,
                    spec.chapter,
                    entry.range.clone(),
                    format!(
                        "entry `{}` lacks `{{{{#answers {}}}}}`, which the template's entry has",
                        entry.title, axis.text
                    ),
                )
                .related(asked.chapter, axis.range.clone(), "the template's answer site")
                .help(format!(
                    "copy `{{{{#answers {code}}}}}` into the entry and answer it with `{{{{#profile {code} PROFILE}}}}`",
                    code = axis.text
                )),
            );
        }
    }
    for axis in &entry.axes {
        if !asked.axes.iter().any(|a| a.text == axis.text) {
            out.push(
                Draft::new(
                    Check::SpecDrift,
                    spec.chapter,
                    axis.range.clone(),
                    format!(
                        "`{{{{#answers {}}}}}` is not asked in the template's entry `{}`",
                        axis.text, asked.title
                    ),
                )
                .help("ask each axis where the template does"),
            );
        }
    }
}

/// Reports each entry of the template not among the spec's entries `seen`, at the top of the
/// spec's provider.
fn lacking_entries(
    cx: &Context<'_>,
    spec: &Spec,
    seen: &HashMap<&str, &Entry>,
    out: &mut Vec<Draft>,
) {
    let top = spec
        .provider
        .map_or(0..0, |p| cx.model.providers[p].range.clone());
    for entry in &cx.specs.template {
        if !seen.contains_key(entry.name.as_str()) {
            let axes: Vec<String> = entry
                .axes
                .iter()
                .map(|a| format!("`{{{{#answers {}}}}}`", a.text))
                .collect();
            let with = if axes.is_empty() {
                String::new()
            } else {
                format!(" (with {})", axes.join(", "))
            };
            out.push(
                Draft::new(
                    Check::SpecDrift,
                    spec.chapter,
                    top.clone(),
                    format!(
                        "the spec lacks the template's entry `{}`{with}",
                        entry.title
                    ),
                )
                .related(entry.chapter, entry.range.clone(), "the template's entry")
                .help("copy the entry from the template, then answer it"),
            );
        }
    }
}

/// Reports each claim of `provider` written in an entry of the spec whose template entry does
/// not ask the claim's axis.
fn misplaced_claims(cx: &Context<'_>, spec: &Spec, provider: usize, out: &mut Vec<Draft>) {
    for claim in cx.model.claims.iter().filter(|c| c.provider == provider) {
        let Some(entry) = spec
            .entries
            .iter()
            .find(|e| e.body.contains(&claim.range.start))
        else {
            continue;
        };
        let Some(asked) = cx.specs.template_entry(&entry.name) else {
            continue;
        };
        if asked.axes.iter().any(|a| a.text == claim.axis.text) {
            continue;
        }
        let Some(home) = cx.specs.entry_of_axis(&claim.axis.text) else {
            continue;
        };
        out.push(
            Draft::new(
                Check::SpecDrift,
                spec.chapter,
                claim.range.clone(),
                format!(
                    "this claim answers `{}`, which the template asks in entry `{}`, not in `{}`",
                    claim.axis.text, home.title, entry.title
                ),
            )
            .help("move the claim to the entry that asks its axis"),
        );
    }
}
