//! Rules to Markdown: the marker line as mdbook-spec draws it (an anchor `r-ID` with a
//! self-link label), `{{#rule ID}}` as a link to it, and what `{{#rule-matrix}}` (`matrix.rs`)
//! says above its table: which runs its results are of.

use mdbook_markdown::pulldown_cmark::{CowStr, Event, Tag, TagEnd};

use super::Events;
use super::Renderer;
use super::events::{code, link, text};
use crate::model::rules::code::CodeCitation;
use crate::model::rules::coverage::Coverage;
use crate::model::rules::{Rule, Rules};

/// What the renderer knows of rules: the rules, their coverage, the citations it points
/// at, and where the repository is browsed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RuleView<'a> {
    pub(crate) rules: &'a Rules,
    pub(crate) coverage: &'a Coverage,
    pub(crate) citations: &'a [CodeCitation],
    pub(crate) results: &'a crate::read::results::Results,
    pub(crate) repository: Option<&'a Repository>,
}

/// Where a citation's file is browsed: `output.html.git-repository-url`, and the path of
/// `source-root` inside the repository (`""` at its top, else ending in `/`).
#[derive(Debug, Clone)]
pub(crate) struct Repository {
    pub(crate) url: String,
    pub(crate) source_root: String,
}

impl Repository {
    /// The address of line `line` of `path` (relative to `source-root`).
    pub(super) fn blob(&self, path: &str, line: usize) -> String {
        format!(
            "{}/blob/HEAD/{}#L{line}",
            self.url.trim_end_matches('/'),
            encode_path(&format!("{}{path}", self.source_root))
        )
    }
}

/// `path` with every byte percent-encoded but the unreserved ones of RFC 3986 and `/`.
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The HTML that takes the place of a marker line: a block of its own, closed by the blank
/// line that the marker's own line ending then makes, so the labelled paragraph stays
/// Markdown.
pub(super) fn marker(rule: &Rule) -> Events<'static> {
    let anchor = rule.anchor();
    let html = format!(
        "<div class=\"rule\" id=\"{anchor}\"><a class=\"rule-link\" href=\"#{anchor}\" title=\"{id}\">[{id}]</a></div>\n",
        id = rule.id
    );
    vec![
        Event::Start(Tag::HtmlBlock),
        Event::Html(CowStr::from(html)),
        Event::End(TagEnd::HtmlBlock),
    ]
}

impl<'a> Renderer<'a> {
    /// A link to the rule `id` (perhaps with `+N`), its ID as the text.
    pub(super) fn rule_link(&self, from: usize, id: &str) -> Option<Events<'a>> {
        let id = id.split('+').next().unwrap_or(id);
        let rule = self.rules.rules.get(id)?;
        Some(link(
            self.dest(from, rule.chapter, &rule.anchor()),
            vec![code(&rule.id)],
        ))
    }

    /// The line above the matrix that says which runs its results come from.
    pub(super) fn results_read(&self) -> Events<'a> {
        let files = &self.rules.results.files;
        let mut events = vec![Event::Start(Tag::Paragraph)];
        events.push(text(if files.len() == 1 {
            "Results of the test run in "
        } else {
            "Results of the test runs in "
        }));
        for (i, file) in files.iter().enumerate() {
            if i > 0 {
                events.push(text(", "));
            }
            events.push(Event::Code(CowStr::from(file.shown.clone())));
            if let Some(at) = &file.timestamp {
                events.push(Event::Text(CowStr::from(format!(" ({})", with_zone(at)))));
            }
        }
        if files.is_empty() {
            events.push(text("no file (see the build's findings)"));
        }
        events.push(text(
            ": a rule is verified for a provider when every test citing it for that provider passed.",
        ));
        events.push(Event::End(TagEnd::Paragraph));
        events
    }
}

/// A report's time stamp as shown: with a word when it names no time zone (Jest and the JUnit
/// Platform write local time), since it cannot be compared with another then.
fn with_zone(at: &str) -> String {
    let time = at.get(19..).unwrap_or("");
    let zoned = time.ends_with(['Z', 'z']) || time.contains(['+', '-']);
    if zoned || at.len() < 19 {
        at.to_owned()
    } else {
        format!("{at}, no time zone given")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_stamp_without_a_zone_says_so() {
        assert_eq!(with_zone("2026-12-06T11:38:23Z"), "2026-12-06T11:38:23Z");
        assert_eq!(
            with_zone("2026-12-06T11:38:23.5+01:00"),
            "2026-12-06T11:38:23.5+01:00"
        );
        assert_eq!(
            with_zone("2026-12-06T11:38:23"),
            "2026-12-06T11:38:23, no time zone given"
        );
        assert_eq!(
            with_zone("2026-12-06T11:38:23.123"),
            "2026-12-06T11:38:23.123, no time zone given"
        );
    }

    #[test]
    fn a_citation_is_linked_at_its_path_in_the_repository_encoded() {
        let repository = Repository {
            url: "https://example.com/team/op/".to_owned(),
            source_root: "go code/".to_owned(),
        };
        assert_eq!(
            repository.blob("a#b/c?d%e ü.go", 7),
            "https://example.com/team/op/blob/HEAD/go%20code/a%23b/c%3Fd%25e%20%C3%BC.go#L7"
        );
    }
}
