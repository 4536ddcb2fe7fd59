//! Drafts into findings: where each one was written, how much it matters, whether it is
//! suppressed.
//!
//! [`resolve`] is the one place where a check's [`Draft`] (a byte range of a chapter's
//! content) becomes a [`Finding`] (a `file:line:col` of the text as written, through the
//! chapter's source map), gets its severity from book.toml, and is dropped when that severity
//! is `off` or a `<!-- contract: allow -->` comment covers it. It also groups the findings by
//! chapter, for the panels shown under `mdbook serve`.

use crate::chapter::{BookFiles, Chapter};
use crate::checks::Draft;
use crate::config::Config;
use crate::diagnostic::{Finding, Report};
use crate::vocab::Severity;

/// The findings of each chapter that has any (by its number in the chapters), for the serve
/// panel.
pub(crate) type Pages = Vec<(usize, Vec<Finding>)>;

/// Locates `drafts`, gives them their severity and drops those that are off or suppressed.
pub(crate) fn resolve(
    chapters: &[Chapter<'_>],
    files: &BookFiles,
    config: &Config,
    mut drafts: Vec<Draft>,
) -> (Report, Pages) {
    drafts.sort_by_key(|d| (d.chapter, d.range.start, d.range.end));
    let mut pages: Pages = Vec::new();
    let mut findings = Vec::new();
    for draft in drafts {
        let chapter = &chapters[draft.chapter];
        let severity = config.severity(draft.check, Some(&chapter.key));
        if severity == Severity::Off
            || chapter
                .suppressions()
                .allows(draft.check, draft.range.start)
        {
            continue;
        }
        let notes = draft
            .related
            .iter()
            .map(|(number, range, label)| {
                let at = chapters[*number].locate(files, range.clone());
                format!("{label}: {}:{}:{}", at.path.display(), at.line, at.column)
            })
            .collect();
        let finding = Finding {
            check: draft.check,
            severity,
            message: draft.message,
            location: chapter.locate(files, draft.range),
            help: draft.help,
            notes,
        };
        match pages.last_mut() {
            Some((number, list)) if *number == draft.chapter => list.push(finding.clone()),
            _ => pages.push((draft.chapter, vec![finding.clone()])),
        }
        findings.push(finding);
    }
    (Report { findings }, pages)
}
