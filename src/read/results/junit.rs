//! JUnit XML, as gotestsum, go-junit-report, cargo-nextest, pytest and Maven Surefire write
//! it: `<testsuites>` of `<testsuite>`s (nested or not) of `<testcase name classname [file]>`,
//! each with a `<failure>` or `<error>` when it failed and a `<skipped>` when it was skipped.

use quick_xml::Reader;
use quick_xml::events::{BytesRef, BytesStart, Event};

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

/// The next event of an XML report, or what is wrong with the report there (as a message
/// after the file's name: "are not well-formed XML (...)"), for every reader of XML reports.
pub(crate) fn next_event<'x>(reader: &mut Reader<&'x [u8]>) -> Result<Event<'x>, String> {
    reader.read_event().map_err(|e| {
        format!(
            "are not well-formed XML ({e}, at byte {})",
            reader.error_position()
        )
    })
}

/// The test cases of the JUnit XML `text`, read from the report numbered `report`; or what is
/// wrong with it.
pub(crate) fn read(text: &str, report: usize) -> Result<Read, String> {
    let mut reader = Reader::from_str(text);
    let mut state = State::default();
    loop {
        let event = next_event(&mut reader)?;
        match event {
            Event::Start(tag) => state.start(&tag, false, report)?,
            Event::Empty(tag) => state.start(&tag, true, report)?,
            Event::Text(text) => state.text(text.as_ref()),
            Event::CData(text) => state.text(text.as_ref()),
            Event::GeneralRef(entity) => state.text(&entity_text(&entity)),
            Event::End(tag) => state.end(tag.local_name().as_ref()),
            Event::Eof => break,
            _ => {}
        }
    }
    if !state.root_seen {
        return Err("are not JUnit XML: they hold no element".to_owned());
    }
    Ok(Read {
        cases: state.cases,
        timestamp: state.timestamp,
    })
}

/// What the events read so far have given.
#[derive(Default)]
struct State {
    cases: Vec<Case>,
    timestamp: Option<String>,
    root_seen: bool,
    open: Option<Open>,
    /// The `<testsuite>`s open around the next case, innermost last: each one's name and
    /// `file`.
    suites: Vec<(Option<std::sync::Arc<str>>, Option<String>)>,
}

impl State {
    /// An element opens (`empty`: and closes at once).
    fn start(&mut self, tag: &BytesStart<'_>, empty: bool, report: usize) -> Result<(), String> {
        let name = tag.local_name();
        let name = name.as_ref();
        if !self.root_seen {
            self.root_seen = true;
            if name != "testsuites" && name != "testsuite" {
                return Err(format!(
                    "are not JUnit XML: the root element is `<{name}>`, not `<testsuites>` or `<testsuite>`"
                ));
            }
        }
        match name {
            "testsuites" | "testsuite" => {
                self.timestamp = self
                    .timestamp
                    .take()
                    .or_else(|| attribute(tag, "timestamp"));
                if name == "testsuite" && !empty {
                    let suite = attribute(tag, "name").map(std::sync::Arc::from);
                    self.suites.push((suite, attribute(tag, "file")));
                }
            }
            "testcase" => {
                let mut case = case(tag, report);
                if let Some((suite, file)) = self.suites.last() {
                    case.suite.clone_from(suite);
                    if case.file.is_none() {
                        case.file.clone_from(file);
                    }
                }
                if empty {
                    self.cases.push(case);
                } else {
                    self.open = Some(Open {
                        case,
                        body: String::new(),
                        in_body: false,
                        out: String::new(),
                        in_out: false,
                    });
                }
            }
            "failure" | "error" | "skipped" => {
                if let Some(open) = self.open.as_mut() {
                    mark(&mut open.case, tag);
                    open.in_body = !empty;
                }
            }
            "system-out" => {
                if let Some(open) = self.open.as_mut() {
                    open.in_out = !empty;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// An element closes.
    fn end(&mut self, name: &str) {
        match name {
            "testsuite" => {
                self.suites.pop();
            }
            "testcase" => self.cases.extend(self.open.take().map(finish)),
            "failure" | "error" | "skipped" => {
                if let Some(open) = self.open.as_mut() {
                    open.in_body = false;
                }
            }
            "system-out" => {
                if let Some(open) = self.open.as_mut() {
                    open.in_out = false;
                }
            }
            _ => {}
        }
    }

    /// Text inside the open case: its failure's body, or its output (read for a display name
    /// when the case closes).
    fn text(&mut self, text: &str) {
        let Some(open) = self.open.as_mut() else {
            return;
        };
        // Only a first line is kept of either: what is read past a bound is not held.
        let room = |kept: &String| super::KEPT.saturating_sub(kept.len());
        if open.in_body {
            open.body
                .push_str(crate::util::text::head(text, room(&open.body)));
        } else if open.in_out {
            open.out
                .push_str(crate::util::text::head(text, room(&open.out)));
        }
    }
}

/// The text an entity reference stands for.
pub(super) fn entity_text(entity: &BytesRef<'_>) -> String {
    match entity.as_ref() {
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
    if let Some(display) = open
        .out
        .lines()
        .find_map(|l| l.trim().strip_prefix("display-name:"))
    {
        case.display = Some(display.trim().to_owned());
    }
    case
}

/// A `<testcase>`'s case, its attributes read in one pass (a report may hold hundreds of
/// thousands).
fn case(tag: &BytesStart<'_>, report: usize) -> Case {
    let mut case = Case {
        name: String::new(),
        classname: String::new(),
        file: None,
        suite: None,
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
            // GoogleTest: a `TEST_P` case is named by index, its value beside it.
            "value_param" => case.display.get_or_insert_with(String::new),
            // GoogleTest writes a `DISABLED_` test `status="notrun"`, with no `<skipped>`:
            // it did not pass.
            "status" => {
                if attribute.value.as_ref() == "notrun" {
                    case.outcome = Outcome::Skipped;
                }
                continue;
            }
            _ => continue,
        };
        if let Some(value) = value(&attribute) {
            *slot = value;
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
    if let Some(message) = bounded_attribute(tag, "message").and_then(|m| first_line(&m)) {
        case.message.get_or_insert(message);
    }
}

/// The start of the attribute `name` of `tag`, unescaped: at most [`super::KEPT`] bytes of
/// it are read, so a message of any size costs a copy of its head only.
fn bounded_attribute(tag: &BytesStart<'_>, name: &str) -> Option<String> {
    let attribute = tag
        .attributes()
        .with_checks(false)
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)?;
    let raw: &[u8] = attribute.value.as_bytes();
    let mut head = &raw[..raw.len().min(super::KEPT)];
    // An entity reference cut in two is left out.
    if let Some(amp) = head.iter().rposition(|&b| b == b'&')
        && !head[amp..].contains(&b';')
    {
        head = &head[..amp];
    }
    let text = match std::str::from_utf8(head) {
        Ok(text) => text,
        Err(error) => std::str::from_utf8(&head[..error.valid_up_to()]).unwrap_or_default(),
    };
    Some(
        quick_xml::escape::unescape(text)
            .map_or_else(|_| text.to_owned(), std::borrow::Cow::into_owned),
    )
}

/// The value of the attribute `name` of `tag`, normalised as XML says (for every reader of
/// XML reports).
pub(super) fn attribute(tag: &BytesStart<'_>, name: &str) -> Option<String> {
    tag.attributes()
        .with_checks(false)
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .and_then(|a| value(&a))
}

/// The value of `attribute`, normalised as XML says: entities replaced, and a tab or a line
/// break a space. Most values have neither, and are taken as they stand (normalising every
/// name and classname of a large report was a tenth of reading it).
fn value(attribute: &quick_xml::events::attributes::Attribute<'_>) -> Option<String> {
    let raw: &str = &attribute.value;
    if !raw
        .bytes()
        .any(|b| matches!(b, b'&' | b'\t' | b'\n' | b'\r'))
    {
        return Some(raw.to_owned());
    }
    attribute
        .normalized_value(quick_xml::XmlVersion::default())
        .ok()
        .map(std::borrow::Cow::into_owned)
}

/// The first line of `text` with something on it that a test runner did not write around the
/// test's own output (`=== RUN`, `--- FAIL`), trimmed, and cut to [`super::MESSAGE`] bytes.
pub(crate) fn first_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("=== ") && !l.starts_with("--- "))
        .map(|l| crate::util::text::cut(l, super::MESSAGE).into_owned())
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
    <testcase classname="S" name="DISABLED_Put" status="notrun" result="suppressed"/>
    <testcase classname="S" name="Get" status="run" result="completed"/>
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
                ("DISABLED_Put", Outcome::Skipped, None),
                ("Get", Outcome::Passed, None),
            ]
        );
    }

    #[test]
    fn a_case_takes_its_suites_name_and_file_when_it_has_none() {
        let xml = r#"<testsuites><testsuite name="putAtomic" file="a/b.test.js"><testcase name="s3" classname="test"/><testcase name="x" file="c.js"/></testsuite><testcase name="top"/></testsuites>"#;
        let cases = read(xml, 0).unwrap().cases;
        let got: Vec<(Option<&str>, Option<&str>)> = cases
            .iter()
            .map(|c| (c.suite.as_deref(), c.file.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                (Some("putAtomic"), Some("a/b.test.js")),
                (Some("putAtomic"), Some("c.js")),
                (None, None)
            ]
        );
    }

    #[test]
    fn a_name_is_normalised_as_xml_says_only_where_it_must_be() {
        let xml = "<testsuite name=\"s\">\
            <testcase classname=\"a\tb\" name=\"put &amp; get&#10;on s3\"/>\
            <testcase classname=\"plain.Class\" name=\"put on gcs\"/></testsuite>";
        let cases = read(xml, 0).unwrap().cases;
        assert_eq!(cases[0].classname, "a b");
        assert_eq!(cases[0].name, "put & get\non s3");
        assert_eq!(cases[1].classname, "plain.Class");
        assert_eq!(cases[1].name, "put on gcs");
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
