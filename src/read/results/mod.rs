//! Test results: what the last test run said of each test case, read from the files that
//! `test-results` in book.toml (or `--test-results`) names: JUnit XML (gotestsum,
//! go-junit-report, cargo-nextest, pytest, Maven Surefire) or Go's `go test -json` stream.
//!
//! [`Results::read`] expands the globs, reads each file once and keeps every test case with its
//! outcome; a file that is missing, empty or neither format is a [`Problem`] for
//! `malformed-results`, never a silent zero. Which case is the test a citation stands in is
//! `matching.rs`'s; what that makes of a rule's coverage is `rules/coverage.rs`'s.
//!
//! To read another format: a module beside `junit.rs` and `gotest.rs` that turns a file's
//! text into [`Case`]s, and its test in [`Results::read`]'s choice of reader.

pub(crate) mod gotest;
pub(crate) mod junit;
pub(crate) mod matching;
pub(crate) mod names;

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use globset::GlobBuilder;

/// What a run said of a test case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Outcome {
    Passed,
    Skipped,
    Failed,
}

impl Outcome {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Skipped => "skipped",
            Outcome::Failed => "failed",
        }
    }
}

/// One test case of a report.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    /// As the report names it: `TestPublish/kafka`, `store::tests::put`, `test_put[s3]`.
    pub name: String,
    /// The package, module or class it belongs to: a Go import path, a nextest binary, a
    /// pytest module, a Java class.
    pub classname: String,
    /// The source file, when the report gives it.
    pub file: Option<String>,
    /// The name its runner displays, when it differs from `name` and the report keeps it (the
    /// JUnit Console Launcher prints `display-name: [2] gcs` in the case's output).
    pub display: Option<String>,
    pub outcome: Outcome,
    /// The first line of its failure (or of why it was skipped).
    pub message: Option<String>,
    /// The file it was read from (an index into [`Results::files`]).
    pub report: usize,
}

/// One file of results.
#[derive(Debug, Clone)]
pub(crate) struct ResultsFile {
    pub path: PathBuf,
    /// The index of the `test-results` pattern that matched it.
    pub item: usize,
    /// As book.toml's patterns write it: relative to the book root.
    pub shown: String,
    pub modified: Option<SystemTime>,
    /// When the run was, as the report says (a JUnit `timestamp`, `go test -json`'s `Time`).
    pub timestamp: Option<String>,
}

/// A results pattern or file that gives no results: what is wrong, at which item of the list.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    /// The index of the pattern in `test-results`.
    pub item: usize,
    pub message: String,
}

/// Every test case of the results files, and what could not be read.
#[derive(Debug, Clone, Default)]
pub(crate) struct Results {
    /// Whether any results were asked for (`test-results` is not empty): without, a citing
    /// test counts as it did before results existed.
    pub asked: bool,
    pub files: Vec<ResultsFile>,
    pub cases: Vec<Case>,
    pub problems: Vec<Problem>,
}

impl Results {
    /// Reads the files that `patterns` (relative to `root`) match.
    pub(crate) fn read(root: &Path, patterns: &[String]) -> Results {
        let mut results = Results {
            asked: !patterns.is_empty(),
            ..Results::default()
        };
        for (item, pattern) in patterns.iter().enumerate() {
            let files = expand(root, pattern);
            if files.is_empty() {
                let what = if crate::read::code::is_glob(pattern) {
                    "matches no file"
                } else {
                    "does not exist"
                };
                results.problems.push(Problem {
                    item,
                    message: format!(
                        "`test-results` names `{pattern}`, which {what} (relative to the folder of book.toml): no test result is read from it"
                    ),
                });
            }
            for path in files {
                if results.files.iter().any(|f| f.path == path) {
                    continue;
                }
                if let Err(why) = results.read_file(root, &path, item) {
                    let shown = shown(root, &path);
                    results.problems.push(Problem {
                        item,
                        message: format!("the test results `{shown}` {why}"),
                    });
                }
            }
        }
        results
    }

    /// Reads one file, JUnit XML or `go test -json`, by what it starts with.
    fn read_file(&mut self, root: &Path, path: &Path, item: usize) -> Result<(), String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot be read ({e})"))?;
        let text = String::from_utf8(bytes).map_err(|_| "are not UTF-8".to_owned())?;
        let start = text.trim_start_matches('\u{feff}').trim_start();
        if start.is_empty() {
            return Err("are empty: the test run wrote nothing".to_owned());
        }
        let report = self.files.len();
        let read = if start.starts_with('<') {
            junit::read(start, report)?
        } else if start.starts_with('{') {
            gotest::read(start, report)?
        } else {
            return Err(
                "are neither JUnit XML (`<testsuites>` or `<testsuite>`) nor `go test -json` output"
                    .to_owned(),
            );
        };
        self.files.push(ResultsFile {
            path: path.to_path_buf(),
            item,
            shown: shown(root, path),
            modified: std::fs::metadata(path).and_then(|m| m.modified()).ok(),
            timestamp: read.timestamp,
        });
        self.cases.extend(read.cases);
        Ok(())
    }
}

/// What a reader made of a file.
#[derive(Debug)]
pub(crate) struct Read {
    pub cases: Vec<Case>,
    pub timestamp: Option<String>,
}

/// The files `pattern` matches under `root`: the file itself without wildcards, else every
/// file under the pattern's folder that matches (results lie in folders git ignores, so
/// nothing is left out for that).
fn expand(root: &Path, pattern: &str) -> Vec<PathBuf> {
    if !crate::read::code::is_glob(pattern) {
        let path = root.join(pattern);
        return if path.is_file() {
            vec![path]
        } else {
            Vec::new()
        };
    }
    let fixed = pattern[..pattern.find(['*', '?', '[', '{']).unwrap_or(0)]
        .rsplit_once('/')
        .map_or("", |(folder, _)| folder);
    let Ok(glob) = GlobBuilder::new(pattern).literal_separator(true).build() else {
        return Vec::new();
    };
    let matcher = glob.compile_matcher();
    // An absolute pattern (given on the command line, outside the book) is matched whole.
    let absolute = Path::new(pattern).is_absolute();
    let mut files: Vec<PathBuf> = ignore::WalkBuilder::new(root.join(fixed))
        .standard_filters(false)
        .build()
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(|e| e.into_path())
        .filter(|p| {
            let relative = if absolute {
                Some(p.as_path())
            } else {
                p.strip_prefix(root).ok()
            };
            relative.is_some_and(|r| matcher.is_match(r.to_string_lossy().replace('\\', "/")))
        })
        .collect();
    files.sort();
    files
}

fn shown(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}
