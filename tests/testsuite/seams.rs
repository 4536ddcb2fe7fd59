//! What a Python team met in its first day with a book of its own (`tests/fixtures/flags`):
//! one mistake one finding, an ignored file said ignored, a short `outdated-baseline`, the
//! profile matrix's count named for what it counts, `new-spec` keeping the template's header.

use serde_json::Value;

use crate::common::{Fixture, run_in};

/// The findings of `check --format json` in the book at `book`, as (check, message).
fn findings(book: &Fixture) -> Vec<(String, String)> {
    let (_, stdout, stderr) = run_in(book.root(), &["check", "--format", "json"]);
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    json.as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["check"].as_str().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_path_with_a_line_is_one_finding_and_an_ignored_file_is_said_ignored() {
    let book = Fixture::copy_of(
        "flags",
        &[("src/contract.md", &|t: &str| {
            format!(
                "{t}\nSee `flagsvc/launchdarkly.py:22`, `flagsvc/nothere.py:3` and `results/junit.xml`.\n"
            )
        })],
    );
    std::fs::write(book.root().join(".gitignore"), "results/\n").unwrap();
    let found = findings(&book);
    let about = |what: &str| -> Vec<&(String, String)> {
        found.iter().filter(|(_, m)| m.contains(what)).collect()
    };
    // A line reference to a file that exists: `line-reference` alone.
    let line = about("flagsvc/launchdarkly.py:22");
    assert_eq!(line.len(), 1, "{found:#?}");
    assert_eq!(line[0].0, "line-reference");
    // A line reference to a file that does not exist: two mistakes, two findings.
    assert_eq!(about("flagsvc/nothere.py:3").len(), 2, "{found:#?}");
    // Present, and ignored: said so.
    let ignored = about("results/junit.xml");
    assert_eq!(ignored.len(), 1, "{found:#?}");
    assert_eq!(
        ignored[0].1,
        "`results/junit.xml` is under the source root `.`, but git (`.gitignore`) or an `.ignore` file leaves it out of the source tree"
    );
}

#[test]
fn new_spec_keeps_the_template_header_fills_its_type_and_says_so() {
    let book = Fixture::copy_of("flags", &[]);
    let (code, stdout, stderr) = run_in(book.root(), &["new-spec", "split"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("kept the template's 5 lines before its first entry under the spec's title\nfilled the header's empty `Type` with `split`\n"),
        "{stdout}"
    );
    let spec = std::fs::read_to_string(book.root().join("src/split-backend-spec.md")).unwrap();
    assert!(
        spec.starts_with("# `split` backend spec {.provider .proposed}\n\n**Status:** draft\n\n{{#spec-status}}\n\nCopy this chapter for a new backend, fill every Answer, hand it to the implementer.\n\n| Type | Owner |\n|---|---|\n| `split` | flags team |\n\n## Evaluation\n"),
        "{spec}"
    );
    // The book still builds with no error.
    let found = findings(&book);
    assert!(
        found.iter().all(|(check, _)| check != "spec-drift"),
        "{found:#?}"
    );
}

/// What the guide says of the tool, held against the tool: each test fails when the next
/// change makes them disagree again.
mod the_guide_says {
    use super::findings;
    use crate::common::{Fixture, contract_book};

    fn book_with(extra: &[(&str, &str)], toml_extra: &str) -> Fixture {
        let mut files = contract_book();
        files.extend_from_slice(extra);
        let toml = format!(
            "[book]\ntitle = \"Guide\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\ntemplate = [\"template.md\"]\n{toml_extra}"
        );
        let mut all: Vec<(&str, &str)> = files;
        all.push(("book.toml", &toml));
        Fixture::new(&all)
    }

    #[test]
    fn a_shortcode_in_a_heading_is_a_malformed_shortcode() {
        let book = book_with(
            &[(
                "src/notes.md",
                "# Notes\n\n## About {{#axis readiness}}\n\nText.\n",
            )],
            "",
        );
        let found = findings(&book);
        assert!(
            found
                .iter()
                .any(|(c, m)| c == "malformed-shortcode" && m.contains("heading")),
            "{found:?}"
        );
    }

    #[test]
    fn invisible_character_reads_companions() {
        let book = book_with(
            &[("NOTES.md", "# Notes\n\nAn override \u{202e}here.\n")],
            "companions = [\"NOTES.md\"]\n",
        );
        let found = findings(&book);
        assert!(
            found.iter().any(|(c, _)| c == "invisible-character"),
            "{found:?}"
        );
    }

    #[test]
    fn links_ordered_after_is_said_only_for_a_book_with_a_directive() {
        let plain = Fixture::new(&[
            (
                "book.toml",
                "[book]\ntitle = \"A\"\n\n[preprocessor.contract]\n",
            ),
            ("src/a.md", "# A\n\nText.\n"),
        ]);
        assert!(
            !findings(&plain)
                .iter()
                .any(|(c, _)| c == "leftover-directive")
        );
        let with = Fixture::new(&[
            (
                "book.toml",
                "[book]\ntitle = \"A\"\n\n[preprocessor.contract]\n",
            ),
            ("src/a.md", "# A\n\n{{#include b.txt}}\n"),
            ("src/b.txt", "Included.\n"),
        ]);
        assert!(
            findings(&with)
                .iter()
                .any(|(c, _)| c == "leftover-directive")
        );
    }
}

#[test]
fn a_misspelt_table_of_this_preprocessor_is_told_at_its_line() {
    let book = Fixture::new(&[
        (
            "book.toml",
            "[book]\ntitle = \"A\"\n\n[preprocessor.contracts]\nafter = [\"links\"]\n",
        ),
        ("src/a.md", "# A\n\nText.\n"),
    ]);
    let (code, _, stderr) = run_in(book.root(), &["check"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "book.toml:4:1: `[preprocessor.contracts]` names no preprocessor of this book; did you mean `[preprocessor.contract]`?"
        ),
        "{stderr}"
    );
}

#[test]
fn results_that_match_nothing_suggest_the_path_from_book_toml_and_keep_the_baselines_failures() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    crate::common::git(root, &["init", "-q"]);
    std::fs::create_dir_all(root.join("results")).unwrap();
    std::fs::write(
        root.join("results/junit.xml"),
        "<testsuites><testsuite name=\"s\"><testcase classname=\"c\" name=\"t\"/></testsuite></testsuites>\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("docs/src")).unwrap();
    std::fs::write(
        root.join("docs/book.toml"),
        "[book]\ntitle = \"D\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\nsource-root = \"..\"\ntest-results = [\"results/*.xml\"]\n",
    )
    .unwrap();
    std::fs::write(
        root.join("docs/src/SUMMARY.md"),
        "# S\n\n- [C](contract.md)\n",
    )
    .unwrap();
    std::fs::write(
        root.join("docs/src/contract.md"),
        "# C\n\n## Put\n\nr[put.atomic]\nA put MUST be atomic.\n",
    )
    .unwrap();
    let book = root.join("docs");
    let (_, short, _) = run_in(&book, &["check", "--format", "short"]);
    assert!(
        short.contains("`../results/*.xml` would match 1 file from there"),
        "{short}"
    );
    // A failure the baseline records is not called outdated while a report is not read.
    let storage =
        crate::runners::storage("pytest", "providers", "azure_blob", &["pytest-junit.xml"]);
    run_in(storage.root(), &["check", "--write-baseline", "known.txt"]);
    let toml = storage.root().join("book.toml");
    let text = std::fs::read_to_string(&toml)
        .unwrap()
        .replace("results/pytest-junit.xml", "results/nothing-*.xml")
        .replace(
            "[preprocessor.contract.checks]",
            "baseline = \"known.txt\"\n\n[preprocessor.contract.checks]",
        );
    std::fs::write(&toml, text).unwrap();
    let found = findings(&storage);
    assert!(
        found.iter().any(|(c, _)| c == "malformed-results"),
        "{found:?}"
    );
    assert!(
        !found
            .iter()
            .any(|(c, m)| c == "outdated-baseline" && m.contains("failing-rule")),
        "{found:?}"
    );
}

#[test]
fn status_names_the_shared_suite_that_counts_for_every_built_provider() {
    let book = crate::broker::broker(&[]);
    let (_, status, _) = run_in(book.root(), &["status"]);
    assert!(
        status.contains("counting for every built provider (`kafka`, `nats-jetstream`, `rabbitmq`), as no provider's places hold them: conformance/conformance_test.go (4 citations)"),
        "{status}"
    );
}

/// The broker book with `publish.trace-header` cited only by a test in `adapters/sqs/`, a
/// folder beside the adapters' folders that no provider is named after.
pub(crate) fn with_an_unnamed_adapters_test(
    book_toml: &'static dyn Fn(&str) -> String,
) -> crate::common::Fixture {
    let uncite = |t: &str| t.replace("// r[verify publish.trace-header]", "// trace headers");
    let sqs = |_: &str| {
        "package sqs\n\nimport \"testing\"\n\n// r[verify publish.trace-header]\nfunc TestTraceHeader(t *testing.T) {}\n".to_owned()
    };
    crate::broker::broker(&[
        ("code/conformance/conformance_test.go", &uncite),
        ("code/adapters/sqs/sqs_test.go", &sqs),
        ("book.toml", book_toml),
    ])
}

#[test]
fn a_test_beside_the_providers_folders_counts_for_none_unless_shared() {
    let book = with_an_unnamed_adapters_test(&|t: &str| t.to_owned());
    let (_, status, _) = run_in(book.root(), &["status"]);
    assert!(
        status.contains("`kafka`, 5 of 6 rules verified, 0 implemented only, 1 uncovered"),
        "{status}"
    );
    assert!(
        status.contains("note: counting for no provider: 1 citation in `adapters/sqs/`, a folder beside the providers' folders in `adapters/` that no provider of the book is named after;"),
        "{status}"
    );
    assert!(!status.contains("adapters/sqs/sqs_test.go ("), "{status}");
    let (_, short, _) = run_in(book.root(), &["check"]);
    assert!(
        short.contains("`kafka` is bound by the rule `publish.trace-header`, which no test counting for it verifies"),
        "{short}"
    );
    assert!(
        short.contains("the `verify` at adapters/sqs/sqs_test.go:5 stands in `adapters/sqs/`, beside the providers' folders, and no provider of the book is named after it, so it counts for none"),
        "{short}"
    );
    // Declared shared, it counts for every built provider again, and is named as such.
    let shared = with_an_unnamed_adapters_test(&|t: &str| {
        t.replace(
            "shared-layer = [\"bus\"]",
            "shared-layer = [\"bus\", \"adapters/sqs\"]",
        )
    });
    let (_, status, _) = run_in(shared.root(), &["status"]);
    assert!(
        status.contains("`kafka`, 6 of 6 rules verified"),
        "{status}"
    );
    assert!(!status.contains("counting for no provider"), "{status}");
    assert!(
        status.contains("as no provider's places hold them: adapters/sqs/sqs_test.go (1 citation), conformance/conformance_test.go (3 citations)"),
        "{status}"
    );
}

#[test]
fn a_zero_width_space_in_a_marker_is_named_as_the_guide_says() {
    let mut files = crate::common::contract_book();
    let contract = format!(
        "{}\n## Rules\n\nr[put\u{200b}.atomic]\nA put MUST be atomic.\n",
        crate::common::CONTRACT
    );
    files.retain(|(p, _)| *p != "src/contract.md");
    files.push(("src/contract.md", &contract));
    let book = Fixture::new(&files);
    let found = findings(&book);
    assert!(
        found
            .iter()
            .any(|(c, m)| c == "invisible-character" && m.contains("a rule marker")),
        "{found:?}"
    );
}
