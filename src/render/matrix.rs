//! `{{#rule-matrix}}` as the page's coverage view: one HTML block (mdBook rewrites its `.md`
//! links as it does Markdown's), a summary bar per provider, then one table whose rows are
//! grouped under the headings the rules are defined under, each cell a status mark and word
//! with the test as its link and title. The markup hides nothing: `mdbook-contract.js` (installed
//! beside the stylesheet) adds the find bar, the folding and the filters, and without it every
//! row shows. The classes and `data-` attributes below are what the script and the stylesheet
//! read; change them together.

use std::fmt::Write as _;

use mdbook_markdown::pulldown_cmark::{CowStr, Event, Tag, TagEnd};

use super::Events;
use super::Renderer;
use super::events::{code, strong, text};
use crate::model::rules::coverage::{Cited, Ran, Status, Unknowable};
use crate::model::rules::status::Kind;

/// From this many providers on, the table is compact: a cell shows its mark alone (its word is
/// its `title` and `aria-label`), the providers' names stand upright and the rule column wraps
/// (`.contract-compact` in `mdbook-contract.css`), so that a dozen fit a laptop's window.
const COMPACT_FROM: usize = 7;

/// The kinds the summary bar counts, in its order; then `unknown` (a bound rule whose coverage
/// is not known), which only a bar of unknown coverage has.
const SEGMENTS: [Kind; 11] = [
    Kind::Passed,
    Kind::Failed,
    Kind::Skipped,
    Kind::NotRun,
    Kind::Unattributed,
    Kind::Unmatched,
    Kind::Implemented,
    Kind::Declared,
    Kind::DeclaredNotImplemented,
    Kind::Uncovered,
    Kind::NoReport,
];

fn segment_word(segment: Kind, results: bool) -> &'static str {
    match segment {
        Kind::Passed if !results => Kind::Verified.word(),
        Kind::Implemented => "implemented only",
        // Bound, and not met (the uncovered colour), but said apart from a rule nothing
        // speaks of, as `status` counts it with the declared ones.
        Kind::DeclaredNotImplemented => "not implemented",
        Kind::Unknown => "bound",
        other => other.word(),
    }
}

/// The segment a cell counts in, or `None` for a rule that binds and obliges nothing, or does
/// not bind.
fn segment(kind: Kind) -> Option<Kind> {
    match kind {
        _ if !kind.obliges() => None,
        Kind::Verified => Some(Kind::Passed),
        other => Some(other),
    }
}

/// How many of the cells `kinds` count in each segment: in the order of [`SEGMENTS`], then
/// `unknown`.
fn tally(kinds: impl Iterator<Item = Kind>) -> [usize; SEGMENTS.len() + 1] {
    let mut counts = [0; SEGMENTS.len() + 1];
    for kind in kinds {
        if let Some(segment) = segment(kind) {
            let i = SEGMENTS
                .iter()
                .position(|s| *s == segment)
                .unwrap_or(SEGMENTS.len());
            counts[i] += 1;
        }
    }
    counts
}

/// `text` for an attribute or element of HTML (the one escaping of data into markup).
fn attr(text: &str) -> std::borrow::Cow<'_, str> {
    crate::util::escape::html(text)
}

/// A group's title as a reader compares two: without code marks, case or surrounding space.
fn plain_title(title: &str) -> String {
    title.replace('`', "").trim().to_lowercase()
}

impl<'a> Renderer<'a> {
    /// The matrix: what its results are of, or why nothing is known, above the HTML block of
    /// the summary and the table.
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
        let mut html = String::from("<div class=\"contract-matrix contract-rules\">\n");
        if coverage.known {
            self.summary(&mut html);
        }
        self.table(from, &mut html);
        html.push_str("</div>\n");
        events.push(Event::Start(Tag::HtmlBlock));
        events.push(Event::Html(CowStr::from(html)));
        events.push(Event::End(TagEnd::HtmlBlock));
        events
    }

    /// Per provider, one bar of its bound rules by status, the counts written on it and
    /// beside it: the numbers `status` gives.
    fn summary(&self, html: &mut String) {
        let coverage = self.rules.coverage;
        html.push_str("<div class=\"contract-summary\">\n");
        for (column, &p) in coverage.providers.iter().enumerate() {
            let name = attr(&self.model.providers[p].name);
            let all = tally(coverage.cells.iter().map(|row| coverage.kind(row[column])));
            let bound: usize = all.iter().sum();
            // Drawn only when the coverage is known: no cell is `unknown`.
            let counts = &all[..SEGMENTS.len()];
            let words: Vec<String> = SEGMENTS
                .iter()
                .zip(counts.iter().copied())
                .filter(|(_, n)| *n > 0)
                .map(|(s, n)| format!("{n} {}", segment_word(*s, coverage.results)))
                .collect();
            let said = if words.is_empty() {
                format!("no rule binds it, of {bound}")
            } else {
                format!("{}, of {bound}", words.join(", "))
            };
            let _ = write!(
                html,
                "<div class=\"contract-summary-row\" data-provider=\"{name}\"><span class=\"contract-summary-name\">{name}</span><span class=\"contract-bar\" role=\"img\" aria-label=\"{name}: {said} rules that bind it\">"
            );
            for (segment, &n) in SEGMENTS.iter().zip(counts) {
                let segment = segment.name();
                if n > 0 {
                    let _ = write!(
                        html,
                        "<span class=\"contract-seg contract-{segment}\" style=\"flex-grow:{n}\">{n}</span>"
                    );
                }
            }
            let _ = writeln!(
                html,
                "</span><span class=\"contract-summary-counts\">{said}</span></div>"
            );
        }
        html.push_str("</div>\n");
    }

    /// The table: a header row of providers, a body per group of rules, a foot of the counts.
    fn table(&self, from: usize, html: &mut String) {
        let coverage = self.rules.coverage;
        let columns = coverage.providers.len() + 2;
        let compact = if coverage.providers.len() >= COMPACT_FROM {
            " contract-compact"
        } else {
            ""
        };
        let _ = write!(
            html,
            "<div class=\"contract-scroll\">\n<table class=\"contract-rule-table{compact}\">\n<thead><tr><th scope=\"col\">Rule</th><th scope=\"col\">Level</th>"
        );
        for &p in &coverage.providers {
            let provider = &self.model.providers[p];
            let name = attr(&provider.name);
            let dest = self.dest(from, provider.chapter, &provider.anchor);
            let dest = attr(&dest);
            let _ = write!(
                html,
                "<th scope=\"col\" data-provider=\"{name}\"><a href=\"{dest}\"><span title=\"{name}\">{name}</span></a></th>"
            );
        }
        html.push_str("</tr></thead>\n");
        for (group, rows) in self.groups() {
            self.group(from, group, &rows, columns, html);
        }
        let _ = write!(
            html,
            "<tfoot><tr><th scope=\"row\">{} of bound</th><td></td>",
            if coverage.results {
                "passed"
            } else {
                "verified"
            }
        );
        for column in 0..coverage.providers.len() {
            let (verified, bound) = coverage.verified_of_bound(column);
            if coverage.known {
                let _ = write!(html, "<td>{verified} of {bound}</td>");
            } else {
                let _ = write!(html, "<td>? of {bound}</td>");
            }
        }
        html.push_str("</tr></tfoot>\n</table>\n</div>\n");
    }

    /// The rules by the heading they are defined under (its title and id), in the book's
    /// order: each group with the indexes of its rules.
    fn groups(&self) -> Vec<((String, String), Vec<usize>)> {
        let mut groups: Vec<((String, String), Vec<usize>)> = Vec::new();
        for (i, rule) in self.rules.rules.rules.iter().enumerate() {
            let headings = &self.chapters[rule.chapter].index.headings;
            let heading = headings
                .iter()
                .rev()
                .find(|h| h.range.start < rule.marker.start);
            let key = match heading {
                Some(h) => (h.text.clone(), format!("{}#{}", rule.chapter, h.id)),
                None => (String::new(), rule.chapter.to_string()),
            };
            // A section and the axis under it named alike ("Refunds", `refunds`) are one
            // group, named once.
            let same = |k: &(String, String)| {
                k.1 == key.1
                    || (!key.0.is_empty()
                        && k.1.split('#').next() == key.1.split('#').next()
                        && plain_title(&k.0) == plain_title(&key.0))
            };
            match groups.iter_mut().find(|(k, _)| same(k)) {
                Some((_, rows)) => rows.push(i),
                None => groups.push((key, vec![i])),
            }
        }
        groups
    }

    /// One group: its heading row with its counts, then a row per rule.
    fn group(
        &self,
        from: usize,
        (title, id): (String, String),
        rows: &[usize],
        columns: usize,
        html: &mut String,
    ) {
        let coverage = self.rules.coverage;
        let title = if title.is_empty() {
            "Rules".to_owned()
        } else {
            title
        };
        let mut counts = Vec::new();
        for (column, &p) in coverage.providers.iter().enumerate() {
            // In the summary bar's order, so that every group reads alike.
            let tallied = tally(
                rows.iter()
                    .map(|&r| coverage.kind(coverage.cells[r][column])),
            );
            let per: Vec<(Kind, usize)> = SEGMENTS
                .iter()
                .chain(&[Kind::Unknown])
                .copied()
                .zip(tallied)
                .filter(|&(_, n)| n > 0)
                .collect();
            if !per.is_empty() {
                let said: Vec<String> = per
                    .iter()
                    .map(|(s, n)| format!("{n} {}", segment_word(*s, coverage.results)))
                    .collect();
                counts.push(format!(
                    "{}: {}",
                    self.model.providers[p].name,
                    said.join(", ")
                ));
            }
        }
        let counts = if counts.is_empty() {
            String::new()
        } else {
            format!("; {}", counts.join("; "))
        };
        let _ = writeln!(
            html,
            "<tbody data-group=\"{}\">\n<tr class=\"contract-group-row\"><th scope=\"rowgroup\" colspan=\"{columns}\"><span class=\"contract-group-title\">{}</span> <span class=\"contract-group-counts\">{}{}</span></th></tr>",
            attr(&id),
            attr(&title),
            crate::util::counted(rows.len(), "rule"),
            attr(&counts)
        );
        for &r in rows {
            self.row(from, r, &coverage.cells[r], html);
        }
        html.push_str("</tbody>\n");
    }

    /// A rule's row: its ID (linked, its text as the title, breaking after its dots), its
    /// level, and a cell per provider.
    fn row(&self, from: usize, r: usize, cells: &[Status], html: &mut String) {
        let rule = &self.rules.rules.rules[r];
        let coverage = self.rules.coverage;
        let level = crate::model::rules::level_name(rule.level);
        let chapter = &self.chapters[rule.chapter];
        let text =
            crate::read::markdown::plain(chapter.content.get(rule.text.clone()).unwrap_or(""));
        let segments: Vec<String> = rule
            .id
            .split_inclusive('.')
            .map(|s| format!("<span>{}</span>", attr(s)))
            .collect();
        let _ = write!(
            html,
            "<tr data-rule=\"{id}\" data-level=\"{level}\"><th scope=\"row\"><a href=\"{dest}\" title=\"{title}\"><code>{segments}</code></a></th><td>{level}</td>",
            id = attr(&rule.id),
            dest = attr(&self.dest(from, rule.chapter, &rule.anchor())),
            title = attr(&text),
            segments = segments.join("<wbr>")
        );
        for (column, (&status, &p)) in cells.iter().zip(&coverage.providers).enumerate() {
            let older = coverage.older_text.contains(&(r, column));
            self.status_cell(status, &self.model.providers[p].name, older, html);
        }
        html.push_str("</tr>\n");
    }

    /// A cell: the status mark and word, the test (its name, file and line, and why it failed)
    /// as the title of its link to the test, or of the cell without a repository to link to.
    fn status_cell(&self, status: Status, provider: &str, older: bool, html: &mut String) {
        let coverage = self.rules.coverage;
        let kind = coverage.kind(status);
        let (word, mark, said) = (kind.name(), kind.mark(), kind.word());
        let compact = coverage.providers.len() >= COMPACT_FROM;
        // A provider's report made against another text of the rule: said on the cell (a
        // dagger beside the mark in a compact table, whose label and title say it).
        let older_said = if older { " (older text)" } else { "" };
        let mut shown = match compact {
            true => format!("{mark}{}", if older { "\u{2020}" } else { "" }),
            false => format!("{mark} {said}{older_said}"),
        };
        if kind == Kind::Failed {
            shown = format!("<strong>{shown}</strong>");
        }
        let label = match compact {
            true => format!(" aria-label=\"{said}{older_said}\""),
            false => String::new(),
        };
        let (citation, case) = match status {
            Status::Verified(c) | Status::NotRun(c) | Status::Implemented(c) => (Some(c), None),
            Status::Failed(c, case)
            | Status::Skipped(c, case)
            | Status::Flaky(c, case)
            | Status::Passed(c, case) => (Some(c), Some(case)),
            Status::Unattributed(c, _, case) | Status::Unmatched(c, case) => (Some(c), case),
            _ => (None, None),
        };
        let title = citation
            .and_then(|c| self.cell_title(status, c, case))
            .or_else(|| Some(format!("{}: {}", kind.word(), kind.meaning())))
            .map(|title| match older {
                true => format!("{title}; the provider's report checked another text or version of the rule: run its CI again"),
                false => title,
            });
        let link = citation
            .and_then(|c| self.rules.citations.get(c.0))
            .and_then(|c| match &c.remote {
                // A provider report's line, in its repository at the report's commit.
                Some(remote) => remote.link.clone(),
                None => self.rules.repository.map(|r| r.blob(&c.path, c.line)),
            });
        let provider = attr(provider);
        let _ = write!(
            html,
            "<td class=\"contract-cell contract-{word}\" data-provider=\"{provider}\" data-status=\"{word}\""
        );
        match (link, title) {
            (Some(link), Some(title)) => {
                let _ = write!(
                    html,
                    "><a href=\"{}\" title=\"{}\"{label}>{shown}</a></td>",
                    attr(&link),
                    attr(&title)
                );
            }
            (_, Some(title)) => {
                let _ = write!(html, " title=\"{}\"{label}>{shown}</td>", attr(&title));
            }
            (_, None) => {
                let _ = write!(html, "{label}>{shown}</td>");
            }
        }
    }

    /// What a cell's title says: the status, the test or case, its file and line, and the
    /// first line of a failure.
    fn cell_title(&self, status: Status, citation: Cited, case: Option<Ran>) -> Option<String> {
        let citation = self.rules.citations.get(citation.0)?;
        let place = format!("{}:{}", citation.path, citation.line);
        let test = citation.test.as_ref().map(|t| t.name.as_str());
        let case = case.and_then(|i| self.rules.results.cases.get(i.0));
        let name = case.map(|c| c.name.as_str()).or(test);
        let what = match status {
            Status::Flaky(..) => "passed on a rerun after failing (flaky)",
            Status::Verified(_) if self.rules.coverage.results => "passed",
            Status::Passed(..) => "passed",
            Status::Verified(_) => "verified",
            Status::Failed(..) => "failed",
            Status::Skipped(..) => "skipped",
            Status::NotRun(_) if test.is_none() => "not run: the citation stands in no test",
            Status::NotRun(_) => "not run: the last run did not report it",
            Status::Unattributed(_, Unknowable::Provider, _) => {
                "ran, for a provider its report does not name"
            }
            Status::Unattributed(_, Unknowable::File, _) => {
                "ran, in a file its report does not name"
            }
            Status::Unmatched(c, _) => {
                let (names, n) = self.rules.coverage.unmatched_names(c.0, self.rules.results);
                let failed = case.map_or_else(String::new, |case| {
                    let why = case.message.as_deref().unwrap_or("");
                    format!("; `{}` failed: {why}", case.name)
                });
                return Some(format!(
                    "unmatched: no case of the test at {place} is in the report, which holds {} of its file that no test was placed on: {names}{failed}",
                    crate::util::counted(n, "case")
                ));
            }
            _ => "implemented",
        };
        let why = case
            .and_then(|c| c.message.as_deref())
            .map_or_else(String::new, |m| format!(": {m}"));
        Some(match name {
            Some(name) => format!("{what}: {name} ({place}){why}"),
            None => format!("{what}: {place}{why}"),
        })
    }
}
