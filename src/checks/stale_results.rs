//! `stale-results`: test results that no longer say what the tests do: a results file older
//! than a change to a test it reports on (the file of a citing test whose content changed since
//! the run: in a commit after it, or edited in the working tree after it; a file checked out
//! again as it was is not changed, whatever its file time),
//! or naming a Go test that no longer exists (its package's folder holds no `func` of that
//! name). Other runners' names are not looked up in the tree: a result they name is only
//! matched, or not, to a citation.

use std::path::Path;

// Looked up once per case of a report (hundreds of thousands): foldhash, as the results'
// own maps.
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use super::{Context, Draft, Place};
use crate::read::results::matching::go_module;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let Some(root) = cx.config.source_root.as_deref() else {
        return;
    };
    let source_root = cx.files.root().join(root);
    let results = cx.results;
    // A provider report's runs are of its repository's tree, not of this one.
    let local = results.files.iter().take(cx.reported.local_files);
    for (index, file) in local.enumerate() {
        let at = Place::Config(cx.config.item_at("test-results", file.item));
        if let Some(newer) = newer_test(cx, &source_root, index) {
            out.push(
                Draft::at(
                    Check::StaleResults,
                    at.clone(),
                    0..0,
                    format!(
                        "the test results `{}` are older than `{newer}`, a test they report on, which changed since the run",
                        file.shown
                    ),
                )
                .help("run the tests again, so that the results say what the tests do now"),
            );
        }
        let (gone, all) = gone_go_tests(&source_root, results, index);
        if !gone.is_empty() {
            let shown: Vec<String> = gone.iter().map(|n| format!("`{n}`")).collect();
            let more = if all > gone.len() {
                format!(" and {} more", all - gone.len())
            } else {
                String::new()
            };
            out.push(
                Draft::at(
                    Check::StaleResults,
                    at,
                    0..0,
                    format!(
                        "the test results `{}` name tests that no longer exist: {}{more}",
                        file.shown,
                        shown.join(", ")
                    ),
                )
                .help("run the tests again: the results are of an older tree"),
            );
        }
    }
}

/// The first file of a test citing a rule, with a case in results file `index`, whose content
/// changed after the run.
fn newer_test(cx: &Context<'_>, source_root: &Path, index: usize) -> Option<String> {
    let file = &cx.results.files[index];
    // The cited tests are few; the cases may be hundreds of thousands: one pass over them, no
    // copy of a name.
    let cited: HashSet<&str> = cx
        .citations
        .iter()
        .filter_map(|c| c.test.as_ref().map(|t| t.name.as_str()))
        .collect();
    let mut reported: HashSet<&str> = HashSet::new();
    let mut last = None;
    for (i, _) in cx
        .results
        .cases
        .iter()
        .enumerate()
        .filter(|(_, c)| c.report == index)
    {
        let name = cx.results.function(i);
        // A function's cases stand one after another: looked up once.
        if last == Some(name) {
            continue;
        }
        last = Some(name);
        if let Some(test) = cited.get(name) {
            reported.insert(test);
        }
    }
    let mut files: Vec<&str> = cx
        .citations
        .iter()
        .filter(|c| {
            c.test
                .as_ref()
                .is_some_and(|t| reported.contains(t.name.as_str()))
        })
        .map(|c| c.path.as_str())
        .collect();
    files.dedup();
    let written = file.modified.and_then(crate::util::epoch_seconds);
    // Against commits, the run's own time stamp; against file times, the results file's.
    let run_at = file.run_at()?;
    match crate::util::git::changed_since_time(source_root, &files, run_at) {
        Some(changed) => files
            .into_iter()
            .find(|f| changed.iter().any(|c| c == f))
            .map(str::to_owned),
        // Not in a repository: the file times are all there is.
        None => files
            .into_iter()
            .find(|f| {
                std::fs::metadata(source_root.join(f))
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(crate::util::epoch_seconds)
                    .is_some_and(|changed| written.is_some_and(|w| changed > w))
            })
            .map(str::to_owned),
    }
}

/// The Go tests results file `index` names whose package folder (under `source_root`, by the
/// module path of its `go.mod`) holds no test function of that name: the first few, and how
/// many in all.
fn gone_go_tests(
    source_root: &Path,
    results: &crate::read::results::Results,
    index: usize,
) -> (Vec<String>, usize) {
    let Some(module) = std::fs::read_to_string(source_root.join("go.mod"))
        .ok()
        .and_then(|text| go_module(&text))
    else {
        return (Vec::new(), 0);
    };
    let mut declared: HashMap<&str, HashSet<String>> = HashMap::new();
    let mut gone = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    // A package's cases, and a function's subtests, stand one after another: each is looked
    // up once, not once per case.
    let mut last: Option<(&str, &str)> = None;
    for case in results.cases.iter().filter(|c| c.report == index) {
        let Some(folder) = case
            .classname
            .strip_prefix(&module)
            .map(|rest| rest.trim_start_matches('/'))
        else {
            continue;
        };
        // A package that did not build names no test.
        if crate::read::results::gotest::is_package_failure(&case.name) {
            continue;
        }
        let name = case.name.as_bytes();
        let function = &case.name[..memchr::memchr(b'/', name).unwrap_or(name.len())];
        if last == Some((folder, function)) {
            continue;
        }
        last = Some((folder, function));
        let tests = declared
            .entry(folder)
            .or_insert_with(|| go_tests_in(&source_root.join(folder)));
        if !tests.contains(function) && seen.insert(function) && gone.len() < 5 {
            gone.push(function.to_owned());
        }
    }
    (gone, seen.len())
}

/// The names of the functions the `_test.go` files of `folder` declare.
fn go_tests_in(folder: &Path) -> HashSet<String> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return HashSet::new();
    };
    let mut names = HashSet::new();
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().ends_with("_test.go") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("func ") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    names.insert(name);
                }
            }
        }
    }
    names
}
