//! What changed of the axes and their profiles, and the renames that the other comparisons
//! read the BASE side through ([`Renames`]).

use super::{Act, Change, act, change, kinds, words};
use crate::pipeline::snapshot::{AxisSnap, Place, ProfileSnap, Snapshot};

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

/// The providers built on `s`, with their headings' places.
fn built(s: &Snapshot) -> Vec<(String, Place)> {
    s.providers
        .iter()
        .filter(|p| p.built)
        .map(|p| (p.name.clone(), p.place.clone()))
        .collect()
}

/// What changed of the axes and their profiles, into `out`; the renames, for the comparisons
/// that follow.
pub(super) fn axes(base: &Snapshot, head: &Snapshot, out: &mut Vec<Change>) -> Renames {
    let removed: Vec<&AxisSnap> = base
        .axes
        .iter()
        .filter(|a| head.axis(&a.code).is_none())
        .collect();
    let added: Vec<&AxisSnap> = head
        .axes
        .iter()
        .filter(|a| base.axis(&a.code).is_none())
        .collect();
    let mut renames = Renames {
        axes: renamed_axes(&removed, &added, out),
        profiles: Vec::new(),
    };
    let renamed = &renames.axes;
    for old in removed
        .iter()
        .filter(|a| !renamed.iter().any(|(o, _)| *o == a.code))
    {
        out.push(axis_removed(base, old));
    }
    for new in added
        .iter()
        .filter(|a| !renamed.iter().any(|(_, n)| *n == a.code))
    {
        out.push(axis_added(head, new));
    }
    // Profiles, on axes on both sides (a renamed axis under its new code).
    for old in &base.axes {
        let Some(new) = head.axis(renames.axis(&old.code)) else {
            continue;
        };
        let renamed = profiles(base, head, old, new, out);
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
    renames
}

/// The removed axes that an added one stands for (the same question and profile names), as
/// `(BASE code, HEAD code)`, each said in `out`.
fn renamed_axes(
    removed: &[&AxisSnap],
    added: &[&AxisSnap],
    out: &mut Vec<Change>,
) -> Vec<(String, String)> {
    let names = |a: &AxisSnap| {
        a.profiles
            .iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
    };
    let mut renamed: Vec<(String, String)> = Vec::new();
    for old in removed {
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
    renamed
}

/// An axis gone from HEAD: each claim on it is to be dropped.
fn axis_removed(base: &Snapshot, old: &AxisSnap) -> Change {
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
    change(
        kinds::AxisRemoved,
        format!("axis `{}` was removed", old.code),
        &old.place,
        false,
        acts,
    )
}

/// An axis new in HEAD: each built provider is to claim a profile, each spec to answer it.
fn axis_added(head: &Snapshot, new: &AxisSnap) -> Change {
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
    change(
        kinds::AxisAdded,
        format!("axis `{}` was added: {}", new.code, words(&new.question)),
        &new.place,
        true,
        acts,
    )
}

/// The built providers of `s` that claim `profile` on `axis`, at their claims.
fn claimed_at(s: &Snapshot, axis: &str, profile: &str) -> Vec<(String, Place)> {
    s.providers
        .iter()
        .filter(|p| p.built)
        .flat_map(|p| p.claims.iter().map(move |c| (p, c)))
        .filter(|(_, c)| c.axis == axis && c.profile == profile)
        .map(|(p, c)| (p.name.clone(), c.place.clone()))
        .collect()
}

/// What changed of the profiles of an axis on both sides; the renamed profiles, as
/// `(BASE name, HEAD name)`.
fn profiles(
    base: &Snapshot,
    head: &Snapshot,
    old: &AxisSnap,
    new: &AxisSnap,
    out: &mut Vec<Change>,
) -> Vec<(String, String)> {
    let gone: Vec<&ProfileSnap> = old
        .profiles
        .iter()
        .filter(|p| new.profile(&p.name).is_none())
        .collect();
    let fresh: Vec<&ProfileSnap> = new
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
        out.push(profile_removed(base, head, old, new, p));
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
        if let Some(n) = new.profile(&p.name) {
            profile_changed(head, new, p, n, out);
        }
    }
    renamed
}

/// A profile gone from an axis: who claimed it chooses another, who relied on it stops.
fn profile_removed(
    base: &Snapshot,
    head: &Snapshot,
    old: &AxisSnap,
    new: &AxisSnap,
    p: &ProfileSnap,
) -> Change {
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
    change(
        kind,
        format!("profile `{}` of `{}` was removed", p.name, new.code),
        &new.place,
        true,
        acts,
    )
}

/// What changed of one profile on both sides: what it obliges, means and who tolerates it.
fn profile_changed(
    head: &Snapshot,
    new: &AxisSnap,
    p: &ProfileSnap,
    n: &ProfileSnap,
    out: &mut Vec<Change>,
) {
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
