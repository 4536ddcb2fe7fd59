//! Verified means passed: test results (JUnit XML, `go test -json`) read into the coverage of
//! each provider, through the binary. The broker fixture's Go tree has a shared conformance
//! suite with a subtest per adapter and tests of each adapter; `results/` holds a gotestsum
//! JUnit file, a `go test -json` stream, an old run and a file that is no report.

use serde_json::Value;

use crate::broker::{broker, check};
use crate::common::{Fixture, json_positions, run_in};

/// The broker book with `test-results` naming `files` (under `results/`).
fn with_results(files: &[&str]) -> Fixture {
    let list: Vec<String> = files.iter().map(|f| format!("\"results/{f}\"")).collect();
    let key = format!("test-results = [{}]\n", list.join(", "));
    broker(&[("book.toml", &move |t: &str| t.to_owned() + &key)])
}

#[test]
fn each_provider_gets_its_own_result_from_a_shared_suite() {
    let book = with_results(&["conformance.xml", "adapters.json"]);
    let (_, status, stderr) = run_in(book.root(), &["status"]);
    assert!(stderr.is_empty(), "{stderr}");
    for line in [
        "`kafka`, 6 of 6 rules passed, 0 failed, 0 skipped, 0 not run",
        "`nats-jetstream`, 4 of 6 rules passed, 1 failed, 0 skipped, 1 not run",
        "`rabbitmq`, 3 of 5 rules passed, 1 failed, 1 skipped, 0 not run",
        "test results read from `results/conformance.xml`, `results/adapters.json`",
    ] {
        assert!(status.contains(line), "{line} in\n{status}");
    }
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 1, "{stdout}");
    // The MUST that failed for nats-jetstream is an error at the rule; the SHOULD that
    // failed for rabbitmq a warning; each names the provider, the test and why.
    let failing: Vec<(&str, &str, &str)> = findings
        .iter()
        .filter(|f| f["check"] == "failing-rule")
        .map(|f| {
            (
                f["severity"].as_str().unwrap(),
                f["message"].as_str().unwrap(),
                f["path"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        failing,
        [
            (
                "error",
                "`nats-jetstream` fails the rule `publish.reject-oversized`: its test `TestPublishOversized/nats-jetstream` failed: conformance_test.go:19: publishing 2 MiB: got nil, want bus.ErrTooLarge",
                "src/contract.md"
            ),
            (
                "warning",
                "`rabbitmq` fails the rule `publish.trace-header`: its test `TestTraceHeader/rabbitmq` failed: conformance_test.go:33: traceparent lost between publish and handler",
                "src/contract.md"
            ),
        ],
        "{stdout}"
    );
    assert_eq!(
        json_positions(&stdout, "failing-rule"),
        ["src/contract.md:20:3", "src/contract.md:23:3"]
    );
    // The skipped and the not-run cells are said by `unverified-rule`.
    let unverified: Vec<&str> = findings
        .iter()
        .filter(|f| f["check"] == "unverified-rule")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(
        unverified.iter().any(|m| m
            .contains("`nats-jetstream` is bound by the rule `ordering.per-key`")
            && m.contains("not run")),
        "{unverified:?}"
    );
    assert!(
        unverified.iter().any(|m| m
            .contains("`rabbitmq` is bound by the rule `delivery.ack-after`")
            && m.contains("skipped")),
        "{unverified:?}"
    );

    // The export says the same, with the result that decided each cell.
    let (_, export, _) = run_in(book.root(), &["export"]);
    let export: Value = serde_json::from_str(&export).unwrap();
    let cell = |provider: &str, rule: &str| {
        export["coverage"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["provider"] == provider)
            .and_then(|c| {
                c["rules"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|r| r["rule"] == rule)
            })
            .cloned()
            .unwrap()
    };
    assert_eq!(cell("kafka", "publish.ack")["status"], "passed");
    let failed = cell("nats-jetstream", "publish.reject-oversized");
    assert_eq!(failed["status"], "failed");
    assert_eq!(
        failed["result"]["case"],
        "TestPublishOversized/nats-jetstream"
    );
    assert_eq!(failed["result"]["run"], "results/conformance.xml");
    assert_eq!(failed["result"]["at"], "2026-12-05T09:30:00Z");
    assert_eq!(
        cell("nats-jetstream", "ordering.per-key")["status"],
        "not-run"
    );
    assert_eq!(cell("rabbitmq", "delivery.ack-after")["status"], "skipped");

    // The brief tells the implementer how the existing adapters' tests of each rule did (the
    // failing MUST lowered, so that the book builds and the brief is written).
    let book = with_results(&["conformance.xml", "adapters.json"]);
    let toml = book.root().join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text + "\n[preprocessor.contract.checks]\nfailing-rule = \"warning\"\n",
    )
    .unwrap();
    let (code, brief, stderr) = run_in(book.root(), &["brief", "redis-streams"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        brief.contains("- `publish.reject-oversized` (MUST): `r[verify publish.reject-oversized]`; the existing providers' tests in the last run: `kafka` passed, `nats-jetstream` failed, `rabbitmq` passed"),
        "{brief}"
    );
}

#[test]
fn without_results_a_citation_verifies_and_that_is_said_once() {
    let book = broker(&[]);
    let (_, status, _) = run_in(book.root(), &["status"]);
    assert!(
        status.contains("`kafka`, 6 of 6 rules verified"),
        "{status}"
    );
    assert_eq!(
        status.matches("no test results were read (`test-results` in book.toml): a rule counts as verified where a test cites it").count(),
        1,
        "{status}"
    );
}

#[test]
fn a_gate_for_ci_names_who_falls_short() {
    let book = with_results(&["conformance.xml", "adapters.json"]);
    let (code, _, stderr) = run_in(book.root(), &["status", "--min-verified", "100"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("`nats-jetstream` has 3 of 5 MUST rules verified (60.0 %, below 100 %); not verified: `publish.reject-oversized`, `ordering.per-key`"), "{stderr}");
    assert!(
        stderr.contains("`rabbitmq` has 2 of 3 MUST rules verified"),
        "{stderr}"
    );
    assert!(!stderr.contains("`kafka`"), "{stderr}");
    let (code, _, stderr) = run_in(book.root(), &["status", "--min-verified", "60"]);
    assert_eq!(code, 0, "{stderr}");
    // The flag reads results a CI job wrote elsewhere, relative to where it runs.
    let plain = broker(&[]);
    let dir = plain.root().join("results");
    let (code, _, stderr) = run_in(
        &dir,
        &[
            "status",
            "..",
            "--test-results",
            "conformance.xml",
            "--test-results",
            "adapters.json",
            "--min-verified",
            "100",
        ],
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("`nats-jetstream` has 3 of 5"), "{stderr}");
}

#[test]
fn results_that_cannot_be_read_or_are_stale_are_said() {
    let book = with_results(&[
        "conformance.xml",
        "broken.xml",
        "nowhere-*.xml",
        "old-run.xml",
    ]);
    let (_, stdout, findings) = check(&book);
    let malformed: Vec<&str> = findings
        .iter()
        .filter(|f| f["check"] == "malformed-results")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        malformed,
        [
            "the test results `results/broken.xml` are not JUnit XML: the root element is `<html>`, not `<testsuites>` or `<testsuite>`",
            "`test-results` names `results/nowhere-*.xml`, which matches no file (relative to the folder of book.toml): no test result is read from it",
        ],
        "{stdout}"
    );
    let positions = json_positions(&stdout, "malformed-results");
    assert_eq!(positions.len(), 2);
    assert!(
        positions.iter().all(|p| p.starts_with("book.toml:")),
        "{positions:?}"
    );
    let stale: Vec<&str> = findings
        .iter()
        .filter(|f| f["check"] == "stale-results")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        stale,
        [
            "the test results `results/old-run.xml` name tests that no longer exist: `TestRebalanceEagerly`"
        ],
        "{stdout}"
    );
    // At the pattern in book.toml that named the file.
    assert_eq!(json_positions(&stdout, "stale-results").len(), 1);
    assert!(json_positions(&stdout, "stale-results")[0].starts_with("book.toml:"));
    // A test changed after the run: the results are older than it.
    let run = std::fs::File::options()
        .write(true)
        .open(book.root().join("results/conformance.xml"))
        .unwrap();
    run.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(3600))
        .unwrap();
    let (_, stdout, _) = check(&book);
    assert!(
        stdout.contains("the test results `results/conformance.xml` are older than `conformance/conformance_test.go`, a test they report on, which changed since the run"),
        "{stdout}"
    );
}

#[test]
fn rust_under_nextest_and_python_under_pytest_are_matched() {
    let contract = "# Contract\n\nr[put.atomic]\nA store MUST put atomically, because `Store.put` readers see halves.\n\nr[get.found]\nA store MUST find what it put, because `Store.get` is read back.\n";
    let appendix = "# Stores\n\n{{#rule-matrix}}\n\n## `s3` {.provider}\n\n## `fs` {.provider}\n";
    let toml = "[book]\ntitle = \"Stores\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\nsource-root = \"code\"\nshared-layer = [\"store\"]\ntest-results = [\"junit/*.xml\"]\n";
    let book = Fixture::new(&[
        ("book.toml", toml),
        ("src/contract.md", contract),
        ("src/stores.md", appendix),
        (
            "code/store/src/lib.rs",
            "pub struct Store;\nimpl Store { pub fn put() {} pub fn get() {} }\n\n#[cfg(test)]\nmod tests {\n    // r[verify put.atomic]\n    #[test]\n    fn puts_whole() {}\n}\n",
        ),
        (
            "code/tests/test_get.py",
            "import pytest\n\n# r[verify get.found]\n@pytest.mark.parametrize('backend', ['s3', 'fs'])\ndef test_get_after_put(backend):\n    pass\n",
        ),
        (
            "junit/nextest.xml",
            r#"<?xml version="1.0" encoding="UTF-8"?><testsuites name="nextest-run" tests="1" failures="0" errors="0"><testsuite name="store" tests="1" disabled="0" errors="0" failures="0"><testcase name="tests::puts_whole" classname="store" timestamp="2026-12-05T09:00:00Z" time="0.001"></testcase></testsuite></testsuites>"#,
        ),
        (
            "junit/pytest.xml",
            r#"<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="1" skipped="0" tests="2" timestamp="2026-12-05T09:10:00"><testcase classname="tests.test_get" name="test_get_after_put[s3]" time="0.001" /><testcase classname="tests.test_get" name="test_get_after_put[fs]" time="0.001"><failure message="AssertionError: missing key">tests/test_get.py:6: AssertionError</failure></testcase></testsuite></testsuites>"#,
        ),
    ]);
    let (_, status, stderr) = run_in(book.root(), &["status"]);
    assert!(stderr.is_empty(), "{stderr}");
    assert!(
        status.contains("`s3`, 2 of 2 rules passed, 0 failed"),
        "{status}"
    );
    assert!(
        status.contains("`fs`, 1 of 2 rules passed, 1 failed"),
        "{status}"
    );
    let (_, stdout, _) = run_in(book.root(), &["check", "--format", "json"]);
    assert!(
        stdout.contains("`fs` fails the rule `get.found`: its test `test_get_after_put[fs]` failed: AssertionError: missing key"),
        "{stdout}"
    );
}

/// A repository's test file is judged by its content: checked out again as it was, it is not
/// newer than the results, whatever its file time; changed in a commit after the run, or
/// edited since, it is.
#[test]
fn stale_results_are_judged_by_content_in_a_repository() {
    let book = crate::common::Fixture::copy_of("flags", &[]);
    let root = book.root();
    // Committed before the run (the report says 2026-12-06T12:02:14, pytest's time).
    let commit = |message: &str, date: &str| {
        let output = std::process::Command::new("git")
            .args(["-c", "core.autocrlf=false", "-c", "user.name=t"])
            .args(["-c", "user.email=t@example.com"])
            .args(["-c", "commit.gpgsign=false", "commit", "-qam", message])
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date)
            .current_dir(root)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
    };
    crate::common::git(root, &["init", "-q"]);
    crate::common::git(root, &["add", "-A"]);
    commit("before the run", "2026-12-06T12:00:00Z");
    let stale = || {
        let (_, stdout, _) = run_in(root, &["check", "--format", "json"]);
        let findings: Value = serde_json::from_str(&stdout).unwrap();
        findings
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["check"] == "stale-results")
            .map(|f| f["message"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    // The file times are now, after the run: the content is as it was.
    let test = root.join("tests/test_conformance.py");
    let file = std::fs::File::options().write(true).open(&test).unwrap();
    file.set_modified(std::time::SystemTime::now()).unwrap();
    assert_eq!(stale(), Vec::<String>::new());
    // Edited in the working tree after the run.
    let text = std::fs::read_to_string(&test).unwrap();
    std::fs::write(&test, format!("{text}\n# a change\n")).unwrap();
    assert_eq!(
        stale(),
        [
            "the test results `results/junit.xml` are older than `tests/test_conformance.py`, a test they report on, which changed since the run"
        ]
    );
    // Committed after the run.
    commit("after the run", "2026-12-06T13:00:00Z");
    assert_eq!(stale().len(), 1);
    // The tree checked out again as it was when the tests ran: not stale.
    crate::common::git(root, &["reset", "-q", "--hard", "HEAD~1"]);
    assert_eq!(stale(), Vec::<String>::new());
}
