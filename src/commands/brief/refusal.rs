//! Why a brief is refused, told so that it can be fixed: each error of the spec that blocks it,
//! with its place, its message and what to do (the finding's help); and which of the spec's
//! errors do not block it: a code span the spec copied from the template names code of the
//! provider to be written, not of this book (`cited-symbol` on the template's own spans).

use std::fmt::Write as _;
use std::path::Path;

use crate::pipeline::Rendered;
use crate::report::diagnostic::Finding;
use crate::util::vocab::Check;

/// At most this many blocking errors are written out; the rest are counted.
const LISTED: usize = 20;

/// The spec's errors, `own`, each with its place as `shown` writes a book path: one line each,
/// its help after it.
pub(super) fn blocking(own: &[Finding], shown: &dyn Fn(&Path) -> String) -> String {
    let mut out = format!(
        "the spec has {}; a brief is written only from a spec without errors. Fix {}:",
        crate::util::counted(own.len(), "error"),
        if own.len() == 1 { "it" } else { "them" }
    );
    for finding in own.iter().take(LISTED) {
        let at = &finding.location;
        let _ = write!(
            out,
            "\n- {}:{}:{}: error[{}]: {}",
            shown(&at.path),
            at.line,
            at.column,
            finding.check.name(),
            finding.message
        );
        if let Some(help) = &finding.help {
            let _ = write!(out, " (help: {help})");
        }
    }
    if own.len() > LISTED {
        let _ = write!(
            out,
            "\n- and {} more: `check` lists them all",
            own.len() - LISTED
        );
    }
    out
}

/// Whether `finding`, in the spec, is a `cited-symbol` on a code span the template chapters
/// of `rendered` also write: a name the template gives every new spec, not a name of this
/// book's code that the spec got wrong.
pub(super) fn from_template(finding: &Finding, rendered: &Rendered) -> bool {
    if finding.check != Check::CitedSymbol {
        return false;
    }
    let at = &finding.location;
    let span: String = at
        .line_text
        .chars()
        .skip(at.column.saturating_sub(1))
        .take(at.width)
        .collect();
    let inner = span.trim_matches('`');
    if inner.is_empty() {
        return false;
    }
    let written = format!("`{inner}`");
    rendered
        .chapters
        .iter()
        .filter(|c| rendered.config.template.contains(&c.key))
        .any(|c| c.content.contains(&written))
}
