//! Test results: what the last test run said of each test case, read from the files that
//! `test-results` in book.toml (or `--test-results`) names: JUnit XML (gotestsum,
//! go-junit-report, cargo-nextest, pytest, Maven Surefire), TestNG's `testng-results.xml`,
//! GoogleTest's JSON report or Go's `go test -json` stream.
//!
//! [`Results::read`] expands the globs, reads each file once and keeps every test case with its
//! outcome; a file that is missing, empty or neither format is a [`Problem`] for
//! `malformed-results`, never a silent zero. Which case is the test a citation stands in is
//! `matching/`'s; what that makes of a rule's coverage is `rules/coverage/tested.rs`'s.
//!
//! To read another format: a module beside `junit.rs`, `testng.rs`, `gtest_json.rs` and
//! `gotest.rs` that turns a file's text into [`Case`]s, and its test in [`Results::read`]'s
//! choice of reader (`read_file`, by what the text starts with).

pub(crate) mod attempts;
pub(crate) mod cases_in;
pub(crate) mod gotest;
pub(crate) mod gtest_json;
pub(crate) mod junit;
pub(crate) mod matching;
pub(crate) mod names;
pub(crate) mod rows;
pub(crate) mod testng;
pub(crate) mod whole_file;

/// A map keyed by case names: hashed with foldhash, as there is one entry per case.
pub(crate) type CaseMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use globset::GlobBuilder;

/// The most bytes of a failure's message that are kept and shown (its first line, cut there
/// and said to be cut): a report's message reaches pages, terminals and answers.
pub(crate) const MESSAGE: usize = 4096;

/// The most bytes of a case's failure body or output read for its first line.
const KEPT: usize = 64 * 1024;

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
    /// The source file, when the report gives it (on the case, or on the `<testsuite>` that
    /// holds it, as mocha-junit-reporter writes it).
    pub file: Option<String>,
    /// The name of the `<testsuite>` that holds it, when the report nests cases in suites
    /// named after their groups (Node's runner: `describe('putAtomic')` is the suite of its
    /// `test(store)` cases). Shared by the suite's cases.
    pub suite: Option<std::sync::Arc<str>>,
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

impl ResultsFile {
    /// When the run was, in seconds since the Unix epoch: the report's own time stamp, else
    /// the time the file was written.
    pub(crate) fn run_at(&self) -> Option<i64> {
        self.timestamp
            .as_deref()
            .and_then(unix_seconds)
            .or_else(|| self.modified.and_then(crate::util::epoch_seconds))
    }
}

/// An RFC 3339 time (`2026-12-06T11:38:23Z`, `2026-12-06T11:38:23.123+01:00`), as test runners
/// write it, in seconds since the Unix epoch.
pub(crate) fn unix_seconds(text: &str) -> Option<i64> {
    let text = text.trim();
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = text.get(range)?;
        part.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
    if !matches!(text.as_bytes().get(10), Some(b'T' | b't' | b' ')) {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let mut seconds = days * 86_400 + hour * 3600 + minute * 60 + second;
    let rest = text.get(19..).unwrap_or("");
    let zone = rest.trim_start_matches(|c: char| c == '.' || c.is_ascii_digit());
    if let Some(sign) = zone.chars().next().filter(|c| *c == '+' || *c == '-') {
        let hours: i64 = zone.get(1..3)?.parse().ok()?;
        let minutes: i64 = zone.get(4..6).and_then(|m| m.parse().ok()).unwrap_or(0);
        let offset = hours * 3600 + minutes * 60;
        seconds -= if sign == '+' { offset } else { -offset };
    }
    Some(seconds)
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
    /// Each case's function ([`names::base`] of its name) as a byte range of the name, worked
    /// out once, on the pool, for every reader of the cases (the matcher, `stale-results`): a
    /// large report has hundreds of thousands.
    functions: std::sync::OnceLock<Vec<(u32, u32)>>,
}

impl Results {
    /// The function case `case` is of: [`names::base`] of its name, worked out once.
    pub(crate) fn function(&self, case: usize) -> &str {
        let functions = self.functions.get_or_init(|| {
            crate::util::parallel::map(
                &self.cases,
                self.cases.len().saturating_mul(matching::CASE_WORK),
                |_, case| {
                    let function = names::base(&case.name);
                    // `base` returns a part of the name: where it starts, and its length.
                    let start = function.as_ptr() as usize - case.name.as_ptr() as usize;
                    let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
                    (at(start), at(function.len()))
                },
            )
        });
        let name = &self.cases[case].name;
        // A case added after (a provider report's) is read here.
        functions
            .get(case)
            .and_then(|&(start, len)| name.get(start as usize..(start + len) as usize))
            .unwrap_or_else(|| names::base(name))
    }

    /// Reads the files that `patterns` (relative to `root`) match, inside `confinement` and of
    /// at most `limit` bytes each (a file outside or larger is a problem, and is not read).
    pub(crate) fn read(
        root: &Path,
        patterns: &[String],
        confinement: &crate::util::confine::Confinement,
        limit: u64,
    ) -> Results {
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
                        "`test-results` names `{pattern}`, which {what} (relative to the folder of book.toml): no test result is read from it{}",
                        from_above(root, pattern, confinement)
                    ),
                });
            }
            for path in files {
                if results.files.iter().any(|f| f.path == path) {
                    continue;
                }
                let read = if confinement.holds(&path) {
                    results.read_file(root, &path, item, limit)
                } else {
                    Err(format!(
                        "are outside `{}`, the repository of the book: they are not read",
                        confinement.root().display()
                    ))
                };
                if let Err(why) = read {
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
    fn read_file(
        &mut self,
        root: &Path,
        path: &Path,
        item: usize,
        limit: u64,
    ) -> Result<(), String> {
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        if size > limit {
            return Err(format!(
                "are {} MiB, more than `test-results-limit` ({} MiB): they are not read (raise the limit in book.toml if a report is meant to be this large)",
                size.div_ceil(1 << 20),
                limit >> 20
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot be read ({e})"))?;
        let text = String::from_utf8(bytes).map_err(|_| "are not UTF-8".to_owned())?;
        let start = text.trim_start_matches('\u{feff}').trim_start();
        if start.is_empty() {
            return Err("are empty: the test run wrote nothing".to_owned());
        }
        let report = self.files.len();
        let read = if start.starts_with('<') {
            if testng::is_report(start) {
                testng::read(start, report)?
            } else {
                junit::read(start, report)?
            }
        } else if start.starts_with('{') {
            if gtest_json::is_report(start) {
                gtest_json::read(start, report)?
            } else {
                gotest::read(start, report)?
            }
        } else {
            return Err(
                "are neither JUnit XML (`<testsuites>` or `<testsuite>`), TestNG's `testng-results.xml`, GoogleTest's JSON nor `go test -json` output"
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
        // The first report's cases are taken as they are: a large report's are tens of
        // megabytes, not to be copied.
        if self.cases.is_empty() {
            self.cases = read.cases;
        } else {
            self.cases.extend(read.cases);
        }
        Ok(())
    }
}

/// Where `pattern` finds files when read from a folder above `root` (inside `confinement`),
/// as the pattern to write from `root`: a book in `docs/` given `results/*.xml` of the
/// repository's top means `../results/*.xml`.
fn from_above(
    root: &Path,
    pattern: &str,
    confinement: &crate::util::confine::Confinement,
) -> String {
    if Path::new(pattern).is_absolute() {
        return String::new();
    }
    let Ok(root) = std::path::absolute(root) else {
        return String::new();
    };
    let mut up = String::new();
    for folder in root.ancestors().skip(1) {
        up.push_str("../");
        if !confinement.holds(folder) {
            break;
        }
        let found = expand(folder, pattern).len();
        if found > 0 {
            return format!(
                "; `{up}{pattern}` would match {} from there",
                crate::util::counted(found, "file")
            );
        }
    }
    String::new()
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
pub(crate) fn expand(root: &Path, pattern: &str) -> Vec<PathBuf> {
    if !crate::read::code::is_glob(pattern) {
        let path = root.join(pattern);
        return if path.is_file() {
            vec![path]
        } else {
            Vec::new()
        };
    }
    let fixed = fixed_folder(pattern);
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

/// The folder a glob's matches all lie in: its components up to the first with a wildcard
/// (`/ci/out` of `/ci/out/*.xml`, `C:\ci\out` of `C:\ci\out\*.xml` on Windows; empty for
/// `*.xml`).
fn fixed_folder(pattern: &str) -> PathBuf {
    Path::new(pattern)
        .components()
        .take_while(|c| !crate::read::code::is_glob(&c.as_os_str().to_string_lossy()))
        .collect()
}

pub(crate) fn shown(root: &Path, path: &Path) -> String {
    crate::util::paths::slashed(path.strip_prefix(root).unwrap_or(path))
}

#[cfg(test)]
mod tests {
    use super::{fixed_folder, unix_seconds};
    use std::path::Path;

    #[test]
    fn a_glob_is_walked_from_the_folder_before_its_first_wildcard() {
        assert_eq!(fixed_folder("/ci/out/*.xml"), Path::new("/ci/out"));
        assert_eq!(fixed_folder("../out/**/junit-*.xml"), Path::new("../out"));
        assert_eq!(fixed_folder("results/{a,b}/x.xml"), Path::new("results"));
        assert_eq!(fixed_folder("*.xml"), Path::new(""));
        if cfg!(windows) {
            assert_eq!(fixed_folder("C:\\ci\\out\\*.xml"), Path::new("C:\\ci\\out"));
        }
    }

    #[test]
    fn runners_time_stamps() {
        assert_eq!(unix_seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(unix_seconds("2026-12-06T11:38:23Z"), Some(1_796_557_103));
        assert_eq!(
            unix_seconds("2026-12-06T12:38:23.123+01:00"),
            Some(1_796_557_103)
        );
        assert_eq!(unix_seconds("2026-12-06T11:38:23.548"), Some(1_796_557_103));
        assert_eq!(unix_seconds("yesterday"), None);
    }
}
