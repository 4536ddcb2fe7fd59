//! The baseline: the findings a book had when its team adopted the checks, which no longer fail
//! the build, so that an existing spec is fixed step by step while every new finding fails as
//! before (PHPStan's, detekt's and ESLint's bulk suppressions are the model).
//!
//! `mdbook-contract check --write-baseline FILE` writes [`write`]'s text: one line per finding,
//! sorted, `CHECK<TAB>FILE<TAB>LINE<TAB>MESSAGE`, where FILE is relative to the book root and
//! LINE is the text of the finding's line (not its number), so that an edit above a finding
//! keeps it known and an edit of its line makes it new. [`apply`] moves the findings the file
//! records into [`Report::known`] (one recorded line stands for one finding) and reports each
//! recorded line that no finding matches any more as `outdated-baseline`, at its line of the
//! file: the baseline can shrink.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::read::chapter::BookFiles;
use crate::read::config::Config;
use crate::read::sourcemap::Location;
use crate::report::diagnostic::{Finding, Report};
use crate::util::vocab::{Check, Severity};

/// The first lines of a baseline file.
const HEADER: &str = "# mdbook-contract baseline: the findings known when it was written, which do not fail the build.
# One a line: CHECK, FILE (from the book root), the text of its line, the message; tabs between,
# and `\\t`, `\\n`, `\\\\` inside. Written by `mdbook-contract check --write-baseline FILE`.
";

/// What identifies a finding across edits: its check, file, the text of its line and its
/// message.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    check: String,
    file: String,
    line: String,
    message: String,
}

impl Key {
    fn of(finding: &Finding, file: String) -> Key {
        Key {
            check: finding.check.name().to_owned(),
            file,
            line: finding.location.line_text.trim().to_owned(),
            message: finding.message.clone(),
        }
    }
}

/// The text of a baseline file that records every finding of `report`, whose paths are shown
/// relative to the book root.
pub fn write(report: &Report) -> String {
    let mut lines: Vec<String> = report
        .findings
        .iter()
        .chain(&report.known)
        .filter(|f| f.check != Check::OutdatedBaseline)
        .map(|f| {
            let key = Key::of(f, crate::util::paths::slashed(&f.location.path));
            [key.check, key.file, key.line, key.message]
                .iter()
                .map(|field| escape(field))
                .collect::<Vec<_>>()
                .join("\t")
        })
        .collect();
    lines.sort();
    let mut out = String::from(HEADER);
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The line of book.toml that names the baseline file at `path` (relative to the book root):
/// `baseline = "..."`, quoted as TOML quotes it, so a `\` in a name stays itself.
pub fn setting(path: &Path) -> String {
    let value = toml_edit::Value::from(crate::util::paths::slashed(path));
    format!("baseline = {}", value.to_string().trim())
}

/// A recorded finding, with its line in the file.
struct Recorded {
    key: Key,
    line: usize,
}

/// Reads the baseline file at `path`: its recorded findings, or why it cannot be read (a line
/// that does not have four fields names its number).
fn read(path: &Path, files: &BookFiles) -> Result<Vec<Recorded>, String> {
    if !files.confinement().holds(path) {
        return Err(format!(
            "is outside `{}`, the repository of the book, and is not read",
            files.confinement().root().display()
        ));
    }
    let bytes = files
        .read(path)
        .map_err(|error| format!("cannot be read ({error})"))?;
    let text = String::from_utf8(bytes).map_err(|_| "is not UTF-8".to_owned())?;
    // Notepad and PowerShell 5 start a UTF-8 file with a byte order mark.
    let text = crate::util::text::without_bom(text);
    let mut recorded = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<String> = line.split('\t').map(unescape).collect();
        let [check, file, line_text, message] = <[String; 4]>::try_from(fields).map_err(|f| {
            format!(
                "has {} fields on its line {}, not four (CHECK, FILE, LINE, MESSAGE, tab-separated); write it again with `mdbook-contract check --write-baseline`",
                f.len(),
                number + 1
            )
        })?;
        recorded.push(Recorded {
            key: Key {
                check,
                file,
                line: line_text,
                message,
            },
            line: number + 1,
        });
    }
    Ok(recorded)
}

/// Applies the baseline `config` names (if any) to `report`: see the module docs. A baseline
/// that cannot be read is one finding at its key in book.toml, and `report` is left as it is.
/// With `results_unread` (a report of `test-results` was not read), a recorded finding of a
/// check that the results decide is not called outdated: its failure may be in that report,
/// and writing the baseline again would drop it.
pub(crate) fn apply(report: &mut Report, config: &Config, files: &BookFiles, results_unread: bool) {
    let Some(name) = &config.baseline else {
        return;
    };
    let path = files.root().join(name);
    let shown = files.display(&path);
    let recorded = match read(&path, files) {
        Ok(recorded) => recorded,
        Err(why) => {
            report.findings.push(unreadable(config, files, name, &why));
            return;
        }
    };
    // Each recorded line stands for one finding; a finding's file is compared as shown.
    let mut left: HashMap<Key, Vec<usize>> = HashMap::new();
    for (i, entry) in recorded.iter().enumerate() {
        let mut key = entry.key.clone();
        key.file = crate::util::paths::slashed(&files.display(&files.root().join(&key.file)));
        left.entry(key).or_default().push(i);
    }
    let mut used = vec![false; recorded.len()];
    let findings = std::mem::take(&mut report.findings);
    for finding in findings {
        let key = Key::of(
            &finding,
            crate::util::paths::slashed(&finding.location.path),
        );
        match left.get_mut(&key).and_then(Vec::pop) {
            Some(i) => {
                used[i] = true;
                report.known.push(finding);
            }
            None => report.findings.push(finding),
        }
    }
    let severity = config.severity(Check::OutdatedBaseline, None);
    if severity != Severity::Off {
        let decided_by_results = |entry: &Recorded| {
            results_unread
                && [
                    Check::FailingRule,
                    Check::UnverifiedRule,
                    Check::StaleResults,
                ]
                .iter()
                .any(|c| c.name() == entry.key.check)
        };
        for (entry, _) in recorded
            .iter()
            .zip(&used)
            .filter(|(entry, used)| !**used && !decided_by_results(entry))
        {
            report
                .findings
                .push(outdated(entry, &shown, name, severity));
        }
    }
    report.baseline = Some(shown);
}

/// The finding of a recorded line that no finding matches any more: one short sentence with
/// the check, the file and the finding's text, at the check's name on the line (the rest of
/// the line, tab-separated fields, is not reprinted).
fn outdated(entry: &Recorded, shown: &Path, name: &str, severity: Severity) -> Finding {
    let mut said: String = entry.key.message.chars().take(80).collect();
    if said.len() < entry.key.message.len() {
        said.push('…');
    }
    Finding {
        check: Check::OutdatedBaseline,
        severity,
        message: format!(
            "the `{}` finding in `{}` (\"{said}\") no longer occurs: the baseline can shrink",
            entry.key.check, entry.key.file
        ),
        location: Location {
            path: shown.to_path_buf(),
            line: entry.line,
            column: 1,
            width: entry.key.check.chars().count().max(1),
            line_text: entry.key.check.clone(),
            note: None,
        },
        help: Some(format!(
            "write the baseline again: `mdbook-contract check --write-baseline {name}`"
        )),
        notes: Vec::new(),
    }
}

/// The finding of a baseline file that cannot be read, at its key in book.toml.
fn unreadable(config: &Config, files: &BookFiles, name: &str, why: &str) -> Finding {
    let key = crate::read::config::KeyPath::key("baseline");
    let toml = files.book_toml();
    let text = files
        .read(&toml)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default();
    let check = if why.starts_with("cannot be read") || why.starts_with("is outside") {
        Check::DanglingPath
    } else {
        Check::MalformedConfig
    };
    Finding {
        check,
        severity: config.severity(check, None).max(Severity::Warning),
        message: format!("`{key}` is `{name}`, which {why}"),
        location: crate::report::resolve::key_location(files.display(&toml), &text, &key),
        help: Some(format!(
            "`baseline` is relative to the folder of book.toml; `mdbook-contract check --write-baseline {name}` writes it"
        )),
        notes: Vec::new(),
    }
}

fn escape(field: &str) -> String {
    field
        .replace('\\', "\\\\")
        .replace('\t', "\\t")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

fn unescape(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_quotes_the_path_as_toml_does() {
        for name in [
            "known.txt",
            "../a b/known.txt",
            "odd\\name.txt",
            "quote\"d.txt",
        ] {
            let line = setting(Path::new(name));
            let doc: toml_edit::DocumentMut = line.parse().expect(&line);
            assert_eq!(
                doc["baseline"].as_str(),
                Some(crate::util::paths::slashed(Path::new(name)).as_str()),
                "{line}"
            );
        }
    }

    #[test]
    fn fields_round_trip() {
        for field in ["plain", "a\tb", "a\\tb", "line\nnext", "back\\slash", "\\"] {
            assert_eq!(unescape(&escape(field)), field, "{field:?}");
            assert!(!escape(field).contains(['\t', '\n']));
        }
    }
}
