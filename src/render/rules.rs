//! Rules to Markdown: the marker line as mdbook-spec draws it (an anchor `r-ID` with a
//! self-link label), `{{#rule ID}}` as a link to it, and `{{#rule-matrix}}`, the coverage of
//! each rule per built provider.

use mdbook_markdown::pulldown_cmark::{CowStr, Event, Tag, TagEnd};

use super::Events;
use super::Renderer;
use super::events::{code, emphasis, in_div, link, strong, table, text};
use crate::model::rules::code::CodeCitation;
use crate::model::rules::coverage::Coverage;
use crate::model::rules::coverage::Status;
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
    fn blob(&self, path: &str, line: usize) -> String {
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

    /// One row per rule, one column per built provider, each cell what its code and tests
    /// cite; a last row of verified of bound per provider. Without the source tree the cells
    /// say which rules bind which provider, and a line above says why nothing more is known.
    pub(super) fn rule_matrix(&self, from: usize) -> Events<'a> {
        let coverage = self.rules.coverage;
        let mut events = Vec::new();
        if coverage.results {
            events.extend(self.results_read());
        }
        if !coverage.known {
            events.push(Event::Start(Tag::Paragraph));
            events.extend(strong("Coverage unknown here:"));
            events.push(text(" book.toml sets no "));
            events.push(code("source-root"));
            events.push(text(
                ", so no citation in code was read; the table shows which rules bind which provider.",
            ));
            events.push(Event::End(TagEnd::Paragraph));
        }
        let mut header = vec![vec![text("Rule")], vec![text("Level")]];
        for &p in &coverage.providers {
            let provider = &self.model.providers[p];
            header.push(link(
                self.dest(from, provider.chapter, &provider.anchor),
                vec![code(&provider.name)],
            ));
        }
        let mut rows = Vec::new();
        for (rule, cells) in self.rules.rules.rules.iter().zip(&coverage.cells) {
            let mut row = vec![
                link(
                    self.dest(from, rule.chapter, &rule.anchor()),
                    vec![code(&rule.id)],
                ),
                vec![text(crate::model::rules::level_name(rule.level))],
            ];
            for status in cells {
                row.push(self.coverage_cell(*status, coverage.known));
            }
            rows.push(row);
        }
        let mut last = vec![
            strong(if coverage.results {
                "passed"
            } else {
                "verified"
            }),
            vec![],
        ];
        for column in 0..coverage.providers.len() {
            let (verified, bound) = coverage.verified_of_bound(column);
            last.push(vec![Event::Text(CowStr::from(if coverage.known {
                format!("{verified} of {bound}")
            } else {
                format!("? of {bound}")
            }))]);
        }
        rows.push(last);
        events.extend(in_div(
            "<div class=\"contract-matrix contract-rules\">\n",
            table(header, rows),
        ));
        events
    }

    /// The line above the matrix that says which runs its results come from.
    fn results_read(&self) -> Events<'a> {
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
                events.push(Event::Text(CowStr::from(format!(" ({at})"))));
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

    /// A cell of a run's result: the outcome, then the test (linked where the repository is
    /// browsed). The case and the first line of a failure or skip are the outcome's tooltip
    /// (and `failing-rule`'s message): the matrix stays narrow.
    fn result_cell(&self, word: &'static str, citation: usize, case: Option<usize>) -> Events<'a> {
        let why = case
            .and_then(|i| self.rules.results.cases.get(i))
            .map(|case| match &case.message {
                Some(message) => format!("{}: {message}", case.name),
                None => case.name.clone(),
            });
        let title = why.map_or_else(String::new, |why| {
            format!(
                " title=\"{}\"",
                crate::render::serve::escape(&why).replace('"', "&quot;")
            )
        });
        let mut events = match word {
            // As plain as an error: bold, marked, and a class the stylesheet colours.
            "failed" => vec![Event::InlineHtml(CowStr::from(format!(
                "<strong class=\"contract-failed\"{title}>\u{2717} failed</strong>"
            )))],
            "passed" => vec![text("\u{2713} passed")],
            other => vec![Event::InlineHtml(CowStr::from(format!(
                "<em{title}>{other}</em>"
            )))],
        };
        let Some(citation) = self.rules.citations.get(citation) else {
            return events;
        };
        events.push(Event::InlineHtml(CowStr::Borrowed("<br>")));
        let test = citation
            .test
            .as_ref()
            .map(|t| t.name.clone())
            .unwrap_or_else(|| {
                let file = citation.path.rsplit('/').next().unwrap_or(&citation.path);
                format!("{file}:{}", citation.line)
            });
        match self.rules.repository {
            Some(repository) => events.extend(link(
                repository.blob(&citation.path, citation.line),
                vec![Event::Code(CowStr::from(test))],
            )),
            None => events.push(Event::Code(CowStr::from(test))),
        }
        events
    }

    fn coverage_cell(&self, status: Status, known: bool) -> Events<'a> {
        if self.rules.coverage.results {
            match status {
                Status::Verified(i) => return self.result_cell("passed", i, None),
                Status::Failed(i, case) => return self.result_cell("failed", i, Some(case)),
                Status::Skipped(i, case) => return self.result_cell("skipped", i, Some(case)),
                Status::NotRun(i) => return self.result_cell("not run", i, None),
                Status::Flaky(i, case) => return self.result_cell("passed", i, Some(case)),
                Status::Unattributed(i, ..) => {
                    return self.result_cell("provider not named", i, None);
                }
                _ => {}
            }
        }
        match status {
            Status::Failed(i, _)
            | Status::Skipped(i, _)
            | Status::NotRun(i)
            | Status::Flaky(i, _)
            | Status::Unattributed(i, ..) => self.coverage_cell(Status::Verified(i), known),
            Status::NotBound => vec![text("not bound")],
            // A MAY permits: nothing to verify.
            Status::Optional => vec![text("optional")],
            // The provider's profile on the rule's axis is `unknown`: it may bind.
            Status::Undecided => emphasis("profile unknown"),
            Status::Uncovered if !known => emphasis("unknown"),
            Status::Uncovered => emphasis("uncovered"),
            Status::Implemented(_) => vec![text("implemented")],
            Status::Verified(i) => {
                let Some(citation) = self.rules.citations.get(i) else {
                    return vec![text("verified")];
                };
                match self.rules.repository {
                    Some(repository) => link(
                        repository.blob(&citation.path, citation.line),
                        vec![text("verified")],
                    ),
                    None => {
                        let file = citation.path.rsplit('/').next().unwrap_or(&citation.path);
                        vec![
                            text("verified"),
                            Event::InlineHtml(CowStr::Borrowed("<br>")),
                            Event::Code(CowStr::from(format!("{file}:{}", citation.line))),
                        ]
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
