//! The reports for continuous integration: GitHub Actions workflow commands (an annotation per
//! finding) and a SARIF 2.1.0 log (code scanning). To add a format a CI service reads: a
//! function here from a [`Report`], and its [`Format`](super::Format) arm.

use std::fmt::Write as _;

use super::{Finding, Report};
use crate::util::vocab::{Check, Severity};

/// A SARIF 2.1.0 log with one run: the tool with every check as a rule (its summary, its
/// default level), and each finding as a result with its rule, level, message (help and
/// notes included) and place. Columns count Unicode code points, as ours do.
pub(super) fn sarif(report: &Report) -> String {
    let rules: Vec<serde_json::Value> = Check::ALL
        .iter()
        .map(|check| {
            serde_json::json!({
                "id": check.name(),
                "shortDescription": { "text": check.summary() },
                "defaultConfiguration": { "level": level(check.default_severity()) },
            })
        })
        .collect();
    let results: Vec<serde_json::Value> = report.findings.iter().map(sarif_result).collect();
    let log = serde_json::json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": env!("CARGO_PKG_NAME"),
                    "version": env!("CARGO_PKG_VERSION"),
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                },
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let mut out = serde_json::to_string_pretty(&log).expect("a SARIF log serialises");
    out.push('\n');
    out
}

/// The findings as GitHub Actions workflow commands: an annotation each, its help and notes
/// in its message.
pub(super) fn github(report: &Report) -> String {
    let mut out = String::new();
    for f in &report.findings {
        let l = &f.location;
        let command = if f.severity == Severity::Error {
            "error"
        } else {
            "warning"
        };
        let mut message = f.message.clone();
        if let Some(help) = &f.help {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
        for note in f.notes.iter().chain(&l.note) {
            message.push_str("\nnote: ");
            message.push_str(note);
        }
        let _ = writeln!(
            out,
            "::{command} file={},line={},col={},endColumn={},title={}::{}",
            escape_property(&crate::util::paths::slashed(&l.path)),
            l.line,
            l.column,
            l.column + l.width,
            escape_property(&format!("mdbook-contract {}", f.check)),
            escape_data(&message)
        );
    }
    out
}

/// A SARIF level for `severity`.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Off => "none",
    }
}

/// A finding as a SARIF result: its message with its notes and help, where it is.
fn sarif_result(f: &Finding) -> serde_json::Value {
    let l = &f.location;
    let mut text = f.message.clone();
    for note in f.notes.iter().chain(&l.note) {
        text.push_str("\nnote: ");
        text.push_str(note);
    }
    if let Some(help) = &f.help {
        text.push_str("\nhelp: ");
        text.push_str(help);
    }
    serde_json::json!({
        "ruleId": f.check.name(),
        "ruleIndex": Check::ALL.iter().position(|c| *c == f.check),
        "level": level(f.severity),
        "message": { "text": text },
        "locations": [{
            "physicalLocation": {
                "artifactLocation": { "uri": sarif_uri(&l.path) },
                "region": {
                    "startLine": l.line,
                    "startColumn": l.column,
                    "endColumn": l.column + l.width,
                },
            },
        }],
    })
}

/// A SARIF `artifactLocation.uri`: a path relative to the repository (or the book) as a
/// relative reference, `/`-separated and percent-encoded; an absolute one (outside a git work
/// tree, or on another drive) as a `file:` URL, since `C:/book/a.md` would read as a URI whose
/// scheme is `c`.
fn sarif_uri(path: &std::path::Path) -> String {
    if path.is_absolute()
        && let Ok(url) = lsp_types::Url::from_file_path(path)
    {
        return url.to_string();
    }
    crate::util::paths::encode(&crate::util::paths::slashed(path))
}

/// Escapes a workflow command's message: no control character but the line breaks, which
/// are encoded as the runner reads them.
pub(crate) fn escape_data(text: &str) -> String {
    crate::util::escape::plain(text)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value.
pub(crate) fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn sarif_uris_are_relative_references_or_file_urls() {
        let relative = PathBuf::from("docs").join("src").join("a b.md");
        assert_eq!(sarif_uri(&relative), "docs/src/a%20b.md");
        let absolute = std::path::absolute("book/src/caf\u{e9} 1.md").unwrap();
        let uri = sarif_uri(&absolute);
        assert!(uri.starts_with("file:///"), "{uri}");
        assert!(uri.ends_with("/book/src/caf%C3%A9%201.md"), "{uri}");
        assert_eq!(
            lsp_types::Url::parse(&uri).unwrap().to_file_path().unwrap(),
            absolute
        );
    }
}
