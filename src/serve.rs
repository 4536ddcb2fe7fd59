//! What `mdbook serve` shows while findings exist.
//!
//! A failed rebuild keeps `mdbook serve` on the last good HTML and sends no reload, so errors
//! would freeze the preview. While serving, each page with findings gets a panel at its top
//! listing them, the terminal still shows them, and the rebuild succeeds; `mdbook build` still
//! fails.

use std::fmt::Write as _;

use crate::diagnostic::Finding;
use crate::markdown::splice::Patch;
use crate::vocab::Severity;

/// The panel for one page's findings, as a patch at the top of the chapter.
pub(crate) fn panel(findings: &[Finding]) -> Patch {
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = findings.len() - errors;
    let colour = if errors > 0 { "#c62828" } else { "#b26a00" };
    let mut html = format!(
        "<div class=\"mdbook-contract-findings\" role=\"alert\" style=\"border: 2px solid {colour}; border-radius: 4px; padding: 0.5em 1em; margin-bottom: 1em;\">\n<p><strong>mdbook-contract: {}</strong> (shown while serving; <code>mdbook build</code> fails on errors)</p>\n<ul>\n",
        summary(errors, warnings)
    );
    for finding in findings {
        let l = &finding.location;
        let _ = writeln!(
            html,
            "<li><code>{}:{}:{}</code> {}[{}]: {}</li>",
            escape(&l.path.to_string_lossy()),
            l.line,
            l.column,
            finding.severity.as_str(),
            finding.check,
            escape(&finding.message)
        );
    }
    html.push_str("</ul>\n</div>\n\n");
    Patch {
        range: 0..0,
        text: html,
    }
}

fn summary(errors: usize, warnings: usize) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (errors, warnings) {
        (e, 0) => plural(e, "error"),
        (0, w) => plural(w, "warning"),
        (e, w) => format!("{} and {}", plural(e, "error"), plural(w, "warning")),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
