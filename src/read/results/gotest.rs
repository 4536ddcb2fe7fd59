//! Go's own `go test -json` stream: one JSON object a line, `{"Time", "Action", "Package",
//! "Test", "Output"}`; a test's end is its `pass`, `fail` or `skip` action, and the first line of
//! its own output says why it failed.
//!
//! A package that failed before any of its tests ran (it did not build) is one case of its
//! own, named as `go test` says it (`[build failed]`): Go 1.19 writes it as a line of text in
//! the stream (`FAIL\texample.com/p [build failed]`), later Go as the package's `fail` with a
//! `FailedBuild` field, or with no test of the package run. The matcher fails every test of
//! that package by it.

use std::collections::HashMap;

use serde::Deserialize;

use super::{Case, Outcome, Read};

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Line {
    time: Option<String>,
    action: String,
    #[serde(default)]
    package: String,
    test: Option<String>,
    output: Option<String>,
    /// Go 1.24 and later: the package's `fail` when it did not build.
    failed_build: Option<String>,
}

/// The name of a package's case when it failed before its tests ran, as `go test` writes
/// it: `[build failed]`, `[setup failed]`.
pub(crate) fn is_package_failure(name: &str) -> bool {
    name.starts_with('[') && name.ends_with(" failed]")
}

/// The test cases of the `go test -json` output `text`, read from the report numbered
/// `report`; or what is wrong with it.
pub(crate) fn read(text: &str, report: usize) -> Result<Read, String> {
    let mut stream = Stream::default();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if let Some((package, reason)) = failed_package_line(line) {
            stream.package_failed(package, &format!("[{reason}]"), line.trim(), report);
            continue;
        }
        let line: Line = serde_json::from_str(line).map_err(|e| {
            format!(
                "are not `go test -json` output: line {} is not one of its events ({e})",
                number + 1
            )
        })?;
        stream.timestamp = line.time.clone().or(stream.timestamp.take());
        stream.event(line, report);
    }
    Ok(Read {
        cases: stream.cases,
        timestamp: stream.timestamp,
    })
}

/// What the events read so far have given.
#[derive(Default)]
struct Stream {
    cases: Vec<Case>,
    timestamp: Option<String>,
    /// The output of each test so far, by package and test; a package's own under `""`.
    output: HashMap<(String, String), String>,
    /// The packages a test of which ran, and those that failed before any did.
    tested: std::collections::HashSet<String>,
    failed: std::collections::HashSet<String>,
}

impl Stream {
    fn event(&mut self, line: Line, report: usize) {
        let test = line.test.unwrap_or_default();
        let key = (line.package.clone(), test.clone());
        let outcome = match line.action.as_str() {
            "output" => {
                if let Some(text) = line.output {
                    // Only a first line is kept: what is read past a bound is not held.
                    let kept = self.output.entry(key).or_default();
                    if kept.len() < super::KEPT {
                        kept.push_str(&text);
                    }
                }
                return;
            }
            "pass" => Outcome::Passed,
            "fail" => Outcome::Failed,
            "skip" => Outcome::Skipped,
            _ => return,
        };
        if test.is_empty() {
            // A package's own end: a failure before any of its tests ran is a case.
            if outcome == Outcome::Failed
                && (line.failed_build.is_some() || !self.tested.contains(&line.package))
            {
                let said = self.output.get(&key).map(String::as_str).unwrap_or("");
                let name = if line.failed_build.is_some() || said.contains("[build failed]") {
                    "[build failed]"
                } else if said.contains("[setup failed]") {
                    "[setup failed]"
                } else {
                    "[run failed]"
                };
                let message = super::junit::first_line(said).unwrap_or_else(|| name.to_owned());
                self.package_failed(&line.package, name, &message, report);
            }
            return;
        }
        if !self.tested.contains(&line.package) {
            self.tested.insert(line.package.clone());
        }
        let message = (outcome != Outcome::Passed)
            .then(|| {
                self.output
                    .get(&key)
                    .and_then(|o| super::junit::first_line(o))
            })
            .flatten();
        self.cases.push(Case {
            suite: None,
            name: test,
            classname: line.package,
            file: None,
            display: None,
            outcome,
            message,
            report,
        });
    }

    /// The case of a package that failed before its tests ran, once per package.
    fn package_failed(&mut self, package: &str, name: &str, message: &str, report: usize) {
        if !self.failed.insert(package.to_owned()) {
            return;
        }
        self.cases.push(Case {
            suite: None,
            name: name.to_owned(),
            classname: package.to_owned(),
            file: None,
            display: None,
            outcome: Outcome::Failed,
            // Go writes a tab between `FAIL` and the package.
            message: Some(message.replace('\t', " ")),
            report,
        });
    }
}

/// Go 1.19's line of text for a package that did not build, among the JSON events:
/// `FAIL\texample.com/p [build failed]`: the package, and the reason in brackets.
fn failed_package_line(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_end().strip_prefix("FAIL\t")?;
    let (package, reason) = rest.split_once(" [")?;
    let reason = reason.strip_suffix(']')?;
    reason
        .ends_with(" failed")
        .then_some((package.trim(), reason))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_with_their_outcome() {
        let stream = r#"{"Time":"2026-12-05T10:00:00Z","Action":"run","Package":"example.com/b/c","Test":"TestA"}
{"Time":"2026-12-05T10:00:00Z","Action":"output","Package":"example.com/b/c","Test":"TestA/kafka","Output":"=== RUN   TestA/kafka\n"}
{"Time":"2026-12-05T10:00:00Z","Action":"output","Package":"example.com/b/c","Test":"TestA/kafka","Output":"    a_test.go:9: no ack\n"}
{"Time":"2026-12-05T10:00:01Z","Action":"fail","Package":"example.com/b/c","Test":"TestA/kafka","Elapsed":0.1}
{"Time":"2026-12-05T10:00:01Z","Action":"pass","Package":"example.com/b/c","Test":"TestB","Elapsed":0}
{"Time":"2026-12-05T10:00:02Z","Action":"fail","Package":"example.com/b/c","Elapsed":1}
"#;
        let got_read = read(stream, 0).unwrap();
        assert_eq!(got_read.timestamp.as_deref(), Some("2026-12-05T10:00:02Z"));
        let got: Vec<(&str, Outcome, Option<&str>)> = got_read
            .cases
            .iter()
            .map(|c| (c.name.as_str(), c.outcome, c.message.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("TestA/kafka", Outcome::Failed, Some("a_test.go:9: no ack")),
                ("TestB", Outcome::Passed, None),
            ]
        );
        assert!(read("{\"not\": 1}\n", 0).is_err());
    }

    #[test]
    fn a_package_that_failed_before_its_tests_ran_is_a_case_of_its_own() {
        // Go 1.19: a line of text; later Go: the package's `fail` with `FailedBuild`, or with
        // no test of it run. A package whose tests ran and failed is no such case.
        let stream = r#"{"Time":"2026-12-05T10:00:00Z","Action":"pass","Package":"example.com/a","Test":"TestA"}
FAIL	example.com/b [build failed]
{"Time":"2026-12-05T10:00:01Z","Action":"output","Package":"example.com/c","Output":"FAIL\texample.com/c [setup failed]\n"}
{"Time":"2026-12-05T10:00:01Z","Action":"fail","Package":"example.com/c","Elapsed":0}
{"Time":"2026-12-05T10:00:01Z","Action":"fail","Package":"example.com/d","FailedBuild":"example.com/d.test"}
{"Time":"2026-12-05T10:00:01Z","Action":"fail","Package":"example.com/e","Test":"TestE"}
{"Time":"2026-12-05T10:00:01Z","Action":"fail","Package":"example.com/e","Elapsed":0}
"#;
        let cases = read(stream, 0).unwrap().cases;
        let got: Vec<(&str, &str, Outcome)> = cases
            .iter()
            .map(|c| (c.classname.as_str(), c.name.as_str(), c.outcome))
            .collect();
        assert_eq!(
            got,
            [
                ("example.com/a", "TestA", Outcome::Passed),
                ("example.com/b", "[build failed]", Outcome::Failed),
                ("example.com/c", "[setup failed]", Outcome::Failed),
                ("example.com/d", "[build failed]", Outcome::Failed),
                ("example.com/e", "TestE", Outcome::Failed),
            ]
        );
        assert!(
            cases
                .iter()
                .all(|c| c.name.starts_with("Test") || is_package_failure(&c.name))
        );
        // Any other text among the events is no `go test -json` output.
        assert!(read("FAIL\texample.com/b\n", 0).is_err());
    }
}
