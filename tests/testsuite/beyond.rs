//! The checks beyond the book (the design's "Beyond the book"): companions, changed lines,
//! `carried-over`, and `check` running the preprocessors mdBook runs first.
//!
//! Points 1 to 3 run on a git repository made here from `tests/fixtures/operator` in the
//! operator's layout: book.toml at the root with `src = "docs"`, README.md and CLAUDE.md beside
//! it, docs/architecture.md outside SUMMARY.md; the blueprint committed on `main`, the split on
//! a branch.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::common::{Fixture, binary, git, positions};

pub(crate) fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The operator repository: `before/` committed on `main`, `after/` on
/// `feat/provider-blueprint`, checked out.
pub(crate) fn operator_repo() -> tempfile::TempDir {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/operator");
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixture.join("before"), dir.path());
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "The provider blueprint"]);
    git(dir.path(), &["checkout", "-qb", "feat/provider-blueprint"]);
    copy_tree(&fixture.join("after"), dir.path());
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "Split the blueprint"]);
    dir
}

pub(crate) use super::common::run_in as run;

/// The findings of `check --format short`, one line each, without the count.
fn short(dir: &Path, extra: &[&str]) -> (i32, Vec<String>) {
    let mut args = vec!["check", "--format", "short"];
    args.extend(extra);
    let (code, out, err) = run(dir, &args);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    let lines = out
        .lines()
        .filter(|l| !l.starts_with("mdbook-contract:"))
        .map(str::to_owned)
        .collect();
    (code, lines)
}

fn append(path: &Path, text: &str) {
    let mut old = std::fs::read_to_string(path).unwrap();
    old.push_str(text);
    std::fs::write(path, old).unwrap();
}

#[test]
fn the_split_is_clean_but_for_the_readme_line_it_did_not_change() {
    let repo = operator_repo();
    // Whole: the README's old tagline has an em-dash.
    let (code, lines) = short(repo.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        lines,
        ["README.md:3:51: error[em-dash]: em-dash (U+2014) in prose"]
    );
    // Since the merge base with main: the split's own lines only, and they are clean.
    let (code, lines) = short(repo.path(), &["--changed-since", "main"]);
    assert_eq!((code, lines), (0, Vec::<String>::new()));
}

#[test]
fn companion_links_resolve_from_their_own_folder() {
    let repo = operator_repo();
    let root = repo.path();
    append(
        &root.join("README.md"),
        "\nSee [contract](docs/provider-contract.md#behaviour-profiles), [gone](docs/gone.md), \
         [no anchor](docs/provider-contract.md#no-such-section), [notes](CLAUDE.md#build), \
         [bad notes](CLAUDE.md#nope), [arch](docs/architecture.md#decisions), \
         [bad arch](docs/architecture.md#nope), [quick](#quick-start), [self](#nope), \
         [licence](LICENSE), [docs](docs), [web](https://example.com/x.md).\n",
    );
    append(
        &root.join("docs/architecture.md"),
        "\nBack to the [README](../README.md#adding-a-provider), the \
         [index](providers.md#missing) and [away](../../outside.md).\n",
    );
    let (_, lines) = short(root, &[]);
    let dangling: Vec<&str> = lines
        .iter()
        .filter(|l| l.contains("[dangling-link]"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        dangling,
        [
            "README.md:17:63: error[dangling-link]: the link to `docs/gone.md` leads to no file: `docs/gone.md` does not exist",
            "README.md:17:85: error[dangling-link]: the chapter `provider-contract.md` has no anchor `#no-such-section`",
            "README.md:17:167: error[dangling-link]: `CLAUDE.md` has no anchor `#nope`",
            "README.md:17:236: error[dangling-link]: `docs/architecture.md` has no anchor `#nope`",
            "README.md:17:298: error[dangling-link]: this file has no anchor `#nope`",
            "README.md:17:313: error[dangling-link]: the link to `LICENSE` leads to no file: `LICENSE` does not exist",
            "docs/architecture.md:14:59: error[dangling-link]: the chapter `providers.md` has no anchor `#missing`",
            "docs/architecture.md:14:93: error[dangling-link]: the link to `../../outside.md` leads to no file: `../outside.md` does not exist",
        ],
        "{lines:#?}"
    );
}

#[test]
fn em_dashes_and_line_references_in_companions_unless_allowed() {
    let repo = operator_repo();
    let root = repo.path();
    append(
        &root.join("CLAUDE.md"),
        "\nThe sweep lives at gc.go:40-52 \u{2014} see `provider.go:120`.\n\n\
         <!-- contract: allow line-reference -->\nAllowed here: gc.go:40-52.\n\n\
         <!-- contract: allow em-dahs -->\n",
    );
    let (_, lines) = short(root, &[]);
    let in_claude: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("CLAUDE.md"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        in_claude,
        [
            "CLAUDE.md:12:20: error[line-reference]: source line reference `gc.go:40-52`: line numbers go stale",
            "CLAUDE.md:12:32: error[em-dash]: em-dash (U+2014) in prose",
            "CLAUDE.md:12:39: error[line-reference]: source line reference `provider.go:120`: line numbers go stale",
            "CLAUDE.md:17:1: warning[malformed-suppression]: `em-dahs` is not a check; did you mean `em-dash`?",
        ],
        "{lines:#?}"
    );
}

#[test]
fn changed_since_keeps_the_changed_lines_of_companions_and_every_line_of_chapters() {
    let repo = operator_repo();
    let root = repo.path();
    // An em-dash in a chapter line and in a companion line, both committed: since HEAD, the
    // companion's is an unchanged line, the chapter is checked whole.
    append(&root.join("docs/providers.md"), "\nOne \u{2014} two.\n");
    append(&root.join("CLAUDE.md"), "\nThree \u{2014} four.\n");
    git(root, &["commit", "-qam", "dashes"]);
    // Uncommitted: a changed companion line, and an untracked companion (every line counts).
    append(&root.join("docs/architecture.md"), "\nFive \u{2014} six.\n");
    std::fs::write(root.join("NOTES.md"), "# Notes\n\nSeven \u{2014} eight.\n").unwrap();
    let toml = std::fs::read_to_string(root.join("book.toml")).unwrap();
    std::fs::write(
        root.join("book.toml"),
        toml.replace(
            "\"docs/architecture.md\"]",
            "\"docs/architecture.md\", \"NOTES.md\"]",
        ),
    )
    .unwrap();
    let (_, lines) = short(root, &["--changed-since", "HEAD"]);
    assert_eq!(
        lines,
        [
            "docs/providers.md:7:5: error[em-dash]: em-dash (U+2014) in prose",
            "docs/architecture.md:14:6: error[em-dash]: em-dash (U+2014) in prose",
            "NOTES.md:3:7: error[em-dash]: em-dash (U+2014) in prose",
        ]
    );
    // The key does the same, and the environment sets it as every key.
    let (ctx, book) = mdbook_contract::load(root, "html").unwrap();
    let mut ctx = ctx;
    ctx.config
        .set("preprocessor.contract.changed-since", "HEAD")
        .unwrap();
    let report = mdbook_contract::check(&ctx, &book, PathBuf::new()).unwrap();
    assert_eq!(
        positions(&report, "em-dash"),
        [
            "docs/providers.md:7:5",
            "docs/architecture.md:14:6",
            "NOTES.md:3:7"
        ]
    );
    let output = Command::new(binary())
        .args(["check", "--format", "short"])
        .current_dir(root)
        .env("MDBOOK_PREPROCESSOR__CONTRACT__CHANGED_SINCE", "HEAD")
        .output()
        .unwrap();
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(!out.contains("CLAUDE.md"), "{out}");
    assert!(out.contains("NOTES.md:3:7"), "{out}");
}

#[test]
fn changed_since_names_an_unknown_revision_a_missing_git_and_a_folder_without_a_repository() {
    let repo = operator_repo();
    let (code, _, err) = run(repo.path(), &["check", "--changed-since", "origin/nope"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`changed-since` is `origin/nope`, which git does not know as a revision"),
        "{err}"
    );
    let output = Command::new(binary())
        .args(["check", "--changed-since", "main"])
        .current_dir(repo.path())
        .env("PATH", "")
        .output()
        .unwrap();
    let err = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        err.contains(
            "`changed-since` is `main`: this needs the `git` command, which is not on the PATH"
        ),
        "{err}"
    );
    let plain = tempfile::tempdir().unwrap();
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/operator/after"),
        plain.path(),
    );
    for file in ["README.md", "CLAUDE.md"] {
        std::fs::write(plain.path().join(file), "# x\n").unwrap();
    }
    // Outside any repository (the temporary folder is not in one; GIT_CEILING_DIRECTORIES
    // makes sure git does not look above it).
    let output = Command::new(binary())
        .args(["check", "--changed-since", "main"])
        .current_dir(plain.path())
        .env("GIT_CEILING_DIRECTORIES", plain.path().parent().unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("not a git repository"), "{err}");
}

/// A companion that is not there is an error at its place in book.toml, naming the file and
/// the folder it was looked for in; the book and the other companions are still checked.
#[test]
fn a_companion_that_is_missing_or_a_chapter_is_a_finding_at_its_key() {
    let repo = operator_repo();
    let root = repo.path();
    let toml = std::fs::read_to_string(root.join("book.toml")).unwrap();
    std::fs::write(
        root.join("book.toml"),
        toml.replace("\"CLAUDE.md\"", "\"CLAUD.md\""),
    )
    .unwrap();
    let (code, lines) = short(root, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        lines,
        [
            "book.toml:13:28: error[dangling-path]: `preprocessor.contract.companions[1]` is \
             `CLAUD.md`, which does not exist: there is no `CLAUD.md` in `.`, the folder of \
             book.toml; did you mean `CLAUDE.md`?",
            // The README, a companion that exists, is still checked.
            "README.md:3:51: error[em-dash]: em-dash (U+2014) in prose",
        ]
    );
    let (_, out, _) = run(root, &["check"]);
    assert!(out.contains("  --> book.toml:13:28\n"), "{out}");
    assert!(
        out.contains("the other companions and the book are checked without it"),
        "{out}"
    );

    std::fs::write(
        root.join("book.toml"),
        toml.replace("\"CLAUDE.md\"", "\"docs/providers.md\""),
    )
    .unwrap();
    let (code, lines) = short(root, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        lines[0],
        "book.toml:13:28: error[malformed-config]: `preprocessor.contract.companions[1]` is \
         `docs/providers.md`, which is the chapter `providers.md` of the book and is checked as one"
    );
}

#[test]
fn carried_over_reports_each_item_whose_words_the_book_lacks() {
    let repo = operator_repo();
    let root = repo.path();
    let (code, out, err) = run(
        root,
        &[
            "carried-over",
            "main:docs/providers.md",
            "--section",
            "Gaps and proposed features",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "mdbook-contract: all 5 list items of \"9. Gaps and proposed features\" are carried over\n"
    );
    // A near miss is suggested with the numbering set aside, as the lookup sets it aside.
    let (code, _, err) = run(
        root,
        &[
            "carried-over",
            "main:docs/providers.md",
            "--section",
            "gaps and proposed featur",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("did you mean `Gaps and proposed features`?"),
        "{err}"
    );
    // The contract loses `registry.Build`; the appendix keeps `ListByTag`.
    let contract = root.join("docs/provider-contract.md");
    let text = std::fs::read_to_string(&contract).unwrap();
    std::fs::write(
        &contract,
        text.replace("; `registry.Build` wires providers without one", ""),
    )
    .unwrap();
    let (code, out, _) = run(
        root,
        &[
            "carried-over",
            "main:docs/providers.md",
            "--section",
            "gaps",
            "--section",
            "Proposed Features",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "main:docs/providers.md:17: not in the book: `registry.Build` (item: \"A conformance suite run against every provider through...\")\n\
         mdbook-contract: 1 of 5 list items of \"Gaps\", \"Proposed features\" not carried over\n"
    );
    // OLD as a file; every section when none is named.
    git(root, &["show", "main:docs/providers.md"]);
    let old = Command::new("git")
        .args(["show", "main:docs/providers.md"])
        .current_dir(root)
        .output()
        .unwrap()
        .stdout;
    std::fs::write(root.join("old-blueprint.md"), old).unwrap();
    let (code, out, _) = run(root, &["carried-over", "old-blueprint.md"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("old-blueprint.md:17: not in the book: `registry.Build`"),
        "{out}"
    );
    assert!(
        out.ends_with("1 of 5 list items of `old-blueprint.md` not carried over\n"),
        "{out}"
    );
}

#[test]
fn carried_over_names_what_it_cannot_read() {
    let repo = operator_repo();
    let root = repo.path();
    let (code, _, err) = run(
        root,
        &[
            "carried-over",
            "main:docs/providers.md",
            "--section",
            "Gapz",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "`--section Gapz`: `main:docs/providers.md` has no heading `Gapz`; did you mean `Gaps`?"
        ),
        "{err}"
    );
    let (code, _, err) = run(root, &["carried-over", "nope:docs/providers.md"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`nope:docs/providers.md`: git said: fatal:"),
        "{err}"
    );
    let (code, _, err) = run(root, &["carried-over", "docs/old.md"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`docs/old.md` is not a file; give a file, or `REV:PATH`"),
        "{err}"
    );
}

/// A preprocessor as a shell script (POSIX `sh` and `awk` only): it answers `supports` and
/// replaces `FROM` with `TO` in the book mdBook pipes in.
#[cfg(unix)]
fn script_preprocessor(dir: &Path, name: &str, from: &str, to: &str) {
    let script = format!(
        "#!/bin/sh\n\
         [ \"$1\" = supports ] && exit 0\n\
         # The input is [context, book] on one line; the book starts at its `items`.\n\
         awk '{{ i = index($0, \",{{\\\"items\\\":\"); s = substr($0, i + 1, length($0) - i - 1); gsub(/{from}/, \"{to}\", s); print s }}'\n"
    );
    std::fs::write(dir.join(name), script).unwrap();
}

// Its preprocessors are `sh` scripts.
#[cfg(unix)]
#[test]
fn check_runs_the_preprocessors_mdbook_runs_before_it_and_no_later_one() {
    let book = Fixture::new(&[
        (
            "book.toml",
            "[book]\ntitle = \"T\"\n\n\
             [preprocessor.rules]\ncommand = \"sh rules.sh\"\n\n\
             [preprocessor.contract]\nafter = [\"links\", \"rules\"]\n\n\
             [preprocessor.late]\ncommand = \"sh late.sh\"\nafter = [\"contract\"]\n",
        ),
        ("src/a.md", "# A\n\nSee RULE-LINK for the rule.\n"),
    ]);
    script_preprocessor(
        book.root(),
        "rules.sh",
        "RULE-LINK",
        "[rule 7](rules.md#r7)",
    );
    script_preprocessor(book.root(), "late.sh", "rule", "rule \\\\u2014");
    let report = book.check();
    assert_eq!(
        positions(&report, "dangling-link"),
        ["src/a.md:3:5"],
        "{report:#?}"
    );
    let finding = &report.findings[0];
    assert!(
        finding.message.contains("`rules.md#r7`"),
        "{}",
        finding.message
    );
    assert_eq!(
        finding.location.note.as_deref(),
        Some(
            "this text was generated in place of the text marked here by a preprocessor that ran before this one (`rules`); it is not in the file"
        )
    );
    assert!(
        positions(&report, "em-dash").is_empty(),
        "`late` runs after"
    );
    // Ordered before, `late` is run, and its em-dash seen.
    let toml = std::fs::read_to_string(book.root().join("book.toml")).unwrap();
    std::fs::write(
        book.root().join("book.toml"),
        toml.replace("after = [\"contract\"]", "before = [\"contract\"]"),
    )
    .unwrap();
    // The em-dash `late` writes after "rule": at that place in the file as written.
    assert_eq!(positions(&book.check(), "em-dash"), ["src/a.md:3:27"]);
    std::fs::write(book.root().join("book.toml"), toml).unwrap();
    // A build sees the same link, and fails on it.
    let (built, _) = book.build();
    let error = format!("{:#}", built.unwrap_err());
    assert!(error.contains("error"), "{error}");
}

// Its preprocessors are `sh` scripts.
#[cfg(unix)]
#[test]
fn a_failing_earlier_preprocessor_is_named() {
    let book = Fixture::new(&[
        (
            "book.toml",
            "[book]\ntitle = \"T\"\n\n[preprocessor.broken]\ncommand = \"sh broken.sh\"\n\n[preprocessor.contract]\nafter = [\"links\", \"broken\"]\n",
        ),
        ("src/a.md", "# A\n"),
        (
            "broken.sh",
            "[ \"$1\" = supports ] && exit 0\necho 'broken: no rules file' >&2\nexit 3\n",
        ),
    ]);
    let error = format!(
        "{:#}",
        mdbook_contract::load(book.root(), "html").unwrap_err()
    );
    assert!(
        error.contains("a preprocessor that mdBook runs before `contract` failed"),
        "{error}"
    );
    assert!(error.contains("broken"), "{error}");
}
