//! `mdbook-contract diff BASE [HEAD]`: what a change to the book means for the contract, and
//! for whom.
//!
//! Each side is loaded as `check` loads a book (the working tree for HEAD by default; for a
//! revision, its files written from git's objects into a temporary folder, see
//! `git::write_tree`) and read into a [`Snapshot`]. [`compare`] walks the two snapshots, not the
//! text: axes (renames found by their question and profiles), profiles, rules, claims, specs,
//! template entries and heading ids, each difference a [`Change`] of a kind of [`CATALOGUE`]
//! with its level and who must act, where: `axes.rs` the axes and profiles, and the renames
//! the others read BASE through; `rules.rs` the rules; `providers.rs` the providers, claims,
//! specs, entries and pages. `format.rs` prints them.
//!
//! To add a kind of change: its entry in [`CATALOGUE`] (name, level, why: the README's table is
//! checked against it), where the comparison of its part finds it, and a test in
//! `tests/testsuite/diff.rs`.

mod axes;
pub(crate) mod format;
mod providers;
mod rules;

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use serde::Serialize;

use crate::model::rules::Level as RuleLevel;
use crate::pipeline::snapshot::{Place, Snapshot};
use crate::read::load::{Commands, load_with};

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
        "a rule that obliges (MUST, SHOULD, or no keyword, which counts as required) and binds a built provider: it must meet and verify it",
    RuleAddedNonBinding "rule-added-non-binding" Minor
        "a MAY, or a rule that binds no built provider yet",
    RuleRenamed "rule-renamed" Minor
        "the same rule (its words but for its keyword, its version and `applies=`) under a new ID: each citation of the old ID cites the new one (a new keyword is told as its own change)",
    RuleRemoved "rule-removed" Major
        "callers lose a guarantee the contract gave",
    RuleTightened "rule-tightened" Major
        "a SHOULD became a MUST or lost its keyword (required), or a MAY a SHOULD: providers bound by it must meet it",
    RuleLoosened "rule-loosened" Major
        "a MUST (or a rule without a keyword) became a SHOULD or a MAY: callers can no longer rely on it",
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
    /// Where an annotation on HEAD goes: its path in the checkout of HEAD (without the `REV:`
    /// it is shown with) and its line; for something removed, the nearest place HEAD still has.
    #[serde(skip)]
    pub head: Annotated,
    /// The BASE side's place, for something removed (its HEAD place is found after the
    /// comparison, from the pages of both sides).
    #[serde(skip)]
    base: Option<Place>,
    /// Who must act.
    pub acts: Vec<Act>,
}

/// Where a change is annotated on the HEAD side. Every change is annotated somewhere: one whose
/// own place is gone (a rule removed) at the section that held it, else at its file, else on
/// no file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Annotated {
    /// At its own place in HEAD.
    At(PathBuf, usize),
    /// Gone from HEAD: at the heading of the section that held it, which HEAD still has.
    Section(PathBuf, usize),
    /// Gone from HEAD, and so is its section: the file that held it.
    File(PathBuf),
    /// Gone from HEAD with its file.
    Nowhere,
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
    /// What a reader is told of the commands book.toml names that were not run (each side read
    /// as written), for standard error.
    #[serde(skip)]
    pub left_out: Option<String>,
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

/// Every difference between `base` and `head`: the axes and profiles first (which say the
/// renames the rest reads BASE through), then the rules, the claims, the specs and the anchors.
fn compare(base: &Snapshot, head: &Snapshot) -> Vec<Change> {
    let mut out = Vec::new();
    let renames = axes::axes(base, head, &mut out);
    rules::rules(base, head, &renames, &mut out);
    providers::claims(base, head, &renames, &mut out);
    providers::specs_and_entries(base, head, &mut out);
    providers::anchors(base, head, &mut out);
    out
}

/// The changes from `base` to `head`, two readings of one book (for the MCP server's account
/// of what changed between two calls), in the order found.
pub(crate) fn between(base: &Snapshot, head: &Snapshot) -> Vec<Change> {
    compare(base, head)
}

/// Compares the book at `book_dir` at revision `base` with `head` (`None`: the working tree).
/// Paths of the HEAD side are shown under `display_root`.
pub fn diff(
    book_dir: &Path,
    base: &str,
    head: Option<&str>,
    display_root: PathBuf,
    commands: Commands,
) -> Result<ContractDiff> {
    let prefix = crate::util::git::prefix(book_dir)
        .with_context(|| format!("`{}` is not in a git repository", book_dir.display()))?;
    let mut left_out = Vec::new();
    let base_side = at_revision(book_dir, base, &prefix, commands, &mut left_out)?;
    let head_side = match head {
        Some(rev) => at_revision(book_dir, rev, &prefix, commands, &mut left_out)?,
        None => {
            let (mut ctx, book, refused) = load_with(book_dir, "html", commands)
                .with_context(|| "the book in the working tree cannot be loaded".to_owned())?;
            left_out.extend(refused);
            all_lines(&mut ctx);
            crate::pipeline::snapshot(&ctx, &book, display_root)?.0
        }
    };
    left_out.sort();
    left_out.dedup();
    let mut changes = compare(&base_side, &head_side);
    for change in &mut changes {
        if let Some(gone) = change.base.take() {
            change.head = nearest_in_head(&gone, &base_side, &head_side);
        }
    }
    if let Some(rev) = head {
        let shown = format!("{rev}:");
        for change in &mut changes {
            let (Annotated::At(path, _) | Annotated::Section(path, _) | Annotated::File(path)) =
                &mut change.head
            else {
                continue;
            };
            if let Some(in_tree) = path.to_str().and_then(|p| p.strip_prefix(&shown)) {
                *path = PathBuf::from(in_tree);
            }
        }
    }
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
        left_out: crate::read::load::refused(&left_out),
    })
}

/// Where HEAD still has what held `gone`, a place on the BASE side: the heading above it, when
/// HEAD's page has a heading of the same id; else its page's file; else nothing.
fn nearest_in_head(gone: &Place, base: &Snapshot, head: &Snapshot) -> Annotated {
    let Some(page) = base.pages.iter().find(|p| p.place.path == gone.path) else {
        return Annotated::Nowhere;
    };
    let Some(now) = head.pages.iter().find(|p| p.page == page.page) else {
        return Annotated::Nowhere;
    };
    let section = page
        .ids
        .iter()
        .zip(&page.lines)
        .rev()
        .find(|(_, line)| **line <= gone.line)
        .and_then(|(id, _)| {
            let at = now.ids.iter().position(|i| i == id)?;
            Some(Annotated::Section(now.place.path.clone(), now.lines[at]))
        });
    section.unwrap_or_else(|| Annotated::File(now.place.path.clone()))
}

/// Turns `changed-since` off for a side: a diff compares models, not companions' findings, and
/// a revision's files lie in a folder that is no git repository (CI sets the key for the job).
fn all_lines(ctx: &mut mdbook_preprocessor::PreprocessorContext) {
    let key = format!("preprocessor.{}.changed-since", crate::util::vocab::NAME);
    let _ = ctx.config.set(&key, "");
}

/// The snapshot of the book at revision `rev`, its paths shown as `REV:path`.
fn at_revision(
    book_dir: &Path,
    rev: &str,
    prefix: &str,
    commands: Commands,
    left_out: &mut Vec<String>,
) -> Result<Snapshot> {
    // A folder of its own, made with a name nobody can guess in advance, removed when dropped.
    let scratch = tempfile::Builder::new()
        .prefix("mdbook-contract-diff-")
        .tempdir()
        .context("a temporary folder for the revision cannot be made")?;
    crate::util::git::write_tree(book_dir, rev, scratch.path())?;
    let dir = scratch.path().join(prefix);
    let (mut ctx, book, refused) = load_with(&dir, "html", commands)
        .with_context(|| format!("the book at `{rev}` cannot be loaded"))?;
    left_out.extend(refused);
    all_lines(&mut ctx);
    let (mut snapshot, _) = crate::pipeline::snapshot(&ctx, &book, PathBuf::new())
        .with_context(|| format!("the book at `{rev}` cannot be read"))?;
    snapshot.map_paths(|path| {
        PathBuf::from(format!(
            "{rev}:{prefix}{}",
            crate::util::paths::slashed(path)
        ))
    });
    Ok(snapshot)
}

/// Normalises whitespace, to tell a rewording of line breaks from a change of words.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The code spans of `text` that name code (the callers a rule names), not the contract's own
/// words: an axis code or a profile of `snapshot` is no caller.
fn callers(text: &str, snapshot: &Snapshot) -> Vec<String> {
    let contract_word = |s: &str| {
        snapshot
            .axes
            .iter()
            .any(|a| a.code == s || a.profile(s).is_some())
    };
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| !s.is_empty() && !contract_word(s))
        .map(|s| format!("`{s}`"))
        .collect()
}

/// A rule's RFC 2119 keyword, for a sentence (a marker without one is required).
fn keyword(level: Option<RuleLevel>) -> &'static str {
    level.map_or("required, with no keyword", RuleLevel::as_str)
}

fn change(kind: Kind, message: String, at: &Place, head: bool, acts: Vec<Act>) -> Change {
    Change {
        kind: kind.name,
        level: kind.level,
        message,
        at: at.to_string(),
        head: if head {
            Annotated::At(at.path.clone(), at.line)
        } else {
            Annotated::Nowhere
        },
        base: (!head).then(|| at.clone()),
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
