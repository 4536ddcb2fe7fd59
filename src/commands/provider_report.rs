//! `mdbook-contract report`, run in a provider's repository (its CI, after the tests): the
//! provider's evidence against a checkout of the contract's book, as one JSON document
//! (`schema/provider-report.schema.json`) that the book's `provider-reports` reads.
//!
//! The analysis is the book's own (`pipeline::evidence`), with the provider's tree as
//! `source-root` and its results as `test-results`; this file adds what only the provider's
//! repository knows (its URL written as https, its commit) and the statuses the provider
//! declares (`--declared`, a TOML table `[declared]`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Result, bail};
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::Book;

use crate::read::reports::document::{Declared, ProviderReport};

/// What `report` is told besides the book.
#[derive(Debug, Clone, Default)]
pub struct ReportOptions {
    /// The provider, as the book's provider section names it.
    pub provider: String,
    /// The provider's repository (default: its `origin`, as https).
    pub repository: Option<String>,
    /// The commit (default: `HEAD` of the source root's repository).
    pub commit: Option<String>,
    /// The `--declared` file.
    pub declared: Option<std::path::PathBuf>,
}

/// The report of `options.provider` for `book`, loaded with the provider's tree as
/// `source-root` (at `source_root`) and its test results, as pretty JSON ending with a newline.
pub fn provider_report(
    ctx: &PreprocessorContext,
    book: &Book,
    source_root: &Path,
    options: &ReportOptions,
) -> Result<String> {
    if options.provider.trim().is_empty() {
        bail!("`--provider` is empty: give the name of the provider's section in the book");
    }
    let mut report = crate::pipeline::evidence::provider_report(ctx, book, &options.provider)?;
    if let Some(file) = &options.declared {
        let known: Vec<&str> = report
            .contract
            .rules
            .iter()
            .map(|r| r.id.as_str())
            .collect();
        report.declared = read_declared(file, &known)?;
    }
    report.repository = match &options.repository {
        Some(url) => Some(url.clone()),
        None => crate::util::git::origin(source_root)
            .ok()
            .and_then(|url| https(&url)),
    };
    report.commit = match &options.commit {
        Some(sha) => Some(sha.clone()),
        None => crate::util::git::head(source_root).ok(),
    };
    Ok(to_json(&report))
}

/// The document as pretty JSON, ending with a newline.
fn to_json(report: &ProviderReport) -> String {
    let mut out = serde_json::to_string_pretty(report).expect("the report serialises");
    out.push('\n');
    out
}

/// The `[declared]` table of `file`: each rule ID of the contract (`known`) with
/// `implemented`, `not-implemented` or `not-applicable`.
fn read_declared(file: &Path, known: &[&str]) -> Result<BTreeMap<String, Declared>> {
    let shown = crate::util::paths::slashed(file);
    let text = match crate::util::text::read_to_string(file) {
        Ok(text) => text,
        Err(error) => bail!("`{shown}` cannot be read: {error}"),
    };
    let doc: toml_edit::DocumentMut = match text.parse() {
        Ok(doc) => doc,
        Err(error) => bail!("`{shown}` is not TOML: {}", first_line(&error.to_string())),
    };
    let Some(table) = doc.get("declared").and_then(|t| t.as_table_like()) else {
        bail!(
            "`{shown}` has no table `[declared]`: write `[declared]` and under it one line per rule, such as `\"a.rule\" = \"implemented\"`"
        );
    };
    let mut out = BTreeMap::new();
    for (id, value) in table.iter() {
        let said = value.as_str();
        let Some(status) = said.and_then(Declared::parse) else {
            bail!(
                "`{shown}`: `declared.{id}` is {}, not one of \"implemented\", \"not-implemented\", \"not-applicable\"",
                said.map_or_else(|| "not a string".to_owned(), |s| format!("\"{s}\""))
            );
        };
        if !known.contains(&id) {
            let hint = crate::util::suggest::hint(id, known.iter().copied());
            bail!("`{shown}`: `declared.{id}` names no rule of the contract{hint}");
        }
        out.insert(id.to_owned(), status);
    }
    Ok(out)
}

fn first_line(text: &str) -> &str {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or(text)
}

/// A remote's URL as https (`git@github.com:o/r.git` is `https://github.com/o/r`), without
/// credentials or `.git`; `None` for a URL with no host (a path, `file://`).
pub(crate) fn https(url: &str) -> Option<String> {
    let url = url.trim();
    let (host, path) = if let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .or_else(|| url.strip_prefix("ssh://"))
        .or_else(|| url.strip_prefix("git://"))
    {
        let (authority, path) = rest.split_once('/')?;
        let host = authority.rsplit('@').next()?;
        // An ssh port is no part of the web address.
        let host = if url.starts_with("ssh://") {
            host.split(':').next()?
        } else {
            host
        };
        (host.to_owned(), path.to_owned())
    } else if let Some((authority, path)) = url.split_once(':')
        && authority.len() > 1
        && !authority.contains(['/', '\\'])
        && !path.starts_with("//")
    {
        (authority.rsplit('@').next()?.to_owned(), path.to_owned())
    } else {
        return None;
    };
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    if host.is_empty() || path.is_empty() {
        return None;
    }
    Some(format!("https://{host}/{path}"))
}

#[cfg(test)]
mod tests {
    use super::https;

    #[test]
    fn remotes_are_written_as_https() {
        let cases = [
            ("git@github.com:o/r.git", Some("https://github.com/o/r")),
            ("https://github.com/o/r.git", Some("https://github.com/o/r")),
            (
                "https://user:token@gitlab.com/g/s/r",
                Some("https://gitlab.com/g/s/r"),
            ),
            (
                "ssh://git@codeberg.org:2222/o/r.git",
                Some("https://codeberg.org/o/r"),
            ),
            ("http://gitea.local/o/r/", Some("https://gitea.local/o/r")),
            ("/srv/git/r.git", None),
            ("file:///srv/git/r.git", None),
            ("../r", None),
        ];
        for (url, want) in cases {
            assert_eq!(https(url).as_deref(), want, "{url}");
        }
    }
}
