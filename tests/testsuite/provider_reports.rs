//! Providers in their own repositories: `mdbook-contract report` run in a provider's git
//! repository against a checkout of the contract's book, through the binary. `Repos` makes the
//! three repositories (the book, `alpha` and `beta`, each with Python code citing the rules
//! and a pytest JUnit report); the book's side of the reports is in `provider_reports_book.rs`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{git, run_in};

pub(crate) const BOOK_TOML: &str = r#"[book]
title = "Store contract"

[preprocessor.contract]
after = ["links"]
contract = ["contract.md"]
"#;

pub(crate) const SUMMARY: &str =
    "# Summary\n\n- [Contract](contract.md)\n- [Providers](providers.md)\n";

pub(crate) const CONTRACT: &str = "# Contract\n\n## Rules\n\nr[store.put]\nPut MUST store the value whole.\n\nr[store.get]\nGet MUST answer what Put stored.\n\nr[store.list]\nList MUST answer every key.\n";

pub(crate) const PROVIDERS: &str = "# Providers\n\n{{#rule-matrix}}\n\n## `alpha` {.provider}\n\nThe first store.\n\n## `beta` {.provider}\n\nThe second store.\n";

/// The code of a provider: `store.put` implemented, `store.put` and `store.get` verified.
pub(crate) const CODE: &str = "# r[impl store.put]\ndef put(key, value):\n    pass\n";

pub(crate) const TESTS: &str = "# r[verify store.put]\ndef test_put():\n    pass\n\n\n# r[verify store.get]\ndef test_get():\n    pass\n";

/// A pytest JUnit report: `test_put` passed, `test_get` as `get` says (`None`: passed).
pub(crate) fn junit(get_failure: Option<&str>) -> String {
    let get = match get_failure {
        Some(why) => format!(
            r#"<testcase classname="tests.test_store" name="test_get" time="0.001"><failure message="{why}">tests/test_store.py:8: AssertionError</failure></testcase>"#
        ),
        None => {
            r#"<testcase classname="tests.test_store" name="test_get" time="0.001" />"#.to_owned()
        }
    };
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="2" timestamp="2026-12-07T09:00:00"><testcase classname="tests.test_store" name="test_put" time="0.001" />{get}</testsuite></testsuites>"#
    )
}

pub(crate) fn write(dir: &Path, files: &[(&str, &str)]) {
    crate::common::write_files(dir, files);
}

/// A git repository at `dir` with `files` committed, and `origin` when given.
pub(crate) fn repository(dir: &Path, files: &[(&str, &str)], origin: Option<&str>) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q", "-b", "main"]);
    write(dir, files);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "first"]);
    if let Some(url) = origin {
        git(dir, &["remote", "add", "origin", url]);
    }
}

/// The commit checked out at `dir`.
pub(crate) fn head(dir: &Path) -> String {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(dir)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// The three repositories side by side in one temporary folder: `book`, `alpha` (whose
/// `test_get` failed) and `beta` (all passed).
pub(crate) struct Repos {
    pub(crate) dir: tempfile::TempDir,
}

impl Repos {
    pub(crate) fn new() -> Repos {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        repository(
            &root.join("book"),
            &[
                ("book.toml", BOOK_TOML),
                ("src/SUMMARY.md", SUMMARY),
                ("src/contract.md", CONTRACT),
                ("src/providers.md", PROVIDERS),
            ],
            None,
        );
        let alpha_results = junit(Some("AssertionError: got None"));
        repository(
            &root.join("alpha"),
            &[
                ("store/__init__.py", CODE),
                ("tests/test_store.py", TESTS),
                ("results/pytest.xml", &alpha_results),
            ],
            Some("git@github.com:acme/alpha.git"),
        );
        let beta_results = junit(None);
        repository(
            &root.join("beta"),
            &[
                ("src/store.py", CODE),
                ("tests/test_store.py", TESTS),
                ("results/pytest.xml", &beta_results),
            ],
            Some("https://gitlab.com/acme/beta.git"),
        );
        Repos { dir }
    }

    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `report` run in the provider's repository `name` with `extra` arguments: its JSON.
    pub(crate) fn report(&self, name: &str, extra: &[&str]) -> Value {
        let mut args = vec![
            "report",
            "--book",
            "../book",
            "--provider",
            name,
            "--test-results",
            "results/*.xml",
        ];
        args.extend(extra);
        let (code, stdout, stderr) = run_in(&self.path(name), &args);
        assert_eq!(code, 0, "{stderr}");
        serde_json::from_str(&stdout).unwrap()
    }
}

fn validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/provider-report.schema.json");
    let text = std::fs::read_to_string(path).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .expect("the schema compiles")
}

fn assert_valid(report: &Value) {
    let validator = validator();
    let errors: Vec<String> = validator
        .iter_errors(report)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{report:#}");
}

#[test]
fn a_report_holds_the_providers_citations_results_repository_and_commit() {
    let repos = Repos::new();
    let report = repos.report("alpha", &[]);
    assert_valid(&report);
    assert_eq!(report["schema_version"], "1.0.0");
    assert_eq!(report["provider"], "alpha");
    assert_eq!(report["repository"], "https://github.com/acme/alpha");
    assert_eq!(report["commit"], head(&repos.path("alpha")).as_str());
    let rules: Vec<(&str, u64)> = report["contract"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r["version"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        rules,
        [("store.put", 1), ("store.get", 1), ("store.list", 1)]
    );
    let citations: Vec<String> = report["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let outcomes: Vec<&str> = c["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["outcome"].as_str().unwrap())
                .collect();
            format!(
                "{} {} {}:{} {} {outcomes:?}",
                c["verb"].as_str().unwrap(),
                c["rule"].as_str().unwrap(),
                c["path"].as_str().unwrap(),
                c["line"],
                c["test"]["name"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        citations,
        [
            "impl store.put store/__init__.py:1 - []",
            "verify store.put tests/test_store.py:1 test_put [\"passed\"]",
            "verify store.get tests/test_store.py:6 test_get [\"failed\"]",
        ]
    );
    let failed = &report["citations"][2]["results"][0];
    assert_eq!(failed["message"], "AssertionError: got None");
    assert_eq!(failed["run"], "results/pytest.xml");
    assert_eq!(report["declared"], serde_json::json!({}));
    assert!(report["check"]["errors"].is_u64(), "{report:#}");
}

#[test]
fn the_digest_changes_with_the_rules_text_and_the_options_override_git() {
    let repos = Repos::new();
    let before = repos.report("beta", &["--repository", "https://example.com/x/y"]);
    assert_eq!(before["repository"], "https://example.com/x/y");
    let beta = repos.report("beta", &["--commit", "abc123"]);
    assert_eq!(beta["repository"], "https://gitlab.com/acme/beta");
    assert_eq!(beta["commit"], "abc123");
    let contract = repos.path("book/src/contract.md");
    let text = std::fs::read_to_string(&contract).unwrap();
    std::fs::write(&contract, text.replace("store the value whole", "store it")).unwrap();
    let after = repos.report("beta", &[]);
    let digest = |r: &Value, i: usize| r["contract"]["rules"][i]["digest"].clone();
    assert_ne!(digest(&before, 0), digest(&after, 0), "reworded");
    assert_eq!(digest(&before, 1), digest(&after, 1), "unchanged");
}

#[test]
fn declared_statuses_are_read_and_a_wrong_one_is_refused_naming_the_file() {
    let repos = Repos::new();
    let alpha = repos.path("alpha");
    write(
        &alpha,
        &[(
            "declared.toml",
            "[declared]\n\"store.list\" = \"not-implemented\"\n\"store.get\" = \"implemented\"\n",
        )],
    );
    let report = repos.report("alpha", &["--declared", "declared.toml"]);
    assert_valid(&report);
    assert_eq!(
        report["declared"],
        serde_json::json!({"store.get": "implemented", "store.list": "not-implemented"})
    );
    for (text, said) in [
        (
            "[declared]\n\"store.list\" = \"done\"\n",
            "`declared.toml`: `declared.store.list` is \"done\", not one of \"implemented\", \"not-implemented\", \"not-applicable\"",
        ),
        (
            "[declared]\n\"store.lst\" = \"implemented\"\n",
            "`declared.toml`: `declared.store.lst` names no rule of the contract",
        ),
        (
            "\"store.list\" = \"implemented\"\n",
            "`declared.toml` has no table `[declared]`",
        ),
        ("[declared\n", "`declared.toml` is not TOML"),
    ] {
        write(&alpha, &[("declared.toml", text)]);
        let (code, stdout, stderr) = run_in(
            &alpha,
            &[
                "report",
                "--book",
                "../book",
                "--provider",
                "alpha",
                "--declared",
                "declared.toml",
            ],
        );
        assert_eq!(code, 2, "{stdout}");
        assert!(stdout.is_empty());
        assert!(stderr.contains(said), "{said} in {stderr}");
    }
}

#[test]
fn outside_a_repository_the_repository_and_commit_are_null_and_the_schema_is_printed() {
    let repos = Repos::new();
    let plain = repos.path("plain");
    write(&plain, &[("tests/test_store.py", TESTS)]);
    // The book's own test results are not the provider's.
    let toml = repos.path("book/book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{text}test-results = [\"results/*.xml\"]\n")).unwrap();
    write(&repos.path("book"), &[("results/pytest.xml", &junit(None))]);
    let (code, stdout, stderr) = run_in(
        repos.dir.path(),
        &[
            "report",
            "--book",
            "book",
            "--provider",
            "beta",
            "--source-root",
            "plain",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_valid(&report);
    assert_eq!(report["repository"], Value::Null);
    assert_eq!(report["tested"], false);
    assert_eq!(report["citations"].as_array().unwrap().len(), 2);
    // Without results, a cited test has none.
    assert_eq!(report["citations"][0]["results"], serde_json::json!([]));
    let (code, schema, _) = run_in(repos.dir.path(), &["report", "--schema"]);
    assert_eq!(code, 0);
    assert_eq!(
        schema,
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/provider-report.schema.json")
        )
        .unwrap()
    );
    let (code, _, stderr) = run_in(
        repos.dir.path(),
        &[
            "report",
            "--book",
            "book",
            "--provider",
            "beta",
            "--source-root",
            "nowhere",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("`--source-root` is `nowhere`, which is not a folder"),
        "{stderr}"
    );
}
