//! `mdbook-contract diff BASE [HEAD]`: what a change to the book means for the contract, and
//! for whom.
//!
//! Each side is loaded as `check` loads a book (the working tree for HEAD by default; for a
//! revision, its files written from git's objects into a temporary folder, see
//! `git::write_tree`) and read into a [`Snapshot`]. [`compare`] walks the two snapshots, not the
//! text: axes (renames found by their question and profiles), profiles, rules, claims, specs,
//! template entries and heading ids, each difference a [`Change`] of a kind of [`CATALOGUE`]
//! with its level and who must act, where. `format.rs` prints them.
//!
//! To add a kind of change: its entry in [`CATALOGUE`] (name, level, why: the README's table is
//! checked against it), where [`compare`] finds it, and a test in `tests/testsuite/diff.rs`.

pub(crate) mod format;

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use serde::Serialize;

use crate::rules::Level as RuleLevel;
use crate::snapshot::{Place, Snapshot};

/// How much a change matters to those who rely on the contract, as semantic versioning says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Wording only: nobody must act.
    Patch,
    /// Additions nobody must act on.
    Minor,
    /// Someone who conformed at BASE must change, or callers lose a guarantee.
    Major,
}

impl Level {
    /// The word, as `--fail-on` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Patch => "patch",
            Level::Minor => "minor",
            Level::Major => "major",
        }
    }
}

/// A kind of change: its name, level and why.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    /// The kebab-case name, in output and in the README's table.
    pub name: &'static str,
    /// Its level.
    pub level: Level,
    /// Why it has that level.
    pub why: &'static str,
}

macro_rules! catalogue {
    ($($id:ident $name:literal $level:ident $why:literal,)*) => {
        #[allow(non_upper_case_globals)]
        mod kinds {
            use super::{Kind, Level};
            $(pub(super) const $id: Kind = Kind { name: $name, level: Level::$level, why: $why };)*
        }
        /// Every kind of change, in the order the README lists them.
        pub const CATALOGUE: &[Kind] = &[$(kinds::$id,)*];
    };
}

catalogue! {
    AxisAdded "axis-added" Major
        "every built provider must add a claim on it, and every spec must answer it",
    AxisRemoved "axis-removed" Major
        "callers lose the guarantee its profiles gave; the providers' claims on it go",
    AxisRenamed "axis-renamed" Minor
        "the same question and profiles under a new code: claims and links follow the code, nobody's behaviour changes",
    AxisQuestionChanged "axis-question-changed" Patch
        "the wording of the question an axis asks",
    ProfileAdded "profile-added" Minor
        "a new allowed answer; nobody has to choose it",
    ProfileRemoved "profile-removed" Minor
        "an allowed answer no built provider claims is gone",
    ProfileRemovedClaimed "profile-removed-claimed" Major
        "a built provider claims it: the provider must choose another",
    ProfileRenamed "profile-renamed" Minor
        "the same meaning under a new name: claims follow the name",
    ProfileObligesChanged "profile-obliges-changed" Major
        "what a profile obliges changed: every provider with it must check itself again",
    ProfileMeaningChanged "profile-meaning-changed" Minor
        "what a profile means was reworded or refined: providers with it should read it again",
    ProfileToleratedByChanged "profile-tolerated-by-changed" Minor
        "the callers that tolerate a profile changed",
    RuleAdded "rule-added" Major
        "a MUST or SHOULD that binds a built provider: it must meet and verify it",
    RuleAddedNonBinding "rule-added-non-binding" Minor
        "a MAY, a rule without a keyword, or one that binds no built provider yet",
    RuleRemoved "rule-removed" Major
        "callers lose a guarantee the contract gave",
    RuleTightened "rule-tightened" Major
        "a SHOULD became a MUST (or a MAY a SHOULD): providers bound by it must meet it",
    RuleLoosened "rule-loosened" Major
        "a MUST became a SHOULD or a MAY: callers can no longer rely on it",
    RuleRevised "rule-revised" Major
        "its text changed and its version was raised: providers bound by it verify it again",
    RuleChangedUnversioned "rule-changed-unversioned" Major
        "its text changed but its version did not: the tests that cite it cannot tell (raise it: `r[ID+N]`)",
    RuleReworded "rule-reworded" Patch
        "only its whitespace or line breaks changed",
    RuleAppliesChanged "rule-applies-changed" Major
        "it binds other providers now (`applies=` changed)",
    ClaimChanged "claim-changed" Minor
        "a provider states another profile on an axis",
    ClaimResolved "claim-resolved" Minor
        "a provider's `unknown` became a profile",
    ClaimEvidenceChanged "claim-evidence-changed" Patch
        "the evidence of a claim changed, not its profile",
    ProviderAdded "provider-added" Minor
        "a provider section was added",
    ProviderRemoved "provider-removed" Minor
        "a provider section was removed",
    ProviderBuilt "provider-built" Minor
        "a proposed provider is built now: the rules bind it",
    SpecStatusChanged "spec-status-changed" Minor
        "a spec was accepted (or went back to draft)",
    SpecEntriesAnswered "spec-entries-answered" Patch
        "a spec answers more of the template",
    SpecEntriesReopened "spec-entries-reopened" Minor
        "an entry a spec answered is open again",
    EntryAdded "entry-added" Major
        "every spec must answer a new template entry",
    EntryRemoved "entry-removed" Minor
        "the template asks one question less",
    AnchorRemoved "anchor-removed" Minor
        "a heading id is gone: links into the page from outside the book break at the fragment",
    PageRemoved "page-removed" Major
        "a page is gone: links from outside the book break (an `[output.html.redirect]` entry saves them)",
}

/// Someone who must act on a change, where, and what to do.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Act {
    /// Who: a provider, a spec, or the callers the contract names.
    pub who: String,
    /// Where, as `file:line:col` (a BASE place is shown as `REV:path`).
    pub at: String,
    /// What to do.
    pub what: String,
}

/// One difference between the two sides.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Change {
    /// Its kind's name.
    pub kind: &'static str,
    /// Its level.
    pub level: Level,
    /// What changed, in one sentence.
    pub message: String,
    /// Where, on the HEAD side when it is there, else on BASE.
    pub at: String,
    /// The HEAD side's place, split, for annotations (none for something removed).
    #[serde(skip)]
    pub head: Option<(PathBuf, usize)>,
    /// Who must act.
    pub acts: Vec<Act>,
}

/// The changes between two revisions of a book.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct ContractDiff {
    /// The BASE revision as given.
    pub base: String,
    /// The HEAD revision as given, or `working tree`.
    pub head: String,
    /// The level of the whole diff: the highest of its changes (none without changes).
    pub level: Option<Level>,
    /// The changes, by level (major first), then in the order found.
    pub changes: Vec<Change>,
    /// When both sides state the contract's version (`version` in book.toml): the versions,
    /// the level of the bump, and whether it is smaller than the diff's level.
    pub version: Option<VersionCheck>,
}

/// The contract's version at both sides, held against the level of the diff.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct VersionCheck {
    /// At BASE.
    pub base: String,
    /// At HEAD.
    pub head: String,
    /// The level of the bump (none when the version did not rise).
    pub bump: Option<Level>,
    /// A sentence when the bump is smaller than the diff's level: a major change released as
    /// a minor one.
    pub error: Option<String>,
}

/// The level of the bump from `base` to `head`, as Cargo reads versions: before 1.0.0 a
/// minor bump is a major one and a patch bump a minor one.
fn bump(base: &semver::Version, head: &semver::Version) -> Option<Level> {
    if head <= base {
        return None;
    }
    let level = if head.major > base.major {
        Level::Major
    } else if head.minor > base.minor {
        Level::Minor
    } else {
        Level::Patch
    };
    if head.major == 0 && base.major == 0 {
        return Some(match level {
            Level::Major | Level::Minor => Level::Major,
            Level::Patch => Level::Minor,
        });
    }
    Some(level)
}

/// The version check of a diff of `level` from `base` to `head`.
fn version_check(
    base: Option<&semver::Version>,
    head: Option<&semver::Version>,
    level: Option<Level>,
) -> Option<VersionCheck> {
    let (base, head) = (base?, head?);
    let bump = bump(base, head);
    let error = match level {
        Some(level) if bump.is_none_or(|b| b < level) => Some(format!(
            "the contract's version goes from {base} to {head} ({}), but the change is {}: raise it to {}",
            bump.map_or("no bump".to_owned(), |b| format!("a {} bump", b.as_str())),
            level.as_str(),
            next(base, level)
        )),
        _ => None,
    };
    Some(VersionCheck {
        base: base.to_string(),
        head: head.to_string(),
        bump,
        error,
    })
}

/// The least version after `base` with a bump of `level`.
fn next(base: &semver::Version, level: Level) -> semver::Version {
    let zero = base.major == 0;
    match (level, zero) {
        (Level::Major, false) => semver::Version::new(base.major + 1, 0, 0),
        (Level::Major, true) | (Level::Minor, false) => {
            semver::Version::new(base.major, base.minor + 1, 0)
        }
        (Level::Minor, true) | (Level::Patch, _) => {
            semver::Version::new(base.major, base.minor, base.patch + 1)
        }
    }
}

/// Compares the book at `book_dir` at revision `base` with `head` (`None`: the working tree).
/// Paths of the HEAD side are shown under `display_root`.
pub fn diff(
    book_dir: &Path,
    base: &str,
    head: Option<&str>,
    display_root: PathBuf,
) -> Result<ContractDiff> {
    let prefix = crate::git::prefix(book_dir)
        .with_context(|| format!("`{}` is not in a git repository", book_dir.display()))?;
    let base_side = at_revision(book_dir, base, &prefix)?;
    let head_side = match head {
        Some(rev) => at_revision(book_dir, rev, &prefix)?,
        None => {
            let (mut ctx, book) = crate::load::load(book_dir, "html")
                .with_context(|| "the book in the working tree cannot be loaded".to_owned())?;
            all_lines(&mut ctx);
            crate::pipeline::snapshot(&ctx, &book, display_root)?.0
        }
    };
    let mut changes = compare(&base_side, &head_side);
    changes.sort_by_key(|c| std::cmp::Reverse(c.level));
    let level = changes.iter().map(|c| c.level).max();
    Ok(ContractDiff {
        base: base.to_owned(),
        head: head.unwrap_or("working tree").to_owned(),
        level,
        changes,
        version: version_check(
            base_side.version.as_ref(),
            head_side.version.as_ref(),
            level,
        ),
    })
}

/// Turns `changed-since` off for a side: a diff compares models, not companions' findings, and
/// a revision's files lie in a folder that is no git repository (CI sets the key for the job).
fn all_lines(ctx: &mut mdbook_preprocessor::PreprocessorContext) {
    let key = format!("preprocessor.{}.changed-since", crate::vocab::NAME);
    let _ = ctx.config.set(&key, "");
}

/// A temporary folder, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The snapshot of the book at revision `rev`, its paths shown as `REV:path`.
fn at_revision(book_dir: &Path, rev: &str, prefix: &str) -> Result<Snapshot> {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let scratch = Scratch(
        std::env::temp_dir().join(format!("mdbook-contract-diff-{}-{n}", std::process::id())),
    );
    crate::git::write_tree(book_dir, rev, &scratch.0)?;
    let dir = scratch.0.join(prefix);
    let (mut ctx, book) = crate::load::load(&dir, "html")
        .with_context(|| format!("the book at `{rev}` cannot be loaded"))?;
    all_lines(&mut ctx);
    let (mut snapshot, _) = crate::pipeline::snapshot(&ctx, &book, PathBuf::new())
        .with_context(|| format!("the book at `{rev}` cannot be read"))?;
    snapshot.map_paths(|path| PathBuf::from(format!("{rev}:{prefix}{}", path.display())));
    Ok(snapshot)
}

/// Normalises whitespace, to tell a rewording of line breaks from a change of words.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The code spans of `text`: the callers a rule names.
fn callers(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| !s.is_empty())
        .map(|s| format!("`{s}`"))
        .collect()
}

/// A rule's RFC 2119 keyword, for a sentence.
fn keyword(level: Option<RuleLevel>) -> &'static str {
    level.map_or("no keyword", RuleLevel::as_str)
}

fn change(kind: Kind, message: String, at: &Place, head: bool, acts: Vec<Act>) -> Change {
    Change {
        kind: kind.name,
        level: kind.level,
        message,
        at: at.to_string(),
        head: head.then(|| (at.path.clone(), at.line)),
        acts,
    }
}

fn act(who: String, at: &Place, what: String) -> Act {
    Act {
        who,
        at: at.to_string(),
        what,
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
    let mut renamed = Vec::new();
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
        let code = renamed
            .iter()
            .find(|(o, _)| *o == old.code)
            .map_or(old.code.as_str(), |(_, n)| n.as_str());
        let Some(new) = head.axis(code) else { continue };
        profiles(base, head, old, new, &mut out);
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
    rules(base, head, &mut out);
    claims(base, head, &mut out);
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
) {
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
            renamed.push(n.name.clone());
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
    for n in fresh.iter().filter(|n| !renamed.contains(&n.name)) {
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

fn rules(base: &Snapshot, head: &Snapshot, out: &mut Vec<Change>) {
    let verify = |rule: &crate::snapshot::RuleSnap| {
        format!(
            "r[verify {}]",
            crate::rules::marker::cited(&rule.id, rule.version)
        )
    };
    for old in base.rules.iter().filter(|r| head.rule(&r.id).is_none()) {
        let who = callers(&old.text);
        let acts = if who.is_empty() {
            Vec::new()
        } else {
            vec![act(
                format!("callers: {}", who.join(", ")),
                &old.place,
                "stop relying on it".to_owned(),
            )]
        };
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
        if now > was {
            out.push(change(
                kinds::RuleTightened,
                format!(
                    "rule `{}` is {} now (was {})",
                    new.id,
                    keyword(new.level),
                    keyword(old.level)
                ),
                &new.place,
                true,
                providers(format!("meet it, and verify it (`{}`)", verify(new))),
            ));
        } else if now < was {
            let who = callers(&old.text);
            let acts = if who.is_empty() {
                Vec::new()
            } else {
                vec![act(
                    format!("callers: {}", who.join(", ")),
                    &new.place,
                    "stop relying on it".to_owned(),
                )]
            };
            out.push(change(
                kinds::RuleLoosened,
                format!(
                    "rule `{}` is {} now (was {})",
                    new.id,
                    keyword(new.level),
                    keyword(old.level)
                ),
                &new.place,
                true,
                acts,
            ));
        }
        if old.applies != new.applies {
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

fn claims(base: &Snapshot, head: &Snapshot, out: &mut Vec<Change>) {
    for new in &head.providers {
        let Some(old) = base
            .providers
            .iter()
            .find(|p| p.name == new.name && p.built == new.built)
            .or_else(|| base.providers.iter().find(|p| p.name == new.name))
        else {
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
        for c in &new.claims {
            let Some(was) = old.claims.iter().find(|o| o.axis == c.axis) else {
                continue;
            };
            if was.profile != c.profile {
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
    for old in base
        .providers
        .iter()
        .filter(|o| !head.providers.iter().any(|p| p.name == o.name))
    {
        out.push(change(
            kinds::ProviderRemoved,
            format!("provider `{}` was removed", old.name),
            &old.place,
            false,
            Vec::new(),
        ));
    }
}

fn specs_and_entries(base: &Snapshot, head: &Snapshot, out: &mut Vec<Change>) {
    for new in &head.specs {
        let Some(old) = base.specs.iter().find(|s| s.provider == new.provider) else {
            continue;
        };
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
        let answered: Vec<&String> = new
            .answered
            .iter()
            .filter(|e| !old.answered.contains(e))
            .collect();
        if !answered.is_empty() {
            out.push(change(
                kinds::SpecEntriesAnswered,
                format!(
                    "the spec of `{}` answers {} more: {}",
                    new.provider,
                    answered.len(),
                    answered
                        .iter()
                        .map(|e| format!("\"{e}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                &new.place,
                true,
                Vec::new(),
            ));
        }
        let reopened: Vec<&String> = old
            .answered
            .iter()
            .filter(|e| !new.answered.contains(e))
            .collect();
        if !reopened.is_empty() {
            out.push(change(
                kinds::SpecEntriesReopened,
                format!(
                    "the spec of `{}` no longer answers: {}",
                    new.provider,
                    reopened
                        .iter()
                        .map(|e| format!("\"{e}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                &new.place,
                true,
                Vec::new(),
            ));
        }
    }
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

fn anchors(base: &Snapshot, head: &Snapshot, out: &mut Vec<Change>) {
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
            let at = Place {
                path: PathBuf::from(&old.key),
                line: 1,
                column: 1,
            };
            out.push(change(
                kinds::PageRemoved,
                format!("page `{}` is gone{hint}", old.page),
                &at,
                false,
                Vec::new(),
            ));
            continue;
        };
        for id in old.ids.iter().filter(|id| !new.ids.contains(id)) {
            let at = Place {
                path: PathBuf::from(&new.key),
                line: 1,
                column: 1,
            };
            out.push(change(kinds::AnchorRemoved, format!("`{}#{id}` is gone: links to it from outside the book land at the top of the page", new.page), &at, false, Vec::new()));
        }
    }
}
