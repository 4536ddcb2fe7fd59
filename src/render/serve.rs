//! What `mdbook serve` shows while findings exist.
//!
//! A failed rebuild keeps `mdbook serve` on the last good HTML and sends no reload, so errors
//! would freeze the preview. While serving, each page with findings gets a panel at its top,
//! the terminal still shows them, and the rebuild succeeds; `mdbook build` still fails. The
//! panel shows every error in full (place, message, what to do) and the warnings folded in a
//! `<details>`, so that a page with many warnings is not pushed below the fold; code in
//! messages (`` `x` ``) is shown as code.

use std::fmt::Write as _;

use crate::read::markdown::splice::Patch;
use crate::report::diagnostic::Finding;
use crate::util::vocab::Severity;

/// The panel for one page's findings, as a patch at the top of the chapter.
pub(crate) fn panel(findings: &[Finding]) -> Patch {
    let (errors, warnings): (Vec<&Finding>, Vec<&Finding>) =
        findings.iter().partition(|f| f.severity == Severity::Error);
    let colour = if errors.is_empty() {
        "#b26a00"
    } else {
        "#c62828"
    };
    let mut html = format!(
        "<div class=\"mdbook-contract-findings\" role=\"alert\" style=\"border: 2px solid {colour}; border-radius: 4px; padding: 0.5em 1em; margin-bottom: 1em;\">\n<p><strong>mdbook-contract: {}</strong> (shown while serving; <code>mdbook build</code> fails on errors)</p>\n",
        summary(errors.len(), warnings.len())
    );
    if !errors.is_empty() {
        html.push_str("<ul>\n");
        for finding in &errors {
            item(&mut html, finding, true);
        }
        html.push_str("</ul>\n");
    }
    if !warnings.is_empty() {
        let _ = writeln!(
            html,
            "<details>\n<summary>{}</summary>\n<ul>",
            summary(0, warnings.len())
        );
        for finding in &warnings {
            item(&mut html, finding, false);
        }
        html.push_str("</ul>\n</details>\n");
    }
    html.push_str("</div>\n\n");
    Patch {
        range: 0..0,
        text: html,
    }
}

/// One finding as a list item; with `help`, what to do about it too.
fn item(html: &mut String, finding: &Finding, help: bool) {
    let l = &finding.location;
    let _ = write!(
        html,
        "<li><code>{}:{}:{}</code> {}[{}]: {}",
        crate::util::escape::html(&l.path.to_string_lossy()),
        l.line,
        l.column,
        finding.severity.as_str(),
        finding.check,
        with_code(&finding.message)
    );
    if let (true, Some(text)) = (help, &finding.help) {
        let _ = write!(html, "<br><em>help:</em> {}", with_code(text));
    }
    html.push_str("</li>\n");
}

fn summary(errors: usize, warnings: usize) -> String {
    use crate::util::counted;
    match (errors, warnings) {
        (e, 0) => counted(e, "error"),
        (0, w) => counted(w, "warning"),
        (e, w) => format!("{} and {}", counted(e, "error"), counted(w, "warning")),
    }
}

/// `text` as HTML, its code spans (a run of backticks up to the next run of as many) as
/// `<code>`, the rest escaped; every part through [`crate::util::escape::html`].
fn with_code(text: &str) -> String {
    use crate::util::escape::{html, spans};
    let mut out = String::with_capacity(text.len() + 16);
    for (is_code, part) in spans(text) {
        if is_code {
            let _ = write!(out, "<code>{}</code>", html(part));
        } else {
            out.push_str(&html(part));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_in_messages_is_code() {
        assert_eq!(
            with_code("axis `x` has no `<y>`; a & b"),
            "axis <code>x</code> has no <code>&lt;y&gt;</code>; a &amp; b"
        );
        assert_eq!(
            with_code("write ``### `readiness` {.axis}`` here"),
            "write <code>### `readiness` &#123;.axis}</code> here"
        );
        assert_eq!(with_code("a lone ` tick"), "a lone ` tick");
    }

    #[test]
    fn no_message_ends_the_panel_block() {
        let finding = Finding {
            check: crate::util::vocab::Check::FailingRule,
            severity: Severity::Error,
            message: "failed: x\n\n# x {#x tabindex=0 autofocus onfocus=alert(1)}\n".to_owned(),
            help: Some("a\r\n\r\nb".to_owned()),
            location: crate::read::sourcemap::Location {
                path: "a\n\nb.md".into(),
                line: 1,
                column: 1,
                width: 1,
                line_text: String::new(),
                note: None,
            },
            notes: Vec::new(),
        };
        let patch = panel(&[finding]);
        let block = patch.text.trim_end();
        assert!(!block.contains("\n\n"), "{block}");
        assert!(!block.contains("{#x"), "{block}");
    }
}
