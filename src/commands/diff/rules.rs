//! What changed of the rules: added, removed, tightened, loosened, revised, reworded, and
//! whom their `applies=` binds.

use super::axes::Renames;
use super::{Act, Change, Level, act, callers, change, keyword, kinds, words};
use crate::model::rules::Level as RuleLevel;
use crate::pipeline::snapshot::{Place, Snapshot};

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
    let verify = |rule: &crate::pipeline::snapshot::RuleSnap| {
        format!(
            "r[verify {}]",
            crate::model::rules::marker::cited(&rule.id, rule.version)
        )
    };
    for old in base.rules.iter().filter(|r| head.rule(&r.id).is_none()) {
        let acts = callers_act(&old.text, &old.place);
        out.push(change(
            kinds::RuleRemoved,
            format!("rule `{}` was removed", old.id),
            &old.place,
            false,
            acts,
        ));
    }
    for new in head.rules.iter().filter(|r| base.rule(&r.id).is_none()) {
        let binds = bound(head, &new.applies);
        let obliges = new.level >= Some(RuleLevel::Should);
        let kind = if obliges && !binds.is_empty() {
            kinds::RuleAdded
        } else {
            kinds::RuleAddedNonBinding
        };
        let acts = if kind.level == Level::Major {
            binds
                .iter()
                .map(|(name, place)| {
                    act(
                        format!("`{name}`"),
                        place,
                        format!(
                            "meet it, and cite `{}` in the test that verifies it",
                            verify(new)
                        ),
                    )
                })
                .collect()
        } else {
            Vec::new()
        };
        out.push(change(
            kind,
            format!("rule `{}` ({}) was added", new.id, keyword(new.level)),
            &new.place,
            true,
            acts,
        ));
    }
    for old in &base.rules {
        let Some(new) = head.rule(&old.id) else {
            continue;
        };
        let binds = bound(head, &new.applies);
        let providers = |what: String| -> Vec<Act> {
            binds
                .iter()
                .map(|(name, place)| act(format!("`{name}`"), place, what.clone()))
                .collect()
        };
        let (was, now) = (old.level, new.level);
        let level = || {
            format!(
                "rule `{}` is {} now (was {})",
                new.id,
                keyword(now),
                keyword(was)
            )
        };
        if now > was {
            let acts = providers(format!("meet it, and verify it (`{}`)", verify(new)));
            out.push(change(
                kinds::RuleTightened,
                level(),
                &new.place,
                true,
                acts,
            ));
        } else if now < was {
            let acts = callers_act(&old.text, &new.place);
            out.push(change(kinds::RuleLoosened, level(), &new.place, true, acts));
        }
        if renames.applies(&old.applies) != new.applies {
            out.push(change(
                kinds::RuleAppliesChanged,
                format!("rule `{}` applies to other providers now", new.id),
                &new.place,
                true,
                providers(format!("meet it, and verify it (`{}`)", verify(new))),
            ));
        }
        // A raised version is a revision whatever the text did: every citation of the old
        // version is stale now.
        if new.version > old.version {
            out.push(change(
                kinds::RuleRevised,
                format!(
                    "rule `{}` was revised (version {} to {})",
                    new.id, old.version, new.version
                ),
                &new.place,
                true,
                providers(format!("verify it again and cite `{}`", verify(new))),
            ));
        } else if old.text != new.text {
            if words(&old.text) == words(&new.text) {
                out.push(change(
                    kinds::RuleReworded,
                    format!("rule `{}`: line breaks or spaces only", new.id),
                    &new.place,
                    true,
                    Vec::new(),
                ));
            } else {
                out.push(change(
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
                ));
            }
        }
    }
}

/// The code a rule's text names (the interfaces it constrains, the callers that rely on it),
/// told at `at` that the guarantee is gone (none when it names none).
fn callers_act(text: &str, at: &Place) -> Vec<Act> {
    let who = callers(text);
    if who.is_empty() {
        return Vec::new();
    }
    vec![act(
        format!("the code it names: {}", who.join(", ")),
        at,
        "no longer count on what it guaranteed".to_owned(),
    )]
}
