//! `contract_check`: the findings, of the book or of one file.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::Serialize;

use super::{PAGE_BYTES, Refusal, Typed, unknown};
use crate::mcp::watch::{FindingOut, Loaded};

/// `contract_check`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct CheckAnswer {
    /// How many errors and warnings, on every page.
    errors: usize,
    warnings: usize,
    /// This page's findings, as `check --format json` gives them, with paths from the
    /// repository's root: errors first.
    findings: Vec<FindingOut>,
    /// The cursor of the next page; none on the last.
    next_cursor: Option<String>,
}

/// How many findings one answer lists at most.
pub(crate) const PAGE: usize = 200;

/// How many lines of findings the text of `contract_check` shows.
const SHOWN_FINDINGS: usize = 20;

/// `contract_check`.
pub(crate) fn check(
    loaded: &Loaded,
    path: Option<&str>,
    cursor: Option<&str>,
    page_size: Option<usize>,
) -> Result<Typed<CheckAnswer>, Refusal> {
    let shown = path.map(|p| file_of(loaded, p)).transpose()?;
    let mut all: Vec<&FindingOut> = loaded
        .findings
        .iter()
        .filter(|f| shown.as_deref().is_none_or(|file| f.path == file))
        .collect();
    // Errors first (what a build fails on), each kind in the book's order.
    all.sort_by_key(|f| f.severity != "error");
    let count = |severity: &str| all.iter().filter(|f| f.severity == severity).count();
    let (errors, warnings) = (count("error"), count("warning"));
    let start = super::cursor_start(cursor, |at| at < all.len(), "these findings", "`path`")?;
    let end = super::page_end(&all, start, PAGE, page_size.unwrap_or(PAGE_BYTES));
    let findings: Vec<FindingOut> = all[start..end].iter().map(|f| (*f).clone()).collect();
    let mut text = format!(
        "{}, {}{}",
        crate::util::counted(errors, "error"),
        crate::util::counted(warnings, "warning"),
        shown.map_or_else(String::new, |p| format!(" in `{p}`"))
    );
    for f in findings.iter().take(SHOWN_FINDINGS) {
        let _ = write!(
            text,
            "\n{}:{}:{}: {}[{}]: {}",
            f.path, f.line, f.column, f.severity, f.check, f.message
        );
    }
    if findings.len() > SHOWN_FINDINGS {
        let _ = write!(text, "\nand {} more here", findings.len() - SHOWN_FINDINGS);
    }
    let next_cursor = (end < all.len()).then(|| end.to_string());
    if let Some(next) = &next_cursor {
        let _ = write!(
            text,
            "\n(findings {} to {end} of {}; the next page is `cursor` \"{next}\")",
            start + 1,
            all.len()
        );
    }
    let value = CheckAnswer {
        errors,
        warnings,
        findings,
        next_cursor,
    };
    Ok(Typed::new(value, text))
}

/// The path findings show for the file `path` names (from the repository's root, the book's
/// root or its source folder), or a refusal naming the nearest file of the book.
fn file_of(loaded: &Loaded, path: &str) -> Result<String, Refusal> {
    let path = path.trim_start_matches("./").replace('\\', "/");
    let paths = &loaded.paths;
    let mut files: Vec<String> = vec![paths.of_book("book.toml")];
    for item in loaded.book.iter() {
        if let mdbook_preprocessor::book::BookItem::Chapter(ch) = item
            && let Some(source) = &ch.source_path
        {
            let source = crate::util::paths::slashed(source);
            files.push(paths.of_book(&format!("{}/{source}", loaded.src)));
        }
    }
    files.extend(loaded.findings.iter().map(|f| f.path.clone()));
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    let candidates = [
        path.clone(),
        paths.of_book(&path),
        paths.of_book(&format!("{}/{path}", loaded.src)),
    ];
    if let Some(file) = files.iter().find(|f| candidates.contains(f)) {
        return Ok(file.clone());
    }
    // The nearest by file name: `contract.md` for `src/provider-contract.md`.
    let name = |f: &str| f.rsplit('/').next().unwrap_or(f).to_owned();
    let names: Vec<String> = files.iter().map(|f| name(f)).collect();
    let nearest =
        crate::util::suggest::did_you_mean(&name(&path), names.iter().map(String::as_str))
            .and_then(|n| files.iter().find(|f| name(f) == n));
    Err(match nearest {
        Some(file) => format!(
            "no file `{path}` in this book; did you mean `{file}`? (paths are from the repository's root, or from the book's root or `{}`)",
            loaded.src
        ),
        None => unknown("file", &path, files.iter().map(String::as_str)),
    })
}
