//! Test results as real runners write them (`tests/fixtures/runners/`: each folder a small
//! project in one language, its reports exactly as the runner wrote them, and the runner's
//! version in its README). One storage contract, four MUST rules, three providers; in every
//! language a shared conformance test with one case per provider (s3 passes, gcs fails,
//! azure-blob is skipped) and a test of the same file name in each provider's folder (gcs's
//! delete fails). Through the binary's `export`: no cell is `passed` unless the runner
//! reported that case as passed for that provider.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::common::{Fixture, copy_tree, run_in};

pub(crate) const CONTRACT: &str = "# Storage contract\n\n## Put\n\nr[put.atomic]\nA put MUST be atomic.\n\n## Get\n\nr[get.missing]\nA get of a missing key MUST say not found.\n\n## Delete\n\nr[delete.idempotent]\nA delete MUST be idempotent.\n\n## Consistency\n\nr[consistency.read-after-write]\nA read after a write MUST see it.\n";

pub(crate) const PROVIDERS: &str = "# Providers\n\n{{#rule-matrix}}\n\n## `s3` {.provider}\n\nBuilt.\n\n## `gcs` {.provider}\n\nBuilt.\n\n## `azure-blob` {.provider}\n\nBuilt.\n";

/// The storage book over the runner's project `runner` (its `src/` as the source tree, its
/// `reports/` as `results/`), the providers' folders under `providers` (`azure` the folder of
/// azure-blob), reading `reports` (relative to `results/`).
pub(crate) fn storage(runner: &str, providers: &str, azure: &str, reports: &[&str]) -> Fixture {
    let reports: Vec<String> = reports.iter().map(|r| format!("\"results/{r}\"")).collect();
    let toml = format!(
        "[book]\ntitle = \"Storage\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\nsource-root = \"code\"\ntest-results = [{}]\n\n[preprocessor.contract.checks]\nmust-cite = \"off\"\n\n[preprocessor.contract.provider-paths]\ns3 = [\"{providers}/s3\"]\ngcs = [\"{providers}/gcs\"]\nazure-blob = [\"{providers}/{azure}\"]\n",
        reports.join(", ")
    );
    let fixture = Fixture::new(&[
        ("book.toml", &toml),
        ("src/contract.md", CONTRACT),
        ("src/providers.md", PROVIDERS),
    ]);
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/runners")
        .join(runner);
    copy_tree(&from.join("src"), &fixture.root().join("code"));
    copy_tree(&from.join("reports"), &fixture.root().join("results"));
    fixture
}

/// Each rule's cell for each provider, as `export` says it: `rule provider` to its status.
pub(crate) fn cells(fixture: &Fixture) -> BTreeMap<String, String> {
    let (_, export, stderr) = run_in(fixture.root(), &["export"]);
    let export: Value = serde_json::from_str(&export).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let mut out = BTreeMap::new();
    for provider in export["coverage"].as_array().unwrap() {
        let name = provider["provider"].as_str().unwrap();
        for cell in provider["rules"].as_array().unwrap() {
            out.insert(
                format!("{} {name}", cell["rule"].as_str().unwrap()),
                cell["status"].as_str().unwrap().to_owned(),
            );
        }
    }
    out
}

/// The expected cells, written as `rule: s3 gcs azure-blob` lines.
fn expect(lines: &[(&str, [&str; 3])]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (rule, statuses) in lines {
        for (provider, status) in ["s3", "gcs", "azure-blob"].iter().zip(statuses) {
            out.insert(format!("{rule} {provider}"), (*status).to_owned());
        }
    }
    out
}

/// Moves the Go citation of read-after-write from above the `var` to above its test, as its
/// author meant it (the report names the same test either way).
fn cite_read_after_write_at_its_test(fixture: &Fixture) {
    let path = fixture.root().join("code/conformance/conformance_test.go");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text
        .replacen("// r[verify consistency.read-after-write]\n", "", 1)
        .replacen(
            "func TestReadAfterWrite(",
            "// r[verify consistency.read-after-write]\nfunc TestReadAfterWrite(",
            1,
        );
    std::fs::write(&path, text).unwrap();
}

#[test]
fn go_full_runs_give_each_provider_its_own_subtest_and_a_citation_above_a_var_no_test() {
    let full = [
        ("put.atomic", ["passed", "failed", "skipped"]),
        ("get.missing", ["passed", "passed", "skipped"]),
        ("delete.idempotent", ["passed", "failed", "passed"]),
        // Above `var readAfterWriteDelay`, after `TestGetMissing` ended: in no test.
        (
            "consistency.read-after-write",
            ["not-run", "not-run", "not-run"],
        ),
    ];
    for report in [
        "go-test-json.jsonl",
        "gotestsum-junit.xml",
        "gotestsum-junit-relative.xml",
        "go-junit-report.xml",
        "go-junit-report-gojson.xml",
    ] {
        let book = storage("go", "providers", "azure-blob", &[report]);
        assert_eq!(cells(&book), expect(&full), "{report}");
    }
    let (_, status, _) = run_in(
        storage("go", "providers", "azure-blob", &["go-test-json.jsonl"]).root(),
        &["status"],
    );
    assert!(
        status.contains("conformance/conformance_test.go:45: `r[verify consistency.read-after-write]` stands in no test"),
        "{status}"
    );
    // `check` says the same, never "the test at".
    let book = storage("go", "providers", "azure-blob", &["go-test-json.jsonl"]);
    let (_, json, _) = run_in(book.root(), &["check", "--format", "json"]);
    let findings: Vec<Value> = serde_json::from_str(&json).unwrap();
    let about: Vec<&Value> = findings
        .iter()
        .filter(|f| f["message"].as_str().unwrap().contains("read-after-write"))
        .collect();
    assert!(!about.is_empty(), "{json}");
    for finding in about {
        let text = format!("{} {}", finding["message"], finding["help"]);
        assert!(text.contains("stands in no test"), "{text}");
        assert!(!text.contains("the test at"), "{text}");
    }
}

/// A test file of gcs's package that does not build (`go/broken/broken_test.go`, in the
/// tree during that run alone): Go 1.19's `go test -json` writes `FAIL\t<package> [build
/// failed]` as a line of text among its events, and no event of that package. Every test of
/// the package failed with it: gcs's own `get.missing` and `delete.idempotent`, and the broken
/// file's own `put.atomic`; no other provider's cell moves. gotestsum's JUnit of the same run
/// leaves the package out, and says nothing of it: its tests did not run, as far as the
/// report shows.
#[test]
fn a_go_package_that_did_not_build_fails_every_test_it_holds() {
    let book = storage(
        "go",
        "providers",
        "azure-blob",
        &["go-test-json-build-failed.jsonl"],
    );
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/runners/go/broken/broken_test.go");
    std::fs::copy(
        &source,
        book.root().join("code/providers/gcs/broken_test.go"),
    )
    .unwrap();
    let built = [
        ("put.atomic", ["passed", "failed", "skipped"]),
        ("get.missing", ["passed", "failed", "skipped"]),
        ("delete.idempotent", ["passed", "failed", "passed"]),
        (
            "consistency.read-after-write",
            ["not-run", "not-run", "not-run"],
        ),
    ];
    assert_eq!(cells(&book), expect(&built));
    let (code, out, _) = run_in(book.root(), &["check", "--format", "short"]);
    assert_ne!(code, 0);
    assert!(
        out.lines().any(|l| l.contains(
            "`gcs` fails the rule `get.missing`: the package of its test (`providers/gcs`) failed before any test ran, `[build failed]`: FAIL example.com/store/providers/gcs [build failed]"
        )),
        "{out}"
    );
    // gotestsum's JUnit of the same run: nothing of the package, so gcs's own tests did not
    // run.
    let book = storage(
        "go",
        "providers",
        "azure-blob",
        &["gotestsum-junit-build-failed.xml"],
    );
    std::fs::copy(
        &source,
        book.root().join("code/providers/gcs/broken_test.go"),
    )
    .unwrap();
    let got = cells(&book);
    assert_eq!(got["delete.idempotent gcs"], "not-run", "{got:?}");
    assert_eq!(got["get.missing gcs"], "not-run", "{got:?}");
}

#[test]
fn go_partial_runs_leave_a_provider_whose_subtest_did_not_run_not_run() {
    let book = storage(
        "go",
        "providers",
        "azure-blob",
        &["go-test-json-partial-readafterwrite-s3.jsonl"],
    );
    cite_read_after_write_at_its_test(&book);
    let cells = cells(&book);
    assert_eq!(cells["consistency.read-after-write s3"], "passed");
    assert_eq!(cells["consistency.read-after-write gcs"], "not-run");
    assert_eq!(cells["consistency.read-after-write azure-blob"], "not-run");
    let book = storage(
        "go",
        "providers",
        "azure-blob",
        &["go-test-json-partial-putatomic-s3-gcs.jsonl"],
    );
    let cells = crate::runners::cells(&book);
    assert_eq!(
        [
            cells["put.atomic s3"].as_str(),
            cells["put.atomic gcs"].as_str(),
            cells["put.atomic azure-blob"].as_str()
        ],
        ["passed", "failed", "not-run"]
    );
}

#[test]
fn a_rerun_that_passed_is_passed_and_flaky_and_the_newer_report_wins() {
    let book = storage(
        "go",
        "providers",
        "azure-blob",
        &["gotestsum-rerun-fails.xml"],
    );
    cite_read_after_write_at_its_test(&book);
    let cells = cells(&book);
    assert_eq!(cells["consistency.read-after-write s3"], "passed");
    assert_eq!(cells["consistency.read-after-write gcs"], "failed");
    let (_, status, _) = run_in(book.root(), &["status"]);
    assert!(status.contains("flaky"), "{status}");
    // Two reports of the same suite, in either order: the newer (by its time stamp) counts.
    for order in [
        ["history-1-older.xml", "history-2-newer.xml"],
        ["history-2-newer.xml", "history-1-older.xml"],
    ] {
        let book = storage("go", "providers", "azure-blob", &order);
        cite_read_after_write_at_its_test(&book);
        assert_eq!(
            cells_of(&book, "consistency.read-after-write s3"),
            "passed",
            "{order:?}"
        );
        let (_, status, _) = run_in(book.root(), &["status"]);
        assert!(
            status.contains("disagree") && status.contains("TestReadAfterWrite/s3"),
            "{status}"
        );
    }
}

fn cells_of(book: &Fixture, key: &str) -> String {
    cells(book)[key].clone()
}

#[test]
fn pytest_ids_and_equal_file_names_in_two_providers_folders() {
    let full = expect(&[
        ("put.atomic", ["passed", "failed", "skipped"]),
        ("get.missing", ["passed", "passed", "skipped"]),
        ("delete.idempotent", ["passed", "failed", "passed"]),
        (
            "consistency.read-after-write",
            ["passed", "failed", "skipped"],
        ),
    ]);
    for report in ["pytest-junit.xml", "pytest-junit-legacy.xml"] {
        let book = storage("pytest", "providers", "azure_blob", &[report]);
        assert_eq!(cells(&book), full, "{report}");
    }
}

#[test]
fn nextest_with_rstest_cases_named_by_provider() {
    // azure-blob's cases are ignored, and nextest leaves an ignored test out of its report.
    let book = storage("nextest", "providers", "azure-blob", &["nextest-junit.xml"]);
    let cells = cells(&book);
    assert_eq!(cells["put.atomic s3"], "passed");
    assert_eq!(cells["put.atomic gcs"], "failed");
    assert_eq!(cells["put.atomic azure-blob"], "not-run");
    assert_eq!(cells["delete.idempotent gcs"], "failed");
    assert_eq!(cells["delete.idempotent s3"], "passed");
    let book = storage(
        "nextest",
        "providers",
        "azure-blob",
        &["nextest-junit-run-ignored-all.xml"],
    );
    assert_eq!(cells_of(&book, "put.atomic azure-blob"), "passed");
}

#[test]
fn junit5_cases_named_by_position_take_their_value_source_row() {
    // Surefire names `putAtomic{String}[2]`: the second row of the test's `@ValueSource(strings
    // = {"s3", "gcs", "azure-blob"})`, gcs (its failure says so).
    let book = storage(
        "java",
        "src/test/java/store/providers",
        "azureblob",
        &["surefire/*.xml"],
    );
    let cells = cells(&book);
    assert_eq!(
        [
            cells["put.atomic s3"].as_str(),
            cells["put.atomic gcs"].as_str(),
            cells["put.atomic azure-blob"].as_str()
        ],
        ["passed", "failed", "skipped"]
    );
    // Each provider's own class, the same simple name in three packages, never mixed.
    assert_eq!(cells["delete.idempotent s3"], "passed");
    assert_eq!(cells["delete.idempotent gcs"], "failed");
    let (code, stdout, _) = run_in(book.root(), &["check", "--format", "short"]);
    assert_eq!(code, 1);
    assert!(
        stdout
            .contains("`gcs` fails the rule `put.atomic`: its test `putAtomic{String}[2]` failed"),
        "{stdout}"
    );
    // Rows the source does not list (a `@MethodSource`): the provider is not known.
    let source = book
        .root()
        .join("code/src/test/java/store/conformance/ConformanceTest.java");
    let text = std::fs::read_to_string(&source).unwrap();
    let computed = text.replacen(
        "@ValueSource(strings = {\"s3\", \"gcs\", \"azure-blob\"})\n    void putAtomic",
        "@MethodSource(\"stores\")\n    void putAtomic",
        1,
    );
    assert_ne!(computed, text);
    std::fs::write(&source, computed).unwrap();
    let cells = crate::runners::cells(&book);
    for provider in ["s3", "gcs", "azure-blob"] {
        assert_eq!(cells[&format!("put.atomic {provider}")], "unattributed");
    }
    let (code, stdout, _) = run_in(book.root(), &["check", "--format", "short"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains(
            "its test `putAtomic{String}[2]` failed, for a provider its report does not name"
        ),
        "{stdout}"
    );
    // The Console Launcher prints each case's display name: the provider is known.
    let book = storage(
        "java",
        "src/test/java/store/providers",
        "azureblob",
        &["console-launcher/TEST-junit-jupiter.xml"],
    );
    let cells = crate::runners::cells(&book);
    assert_eq!(
        [
            cells["put.atomic s3"].as_str(),
            cells["put.atomic gcs"].as_str(),
            cells["put.atomic azure-blob"].as_str()
        ],
        ["passed", "failed", "skipped"]
    );
}

#[test]
fn jest_and_vitest_by_their_titles() {
    let placed = expect(&[
        ("put.atomic", ["passed", "failed", "skipped"]),
        // The conformance test is skipped for azure-blob (`test.skipIf`).
        ("get.missing", ["passed", "passed", "skipped"]),
        ("delete.idempotent", ["passed", "failed", "passed"]),
        (
            "consistency.read-after-write",
            ["passed", "failed", "passed"],
        ),
    ]);
    let book = storage("vitest", "providers", "azure-blob", &["vitest-junit.xml"]);
    assert_eq!(cells(&book), placed, "vitest");
    // Jest's project calls its test through an alias (`testIfEmulated('...')`): no test call
    // of the syntax tree, so that citation of `get.missing` stands in no test, and status says
    // so; the rest is placed by the report's `file`.
    let mut jest = placed.clone();
    for provider in ["s3", "gcs", "azure-blob"] {
        jest.insert(format!("get.missing {provider}"), "not-run".to_owned());
    }
    let book = storage(
        "jest",
        "providers",
        "azure-blob",
        &["jest-junit-configured.xml"],
    );
    assert_eq!(cells(&book), jest, "jest, configured");
    let (_, status, _) = run_in(book.root(), &["status"]);
    assert!(
        status.contains(
            "conformance/conformance.test.js:39: `r[verify get.missing]` stands in no test"
        ),
        "{status}"
    );
    // jest-junit's defaults name no file: the three providers' own tests have the same title,
    // so which provider's file failed is not known.
    let book = storage("jest", "providers", "azure-blob", &["jest-junit.xml"]);
    let cells = cells(&book);
    assert_eq!(cells["put.atomic gcs"], "failed");
    assert_eq!(cells["delete.idempotent s3"], "unattributed");
    assert_eq!(cells["delete.idempotent gcs"], "unattributed");
}

#[test]
fn status_and_check_say_the_same_of_a_report_that_is_not_there() {
    let book = storage("go", "providers", "azure-blob", &["nothing-*.xml"]);
    let (_, status, _) = run_in(book.root(), &["status"]);
    assert!(
        status.contains("no test results were read: `test-results` names `results/nothing-*.xml`, which matches no file"),
        "{status}"
    );
    let (_, check, _) = run_in(book.root(), &["check", "--format", "short"]);
    let lines: Vec<&str> = check
        .lines()
        .filter(|l| l.contains("malformed-results") || l.contains("unverified-rule"))
        .collect();
    assert_eq!(lines.len(), 1, "one cause, one finding: {check}");
    assert!(lines[0].contains("matches no file"), "{check}");
}

/// The pytest project with its xunit1 report edited by `edit`, and each cell of `put.atomic`
/// as `export` says it, with `check`'s exit code and `failing-rule` messages.
fn put_atomic_after(edit: impl Fn(&str) -> String) -> (Vec<String>, i32, Vec<String>) {
    let fixture = storage(
        "pytest-ids",
        "providers",
        "azure_blob",
        &["pytest-junit-xunit1.xml"],
    );
    let report = fixture.root().join("results/pytest-junit-xunit1.xml");
    let text = std::fs::read_to_string(&report).unwrap();
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit changed the report");
    std::fs::write(&report, edited).unwrap();
    let got = cells(&fixture);
    let put: Vec<String> = ["s3", "gcs", "azure-blob"]
        .iter()
        .map(|p| got[&format!("put.atomic {p}")].clone())
        .collect();
    let (code, _, findings) = crate::broker::check(&fixture);
    let failing = findings
        .iter()
        .filter(|f| f["check"] == "failing-rule")
        .map(|f| f["message"].as_str().unwrap_or("").to_owned())
        .filter(|m| m.contains("`put.atomic`"))
        .collect();
    (put, code, failing)
}

#[test]
fn cases_of_a_cited_tests_file_that_cannot_be_placed_are_unmatched_and_a_failure_among_them_fails()
{
    // The runner names the cases after a test the file does not declare (a renamed function,
    // a runner whose names are not read): they ran, and none is placed on `test_put_atomic`.
    let (put, code, failing) = put_atomic_after(|report| {
        report.replace("name=\"test_put_atomic[", "name=\"test_put_atomically[")
    });
    assert_eq!(put, ["unmatched", "unmatched", "unmatched"]);
    assert_eq!(code, 1);
    assert!(
        failing.iter().any(
            |m| m.contains("`test_put_atomically[gcs [primary region]]` failed")
                && m.contains("could not be placed on a test and a provider")
        ),
        "{failing:?}"
    );
}

#[test]
fn a_cited_test_its_report_did_not_run_is_not_run_when_the_rest_of_its_file_was_placed() {
    // The cases of `test_put_atomic` deselected: the file's other cases are placed on their
    // tests, so nothing of the file is left that could be this test's.
    let (put, _, failing) = put_atomic_after(|report| {
        let case = regex::Regex::new(
            r#"(?s)<testcase classname="conformance.test_conformance" name="test_put_atomic\[.*?</testcase>|<testcase classname="conformance.test_conformance" name="test_put_atomic\[[^>]*/>"#,
        )
        .unwrap();
        case.replace_all(report, "").into_owned()
    });
    assert_eq!(put, ["not-run", "not-run", "not-run"]);
    assert!(failing.is_empty(), "{failing:?}");
}

#[test]
fn a_passed_cell_of_a_parameterised_test_names_the_providers_own_case() {
    let fixture = storage(
        "pytest-ids",
        "providers",
        "azure_blob",
        &["pytest-junit-xunit1.xml"],
    );
    let cells = crate::common::matrix_cells(&fixture.chapter("providers.md"));
    let s3 = &cells[&("put.atomic".to_owned(), "s3".to_owned())];
    assert_eq!(s3.status, "passed");
    let title = s3.title.as_deref().unwrap_or("");
    // The case that ran for s3, not the test's title pattern.
    assert!(title.starts_with("passed: test_put_atomic[s3 "), "{title}");
}

#[test]
fn a_failure_among_same_named_cases_of_a_report_without_files_is_never_a_passed_rerun() {
    // minitest-reporters: every case `Minitest::Result`, no file; `test_delete_missing_key`
    // three times (the providers' folders), the first, gcs's, failed. They are three tests or
    // one test's reruns: the report cannot say, so the failure is told.
    let fixture = storage(
        "minitest",
        "providers",
        "azure-blob",
        &["minitest-junit/*.xml"],
    );
    let report = fixture
        .root()
        .join("results/minitest-junit/TEST-Minitest-Result.xml");
    let text = std::fs::read_to_string(&report).unwrap();
    // Only the delete failure left: the conformance failures' cases taken out.
    let other_failures = regex::Regex::new(
        r#"(?s)<testcase name="test_(?:put_atomic|read_after_write_on)_gcs[^"]*"[^>]*>.*?</testcase>"#,
    )
    .unwrap();
    let edited = other_failures.replace_all(&text, "").into_owned();
    assert_eq!(edited.matches("<failure").count(), 1, "{edited}");
    std::fs::write(&report, edited).unwrap();
    let got = cells(&fixture);
    for p in ["s3", "gcs", "azure-blob"] {
        assert_eq!(
            got[&format!("delete.idempotent {p}")],
            "unattributed",
            "{p}"
        );
    }
    let (code, _, findings) = crate::broker::check(&fixture);
    assert_eq!(code, 1, "{findings:?}");
    assert!(
        findings.iter().any(|f| f["check"] == "failing-rule"
            && f["message"]
                .as_str()
                .is_some_and(|m| m.contains("`delete.idempotent`"))),
        "{findings:?}"
    );
}

#[test]
fn a_tap_case_its_title_does_not_place_is_unmatched_in_its_file_and_its_failure_fails() {
    // prove with TAP::Formatter::JUnit names a file only in its `<testsuite>`
    // (`providers_gcs_provider_t`): a subtest renamed in the run (its title no longer the
    // source's) is a case of that file no test is placed on, never "not run".
    let fixture = storage(
        "perl-tap-junit",
        "providers",
        "azure-blob",
        &["prove-junit.xml"],
    );
    let report = fixture.root().join("results/prove-junit.xml");
    let text = std::fs::read_to_string(&report).unwrap();
    let edited = text.replace(
        "name=\"2 - delete of a missing key succeeds\">\n      <failure",
        "name=\"2 - delete of a missing key works\">\n      <failure",
    );
    assert_ne!(edited, text);
    std::fs::write(&report, edited).unwrap();
    let got = cells(&fixture);
    assert_eq!(got["delete.idempotent gcs"], "unmatched");
    assert_eq!(got["delete.idempotent s3"], "passed");
    let (_, _, findings) = crate::broker::check(&fixture);
    assert!(
        findings.iter().any(|f| f["check"] == "failing-rule"
            && f["message"]
                .as_str()
                .is_some_and(|m| m.contains("delete of a missing key works"))),
        "{findings:?}"
    );
}

#[test]
fn a_suite_that_names_a_provider_makes_its_case_that_providers_own() {
    // TAP::Formatter::JUnit: a provider's own subtests are in the suite of its file
    // (`providers_gcs_provider_t`), their titles naming none. Only the conformance test's
    // `get.missing` counts for every provider on one case's word.
    let book = storage(
        "perl-tap-junit",
        "providers",
        "azure-blob",
        &["prove-junit.xml"],
    );
    let (_, status, _) = run_in(book.root(), &["status"]);
    let note = status
        .lines()
        .find(|l| l.contains("tests whose results name no provider"))
        .unwrap_or_else(|| panic!("{status}"));
    assert!(note.contains("`get.missing` is verified"), "{note}");
    assert!(!note.contains("delete.idempotent"), "{note}");
}

#[test]
fn status_says_which_files_tests_are_read_line_by_line() {
    let robot = storage("robot", "providers", "azure-blob", &["robot-xunit.xml"]);
    let (_, status, _) = run_in(robot.root(), &["status"]);
    assert!(
        status.contains("test declarations read line by line (Robot Framework's test cases, Perl's subtests): .robot 4"),
        "{status}"
    );
    let rspec = storage("rspec", "providers", "azure-blob", &["rspec-junit.xml"]);
    let (_, status, _) = run_in(rspec.root(), &["status"]);
    assert!(!status.contains("line by line"), "{status}");
}
