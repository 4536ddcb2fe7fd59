//! The user's guide (`guide/`) cannot drift from the code: its examples run, its tutorial's books
//! are the edits it shows, it builds with this preprocessor without a finding, and its reference
//! lists every check, key of book.toml and command the code has.
//!
//! The examples are trycmd transcripts (`guide/examples/*/*.md`, each `$ ` line a command, the
//! lines after it what it prints), which the chapters include; a case's `NAME.in/` is the folder
//! it runs in and `NAME.out/` what it must leave there (a sandbox, so nothing in the repository
//! changes). After a change of output, `TRYCMD=overwrite cargo test --test testsuite guide::`
//! writes the new output into the transcripts; read the diff before committing it.

use std::path::{Path, PathBuf};

use crate::common::{binary, files, run_in};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The transcripts: `guide/examples/*/*.md`.
fn transcripts() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for folder in std::fs::read_dir(root().join("guide/examples")).unwrap() {
        let folder = folder.unwrap().path();
        if !folder.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&folder).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "md") {
                out.push(file);
            }
        }
    }
    out.sort();
    out
}

/// Where `program` is on the `PATH` (trycmd runs a program by its path; `git.exe` on
/// Windows).
fn on_path(program: &str) -> PathBuf {
    let file = format!("{program}{}", std::env::consts::EXE_SUFFIX);
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|folder| folder.join(&file))
        .find(|path| path.is_file())
        .unwrap_or_else(|| panic!("`{program}` is not on the PATH"))
}

#[test]
fn the_guides_examples_run_as_written() {
    // trycmd passes over a command whose program it does not know: every command must be one
    // of the two registered below, or it would never run.
    for file in transcripts() {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines().filter(|l| l.starts_with("$ ")) {
            assert!(
                line.starts_with("$ mdbook-contract ") || line.starts_with("$ git "),
                "{}: `{line}` runs a program the test does not know",
                file.display()
            );
        }
    }
    // The books as a reader has them, without the guide's anchors.
    let sandbox = reader_copy();
    // git, for `diff`: an identity of its own, whatever the machine's configuration.
    trycmd::TestCases::new()
        .register_bin("mdbook-contract", Path::new(binary()))
        .register_bin("git", on_path("git"))
        .env("NO_COLOR", "1")
        // What a first run prints: a transcript's commands must not depend on the cache an
        // earlier one left (tests/testsuite/cache.rs shows it changes nothing else).
        .env("MDBOOK_CONTRACT_NO_CACHE", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Docs")
        .env("GIT_AUTHOR_EMAIL", "docs@example.com")
        .env("GIT_COMMITTER_NAME", "Docs")
        .env("GIT_COMMITTER_EMAIL", "docs@example.com")
        .env("GIT_AUTHOR_DATE", "2026-12-06T12:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-12-06T12:00:00Z")
        .case(sandbox.path().join("examples/*/*.md"));
    // `TRYCMD=overwrite` wrote the sandbox's transcripts: they go back to the guide.
    if std::env::var_os("TRYCMD").is_some_and(|v| v == "overwrite") {
        for transcript in transcripts() {
            let relative = transcript.strip_prefix(root().join("guide")).unwrap();
            std::fs::copy(sandbox.path().join(relative), &transcript).unwrap();
        }
    }
}

/// A copy of `guide/examples` in which every book (`*.in`, `*.out`) is as a reader has it:
/// without the `ANCHOR` lines that the chapters include its parts by, so that a transcript's
/// line numbers are the reader's.
fn reader_copy() -> tempfile::TempDir {
    let sandbox = tempfile::tempdir().unwrap();
    let from = root().join("guide/examples");
    let to = sandbox.path().join("examples");
    crate::common::copy_tree(&from, &to);
    for file in crate::common::files(&to) {
        if !file.contains(".in/") && !file.contains(".out/") {
            continue;
        }
        let path = to.join(&file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if text.contains("ANCHOR") {
            let kept: String = text
                .split_inclusive('\n')
                .filter(|line| !line.contains("ANCHOR: ") && !line.contains("ANCHOR_END: "))
                .collect();
            std::fs::write(&path, kept).unwrap();
        }
    }
    sandbox
}

/// Each state of the tutorial's book, the state it is made from, and the files it replaces
/// whole (the others differ only by the regions between new `ANCHOR:` lines, which the chapters
/// include as the edit to make).
const STATES: &[(&str, &str, &[&str])] = &[
    (
        "tutorial/change-1.in",
        "tutorial/init.out/storage-docs",
        &[],
    ),
    ("tutorial/change-2.in", "tutorial/change-1.in", &[]),
    (
        "tutorial/results-1.in",
        "tutorial/change-2.in",
        &["code/gcs/backend.py"],
    ),
    (
        "tutorial/results-2.in",
        "tutorial/results-1.in",
        &["results/junit.xml", "code/gcs/backend.py"],
    ),
    ("how-to/diff.in", "tutorial/results-2.in", &[]),
    ("how-to/baseline.in", "tutorial/change-1.in", &[]),
];

/// `text` without the regions of the anchors that `before` does not have.
fn without_new_anchors(text: &str, before: &str) -> String {
    let mut out = String::new();
    let mut inside: Option<String> = None;
    for line in text.split_inclusive('\n') {
        if let Some(name) = &inside {
            if line.contains(&format!("ANCHOR_END: {name}")) {
                inside = None;
            }
            continue;
        }
        let anchor = line
            .split_once("ANCHOR: ")
            .map(|(_, rest)| rest.split_whitespace().next().unwrap_or("").to_owned());
        match anchor {
            Some(name) if !before.contains(&format!("ANCHOR: {name}")) => inside = Some(name),
            _ => out.push_str(line),
        }
    }
    out
}

#[test]
fn the_tutorials_books_are_the_edits_it_shows() {
    let examples = root().join("guide/examples");
    for (state, from, replaced) in STATES {
        for file in files(&examples.join(from)) {
            let before = std::fs::read_to_string(examples.join(from).join(&file)).unwrap();
            let after = std::fs::read_to_string(examples.join(state).join(&file))
                .unwrap_or_else(|_| panic!("{state}: `{file}` of {from} is missing"));
            if replaced.contains(&file.as_str()) {
                continue;
            }
            assert_eq!(
                without_new_anchors(&after, &before),
                before,
                "{state}/{file}: differs from {from} outside the regions of its new anchors"
            );
        }
    }
}

#[test]
fn the_guide_builds_with_this_preprocessor_without_a_finding() {
    let guide = root().join("guide");
    let (ctx, book) = mdbook_contract::load(&guide, "html").expect("the guide loads");
    let report = mdbook_contract::check(&ctx, &book, PathBuf::new()).expect("the checks run");
    let findings: Vec<String> = report
        .findings
        .iter()
        .map(|f| {
            format!(
                "{}:{}:{}: {}[{}]: {}",
                f.location.path.display(),
                f.location.line,
                f.location.column,
                f.severity.as_str(),
                f.check,
                f.message
            )
        })
        .collect();
    assert!(findings.is_empty(), "{}", findings.join("\n"));
    let out = tempfile::tempdir().unwrap();
    crate::common::build_into(&guide, out.path());
    let commands = std::fs::read_to_string(out.path().join("reference/commands.html")).unwrap();
    assert!(
        commands.contains("Usage: mdbook-contract init"),
        "the help is included"
    );
    // The schema the export page links to is published beside it. The guide holds a copy (a
    // symbolic link is a text file in a Windows checkout): `cp schema/contract.schema.json
    // guide/src/reference/` after a change of the schema.
    let schema = std::fs::read_to_string(out.path().join("reference/contract.schema.json"))
        .expect("the schema is copied into the site");
    assert_eq!(
        schema,
        mdbook_contract::CONTRACT_SCHEMA,
        "guide/src/reference/contract.schema.json is not schema/contract.schema.json"
    );
}

/// The headings `## `name`` (or `### `) of a reference page, as names.
fn entries(page: &str, level: &str) -> Vec<String> {
    page.lines()
        .filter_map(|l| l.strip_prefix(level))
        .filter_map(|l| l.strip_prefix('`')?.strip_suffix('`'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_reference_has_every_check_key_and_command() {
    let checks = read("guide/src/reference/checks.md");
    let documented = entries(&checks, "## ");
    let mut missing = Vec::new();
    for check in mdbook_contract::Check::ALL {
        let name = check.name();
        let Some(at) = checks.find(&format!("## `{name}`\n")) else {
            missing.push(format!(
                "check `{name}`: no `## `{name}`` in reference/checks.md"
            ));
            continue;
        };
        let default = check.default_severity().as_str();
        let section = &checks[at..];
        let said = section
            .lines()
            .find_map(|l| l.strip_prefix("**Default:** "));
        if !said.is_some_and(|s| s.starts_with(default)) {
            missing.push(format!(
                "check `{name}`: its default is {default}, the page says {said:?}"
            ));
        }
        for part in ["**Fires on:**", "**Fix:**"] {
            let next = section[3..].find("\n## ").map_or(section.len(), |n| n + 3);
            if !section[..next].contains(part) {
                missing.push(format!("check `{name}`: no {part}"));
            }
        }
    }
    for name in &documented {
        if !mdbook_contract::Check::ALL.iter().any(|c| c.name() == name) {
            missing.push(format!(
                "reference/checks.md documents `{name}`, which is no check"
            ));
        }
    }
    let config = read("guide/src/reference/configuration.md");
    let keys = entries(&config, "### ");
    for (key, _) in mdbook_contract::CONFIG_KEYS {
        if !keys.iter().any(|k| k == key) {
            missing.push(format!(
                "key `{key}`: no `### `{key}`` in reference/configuration.md"
            ));
        }
        if !config.contains(&format!("### `{key}`\n\n**Expects:**")) {
            missing.push(format!("key `{key}`: no **Expects:** line"));
        }
    }
    let commands = read("guide/src/reference/commands.md");
    let (code, help, _) = run_in(root(), &["--help"]);
    assert_eq!(code, 0);
    let listed = help
        .split("Commands:\n")
        .nth(1)
        .expect("the help lists the commands")
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help");
    let mut count = 0;
    for name in listed {
        count += 1;
        if !commands.contains(&format!("## `mdbook-contract {name}`\n")) {
            missing.push(format!(
                "command `{name}`: no section in reference/commands.md"
            ));
        }
        if !commands.contains(&format!("{{{{#include ../../examples/help/{name}.md}}}}")) {
            missing.push(format!("command `{name}`: its --help is not included"));
        }
    }
    assert!(count >= 12, "{help}");
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
