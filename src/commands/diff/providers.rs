//! What changed of the providers and their claims, the specs and the template's entries, and
//! the pages and heading ids that links from outside the book land on.

use super::axes::Renames;
use super::{Change, act, change, kinds};
use crate::pipeline::snapshot::{ProviderSnap, Snapshot, SpecSnap};

pub(super) fn claims(base: &Snapshot, head: &Snapshot, renames: &Renames, out: &mut Vec<Change>) {
    for (i, new) in head.providers.iter().enumerate() {
        // A name may head two sections of one kind (two appendix sections, say): the k-th of
        // them is compared with the k-th the base had, never both with the first.
        let same = |p: &&ProviderSnap| p.name == new.name && p.built == new.built;
        let k = head.providers[..i].iter().filter(same).count();
        let Some(old) = base.providers.iter().filter(same).nth(k).or_else(|| {
            (k == 0)
                .then(|| base.providers.iter().find(|p| p.name == new.name))
                .flatten()
        }) else {
            out.push(change(
                kinds::ProviderAdded,
                format!("provider `{}` was added", new.name),
                &new.place,
                true,
                Vec::new(),
            ));
            continue;
        };
        if new.built && !old.built {
            out.push(change(
                kinds::ProviderBuilt,
                format!("provider `{}` is built now", new.name),
                &new.place,
                true,
                Vec::new(),
            ));
        }
        claims_of(old, new, renames, out);
    }
    for (i, old) in base.providers.iter().enumerate() {
        let same = |p: &&ProviderSnap| p.name == old.name && p.built == old.built;
        let k = base.providers[..i].iter().filter(same).count();
        let kept = if k == 0 {
            head.providers.iter().any(|p| p.name == old.name)
        } else {
            head.providers.iter().filter(same).count() > k
        };
        if kept {
            continue;
        }
        out.push(change(
            kinds::ProviderRemoved,
            format!("provider `{}` was removed", old.name),
            &old.place,
            false,
            Vec::new(),
        ));
    }
}

/// The claims of a provider in both revisions: a profile changed (or an unknown one
/// resolved), or the evidence.
fn claims_of(old: &ProviderSnap, new: &ProviderSnap, renames: &Renames, out: &mut Vec<Change>) {
    for (i, c) in new.claims.iter().enumerate() {
        // A provider may claim an axis twice (`duplicate-claim` says so): the k-th claim
        // on an axis is compared with the k-th it had, never two of one side with one.
        let k = new.claims[..i].iter().filter(|o| o.axis == c.axis).count();
        let Some(was) = old
            .claims
            .iter()
            .filter(|o| renames.axis(&o.axis) == c.axis)
            .nth(k)
        else {
            continue;
        };
        if renames.profile(&c.axis, &was.profile) != c.profile {
            let kind = if was.profile == crate::model::UNKNOWN_PROFILE {
                kinds::ClaimResolved
            } else {
                kinds::ClaimChanged
            };
            out.push(change(
                kind,
                format!(
                    "`{}` on `{}`: `{}` is now `{}`",
                    new.name, c.axis, was.profile, c.profile
                ),
                &c.place,
                true,
                Vec::new(),
            ));
        } else if was.evidence != c.evidence {
            out.push(change(
                kinds::ClaimEvidenceChanged,
                format!("`{}` on `{}`: the evidence changed", new.name, c.axis),
                &c.place,
                true,
                Vec::new(),
            ));
        }
    }
}

pub(super) fn specs_and_entries(base: &Snapshot, head: &Snapshot, out: &mut Vec<Change>) {
    for new in &head.specs {
        if let Some(old) = base.specs.iter().find(|s| s.provider == new.provider) {
            spec_changed(old, new, out);
        }
    }
    entries(base, head, out);
}

/// A spec in both revisions: its status, the entries it answers now and those it no longer
/// answers.
fn spec_changed(old: &SpecSnap, new: &SpecSnap, out: &mut Vec<Change>) {
    if old.status != new.status {
        out.push(change(
            kinds::SpecStatusChanged,
            format!(
                "the spec of `{}` is {} now (was {})",
                new.provider, new.status, old.status
            ),
            &new.place,
            true,
            Vec::new(),
        ));
    }
    let answered = only_in(&new.answered, &old.answered);
    if !answered.is_empty() {
        out.push(change(
            kinds::SpecEntriesAnswered,
            format!(
                "the spec of `{}` answers {} more: {}",
                new.provider,
                answered.len(),
                quoted(&answered)
            ),
            &new.place,
            true,
            Vec::new(),
        ));
    }
    let reopened = only_in(&old.answered, &new.answered);
    if !reopened.is_empty() {
        out.push(change(
            kinds::SpecEntriesReopened,
            format!(
                "the spec of `{}` no longer answers: {}",
                new.provider,
                quoted(&reopened)
            ),
            &new.place,
            true,
            Vec::new(),
        ));
    }
}

/// The entries of `these` that `those` lacks, in order.
fn only_in<'s>(these: &'s [String], those: &[String]) -> Vec<&'s String> {
    these.iter().filter(|e| !those.contains(e)).collect()
}

/// `"a", "b"`.
fn quoted(entries: &[&String]) -> String {
    entries
        .iter()
        .map(|e| format!("\"{e}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The template's entries added (every spec must answer them) and removed.
fn entries(base: &Snapshot, head: &Snapshot, out: &mut Vec<Change>) {
    for new in head
        .entries
        .iter()
        .filter(|e| !base.entries.iter().any(|o| o.title == e.title))
    {
        let acts = head
            .specs
            .iter()
            .map(|s| {
                act(
                    format!("the spec of `{}`", s.provider),
                    &s.place,
                    format!("answer \"{}\"", new.title),
                )
            })
            .collect();
        out.push(change(
            kinds::EntryAdded,
            format!("template entry \"{}\" was added", new.title),
            &new.place,
            true,
            acts,
        ));
    }
    for old in base
        .entries
        .iter()
        .filter(|e| !head.entries.iter().any(|n| n.title == e.title))
    {
        out.push(change(
            kinds::EntryRemoved,
            format!("template entry \"{}\" was removed", old.title),
            &old.place,
            false,
            Vec::new(),
        ));
    }
}

pub(super) fn anchors(base: &Snapshot, head: &Snapshot, out: &mut Vec<Change>) {
    for old in &base.pages {
        let Some(new) = head.pages.iter().find(|p| p.page == old.page) else {
            // Where its content went: the HEAD page that has most of its ids.
            let to = head
                .pages
                .iter()
                .max_by_key(|p| p.ids.iter().filter(|id| old.ids.contains(id)).count())
                .filter(|p| p.ids.iter().any(|id| old.ids.contains(id)));
            let hint = match to {
                Some(p) => format!(
                    "; `[output.html.redirect]` `\"/{}\" = \"{}\"` keeps its links working",
                    old.page, p.page
                ),
                None => String::new(),
            };
            out.push(change(
                kinds::PageRemoved,
                format!("page `{}` is gone{hint}", old.page),
                &old.place,
                false,
                Vec::new(),
            ));
            continue;
        };
        for id in old.ids.iter().filter(|id| !new.ids.contains(id)) {
            out.push(change(
                kinds::AnchorRemoved,
                format!(
                    "`{}#{id}` is gone: links to it from outside the book land at the top of the page",
                    new.page
                ),
                &new.place,
                true,
                Vec::new(),
            ));
        }
    }
}
