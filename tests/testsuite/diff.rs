//! `mdbook-contract diff`: two revisions of a fixture book in a temporary git repository,
//! compared through the binary; every kind of the catalogue made to appear.

use std::path::Path;

use serde_json::Value;

use crate::common::{APPENDIX, CONTRACT, git, run_in};

const TOML: &str = r#"[book]
title = "Diff"

[preprocessor.contract]
after = ["links"]
contract = ["contract.md"]
template = ["template.md"]
specs = ["spec.md"]
"#;

const SUMMARY: &str = "# Summary\n\n- [Contract](contract.md)\n- [Template](template.md)\n- [Spec](spec.md)\n- [Existing](appendix/existing.md)\n";

const TEMPLATE: &str = "# Template\n\n## Readiness\n\n{{#answers readiness}}\n\n**Answer:**\n\n**Evidence:**\n\n## Create\n\n{{#answers create-return}}\n\n**Answer:**\n\n**Evidence:**\n";

const SPEC: &str = "# `nova` provider spec {.provider .proposed}\n\n**Status:** draft\n\n## Readiness\n\n{{#answers readiness}}\n\n**Answer:** Ready at once: {{#profile readiness immediate}}.\n\n**Evidence:** `nova.Boot` returns once it runs.\n\n## Create\n\n{{#answers create-return}}\n\n**Answer:**\n\n**Evidence:**\n";

const RULES: &str = "\n## Rules\n\nr[create.idempotent]\nCreate MUST be idempotent, because `reconcileManaged` retries it.\n\nr[list.marked+2]\nListByTag SHOULD return only marked instances, because `Sweeper.sweep` deletes them.\n\nr[list.order]\nListByTag MAY sort its answer.\n\nr[get.found]\nGet MUST answer Running once it runs, because `reconcileManaged` asks.\n";

const POLL: &str = "| `submit` | once the request is accepted | `reconcileManaged` polls |\n\nr[create-return.poll applies=submit]\nA submitting Create MUST report Provisioning, because `reconcileManaged` polls.\n";

/// The files of the base revision.
fn base() -> Vec<(&'static str, String)> {
    let contract = format!(
        "{}{RULES}",
        CONTRACT.replace(
            "| `submit` | once the request is accepted | `reconcileManaged` polls |\n",
            POLL
        )
    );
    vec![
        ("book.toml", TOML.to_owned()),
        ("src/SUMMARY.md", SUMMARY.to_owned()),
        ("src/contract.md", contract),
        ("src/template.md", TEMPLATE.to_owned()),
        ("src/spec.md", SPEC.to_owned()),
        ("src/appendix/existing.md", APPENDIX.to_owned()),
    ]
}

fn write(dir: &Path, files: &[(&str, String)]) {
    crate::common::write_files(dir, files);
}

/// A repository whose first commit is the base and whose second is the base changed by
/// `edit` (each a file and a replacement in it; an empty `from` writes the file whole).
fn repo(edit: &[(&str, &str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    let mut files = base();
    write(dir.path(), &files);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "base"]);
    for (path, from, to) in edit {
        match files.iter_mut().find(|(p, _)| p == path) {
            Some((_, text)) if !from.is_empty() => {
                assert!(text.contains(from), "{path} has no {from:?}");
                *text = text.replace(from, to);
            }
            Some((_, text)) => *text = (*to).to_owned(),
            None => files.push((path, (*to).to_owned())),
        }
    }
    write(dir.path(), &files);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "head", "--allow-empty"]);
    dir
}

/// The kinds of the changes from the first commit to the second, as `diff --format json`
/// gives them, and the whole JSON.
fn changes(dir: &Path) -> (Vec<String>, Value) {
    let (code, stdout, stderr) = run_in(dir, &["diff", "HEAD~1", "HEAD", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let json: Value = serde_json::from_str(&stdout).unwrap();
    let kinds = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap().to_owned())
        .collect();
    (kinds, json)
}

fn has(kinds: &[String], expected: &[&str]) {
    for kind in expected {
        assert!(kinds.iter().any(|k| k == kind), "no {kind} in {kinds:?}");
    }
}

#[test]
fn axes_added_removed_renamed_and_reworded() {
    let quota = "### `quota` {.axis}\n\nHow is a refusal for capacity told apart?\n\n| Profile | Meaning |\n|---|---|\n| `reason` | by the error's reason |\n\n## Closing table";
    let dir = repo(&[
        (
            "src/contract.md",
            "### `create-return` {.axis}",
            "### `create-mode` {.axis}",
        ),
        ("src/contract.md", "## Closing table", quota),
        (
            "src/contract.md",
            "When may a fresh instance serve traffic?",
            "When may a new instance serve traffic?",
        ),
    ]);
    let (kinds, json) = changes(dir.path());
    has(
        &kinds,
        &["axis-renamed", "axis-added", "axis-question-changed"],
    );
    assert!(
        !kinds.iter().any(|k| k == "axis-removed"),
        "a rename is not a removal: {kinds:?}"
    );
    let added = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "axis-added")
        .unwrap();
    assert_eq!(added["level"], "major");
    // The built provider must claim it, the spec must answer it.
    let acts: Vec<&str> = added["acts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["who"].as_str().unwrap())
        .collect();
    assert_eq!(acts, ["`pods`", "the spec of `nova`"]);
    assert_eq!(added["acts"][0]["at"], "HEAD:src/appendix/existing.md:5:1");

    let removed = repo(&[(
        "src/contract.md",
        "### `readiness` {.axis}",
        "### `readiness-gone`",
    )]);
    let (kinds, json) = changes(removed.path());
    has(&kinds, &["axis-removed", "anchor-removed"]);
    let change = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "axis-removed")
        .unwrap();
    assert_eq!(
        change["at"], "HEAD~1:src/contract.md:5:1",
        "a removal is shown at BASE"
    );
    let who: Vec<&str> = change["acts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["who"].as_str().unwrap())
        .collect();
    assert_eq!(who, ["`nova`", "`pods`", "`vms`"], "every claim on it goes");
    let anchor = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "anchor-removed")
        .unwrap();
    assert!(
        anchor["at"]
            .as_str()
            .unwrap()
            .ends_with("src/contract.md:1:1"),
        "at the page's file, not its chapter key: {anchor}"
    );
    assert_ne!(anchor["at"], "contract.md:1:1");
}

/// A renamed axis or profile is one change: the claims and the rules' `applies=` that follow
/// the rename are not changes of their own.
#[test]
fn what_follows_a_rename_is_not_a_change_of_its_own() {
    let profile = repo(&[
        (
            "src/contract.md",
            "| `submit` | once the request is accepted |",
            "| `submitted` | once the request is accepted |",
        ),
        (
            "src/contract.md",
            "r[create-return.poll applies=submit]",
            "r[create-return.poll applies=submitted]",
        ),
        (
            "src/appendix/existing.md",
            "{{#profile create-return submit ",
            "{{#profile create-return submitted ",
        ),
    ]);
    let (kinds, json) = changes(profile.path());
    assert_eq!(kinds, ["profile-renamed"], "{json:#}");

    let axis = repo(&[
        (
            "src/contract.md",
            "### `create-return` {.axis}",
            "### `create-answer` {.axis}",
        ),
        (
            "src/template.md",
            "{{#answers create-return}}",
            "{{#answers create-answer}}",
        ),
        (
            "src/spec.md",
            "{{#answers create-return}}",
            "{{#answers create-answer}}",
        ),
        (
            "src/appendix/existing.md",
            "{{#profile create-return submit ",
            "{{#profile create-answer submit ",
        ),
        (
            "src/appendix/existing.md",
            "{{#profile create-return unknown}}",
            "{{#profile create-answer unknown}}",
        ),
    ]);
    let (kinds, json) = changes(axis.path());
    // The rule binds the same providers: its `applies=` is the renamed axis's.
    assert!(
        !kinds.iter().any(|k| k == "rule-applies-changed"),
        "{json:#}"
    );
    has(&kinds, &["axis-renamed"]);
}

#[test]
fn profiles_added_removed_renamed_and_changed() {
    let dir = repo(&[
        (
            "src/contract.md",
            "| `provisioning-window` | Provisioning for a while, then Running | Get answers Provisioning | `reconcileManaged` requeues |\n",
            "| `provisioning-window` | Provisioning for a bounded while, then Running | Get answers Provisioning | `reconcileManaged` requeues |\n| `never` | never ready | nothing | nobody |\n",
        ),
        (
            "src/contract.md",
            "| Get answers Running at once |",
            "| Get answers Running with an IP at once |",
        ),
        (
            "src/contract.md",
            "| `blocking` | once the instance runs | every caller |",
            "| `blocking` | once the instance runs | `reconcileManaged` only |",
        ),
        (
            "src/contract.md",
            "| `submit` | once the request is accepted | `reconcileManaged` polls |\n",
            "",
        ),
    ]);
    let (kinds, _) = changes(dir.path());
    has(
        &kinds,
        &[
            "profile-added",
            "profile-meaning-changed",
            "profile-obliges-changed",
            "profile-tolerated-by-changed",
            "profile-removed-claimed",
        ],
    );
    let renamed = repo(&[
        (
            "src/contract.md",
            "| `blocking` | once the instance runs |",
            "| `blocks` | once the instance runs |",
        ),
        (
            "src/contract.md",
            "| `provisioning-window` | Provisioning for a while, then Running | Get answers Provisioning | `reconcileManaged` requeues |\n",
            "",
        ),
    ]);
    let (kinds, _) = changes(renamed.path());
    // `provisioning-window` is claimed only by a proposed provider.
    has(&kinds, &["profile-renamed", "profile-removed"]);
    assert!(
        !kinds.iter().any(|k| k == "profile-removed-claimed"),
        "{kinds:?}"
    );
}

#[test]
fn rules_added_removed_tightened_loosened_revised_and_reworded() {
    let dir = repo(&[
        (
            "src/contract.md",
            "r[create.idempotent]\nCreate MUST be idempotent",
            "r[create.idempotent]\nCreate SHOULD be idempotent",
        ),
        (
            "src/contract.md",
            "r[list.marked+2]\nListByTag SHOULD return",
            "r[list.marked+3]\nListByTag MUST return",
        ),
        (
            "src/contract.md",
            "r[list.order]\nListByTag MAY sort its answer.\n",
            "r[delete.idempotent]\nDelete MUST succeed when the instance is gone, because `Sweeper.sweep` retries.\n\nr[delete.log]\nDelete MAY log.\n",
        ),
        (
            "src/contract.md",
            "Get MUST answer Running once it runs",
            "Get MUST answer Running\nonce it runs",
        ),
        (
            "src/contract.md",
            "r[create-return.poll applies=submit]\nA submitting Create MUST report Provisioning",
            "r[create-return.poll applies=blocking]\nA submitting Create MUST report Provisioning at once",
        ),
    ]);
    let (kinds, json) = changes(dir.path());
    has(
        &kinds,
        &[
            "rule-added",
            "rule-added-non-binding",
            "rule-removed",
            "rule-tightened",
            "rule-loosened",
            "rule-revised",
            "rule-reworded",
            "rule-changed-unversioned",
            "rule-applies-changed",
        ],
    );
    let changes = json["changes"].as_array().unwrap();
    let loosened = changes
        .iter()
        .find(|c| c["kind"] == "rule-loosened")
        .unwrap();
    assert_eq!(
        loosened["acts"][0]["who"],
        "the code it names: `reconcileManaged`"
    );
    let added = changes.iter().find(|c| c["kind"] == "rule-added").unwrap();
    assert!(
        added["acts"][0]["what"]
            .as_str()
            .unwrap()
            .contains("`r[verify delete.idempotent]`")
    );
    let unversioned = changes
        .iter()
        .find(|c| c["kind"] == "rule-changed-unversioned")
        .unwrap();
    assert!(
        unversioned["acts"][0]["what"]
            .as_str()
            .unwrap()
            .contains("`r[create-return.poll+2]`")
    );
    assert_eq!(json["level"], "major");
}

#[test]
fn claims_providers_specs_and_entries() {
    let dir = repo(&[
        (
            "src/appendix/existing.md",
            "{{#profile create-return submit internal/provider/pods Create}}",
            "{{#profile create-return blocking internal/provider/pods Create}}",
        ),
        (
            "src/appendix/existing.md",
            "{{#profile readiness immediate `newWithClient`}}",
            "{{#profile readiness immediate `newWithClient` `Start`}}",
        ),
        (
            "src/appendix/existing.md",
            "## `vms` {.provider .proposed}",
            "## `vms` {.provider}",
        ),
        (
            "src/appendix/existing.md",
            "{{#profile create-return unknown}}",
            "{{#profile create-return submit}}",
        ),
        (
            "src/appendix/existing.md",
            "## `vms`",
            "## `lambda` {.provider}\n\n{{#profile readiness immediate x.y}}\n\n## `vms`",
        ),
        ("src/spec.md", "**Status:** draft", "**Status:** accepted"),
        (
            "src/spec.md",
            "## Create\n\n{{#answers create-return}}\n\n**Answer:**\n\n**Evidence:**\n",
            "## Create\n\n{{#answers create-return}}\n\n**Answer:** It blocks: {{#profile create-return blocking}}.\n\n**Evidence:** `nova.Create` waits.\n",
        ),
        (
            "src/template.md",
            "## Create",
            "## Delete\n\n**Answer:**\n\n**Evidence:**\n\n## Create",
        ),
    ]);
    let (kinds, _) = changes(dir.path());
    has(
        &kinds,
        &[
            "claim-changed",
            "claim-evidence-changed",
            "claim-resolved",
            "provider-built",
            "provider-added",
            "spec-status-changed",
            "spec-entries-answered",
            "entry-added",
        ],
    );
    let dir = repo(&[
        (
            "src/appendix/existing.md",
            "## `vms` {.provider .proposed}",
            "## `vms` removed",
        ),
        (
            "src/spec.md",
            "**Answer:** Ready at once: {{#profile readiness immediate}}.",
            "**Answer:**",
        ),
        (
            "src/template.md",
            "## Create\n\n{{#answers create-return}}\n\n**Answer:**\n\n**Evidence:**\n",
            "",
        ),
    ]);
    let (kinds, _) = changes(dir.path());
    has(
        &kinds,
        &["provider-removed", "spec-entries-reopened", "entry-removed"],
    );
}

#[test]
fn a_page_moved_names_the_redirect_that_keeps_its_links() {
    let dir = repo(&[
        (
            "src/SUMMARY.md",
            "(appendix/existing.md)",
            "(appendix/providers.md)",
        ),
        ("src/appendix/providers.md", "", APPENDIX),
    ]);
    // The old file is still committed but no longer a chapter.
    let (kinds, json) = changes(dir.path());
    has(&kinds, &["page-removed"]);
    let removed = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "page-removed")
        .unwrap();
    // At the file the page was written in, as the BASE side has it.
    assert_eq!(removed["at"], "HEAD~1:src/appendix/existing.md:1:1");
    let message = removed["message"].as_str().unwrap().to_owned();
    assert!(
        message.contains("`\"/appendix/existing.html\" = \"appendix/providers.html\"`"),
        "{message}"
    );
}

#[test]
fn the_working_tree_formats_fail_on_and_no_changes() {
    let dir = repo(&[]);
    let (code, stdout, _) = run_in(dir.path(), &["diff", "HEAD~1"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("no changes to the contract between `HEAD~1` and the working tree"),
        "{stdout}"
    );
    // An unsaved change, seen before any commit.
    let contract = dir.path().join("src/contract.md");
    let text = std::fs::read_to_string(&contract).unwrap();
    std::fs::write(
        &contract,
        text.replace("r[list.order]\nListByTag MAY sort its answer.\n", ""),
    )
    .unwrap();
    let (code, human, _) = run_in(dir.path(), &["diff", "HEAD", "--fail-on", "major"]);
    assert_eq!(code, 1, "{human}");
    assert!(
        human.starts_with("major (1):\n  HEAD:src/contract.md:"),
        "{human}"
    );
    assert!(
        human.contains("[rule-removed] rule `list.order` was removed"),
        "{human}"
    );
    assert!(human.trim_end().ends_with("the diff is major"), "{human}");
    let (code, _, _) = run_in(
        dir.path(),
        &["diff", "HEAD", "--fail-on", "major", "--format", "markdown"],
    );
    assert_eq!(code, 1);
    let (_, markdown, _) = run_in(dir.path(), &["diff", "HEAD", "--format", "markdown"]);
    assert!(markdown.starts_with("## Contract changes from `HEAD` to the working tree\n\nThe diff is **major**: 1 major, 0 minor, 0 patch."), "{markdown}");
    // GitHub annotations are at HEAD's lines: a removal, at the heading of the section that
    // held it, saying where it was.
    let (_, github, _) = run_in(dir.path(), &["diff", "HEAD", "--format", "github"]);
    let now = std::fs::read_to_string(&contract).unwrap();
    let heading = now.lines().position(|l| l == "## Rules");
    assert_eq!(
        github,
        format!(
            "::error file=src/contract.md,line={},title=contract major::rule-removed (major): rule `list.order` was removed (was at HEAD:src/contract.md:38:3)\n",
            heading.unwrap() + 1
        )
    );
    std::fs::write(
        &contract,
        text.replace(
            "ListByTag MAY sort its answer.",
            "ListByTag MUST sort its answer, because `Sweeper.sweep` reads it in order.",
        ),
    )
    .unwrap();
    let (_, github, _) = run_in(dir.path(), &["diff", "HEAD", "--format", "github"]);
    assert!(
        github.starts_with("::error file=src/contract.md,line="),
        "{github}"
    );
    assert!(github.contains("rule-tightened (major)"), "{github}");
    // Between two revisions: the annotation's file is the path in HEAD's checkout, not the
    // `HEAD:` it is shown with.
    git(dir.path(), &["commit", "-qam", "tightened"]);
    let (_, github, _) = run_in(
        dir.path(),
        &["diff", "HEAD~1", "HEAD", "--format", "github"],
    );
    assert!(
        github.starts_with("::error file=src/contract.md,line="),
        "{github}"
    );
    assert!(github.contains("at HEAD:src/contract.md:"), "{github}");
}

/// Each revision is written into a temporary folder of its own, which is gone afterwards,
/// whether the diff succeeds or a side cannot be read.
#[test]
fn the_revisions_written_out_are_removed() {
    let dir = repo(&[("src/contract.md", "MAY sort", "MUST sort")]);
    let tmp = tempfile::tempdir().unwrap();
    // Where the temporary folders go: TMPDIR on Unix, TMP (then TEMP) on Windows.
    let tmp_path = tmp.path().to_str().unwrap();
    let env = [("TMPDIR", tmp_path), ("TMP", tmp_path), ("TEMP", tmp_path)];
    let (code, stdout, stderr) =
        crate::common::run_in_with(dir.path(), &["diff", "HEAD~1", "HEAD"], &env);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("rule-tightened"), "{stdout}");
    let (code, _, _) = crate::common::run_in_with(dir.path(), &["diff", "no-such-rev"], &env);
    assert_eq!(code, 2);
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_side_that_cannot_be_read_exits_2_naming_it() {
    let dir = repo(&[("book.toml", "", "[book\n")]);
    let (code, _, stderr) = run_in(dir.path(), &["diff", "HEAD~1", "HEAD"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("the book at `HEAD` cannot be loaded"),
        "{stderr}"
    );
    let (code, _, stderr) = run_in(dir.path(), &["diff", "no-such-branch"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("the revision `no-such-branch`: git does not know it (git said:"),
        "{stderr}"
    );
}

#[test]
fn every_kind_is_in_the_guide_and_in_a_test_here() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("guide/src/reference/changes.md")).unwrap();
    let tests = std::fs::read_to_string(root.join("tests/testsuite/diff.rs")).unwrap();
    for kind in mdbook_contract::CATALOGUE {
        let row = format!("| `{}` | {} |", kind.name, kind.level.as_str());
        assert!(
            page.contains(&row),
            "no row {row} in the guide's reference/changes.md"
        );
        assert!(
            tests.contains(&format!("\"{}\"", kind.name)),
            "{} has no test",
            kind.name
        );
    }
}

#[test]
fn a_book_moved_to_another_folder_still_compares() {
    // `src` becomes `docs`: the same chapters, the same pages, nothing changed in the contract.
    let dir = repo(&[]);
    let root = dir.path();
    std::fs::rename(root.join("src"), root.join("docs")).unwrap();
    std::fs::write(
        root.join("book.toml"),
        TOML.replace("[book]\n", "[book]\nsrc = \"docs\"\n"),
    )
    .unwrap();
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "moved"]);
    let (code, stdout, stderr) = run_in(root, &["diff", "HEAD~1", "HEAD"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("no changes to the contract between `HEAD~1` and `HEAD`"),
        "{stdout}"
    );
}

#[test]
fn a_version_that_rises_less_than_the_change_is_an_error() {
    let versioned = |v: &str| TOML.replace("specs = [", &format!("version = \"{v}\"\nspecs = ["));
    let mut files = base();
    files[0].1 = versioned("1.2.0");
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    write(root, &files);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "base"]);
    // A rule removed (major) released as a minor version.
    let contract = root.join("src/contract.md");
    let text = std::fs::read_to_string(&contract).unwrap();
    std::fs::write(
        &contract,
        text.replace("r[list.order]\nListByTag MAY sort its answer.\n", ""),
    )
    .unwrap();
    std::fs::write(root.join("book.toml"), versioned("1.3.0")).unwrap();
    let (code, human, _) = run_in(root, &["diff", "HEAD"]);
    assert_eq!(code, 1, "{human}");
    assert!(human.contains("error[version]: the contract's version goes from 1.2.0 to 1.3.0 (a minor bump), but the change is major: raise it to 2.0.0"), "{human}");
    let (_, json, _) = run_in(root, &["diff", "HEAD", "--format", "json"]);
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["version"]["bump"], "minor");
    std::fs::write(root.join("book.toml"), versioned("2.0.0")).unwrap();
    let (code, human, _) = run_in(root, &["diff", "HEAD"]);
    assert_eq!(code, 0, "{human}");
    assert!(!human.contains("error[version]"), "{human}");
    // Before 1.0.0, as Cargo reads it, a minor bump is a major one.
    std::fs::write(root.join("book.toml"), versioned("0.3.0")).unwrap();
    git(root, &["add", "book.toml"]);
    git(root, &["commit", "-qm", "0.3.0"]);
    std::fs::write(root.join("book.toml"), versioned("0.4.0")).unwrap();
    let (code, human, _) = run_in(root, &["diff", "HEAD"]);
    assert_eq!(code, 0, "{human}");
    // A version that is not one is a finding at its key.
    std::fs::write(root.join("book.toml"), versioned("one")).unwrap();
    let (_, stdout, _) = run_in(root, &["check", "--format", "json"]);
    assert!(
        stdout.contains("is `one`, which is not a semantic version"),
        "{stdout}"
    );
}

#[test]
fn the_human_form_lists_each_providers_acts_and_the_callers_of_a_removed_profile() {
    let dir = repo(&[(
        "src/contract.md",
        "| `submit` | once the request is accepted | `reconcileManaged` polls |\n",
        "",
    )]);
    let (_, human, _) = run_in(dir.path(), &["diff", "HEAD~1", "HEAD"]);
    assert!(human.contains("who must act:\n  `pods`:\n    choose another profile of `create-return` (HEAD:src/appendix/existing.md:10:"), "{human}");
    assert!(
        human.contains("  callers: `reconcileManaged` polls:\n    stop relying on `submit`"),
        "{human}"
    );
}

#[test]
fn changed_since_set_for_the_job_and_a_version_raised_alone() {
    // CI sets `changed-since` for the whole job; a diff compares models and ignores it.
    let dir = repo(&[
        (
            "book.toml",
            "specs = [",
            "companions = [\"README.md\"]\nspecs = [",
        ),
        ("README.md", "", "# Readme\n"),
        (
            "src/contract.md",
            "r[list.order]\nListByTag MAY",
            "r[list.order+2]\nListByTag MAY",
        ),
    ]);
    let (code, stdout, stderr) = crate::common::run_in_with(
        dir.path(),
        &["diff", "HEAD~1", "HEAD", "--format", "json"],
        &[("MDBOOK_PREPROCESSOR__CONTRACT__CHANGED_SINCE", "HEAD~1")],
    );
    assert_eq!(code, 0, "{stderr}");
    let json: Value = serde_json::from_str(&stdout).unwrap();
    let kinds: Vec<&str> = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    // The words are the same, the version is not: every citation of version 1 is stale.
    assert_eq!(kinds, ["rule-revised"]);
}

#[test]
fn axes_without_a_question_are_not_taken_for_a_rename() {
    let table = "| Profile | Meaning |\n|---|---|\n| `yes` | it does |\n| `no` | it does not |\n";
    let dir = repo(&[(
        "src/contract.md",
        "## Closing table",
        &format!("### `foo` {{.axis}}\n\n{table}\n## Closing table"),
    )]);
    let (code, _, stderr) = run_in(dir.path(), &["diff", "HEAD~1", "HEAD"]);
    assert_eq!(code, 0, "{stderr}");
    git(dir.path(), &["tag", "with-foo"]);
    let contract = dir.path().join("src/contract.md");
    let text = std::fs::read_to_string(&contract).unwrap();
    std::fs::write(
        &contract,
        text.replace("### `foo` {.axis}", "### `bar` {.axis}"),
    )
    .unwrap();
    let (_, json, _) = run_in(dir.path(), &["diff", "with-foo", "--format", "json"]);
    let json: Value = serde_json::from_str(&json).unwrap();
    let kinds: Vec<&str> = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"axis-removed") && kinds.contains(&"axis-added"),
        "{kinds:?}"
    );
    assert!(!kinds.contains(&"axis-renamed"), "{kinds:?}");
}

/// Found by the `rules` fuzz target: a provider that claims an axis twice (which
/// `duplicate-claim` reports) was compared claim by claim with its first claim alone, so an
/// unchanged working tree showed a `claim-changed`.
#[test]
fn an_axis_claimed_twice_is_compared_claim_by_claim() {
    let twice = APPENDIX.replace(
        "{{#profile create-return submit internal/provider/pods Create}}",
        "{{#profile create-return blocking `pods.go`}}\n{{#profile create-return submit internal/provider/pods Create}}",
    );
    no_change_with_appendix(&twice);
}

/// Found by the `rules` fuzz target: two sections of one name (`pods` twice in the appendix)
/// were both compared with the base's first, so an unchanged working tree showed a
/// `claim-evidence-changed`.
#[test]
fn a_provider_named_twice_is_compared_section_by_section() {
    let twice = APPENDIX.replace(
        "## `vms` {.provider .proposed}",
        "## `pods` {.provider}\n\nReady: {{#profile readiness immediate `other.go`}}.\n\n## `vms` {.provider .proposed}",
    );
    no_change_with_appendix(&twice);
}

/// `diff HEAD` of a repository whose appendix is `appendix`, committed and left as it is,
/// finds no change.
fn no_change_with_appendix(appendix: &str) {
    assert_ne!(appendix, APPENDIX);
    let dir = repo(&[("src/appendix/existing.md", "", appendix)]);
    let (code, stdout, stderr) = run_in(dir.path(), &["diff", "HEAD", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let diff: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(diff["changes"], serde_json::json!([]), "{stdout}");
}

#[test]
fn a_rule_renamed_is_one_change_and_a_profile_is_no_caller() {
    // The same text under a new ID: a rename, said once, with what the citing code does.
    let dir = repo(&[(
        "src/contract.md",
        "r[get.found]\nGet MUST answer",
        "r[get.running]\nGet MUST answer",
    )]);
    let (kinds, json) = changes(dir.path());
    assert_eq!(kinds, ["rule-renamed"], "{json:#}");
    let renamed = &json["changes"][0];
    assert_eq!(renamed["level"], "minor");
    assert_eq!(
        renamed["acts"][0]["what"],
        "cite `get.running` instead (the same rule: nothing else to do)"
    );
    // A rule removed whose text names a profile: only the code it names is told.
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    let mut files = base();
    let poll = "A submitting Create MUST report Provisioning, because `reconcileManaged` polls.";
    let contract = &mut files
        .iter_mut()
        .find(|(p, _)| *p == "src/contract.md")
        .unwrap()
        .1;
    *contract = contract.replace(
        poll,
        "A `submit` Create MUST report Provisioning, because `reconcileManaged` polls.",
    );
    write(dir.path(), &files);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "base"]);
    let contract = &mut files
        .iter_mut()
        .find(|(p, _)| *p == "src/contract.md")
        .unwrap()
        .1;
    *contract = contract.replace(
        "r[create-return.poll applies=submit]\nA `submit` Create MUST report Provisioning, because `reconcileManaged` polls.\n",
        "",
    );
    write(dir.path(), &files);
    git(dir.path(), &["commit", "-qam", "head"]);
    let (kinds, json) = changes(dir.path());
    assert!(kinds.contains(&"rule-removed".to_owned()), "{kinds:?}");
    let removed = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "rule-removed")
        .unwrap();
    assert_eq!(
        removed["acts"][0]["who"],
        "the code it names: `reconcileManaged`"
    );
}

#[test]
fn a_book_folder_that_does_not_exist_is_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = crate::common::run_in(dir.path(), &["diff", "HEAD", "--book", "nope"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("the folder `nope` does not exist"),
        "{stderr}"
    );
    assert!(!stderr.contains("PATH"), "{stderr}");
}

#[test]
fn a_rule_renamed_and_loosened_is_one_rename_listing_the_citations_to_update() {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    let mut files = base();
    files[0].1.push_str("source-root = \"code\"\n");
    files.push((
        "code/get_test.go",
        "package code\n\n// r[verify get.found]\nfunc TestGet(t *testing.T) {}\n".to_owned(),
    ));
    write(dir.path(), &files);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "base"]);
    let contract = dir.path().join("src/contract.md");
    let text = std::fs::read_to_string(&contract).unwrap().replace(
        "r[get.found]\nGet MUST answer",
        "r[get.found-running]\nGet SHOULD answer",
    );
    std::fs::write(&contract, text).unwrap();
    let (code, stdout, stderr) = run_in(dir.path(), &["diff", "HEAD", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let json: Value = serde_json::from_str(&stdout).unwrap();
    let kinds: Vec<String> = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap().to_owned())
        .collect();
    has(&kinds, &["rule-renamed", "rule-loosened"]);
    assert!(
        !kinds
            .iter()
            .any(|k| k == "rule-removed" || k == "rule-added"),
        "{kinds:?}"
    );
    let renamed = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "rule-renamed")
        .unwrap();
    assert_eq!(
        renamed["acts"][0]["at"], "code/get_test.go:3:13",
        "{renamed:#}"
    );
    assert_eq!(
        renamed["acts"][0]["what"],
        "cite `get.found-running` instead (the same rule: nothing else to do)"
    );
    // Counted in words: one change is "1 change".
    let (_, human, _) = run_in(dir.path(), &["diff", "HEAD"]);
    assert!(human.contains("mdbook-contract: 2 changes from"), "{human}");
}
