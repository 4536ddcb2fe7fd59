//! What changed of the axes and their profiles, and the renames that the other comparisons
//! read the BASE side through ([`Renames`]).

use super::providers::{anchors, claims, specs_and_entries};
use super::rules::rules;
use super::{Act, Change, act, change, kinds, words};
use crate::snapshot::{Place, Snapshot};

/// The axes and profiles that HEAD calls by other names than BASE.
#[derive(Default)]
pub(super) struct Renames {
    /// Each renamed axis: its code at BASE, and at HEAD.
    axes: Vec<(String, String)>,
    /// Each renamed profile: its axis's code at HEAD, its name at BASE, and at HEAD.
    profiles: Vec<(String, String, String)>,
}

impl Renames {
    /// The HEAD code of the BASE axis `code`.
    pub(super) fn axis<'a>(&'a self, code: &'a str) -> &'a str {
        self.axes
            .iter()
            .find(|(from, _)| from == code)
            .map_or(code, |(_, to)| to)
    }

    /// The HEAD name of the BASE profile `name` of the HEAD axis `axis`.
    pub(super) fn profile<'a>(&'a self, axis: &str, name: &'a str) -> &'a str {
        self.profiles
            .iter()
            .find(|(on, from, _)| on == axis && from == name)
            .map_or(name, |(_, _, to)| to)
    }

    /// A BASE rule's `applies=` in HEAD's names.
    pub(super) fn applies(&self, applies: &Option<(String, String)>) -> Option<(String, String)> {
        applies.as_ref().map(|(axis, profile)| {
            let axis = self.axis(axis);
            (axis.to_owned(), self.profile(axis, profile).to_owned())
        })
    }
}

/// Every difference between `base` and `head`.
pub(crate) fn compare(base: &Snapshot, head: &Snapshot) -> Vec<Change> {
    let mut out = Vec::new();
    let built = |s: &Snapshot| -> Vec<(String, Place)> {
        s.providers
            .iter()
            .filter(|p| p.built)
            .map(|p| (p.name.clone(), p.place.clone()))
            .collect()
    };
    // Axes: a HEAD axis with the question and the profile names of a removed one is a rename.
    let removed: Vec<_> = base
        .axes
        .iter()
        .filter(|a| head.axis(&a.code).is_none())
        .collect();
    let added: Vec<_> = head
        .axes
        .iter()
        .filter(|a| base.axis(&a.code).is_none())
        .collect();
    let mut renames = Renames::default();
    let renamed = &mut renames.axes;
    for old in &removed {
        let names = |a: &crate::snapshot::AxisSnap| {
            a.profiles
                .iter()
                .map(|p| p.name.clone())
                .collect::<Vec<_>>()
        };
        if let Some(new) = added
            .iter()
            .filter(|n| !renamed.iter().any(|(_, taken)| *taken == n.code))
            .find(|n| {
                // Without a question, equal profile names alone say too little for a rename.
                !old.question.trim().is_empty()
                    && words(&n.question) == words(&old.question)
                    && names(n) == names(old)
            })
        {
            renamed.push((old.code.clone(), new.code.clone()));
            out.push(change(
                kinds::AxisRenamed,
                format!("axis `{}` is now `{}`", old.code, new.code),
                &new.place,
                true,
                Vec::new(),
            ));
        }
    }
    for old in removed
        .iter()
        .filter(|a| !renamed.iter().any(|(o, _)| *o == a.code))
    {
        let acts = base
            .providers
            .iter()
            .flat_map(|p| p.claims.iter().map(move |c| (p, c)))
            .filter(|(_, c)| c.axis == old.code)
            .map(|(p, c)| {
                act(
                    format!("`{}`", p.name),
                    &c.place,
                    format!("drop the claim `{}` on `{}`", c.profile, old.code),
                )
            })
            .collect();
        out.push(change(
            kinds::AxisRemoved,
            format!("axis `{}` was removed", old.code),
            &old.place,
            false,
            acts,
        ));
    }
    for new in added
        .iter()
        .filter(|a| !renamed.iter().any(|(_, n)| *n == a.code))
    {
        let mut acts: Vec<Act> = built(head)
            .into_iter()
            .map(|(name, place)| {
                act(
                    format!("`{name}`"),
                    &place,
                    format!("add a claim on `{}`", new.code),
                )
            })
            .collect();
        for spec in &head.specs {
            acts.push(act(
                format!("the spec of `{}`", spec.provider),
                &spec.place,
                format!("answer `{}`", new.code),
            ));
        }
        out.push(change(
            kinds::AxisAdded,
            format!("axis `{}` was added: {}", new.code, words(&new.question)),
            &new.place,
            true,
            acts,
        ));
    }
    // Profiles, on axes on both sides (a renamed axis under its new code).
    for old in &base.axes {
        let Some(new) = head.axis(renames.axis(&old.code)) else {
            continue;
        };
        let renamed = profiles(base, head, old, new, &mut out);
        renames.profiles.extend(
            renamed
                .into_iter()
                .map(|(from, to)| (new.code.clone(), from, to)),
        );
        if words(&old.question) != words(&new.question) && old.code == new.code {
            out.push(change(
                kinds::AxisQuestionChanged,
                format!("the question of axis `{}` changed", new.code),
                &new.place,
                true,
                Vec::new(),
            ));
        }
    }
    rules(base, head, &renames, &mut out);
    claims(base, head, &renames, &mut out);
    specs_and_entries(base, head, &mut out);
    anchors(base, head, &mut out);
    out
}

fn profiles(
    base: &Snapshot,
    head: &Snapshot,
    old: &crate::snapshot::AxisSnap,
    new: &crate::snapshot::AxisSnap,
    out: &mut Vec<Change>,
) -> Vec<(String, String)> {
    let claimed_at = |s: &Snapshot, axis: &str, profile: &str| -> Vec<(String, Place)> {
        s.providers
            .iter()
            .filter(|p| p.built)
            .flat_map(|p| p.claims.iter().map(move |c| (p, c)))
            .filter(|(_, c)| c.axis == axis && c.profile == profile)
            .map(|(p, c)| (p.name.clone(), c.place.clone()))
            .collect()
    };
    let gone: Vec<_> = old
        .profiles
        .iter()
        .filter(|p| new.profile(&p.name).is_none())
        .collect();
    let fresh: Vec<_> = new
        .profiles
        .iter()
        .filter(|p| old.profile(&p.name).is_none())
        .collect();
    let mut renamed = Vec::new();
    for p in &gone {
        if let Some(n) = fresh
            .iter()
            .find(|n| !p.meaning.is_empty() && words(&n.meaning) == words(&p.meaning))
        {
            renamed.push((p.name.clone(), n.name.clone()));
            out.push(change(
                kinds::ProfileRenamed,
                format!("profile `{}` of `{}` is now `{}`", p.name, new.code, n.name),
                &n.place,
                true,
                Vec::new(),
            ));
            continue;
        }
        let claimed = claimed_at(base, &old.code, &p.name);
        // The callers that tolerated it, as its row said.
        let tolerated = if p.tolerated_by.is_empty() {
            Vec::new()
        } else {
            vec![act(
                format!("callers: {}", words(&p.tolerated_by)),
                &p.place,
                format!("stop relying on `{}`", p.name),
            )]
        };
        let (kind, mut acts) = if claimed.is_empty() {
            (kinds::ProfileRemoved, Vec::new())
        } else {
            // At the claim as HEAD has it, while it is still there.
            let still = claimed_at(head, &new.code, &p.name);
            let acts = claimed
                .into_iter()
                .map(|(name, place)| {
                    let at = still
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map_or(place, |(_, p)| p.clone());
                    act(
                        format!("`{name}`"),
                        &at,
                        format!("choose another profile of `{}`", new.code),
                    )
                })
                .collect();
            (kinds::ProfileRemovedClaimed, acts)
        };
        acts.extend(tolerated);
        out.push(change(
            kind,
            format!("profile `{}` of `{}` was removed", p.name, new.code),
            &new.place,
            true,
            acts,
        ));
    }
    for n in fresh
        .iter()
        .filter(|n| !renamed.iter().any(|(_, to)| *to == n.name))
    {
        out.push(change(
            kinds::ProfileAdded,
            format!("profile `{}` was added to `{}`", n.name, new.code),
            &n.place,
            true,
            Vec::new(),
        ));
    }
    for p in &old.profiles {
        let Some(n) = new.profile(&p.name) else {
            continue;
        };
        let with = claimed_at(head, &new.code, &n.name);
        let reread = |what: &str| -> Vec<Act> {
            with.iter()
                .map(|(name, place)| act(format!("`{name}`"), place, what.to_owned()))
                .collect()
        };
        if words(&p.obliges) != words(&n.obliges) {
            out.push(change(
                kinds::ProfileObligesChanged,
                format!(
                    "what `{}` of `{}` obliges changed: \"{}\" is now \"{}\"",
                    n.name,
                    new.code,
                    words(&p.obliges),
                    words(&n.obliges)
                ),
                &n.place,
                true,
                reread("check the provider against the new obligation"),
            ));
        }
        if words(&p.meaning) != words(&n.meaning) {
            out.push(change(
                kinds::ProfileMeaningChanged,
                format!("the meaning of `{}` of `{}` changed", n.name, new.code),
                &n.place,
                true,
                reread("read the new meaning"),
            ));
        }
        if words(&p.tolerated_by) != words(&n.tolerated_by) {
            out.push(change(
                kinds::ProfileToleratedByChanged,
                format!(
                    "who tolerates `{}` of `{}` changed: \"{}\" is now \"{}\"",
                    n.name,
                    new.code,
                    words(&p.tolerated_by),
                    words(&n.tolerated_by)
                ),
                &n.place,
                true,
                Vec::new(),
            ));
        }
    }
    renamed
}
