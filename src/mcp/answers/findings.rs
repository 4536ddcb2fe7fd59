//! `contract_check`: the findings, of the book or of one file.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::{Answer, Refusal, unknown};
use crate::mcp::watch::Loaded;

/// How many lines of findings the text of `contract_check` shows.
const SHOWN_FINDINGS: usize = 20;

/// `contract_check`.
pub(crate) fn check(loaded: &Loaded, path: Option<&str>) -> Result<Answer, Refusal> {
    let all = loaded
        .export
        .findings
        .as_array()
        .cloned()
        .unwrap_or_default();
    let findings: Vec<Value> = match path {
        None => all,
        Some(path) => {
            let shown = file_of(loaded, path)?;
            all.into_iter()
                .filter(|f| f["path"] == shown.as_str())
                .collect()
        }
    };
    let count = |severity: &str| {
        findings
            .iter()
            .filter(|f| f["severity"] == severity)
            .count()
    };
    let (errors, warnings) = (count("error"), count("warning"));
    let mut text = format!(
        "{} errors, {} warnings{}",
        errors,
        warnings,
        path.map_or_else(String::new, |p| format!(" in `{p}`"))
    );
    for f in findings.iter().take(SHOWN_FINDINGS) {
        let _ = write!(
            text,
            "\n{}:{}:{}: {}[{}]: {}",
            f["path"].as_str().unwrap_or_default(),
            f["line"],
            f["column"],
            f["severity"].as_str().unwrap_or_default(),
            f["check"].as_str().unwrap_or_default(),
            f["message"].as_str().unwrap_or_default()
        );
    }
    if findings.len() > SHOWN_FINDINGS {
        let _ = write!(text, "\nand {} more", findings.len() - SHOWN_FINDINGS);
    }
    Ok(Answer {
        value: json!({ "errors": errors, "warnings": warnings, "findings": findings }),
        text,
    })
}

/// The path findings show for the file `path` names (relative to the book root or to its
/// source folder), or a refusal naming the nearest file of the book.
fn file_of(loaded: &Loaded, path: &str) -> Result<String, Refusal> {
    let path = path.trim_start_matches("./").replace('\\', "/");
    let src = &loaded.src;
    let mut files: Vec<String> = vec!["book.toml".to_owned()];
    for item in loaded.book.iter() {
        if let mdbook_preprocessor::book::BookItem::Chapter(ch) = item
            && let Some(source) = &ch.source_path
        {
            files.push(format!(
                "{src}/{}",
                source.to_string_lossy().replace('\\', "/")
            ));
        }
    }
    for f in loaded.export.findings.as_array().into_iter().flatten() {
        if let Some(p) = f["path"].as_str() {
            files.push(p.to_owned());
        }
    }
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    let inside = format!("{src}/{path}");
    if let Some(file) = files.iter().find(|f| **f == path || **f == inside) {
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
            "no file `{path}` in this book; did you mean `{file}`? (paths are relative to the book root or to `{src}`)"
        ),
        None => unknown("file", &path, files.iter().map(String::as_str)),
    })
}
