//! Findings and their printers.
//!
//! A [`Finding`] is data: a check, a severity, a message, a [`Location`] and a help line. A
//! [`Report`] holds them in document order and prints them in one of five [`Format`]s:
//! `human` (rustc-style snippets, by annotate-snippets), `short` (one line each), `json` (a
//! stable array), `github` (workflow annotations) and `sarif` (SARIF 2.1.0, for code scanning),
//! the last two written by `ci.rs`. The Markdown summary needs the model too, so
//! it is [`crate::report::overview`]'s. Printing is the only thing done here; the exit status is
//! decided by whoever holds the report.

use std::fmt::Write as _;

mod ci;

pub(crate) use ci::{escape_data, escape_property};

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use serde::Serialize;

use crate::read::sourcemap::Location;
use crate::util::vocab::{Check, Severity};

/// One finding of one check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The check.
    pub check: Check,
    /// Error or warning (findings of checks that are off are not made).
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// Where.
    #[serde(flatten)]
    pub location: Location,
    /// What to do about it.
    pub help: Option<String>,
    /// Other places that matter, as `path:line:col: label`.
    pub notes: Vec<String>,
}

/// A build prints a check's warnings in full up to this many; more are counted.
pub(crate) const FULL_WARNINGS: usize = 3;

/// What most of many findings of `check` on a first run mean, when it is a reading of the
/// source tree that the book's setting decides: the setting to write before any baseline.
fn first_fix(check: Check) -> Option<&'static str> {
    match check {
        Check::CitedSymbol => Some(
            "many `cited-symbol` findings mean the names are defined in files `symbol-files` does not name (it defaults to every language read as code), or are no symbols: name those files in `symbol-files`, or the words in `symbol-ignore`",
        ),
        Check::UnknownRule | Check::StaleRule | Check::CitedPath => Some(
            "findings in files that are not the project's source (examples, fixtures, generated or vendored files) go away with a line naming them in a `.ignore` file under `source-root`",
        ),
        _ => None,
    }
}

/// Whether `finding` is about book.toml (a finding of the configuration is located there).
fn is_about_book_toml(finding: &Finding) -> bool {
    finding.location.path.file_name() == Some(std::ffi::OsStr::new("book.toml"))
}

/// How to print a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Snippets with the span underlined.
    Human,
    /// `path:line:col: severity[check]: message`.
    Short,
    /// A JSON array of findings.
    Json,
    /// GitHub Actions workflow commands.
    Github,
    /// A SARIF 2.1.0 log: every check as a rule, every finding as a result.
    Sarif,
}

/// The findings of one run, in document order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// The findings.
    pub findings: Vec<Finding>,
    /// The findings that the baseline records (`baseline` in book.toml): known, they do not
    /// fail the build and are counted, not listed (`--format json` lists them, marked).
    pub known: Vec<Finding>,
    /// The baseline file as shown, when one was read.
    pub baseline: Option<std::path::PathBuf>,
}

impl Report {
    /// How many errors.
    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count()
    }

    /// How many warnings.
    pub fn warnings(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
            .count()
    }

    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.errors() > 0
    }

    /// "2 errors and 1 warning", "no findings"; and the known ones, "; 400 known findings
    /// from baseline.txt".
    pub fn summary(&self) -> String {
        let plural = crate::util::counted;
        let mut summary = match (self.errors(), self.warnings()) {
            (0, 0) => "no findings".to_owned(),
            (e, 0) => plural(e, "error"),
            (0, w) => plural(w, "warning"),
            (e, w) => format!("{} and {}", plural(e, "error"), plural(w, "warning")),
        };
        if let Some(file) = &self.baseline {
            let _ = write!(
                summary,
                "; {} from {}",
                plural(self.known.len(), "known finding"),
                file.display()
            );
        }
        summary
    }

    /// For a book that fails on many findings of a check and has no baseline, the two ways to
    /// adopt the checks on an existing book, with the lines to write; said once, after the
    /// count. Warnings do not fail a build: however many, they need no way in.
    pub fn adoption_hint(&self) -> Option<String> {
        const MANY: usize = 30;
        if self.baseline.is_some() {
            return None;
        }
        let mut per_check: Vec<(Check, usize)> = Vec::new();
        for finding in self
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
        {
            match per_check.iter_mut().find(|(c, _)| *c == finding.check) {
                Some((_, n)) => *n += 1,
                None => per_check.push((finding.check, 1)),
            }
        }
        per_check.retain(|(_, n)| *n > MANY);
        per_check.sort_by_key(|(c, n)| (std::cmp::Reverse(*n), *c));
        let (first, _) = per_check.first()?;
        let lower = format!("`{first} = \"warning\"` (or `\"off\"`)");
        let many: Vec<String> = per_check
            .iter()
            .map(|(c, n)| format!("{n} `{c}`"))
            .collect();
        let fixes: Vec<&str> = per_check
            .iter()
            .filter_map(|(c, _)| first_fix(*c))
            .collect();
        let fixes = if fixes.is_empty() {
            String::new()
        } else {
            format!("{}; if not, ", fixes.join("; "))
        };
        Some(format!(
            "{} errors: {fixes}to adopt the checks on an existing book, record today's findings so that only new ones fail, with `mdbook-contract check --write-baseline contract-baseline.txt` and `baseline = \"contract-baseline.txt\"` under `[preprocessor.contract]` in book.toml; or lower a check, with {lower} under `[preprocessor.contract.checks]`",
            many.join(", ")
        ))
    }

    /// The report as a build prints it (`mdbook build`, `mdbook serve`): a check's warnings
    /// counted, one line per check with where they are, when it has more than
    /// three; then the other warnings in full (few per check, and every finding
    /// about book.toml, whose sentence says what to change there); then every error in full,
    /// then the count, so that a book's many warnings do not scroll a real error away and the
    /// eye lands on the errors. `mdbook-contract check` lists every finding.
    pub fn render_build(&self, color: bool) -> String {
        let mut out = String::new();
        // The warnings that may be counted: those not about book.toml, per check.
        let mut per_check: Vec<(Check, usize, Vec<&std::path::Path>)> = Vec::new();
        for finding in self
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Warning && !is_about_book_toml(f))
        {
            let path = finding.location.path.as_path();
            match per_check.iter_mut().find(|(c, _, _)| *c == finding.check) {
                Some((_, count, paths)) => {
                    *count += 1;
                    if !paths.contains(&path) {
                        paths.push(path);
                    }
                }
                None => per_check.push((finding.check, 1, vec![path])),
            }
        }
        per_check.retain(|(_, count, _)| *count > FULL_WARNINGS);
        for (check, count, paths) in &per_check {
            let place = match paths.as_slice() {
                [one] => one.display().to_string(),
                [one, two] => format!("{} and {}", one.display(), two.display()),
                more => format!("{} files", more.len()),
            };
            let label = if color {
                format!("\x1b[1;33mwarning\x1b[0m\x1b[1m[{check}]\x1b[0m")
            } else {
                format!("warning[{check}]")
            };
            let _ = writeln!(out, "{label}: {count} in {place}");
        }
        let in_full = |severity: Severity| Report {
            findings: self
                .findings
                .iter()
                .filter(|f| f.severity == severity)
                .filter(|f| {
                    is_about_book_toml(f) || !per_check.iter().any(|(c, _, _)| *c == f.check)
                })
                .cloned()
                .collect(),
            ..Report::default()
        };
        // Warnings first, so that the errors come last, next to the count.
        let shown =
            in_full(Severity::Warning).snippets(color) + &in_full(Severity::Error).snippets(color);
        if !shown.is_empty() && !per_check.is_empty() {
            out.push('\n');
        }
        out.push_str(&shown);
        let hint = if per_check.is_empty() {
            ""
        } else {
            "; `mdbook-contract check` lists each warning with its place"
        };
        let _ = writeln!(out, "mdbook-contract: {}{hint}", self.summary());
        self.push_adoption_hint(&mut out);
        out
    }

    fn push_adoption_hint(&self, out: &mut String) {
        if let Some(hint) = self.adoption_hint() {
            let _ = writeln!(out, "mdbook-contract: {hint}");
        }
    }

    /// The report in `format`; `color` applies to `human` only.
    pub fn render(&self, format: Format, color: bool) -> String {
        match format {
            Format::Human => self.human(color),
            Format::Short => self.short(),
            Format::Json => self.json(),
            Format::Github => ci::github(self),
            Format::Sarif => ci::sarif(self),
        }
    }

    fn human(&self, color: bool) -> String {
        let mut out = self.snippets(color);
        let _ = writeln!(out, "mdbook-contract: {}", self.summary());
        self.push_adoption_hint(&mut out);
        out
    }

    /// Every finding as a rustc-style snippet, each followed by a blank line.
    fn snippets(&self, color: bool) -> String {
        let renderer = if color {
            Renderer::styled()
        } else {
            Renderer::plain()
        };
        let mut out = String::new();
        for finding in &self.findings {
            let finding = for_terminal(finding);
            out.push_str(&renderer.render(&human_report(&finding)));
            out.push_str("\n\n");
        }
        out
    }

    fn short(&self) -> String {
        let mut out = String::new();
        for f in &self.findings {
            let f = for_terminal(f);
            let l = &f.location;
            let _ = writeln!(
                out,
                "{}:{}:{}: {}[{}]: {}",
                l.path.display(),
                l.line,
                l.column,
                f.severity.as_str(),
                f.check,
                f.message
            );
        }
        let _ = writeln!(out, "mdbook-contract: {}", self.summary());
        self.push_adoption_hint(&mut out);
        out
    }

    /// The findings, then the known ones marked `"baselined": true`.
    fn json(&self) -> String {
        #[derive(Serialize)]
        #[serde(untagged)]
        enum Listed<'f> {
            New(&'f Finding),
            Known {
                #[serde(flatten)]
                finding: &'f Finding,
                baselined: bool,
            },
        }
        let all: Vec<Listed<'_>> = self
            .findings
            .iter()
            .map(Listed::New)
            .chain(self.known.iter().map(|finding| Listed::Known {
                finding,
                baselined: true,
            }))
            .collect();
        let mut out = serde_json::to_string_pretty(&all).expect("findings serialise");
        out.push('\n');
        out
    }
}

/// `finding` with no control character in what a terminal shows of it (a test's name or
/// message from a report, a line of a file): see [`crate::util::escape::plain`].
fn for_terminal(finding: &Finding) -> std::borrow::Cow<'_, Finding> {
    use crate::util::escape::plain;
    let l = &finding.location;
    let texts = [&finding.message, &l.line_text]
        .into_iter()
        .chain(&finding.help)
        .chain(&finding.notes)
        .chain(&l.note);
    let clean = |t: &String| matches!(plain(t), std::borrow::Cow::Borrowed(_));
    let path = l.path.to_string_lossy();
    if texts.into_iter().all(clean) && clean(&path.into_owned()) {
        return std::borrow::Cow::Borrowed(finding);
    }
    let mut shown = finding.clone();
    let own = |t: &mut String| *t = plain(t).into_owned();
    own(&mut shown.message);
    own(&mut shown.location.line_text);
    shown.help.iter_mut().for_each(own);
    shown.notes.iter_mut().for_each(own);
    shown.location.note.iter_mut().for_each(own);
    shown.location.path = plain(&shown.location.path.to_string_lossy())
        .into_owned()
        .into();
    std::borrow::Cow::Owned(shown)
}

fn human_report(finding: &Finding) -> Vec<Group<'_>> {
    let level = match finding.severity {
        Severity::Error => Level::ERROR,
        _ => Level::WARNING,
    };
    let l = &finding.location;
    let start = char_to_byte(&l.line_text, l.column - 1);
    let end = char_to_byte(&l.line_text, l.column - 1 + l.width).max(start);
    let path = l.path.to_string_lossy();
    let snippet = Snippet::source(&l.line_text)
        .line_start(l.line)
        .path(path)
        .annotation(AnnotationKind::Primary.span(start..end));
    let mut group = level
        .primary_title(&finding.message)
        .id(finding.check.name())
        .element(snippet);
    for note in finding.notes.iter().chain(&l.note) {
        group = group.element(Level::NOTE.message(note));
    }
    if let Some(help) = &finding.help {
        group = group.element(Level::HELP.message(help));
    }
    vec![group]
}

fn char_to_byte(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn sample() -> Report {
        Report {
            known: Vec::new(),
            baseline: None,
            findings: vec![Finding {
                check: Check::UnknownAxis,
                severity: Severity::Error,
                message: "no axis `readines` is defined; did you mean `readiness`?".into(),
                location: Location {
                    path: PathBuf::from("book/providers-existing.md"),
                    line: 12,
                    column: 13,
                    width: 8,
                    line_text: "Pods are up {{#profile readines immediate Pod}}.".into(),
                    note: None,
                },
                help: Some("axes are defined by `.axis` headings".into()),
                notes: vec![],
            }],
        }
    }

    #[test]
    fn short_and_github_lines() {
        let report = sample();
        assert_eq!(
            report.render(Format::Short, false),
            "book/providers-existing.md:12:13: error[unknown-axis]: no axis `readines` is defined; did you mean `readiness`?\nmdbook-contract: 1 error\n"
        );
        let github = report.render(Format::Github, false);
        assert!(github.starts_with("::error file=book/providers-existing.md,line=12,col=13,endColumn=21,title=mdbook-contract unknown-axis::no axis"), "{github}");
        assert!(github.contains("%0Ahelp: axes"), "{github}");
    }

    #[test]
    fn human_output_points_at_the_span() {
        let human = sample().render(Format::Human, false);
        assert!(
            human.contains("error[unknown-axis]: no axis `readines` is defined"),
            "{human}"
        );
        assert!(
            human.contains("--> book/providers-existing.md:12:13"),
            "{human}"
        );
        assert!(human.contains("^^^^^^^^"), "{human}");
        assert!(human.ends_with("mdbook-contract: 1 error\n"), "{human}");
    }

    #[test]
    fn json_is_an_array_of_flat_findings() {
        let value: serde_json::Value =
            serde_json::from_str(&sample().render(Format::Json, false)).unwrap();
        assert_eq!(value[0]["check"], "unknown-axis");
        assert_eq!(value[0]["severity"], "error");
        assert_eq!(value[0]["line"], 12);
        assert_eq!(value[0]["path"], "book/providers-existing.md");
    }
}
