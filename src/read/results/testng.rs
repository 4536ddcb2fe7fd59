//! TestNG's own XML report (`testng-results.xml`): `<suite started-at>` / `<test>` / `<class
//! name>` / `<test-method name status is-config>` with a data-provider row's values in
//! `<params><param><value>` and a failure's or skip's `<exception><message>`. A row is named
//! as TestNG prints it, its values after its method: `putAtomic(gcs)` (`names/` reads the
//! provider among them). Configuration methods (`@BeforeClass`, ...) are no test cases.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::junit::attribute;
use super::{Case, Outcome, Read};

/// Whether `text` (XML) is TestNG's own report: its root element is `<testng-results>`.
pub(crate) fn is_report(text: &str) -> bool {
    let mut rest = text;
    // Past the declaration, comments and a document type.
    while let Some(tag) = rest.trim_start().strip_prefix('<') {
        if let Some(after) = tag.strip_prefix("!--") {
            rest = after.split_once("-->").map_or("", |(_, r)| r);
        } else if tag.starts_with('?') || tag.starts_with('!') {
            rest = tag.split_once('>').map_or("", |(_, r)| r);
        } else {
            return tag.starts_with("testng-results")
                && tag[14..].starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/');
        }
    }
    false
}

/// A test method being read.
#[derive(Default)]
struct Method {
    name: String,
    outcome: Option<Outcome>,
    values: Vec<String>,
    message: Option<String>,
}

/// Where the text being read goes.
#[derive(Default, PartialEq)]
enum Into {
    #[default]
    Nowhere,
    Value,
    Message,
}

#[derive(Default)]
struct State {
    cases: Vec<Case>,
    timestamp: Option<String>,
    class: String,
    method: Option<Method>,
    into: Into,
    text: String,
}

/// The test cases of the `testng-results.xml` `text`, read from the report numbered `report`;
/// or what is wrong with it.
pub(crate) fn read(text: &str, report: usize) -> Result<Read, String> {
    let mut reader = Reader::from_str(text);
    let mut state = State::default();
    loop {
        let event = super::junit::next_event(&mut reader)?;
        match event {
            Event::Start(tag) => state.start(&tag, false, report),
            Event::Empty(tag) => state.start(&tag, true, report),
            Event::Text(t) if state.into != Into::Nowhere => {
                state.text.push_str(t.as_ref());
            }
            Event::CData(t) if state.into != Into::Nowhere => {
                state.text.push_str(t.as_ref());
            }
            Event::GeneralRef(entity) if state.into != Into::Nowhere => {
                state.text.push_str(&super::junit::entity_text(&entity));
            }
            Event::End(tag) => state.end(tag.local_name().as_ref(), report),
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(Read {
        cases: state.cases,
        timestamp: state.timestamp,
    })
}

impl State {
    fn start(&mut self, tag: &BytesStart<'_>, empty: bool, report: usize) {
        match tag.local_name().as_ref() {
            "suite" if self.timestamp.is_none() => {
                self.timestamp = attribute(tag, "started-at");
            }
            "class" => self.class = attribute(tag, "name").unwrap_or_default(),
            "test-method" if attribute(tag, "is-config").as_deref() != Some("true") => {
                let outcome = match attribute(tag, "status").as_deref() {
                    Some("PASS") => Some(Outcome::Passed),
                    Some("FAIL") => Some(Outcome::Failed),
                    Some("SKIP") => Some(Outcome::Skipped),
                    _ => None,
                };
                self.method = Some(Method {
                    name: attribute(tag, "name").unwrap_or_default(),
                    outcome,
                    ..Method::default()
                });
                if empty {
                    self.end("test-method", report);
                }
            }
            "value" if self.method.is_some() && !empty => self.into = Into::Value,
            "message" if self.method.is_some() && !empty => self.into = Into::Message,
            _ => {}
        }
    }

    fn end(&mut self, name: &str, report: usize) {
        let text = std::mem::take(&mut self.text);
        self.into = Into::Nowhere;
        let Some(method) = self.method.as_mut() else {
            return;
        };
        match name {
            "value" => method.values.push(text.trim().to_owned()),
            "message" => method.message = super::junit::first_line(&text),
            "test-method" => {
                let method = self.method.take().expect("an open method");
                self.cases.extend(case(method, &self.class, report));
            }
            _ => {}
        }
    }
}

/// A method's case, named with its row's values; `None` for a status that is no outcome.
fn case(method: Method, class: &str, report: usize) -> Option<Case> {
    let name = if method.values.is_empty() {
        method.name
    } else {
        format!("{}({})", method.name, method.values.join(", "))
    };
    Some(Case {
        name,
        classname: class.to_owned(),
        file: None,
        suite: None,
        display: None,
        outcome: method.outcome?,
        message: method.message,
        report,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_named_by_their_values_and_configuration_left_out() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<testng-results total="3"><suite started-at="2026-12-07T08:25:36Z" name="s"><test name="t">
<class name="store.ConformanceTest">
  <test-method is-config="true" name="setUp" status="PASS"/>
  <test-method name="getMissing" status="PASS"></test-method>
  <test-method name="putAtomic" data-provider="stores" status="FAIL">
    <params><param index="0"><value><![CDATA[gcs]]></value></param></params>
    <exception class="java.lang.AssertionError"><message><![CDATA[gcs: torn put]]></message>
    <full-stacktrace><![CDATA[java.lang.AssertionError: gcs: torn put]]></full-stacktrace></exception>
  </test-method>
  <test-method name="putAtomic" status="SKIP">
    <params><param index="0"><value>azure-blob</value></param><param index="1"><value>2</value></param></params>
  </test-method>
</class></test></suite></testng-results>"#;
        assert!(is_report(xml));
        let read = read(xml, 0).unwrap();
        assert_eq!(read.timestamp.as_deref(), Some("2026-12-07T08:25:36Z"));
        let got: Vec<(&str, &str, Outcome, Option<&str>)> = read
            .cases
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.classname.as_str(),
                    c.outcome,
                    c.message.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("getMissing", "store.ConformanceTest", Outcome::Passed, None),
                (
                    "putAtomic(gcs)",
                    "store.ConformanceTest",
                    Outcome::Failed,
                    Some("gcs: torn put")
                ),
                (
                    "putAtomic(azure-blob, 2)",
                    "store.ConformanceTest",
                    Outcome::Skipped,
                    None
                ),
            ]
        );
    }

    #[test]
    fn only_testng_results_is_read_so() {
        assert!(is_report("<!-- c --><testng-results>"));
        assert!(!is_report("<?xml version=\"1.0\"?>\n<testsuites>"));
        assert!(!is_report("<testng-resultsx/>"));
    }
}
