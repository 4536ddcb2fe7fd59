//! Go's own `go test -json` stream: one JSON object a line, `{"Time", "Action", "Package",
//! "Test", "Output"}`; a test's end is its `pass`, `fail` or `skip` action, and the first line of
//! its own output says why it failed.

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
}

/// The test cases of the `go test -json` output `text`, read from the report numbered
/// `report`; or what is wrong with it.
pub(crate) fn read(text: &str, report: usize) -> Result<Read, String> {
    let mut cases = Vec::new();
    let mut output: HashMap<(String, String), String> = HashMap::new();
    let mut timestamp = None;
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let line: Line = serde_json::from_str(line).map_err(|e| {
            format!(
                "are not `go test -json` output: line {} is not one of its events ({e})",
                number + 1
            )
        })?;
        timestamp = line.time.clone().or(timestamp);
        let Some(test) = line.test else {
            continue;
        };
        let key = (line.package.clone(), test.clone());
        let outcome = match line.action.as_str() {
            "output" => {
                if let Some(text) = line.output {
                    // Only a first line is kept: what is read past a bound is not held.
                    let kept = output.entry(key).or_default();
                    if kept.len() < super::KEPT {
                        kept.push_str(&text);
                    }
                }
                continue;
            }
            "pass" => Outcome::Passed,
            "fail" => Outcome::Failed,
            "skip" => Outcome::Skipped,
            _ => continue,
        };
        let message = (outcome != Outcome::Passed)
            .then(|| output.get(&key).and_then(|o| super::junit::first_line(o)))
            .flatten();
        cases.push(Case {
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
    Ok(Read { cases, timestamp })
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
}
