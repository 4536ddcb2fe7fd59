//! What changed of the rules: added, removed, tightened, loosened, revised, reworded, and
//! whom their `applies=` binds.

use super::axes::Renames;
use super::{Act, Change, Level, act, callers, change, keyword, kinds, words};
use crate::model::rules::marker;
use crate::model::rules::strength;
use crate::pipeline::snapshot::{Place, RuleSnap, Snapshot};

/// The rules of `base` gone from `head` that are one of `head`'s new rules under another ID:
/// the same words, version and `applies=` (through the axes' and profiles' renames),
/// and no other rule of either side the same. Each pair: the old rule, the new.
fn renamed<'s>(
    base: &'s Snapshot,
    head: &'s Snapshot,
    renames: &Renames,
) -> Vec<(&'s RuleSnap, &'s RuleSnap)> {
    let gone: Vec<&RuleSnap> = base
        .rules
        .iter()
        .filter(|r| head.rule(&r.id).is_none())
        .collect();
    let new: Vec<&RuleSnap> = head
        .rules
        .iter()
        .filter(|r| base.rule(&r.id).is_none())
        .collect();
    // The same words under a new ID: its level may change with it (told as its own change).
    let same = |old: &RuleSnap, new: &RuleSnap| {
        without_keywords(&old.text) == without_keywords(&new.text)
            && old.version == new.version
            && renames.applies(&old.applies) == new.applies
    };
    gone.iter()
        .filter_map(|old| {
            let mut matches = new.iter().filter(|n| same(old, n));
            let only = matches.next()?;
            let unique =
                matches.next().is_none() && gone.iter().filter(|o| same(o, only)).count() == 1;
            unique.then_some((*old, *only))
        })
        .collect()
}

/// The words of a rule's text without its RFC 2119 keywords, which a level change rewrites.
fn without_keywords(text: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "MUST",
        "SHOULD",
        "MAY",
        "SHALL",
        "NOT",
        "REQUIRED",
        "RECOMMENDED",
        "OPTIONAL",
    ];
    words(text)
        .split(' ')
        .filter(|w| !KEYWORDS.contains(&w.trim_matches(|c: char| !c.is_alphanumeric())))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The built providers of `s` that a rule applying to `applies` binds.
fn bound(s: &Snapshot, applies: &Option<(String, String)>) -> Vec<(String, Place)> {
    s.providers
        .iter()
        .filter(|p| p.built)
        .filter(|p| match applies {
            None => true,
            Some((axis, profile)) => p
                .claims
                .iter()
                .any(|c| c.axis == *axis && c.profile == *profile),
        })
        .map(|p| (p.name.clone(), p.place.clone()))
        .collect()
}

pub(super) fn rules(base: &Snapshot, head: &Snapshot, renames: &Renames, out: &mut Vec<Change>) {
    let renamed = renamed(base, head, renames);
    for old in base.rules.iter().filter(|r| head.rule(&r.id).is_none()) {
        if let Some((_, new)) = renamed.iter().find(|(o, _)| o.id == old.id) {
            out.push(change(
                kinds::RuleRenamed,
                format!("rule `{}` was renamed `{}`", old.id, new.id),
                &new.place,
                true,
                rename_acts(head, old, new),
            ));
            level_changed(base, old, new, &bound(head, &new.applies), out);
            continue;
        }
        let acts = callers_act(&old.text, &old.place, base);
        out.push(change(
            kinds::RuleRemoved,
            format!("rule `{}` was removed", old.id),
            &old.place,
            false,
            acts,
        ));
    }
    for new in head.rules.iter().filter(|r| base.rule(&r.id).is_none()) {
        if !renamed.iter().any(|(_, n)| n.id == new.id) {
            out.push(added(head, new));
        }
    }
    for old in &base.rules {
        let Some(new) = head.rule(&old.id) else {
            continue;
        };
        let binds = bound(head, &new.applies);
        level_changed(base, old, new, &binds, out);
        if renames.applies(&old.applies) != new.applies {
            out.push(change(
                kinds::RuleAppliesChanged,
                format!("rule `{}` applies to other providers now", new.id),
                &new.place,
                true,
                each_bound(
                    &binds,
                    format!("meet it, and verify it (`{}`)", verify(new)),
                ),
            ));
        }
        out.extend(text_changed(old, new, &binds));
    }
}

/// What a rename asks: each citation of the old ID that HEAD's source tree still has, updated
/// (the same rule: nothing else to do); without a source tree read, the code that cites it.
fn rename_acts(head: &Snapshot, old: &RuleSnap, new: &RuleSnap) -> Vec<Act> {
    let instead = format!(
        "cite `{}` instead (the same rule: nothing else to do)",
        marker::cited(&new.id, new.version)
    );
    let citing: Vec<Act> = head
        .cited
        .iter()
        .filter(|(id, _)| *id == old.id)
        .map(|(_, place)| act(format!("the citation at `{place}`"), place, instead.clone()))
        .collect();
    if !citing.is_empty() {
        return citing;
    }
    vec![act(
        format!(
            "code that cites `r[... {}]`",
            marker::cited(&old.id, old.version)
        ),
        &new.place,
        instead,
    )]
}

/// The citation that verifies `rule` at its version.
fn verify(rule: &RuleSnap) -> String {
    format!("r[verify {}]", marker::cited(&rule.id, rule.version))
}

/// The same act for each provider in `binds`.
fn each_bound(binds: &[(String, Place)], what: String) -> Vec<Act> {
    binds
        .iter()
        .map(|(name, place)| act(format!("`{name}`"), place, what.clone()))
        .collect()
}

/// A rule of HEAD that the base did not have: breaking when it obliges a built provider, who
/// must then meet it and cite it.
fn added(head: &Snapshot, new: &RuleSnap) -> Change {
    let binds = bound(head, &new.applies);
    let obliges = strength(new.level) >= 1;
    let kind = if obliges && !binds.is_empty() {
        kinds::RuleAdded
    } else {
        kinds::RuleAddedNonBinding
    };
    let acts = if kind.level == Level::Major {
        let what = format!(
            "meet it, and cite `{}` in the test that verifies it",
            verify(new)
        );
        each_bound(&binds, what)
    } else {
        Vec::new()
    };
    change(
        kind,
        format!("rule `{}` ({}) was added", new.id, keyword(new.level)),
        &new.place,
        true,
        acts,
    )
}

/// A rule's keyword raised (the providers it binds must meet it) or lowered (the code its text
/// names may no longer count on it).
fn level_changed(
    base: &Snapshot,
    old: &RuleSnap,
    new: &RuleSnap,
    binds: &[(String, Place)],
    out: &mut Vec<Change>,
) {
    let (was, now) = (old.level, new.level);
    let message = || {
        format!(
            "rule `{}` is {} now (was {})",
            new.id,
            keyword(now),
            keyword(was)
        )
    };
    if strength(now) > strength(was) {
        let acts = each_bound(binds, format!("meet it, and verify it (`{}`)", verify(new)));
        out.push(change(
            kinds::RuleTightened,
            message(),
            &new.place,
            true,
            acts,
        ));
    } else if strength(now) < strength(was) {
        let acts = callers_act(&old.text, &new.place, base);
        out.push(change(
            kinds::RuleLoosened,
            message(),
            &new.place,
            true,
            acts,
        ));
    }
}

/// A rule's version raised (revised: every citation of the old one is stale), or else its
/// text changed: in spaces only, or in words without a new version.
fn text_changed(old: &RuleSnap, new: &RuleSnap, binds: &[(String, Place)]) -> Option<Change> {
    // A raised version is a revision whatever the text did.
    if new.version > old.version {
        return Some(change(
            kinds::RuleRevised,
            format!(
                "rule `{}` was revised (version {} to {})",
                new.id, old.version, new.version
            ),
            &new.place,
            true,
            each_bound(binds, format!("verify it again and cite `{}`", verify(new))),
        ));
    }
    if old.text == new.text {
        return None;
    }
    if words(&old.text) == words(&new.text) {
        return Some(change(
            kinds::RuleReworded,
            format!("rule `{}`: line breaks or spaces only", new.id),
            &new.place,
            true,
            Vec::new(),
        ));
    }
    Some(change(
        kinds::RuleChangedUnversioned,
        format!(
            "the text of rule `{}` changed, and its version is still {}",
            new.id, new.version
        ),
        &new.place,
        true,
        vec![act(
            "the author of the change".to_owned(),
            &new.place,
            format!("write `r[{}+{}]`", new.id, new.version.saturating_add(1)),
        )],
    ))
}

/// The code a rule's text names (the interfaces it constrains, the callers that rely on it),
/// told at `at` that the guarantee is gone (none when it names none).
fn callers_act(text: &str, at: &Place, snapshot: &Snapshot) -> Vec<Act> {
    let who = callers(text, snapshot);
    if who.is_empty() {
        return Vec::new();
    }
    vec![act(
        format!("the code it names: {}", who.join(", ")),
        at,
        "no longer count on what it guaranteed".to_owned(),
    )]
}
