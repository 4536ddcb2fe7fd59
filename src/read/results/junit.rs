//! JUnit XML, as gotestsum, go-junit-report, cargo-nextest, pytest and Maven Surefire write
//! it: `<testsuites>` of `<testsuite>`s (nested or not) of `<testcase name classname [file]>`,
//! each with a `<failure>` or `<error>` when it failed and a `<skipped>` when it was skipped.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::{Case, Outcome, Read};

/// A test case being read, with the body of its failure and its output.
struct Open {
    case: Case,
    body: String,
    in_body: bool,
    /// Its `<system-out>`, read for the display name the JUnit Console Launcher prints.
    out: String,
    in_out: bool,
}

/// The test cases of the JUnit XML `text`, read from the report numbered `report`; or what is
/// wrong with it.
pub(crate) fn read(text: &str, report: usize) -> Result<Read, String> {
    let mut reader = Reader::from_str(text);
    let mut cases = Vec::new();
    let mut timestamp = None;
    let mut root_seen = false;
    let mut open: Option<Open> = None;
    loop {
        let event = reader.read_event().map_err(|e| {
            format!(
                "are not well-formed XML ({e}, at byte {})",
                reader.error_position()
            )
        })?;
        let (tag, empty) = match &event {
            Event::Start(tag) => (Some(tag), false),
            Event::Empty(tag) => (Some(tag), true),
            _ => (None, false),
        };
        if let Some(tag) = tag {
            let name = tag.local_name();
            let name = name.as_ref();
            if !root_seen {
                root_seen = true;
                if name != "testsuites" && name != "testsuite" {
                    return Err(format!(
                        "are not JUnit XML: the root element is `<{name}>`, not `<testsuites>` or `<testsuite>`"
                    ));
                }
            }
            match name {
                "testsuites" | "testsuite" => {
                    timestamp = timestamp.or_else(|| attribute(tag, "timestamp"));
                }
                "testcase" => {
                    let case = case(tag, report);
                    if empty {
                        cases.push(case);
                    } else {
                        open = Some(Open {
                            case,
                            body: String::new(),
                            in_body: false,
                            out: String::new(),
                            in_out: false,
                        });
                    }
                }
                "failure" | "error" | "skipped" => {
                    if let Some(open) = open.as_mut() {
                        mark(&mut open.case, tag);
                        open.in_body = !empty;
                    }
                }
                "system-out" => {
                    if let Some(open) = open.as_mut() {
                        open.in_out = !empty;
                    }
                }
                _ => {}
            }
            continue;
        }
        match event {
            Event::Text(text) => body(&mut open, text.as_ref()),
            Event::CData(text) => body(&mut open, text.as_ref()),
            Event::GeneralRef(entity) => {
                let text = match entity.as_ref() {
                    "lt" => "<".to_owned(),
                    "gt" => ">".to_owned(),
                    "amp" => "&".to_owned(),
                    "quot" => "\"".to_owned(),
                    "apos" => "'".to_owned(),
                    // `&#xA;`, as gotestsum writes a line break in a failure.
                    _ => entity
                        .resolve_char_ref()
                        .ok()
                        .flatten()
                        .map(String::from)
                        .unwrap_or_default(),
                };
                body(&mut open, &text);
            }
            Event::End(tag) => match tag.local_name().as_ref() {
                "testcase" => cases.extend(open.take().map(finish)),
                "failure" | "error" | "skipped" => {
                    if let Some(open) = open.as_mut() {
                        open.in_body = false;
                    }
                }
                "system-out" => {
                    if let Some(open) = open.as_mut() {
                        open.in_out = false;
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    if !root_seen {
        return Err("are not JUnit XML: they hold no element".to_owned());
    }
    Ok(Read { cases, timestamp })
}

fn body(open: &mut Option<Open>, text: &str) {
    let Some(open) = open.as_mut() else {
        return;
    };
    if open.in_body {
        open.body.push_str(text);
    } else if open.in_out && open.case.display.is_none() {
        open.out.push_str(text);
    }
}

/// The case, its message taken from its failure's body when the `message` attribute says
/// nothing (gotestsum writes `Failed`).
fn finish(open: Open) -> Case {
    let mut case = open.case;
    let says_nothing = case
        .message
        .as_deref()
        .is_none_or(|m| m.eq_ignore_ascii_case("failed"));
    if says_nothing && let Some(line) = first_line(&open.body) {
        case.message = Some(line);
    }
    case.display = open
        .out
        .lines()
        .find_map(|l| l.trim().strip_prefix("display-name:"))
        .map(|d| d.trim().to_owned());
    case
}

/// A `<testcase>`'s case, its attributes read in one pass (a report may hold hundreds of
/// thousands).
fn case(tag: &BytesStart<'_>, report: usize) -> Case {
    let mut case = Case {
        name: String::new(),
        classname: String::new(),
        file: None,
        display: None,
        outcome: Outcome::Passed,
        message: None,
        report,
    };
    for attribute in tag.attributes().with_checks(false).flatten() {
        let slot = match attribute.key.local_name().as_ref() {
            "name" => &mut case.name,
            "classname" => &mut case.classname,
            "file" => case.file.get_or_insert_with(String::new),
            _ => continue,
        };
        if let Ok(value) = attribute.normalized_value(quick_xml::XmlVersion::default()) {
            *slot = value.into_owned();
        }
    }
    case
}

/// Marks `case` failed or skipped by `tag`.
fn mark(case: &mut Case, tag: &BytesStart<'_>) {
    let outcome = if tag.local_name().as_ref() == "skipped" {
        Outcome::Skipped
    } else {
        Outcome::Failed
    };
    // A failure outweighs a skip.
    case.outcome = case.outcome.max(outcome);
    if let Some(message) = attribute(tag, "message").and_then(|m| first_line(&m)) {
        case.message.get_or_insert(message);
    }
}

fn attribute(tag: &BytesStart<'_>, name: &str) -> Option<String> {
    tag.attributes()
        .with_checks(false)
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .and_then(|a| {
            a.normalized_value(quick_xml::XmlVersion::default())
                .ok()
                .map(|v| v.into_owned())
        })
}

/// The first line of `text` with something on it that a test runner did not write around the
/// test's own output (`=== RUN`, `--- FAIL`), trimmed.
pub(crate) fn first_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("=== ") && !l.starts_with("--- "))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_with_their_outcome_and_message() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="example.com/broker/conformance" timestamp="2026-12-05T10:00:00Z">
    <testcase classname="example.com/broker/conformance" name="TestPublish/kafka" time="0.1"></testcase>
    <testcase classname="example.com/broker/conformance" name="TestPublish/nats" time="0.1">
      <failure message="Failed" type="">=== RUN TestPublish/nats
    conformance_test.go:12: no ack &lt;within&gt; 5s</failure>
    </testcase>
    <testcase classname="x" name="TestSkip"><skipped message="needs a broker"/></testcase>
    <testcase classname="x" name="TestEmpty"/>
  </testsuite>
</testsuites>"#;
        let got_read = read(xml, 0).unwrap();
        assert_eq!(got_read.timestamp.as_deref(), Some("2026-12-05T10:00:00Z"));
        let got: Vec<(&str, Outcome, Option<&str>)> = got_read
            .cases
            .iter()
            .map(|c| (c.name.as_str(), c.outcome, c.message.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("TestPublish/kafka", Outcome::Passed, None),
                (
                    "TestPublish/nats",
                    Outcome::Failed,
                    Some("conformance_test.go:12: no ack <within> 5s")
                ),
                ("TestSkip", Outcome::Skipped, Some("needs a broker")),
                ("TestEmpty", Outcome::Passed, None),
            ]
        );
    }

    #[test]
    fn not_junit() {
        assert!(read("<html></html>", 0).unwrap_err().contains("`<html>`"));
        assert!(read("plain text", 0).unwrap_err().contains("no element"));
        assert!(
            read("<testsuites></testsuite>", 0)
                .unwrap_err()
                .contains("not well-formed")
        );
    }
}
