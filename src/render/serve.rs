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
        escape(&l.path.to_string_lossy()),
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
/// `<code>`, the rest escaped.
fn with_code(text: &str) -> String {
    let run = |s: &str| s.bytes().take_while(|&b| b == b'`').count();
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let ticks = run(&rest[open..]);
        let after = &rest[open + ticks..];
        // The next run of exactly as many backticks closes the span.
        let mut close = None;
        let mut from = 0;
        while let Some(i) = after[from..].find('`') {
            let at = from + i;
            let length = run(&after[at..]);
            if length == ticks {
                close = Some(at);
                break;
            }
            from = at + length;
        }
        let Some(close) = close else {
            break;
        };
        out.push_str(&escape(&rest[..open]));
        let code = &after[..close];
        let code = match code.strip_prefix(' ').and_then(|c| c.strip_suffix(' ')) {
            Some(inner) if !inner.trim().is_empty() => inner,
            _ => code,
        };
        let _ = write!(out, "<code>{}</code>", escape(code));
        rest = &after[close + ticks..];
    }
    out.push_str(&escape(rest));
    out
}

pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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
            "write <code>### `readiness` {.axis}</code> here"
        );
        assert_eq!(with_code("a lone ` tick"), "a lone ` tick");
    }
}
