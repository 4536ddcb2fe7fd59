//! GoogleTest's JSON report (`--gtest_output=json`): `{"timestamp", "testsuites": [{"name",
//! "testsuite": [{"name", "classname", "file", "line", "value_param", "status", "result",
//! "failures": [{"failure"}]}]}]}`, the same tree as its XML report, read into the same cases
//! (a `TEST_P` case's `value_param` its display name, as `junit.rs` reads the XML's).

use serde::Deserialize;

use super::{Case, Outcome, Read};

#[derive(Deserialize)]
struct Report {
    timestamp: Option<String>,
    testsuites: Vec<Suite>,
}

#[derive(Deserialize)]
struct Suite {
    #[serde(default)]
    testsuite: Vec<Test>,
}

#[derive(Deserialize)]
struct Test {
    name: String,
    #[serde(default)]
    classname: String,
    file: Option<String>,
    value_param: Option<String>,
    #[serde(default)]
    status: String,
    #[serde(default)]
    result: String,
    #[serde(default)]
    failures: Vec<Failure>,
}

#[derive(Deserialize)]
struct Failure {
    #[serde(default)]
    failure: String,
}

/// Whether `text` is a GoogleTest JSON report rather than a `go test -json` stream: one JSON
/// document with its `testsuites`.
pub(crate) fn is_report(text: &str) -> bool {
    let first = text.lines().next().unwrap_or("").trim();
    // A `go test -json` stream holds one whole object a line; GoogleTest writes `{` alone.
    first == "{" || (first.contains("\"testsuites\"") && !first.contains("\"Action\""))
}

/// The test cases of the GoogleTest JSON report `text`, read from the report numbered
/// `report`; or what is wrong with it.
pub(crate) fn read(text: &str, report: usize) -> Result<Read, String> {
    let parsed: Report = serde_json::from_str(text)
        .map_err(|e| format!("are not a GoogleTest JSON report ({e})"))?;
    let mut cases = Vec::new();
    for suite in parsed.testsuites {
        for test in suite.testsuite {
            cases.push(case(test, report));
        }
    }
    Ok(Read {
        cases,
        timestamp: parsed.timestamp,
    })
}

/// A test's case: failed when it has a failure, skipped when its result says so or it did
/// not run (a `DISABLED_` test).
fn case(test: Test, report: usize) -> Case {
    let failure = test
        .failures
        .iter()
        .find_map(|f| super::junit::first_line(&f.failure));
    let outcome = if !test.failures.is_empty() {
        Outcome::Failed
    } else if test.result.eq_ignore_ascii_case("skipped")
        || test.status.eq_ignore_ascii_case("notrun")
    {
        Outcome::Skipped
    } else {
        Outcome::Passed
    };
    Case {
        name: test.name,
        classname: test.classname,
        file: test.file,
        suite: None,
        display: test.value_param,
        outcome,
        message: failure,
        report,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_with_their_outcome_file_and_value() {
        let json = r#"{
  "timestamp": "2026-12-07T08:30:55Z",
  "testsuites": [
    {"name": "Providers/PutAtomic", "testsuite": [
      {"name": "IsAtomic/1", "value_param": "\"gcs\"", "file": "a\/b.cpp", "line": 10,
       "status": "RUN", "result": "COMPLETED", "classname": "Providers/PutAtomic",
       "failures": [{"failure": "a/b.cpp:13\nFailed\ngcs: torn", "type": ""}]},
      {"name": "IsAtomic/2", "status": "RUN", "result": "SKIPPED", "classname": "Providers/PutAtomic"},
      {"name": "DISABLED_X", "status": "NOTRUN", "result": "SUPPRESSED", "classname": "S"},
      {"name": "Get", "status": "RUN", "result": "COMPLETED", "classname": "S"}
    ]}
  ]
}"#;
        assert!(is_report(json));
        let read = read(json, 0).unwrap();
        assert_eq!(read.timestamp.as_deref(), Some("2026-12-07T08:30:55Z"));
        let got: Vec<(&str, Outcome, Option<&str>, Option<&str>)> = read
            .cases
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.outcome,
                    c.file.as_deref(),
                    c.display.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "IsAtomic/1",
                    Outcome::Failed,
                    Some("a/b.cpp"),
                    Some("\"gcs\"")
                ),
                ("IsAtomic/2", Outcome::Skipped, None, None),
                ("DISABLED_X", Outcome::Skipped, None, None),
                ("Get", Outcome::Passed, None, None),
            ]
        );
        assert_eq!(read.cases[0].message.as_deref(), Some("a/b.cpp:13"));
    }

    #[test]
    fn a_go_test_stream_is_no_googletest_report() {
        let stream = "{\"Time\":\"2026-12-05T10:00:00Z\",\"Action\":\"pass\",\"Package\":\"p\",\"Test\":\"TestA\"}\n";
        assert!(!is_report(stream));
        assert!(read("{\"tests\": 1}", 0).is_err());
    }
}
