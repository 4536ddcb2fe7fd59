//! Provider reports: the evidence a provider's own repository made (`mdbook-contract report`),
//! read back in the book's (`provider-reports`). `document.rs` is the document, the same types
//! for writing and reading; [`Reports::read`] expands the globs and reads each file once.
//!
//! A file that is missing, unreadable, too large, not JSON, not a report or of another major
//! `schema_version` is one [`Problem`] naming it (`malformed-results` says it), never a
//! provider silently without evidence; a second report of one provider is one too, and the
//! first read (in the order of the globs, then of the paths) is kept.

pub(crate) mod document;

use std::path::Path;

use document::ProviderReport;

/// One report read.
#[derive(Debug, Clone)]
pub(crate) struct Loaded {
    /// The file, relative to the book root as book.toml's patterns write it.
    pub shown: String,
    /// The index of the `provider-reports` pattern that matched it.
    pub item: usize,
    pub report: ProviderReport,
}

/// A pattern or file of `provider-reports` that gives no report.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    pub item: usize,
    pub message: String,
}

/// Every report read, and what could not be.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reports {
    /// Whether `provider-reports` is set: then a provider without a report has `no report`.
    pub asked: bool,
    pub reports: Vec<Loaded>,
    pub problems: Vec<Problem>,
}

impl Reports {
    /// Reads the files `patterns` (relative to `root`) match, inside `confinement` and of at
    /// most `limit` bytes each.
    pub(crate) fn read(
        root: &Path,
        patterns: &[String],
        confinement: &crate::util::confine::Confinement,
        limit: u64,
    ) -> Reports {
        let mut out = Reports {
            asked: !patterns.is_empty(),
            ..Reports::default()
        };
        let mut seen = Vec::new();
        for (item, pattern) in patterns.iter().enumerate() {
            let files = crate::read::results::expand(root, pattern);
            if files.is_empty() {
                out.problems.push(Problem {
                    item,
                    message: format!(
                        "`provider-reports` names `{pattern}`, which matches no file (relative to the folder of book.toml): no provider report is read from it"
                    ),
                });
            }
            for path in files {
                if seen.contains(&path) {
                    continue;
                }
                seen.push(path.clone());
                let shown = crate::read::results::shown(root, &path);
                let read = if confinement.holds(&path) {
                    read_one(&path, limit)
                } else {
                    Err(format!(
                        "is outside `{}`, the repository of the book: it is not read",
                        confinement.root().display()
                    ))
                };
                match read {
                    Ok(report) => out.keep(Loaded {
                        shown,
                        item,
                        report,
                    }),
                    Err(why) => out.problems.push(Problem {
                        item,
                        message: format!("the provider report `{shown}` {why}"),
                    }),
                }
            }
        }
        out
    }

    /// Keeps `loaded` unless a report of its provider is kept already.
    fn keep(&mut self, loaded: Loaded) {
        let provider = &loaded.report.provider;
        if let Some(first) = self.reports.iter().find(|r| &r.report.provider == provider) {
            self.problems.push(Problem {
                item: loaded.item,
                message: format!(
                    "the provider report `{}` is a second report of `{provider}`; `{}` is read and this one is not",
                    loaded.shown, first.shown
                ),
            });
            return;
        }
        self.reports.push(loaded);
    }
}

/// The report in the file at `path`, or why it is none (the words after the file's name).
fn read_one(path: &Path, limit: u64) -> Result<ProviderReport, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("cannot be read: {e}"))?
        .len();
    if size > limit {
        return Err(format!(
            "is {} MiB, larger than `test-results-limit` ({} MiB): it is not read",
            size >> 20,
            limit >> 20
        ));
    }
    let text =
        crate::util::text::read_to_string(path).map_err(|e| format!("cannot be read: {e}"))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("is not JSON ({e}): make it again with `mdbook-contract report`"))?;
    let version = value
        .get("schema_version")
        .and_then(serde_json::Value::as_str)
        .ok_or("has no `schema_version`: it is no report of `mdbook-contract report`")?;
    if version.split('.').next() != Some("1") {
        return Err(format!(
            "has `schema_version` {version}, and this mdbook-contract reads 1.x: make it again with the same version of mdbook-contract as the book's"
        ));
    }
    let report: ProviderReport = serde_json::from_value(value).map_err(|e| {
        format!("is not a report of `mdbook-contract report` ({e}): make it again with `mdbook-contract report`")
    })?;
    if report.provider.trim().is_empty() {
        return Err("names no provider".to_owned());
    }
    Ok(report)
}

/// The address of line `line` of `path` in `repository` at `commit`, in the form of its host:
/// GitHub (`/blob/`), GitLab (`/-/blob/`), Gitea, Forgejo and Codeberg (`/src/commit/`); `None`
/// for another host, whose form is not known.
pub(crate) fn blob(repository: &str, commit: &str, path: &str, line: usize) -> Option<String> {
    let repository = repository.trim_end_matches('/');
    let host = repository
        .strip_prefix("https://")?
        .split('/')
        .next()?
        .to_ascii_lowercase();
    let is = |name: &str| host == format!("{name}.com") || host.starts_with(&format!("{name}."));
    let form = if is("github") {
        "blob"
    } else if is("gitlab") {
        "-/blob"
    } else if is("gitea") || is("forgejo") || host == "codeberg.org" {
        "src/commit"
    } else {
        return None;
    };
    let mut encoded = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            encoded.push(byte as char);
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    let commit: String = commit.chars().filter(char::is_ascii_alphanumeric).collect();
    Some(format!("{repository}/{form}/{commit}/{encoded}#L{line}"))
}

#[cfg(test)]
mod tests {
    use super::blob;

    #[test]
    fn each_host_has_its_form_and_another_host_none() {
        let at = |repo: &str| blob(repo, "abc1", "src/a b.py", 7);
        assert_eq!(
            at("https://github.com/acme/alpha").as_deref(),
            Some("https://github.com/acme/alpha/blob/abc1/src/a%20b.py#L7")
        );
        assert_eq!(
            at("https://gitlab.com/acme/beta/").as_deref(),
            Some("https://gitlab.com/acme/beta/-/blob/abc1/src/a%20b.py#L7")
        );
        assert_eq!(
            at("https://gitea.example.org/acme/g").as_deref(),
            Some("https://gitea.example.org/acme/g/src/commit/abc1/src/a%20b.py#L7")
        );
        assert_eq!(
            at("https://codeberg.org/acme/c").as_deref(),
            Some("https://codeberg.org/acme/c/src/commit/abc1/src/a%20b.py#L7")
        );
        assert_eq!(at("https://example.com/acme/x"), None);
        assert_eq!(at("http://github.com/acme/x"), None);
    }
}
