//! Which test cases of the results are the test a citation stands in, and which provider each
//! ran for.
//!
//! The test a citation stands in comes from the syntax tree (`read::code`): its name, the
//! names of what it stands in (a class, a module, a `describe`), its file. A case is that test
//! when its function is the test's (`names/` says how each runner names one) and it is of
//! the test's file, as its runner says where a case is from:
//!
//! - Go: the case's package (classname) is the import path of the citation's folder (the module
//!   path of the nearest `go.mod` and the folder under it), or the folder itself;
//! - Rust under cargo-nextest: the module path before the function is the file's (`a::b` for
//!   `src/a/b.rs`) and its inline modules; a test in `tests/` is a binary of its own;
//! - Python under pytest: the classname is the file's module with the classes around the test
//!   (`providers.s3.test_provider`, `tests.test_store.TestPut`), so equal file names in two
//!   providers' folders never mix;
//! - Java and Kotlin: the classname is the file's full class name (package and class);
//! - JavaScript and TypeScript: the case's name is the test's title inside its groups' titles;
//!   its file is the report's `file` or a classname that is a path (Vitest, jest-junit set so),
//!   and when the report says no file (jest-junit's defaults) and two files hold a test of the
//!   same titles, which file ran is not known ([`Found::unplaced`]);
//! - any report with a `file` attribute: that file is the citation's.
//!
//! Only the newest attempt of each case counts (`attempts.rs`): a rerun that passed is passed
//! (flaky), and of two reports the newer (by its time stamp, else by its order in
//! `test-results`) wins, a disagreement noted.

use std::collections::HashMap;

/// What reading one case's name weighs, in the bytes of Markdown that
/// [`crate::util::parallel::map`] weighs work in: a few thousand cases are worth the pool.
pub(super) const CASE_WORK: usize = 64;
use std::path::Path;
use std::sync::Mutex;

pub(crate) use super::attempts::Attempts;
use super::cases_in::{fold, spelled_by};
use super::names::{Named, TitlePattern, expanded, named, named_in};
use super::{Case, CaseMap, Results};
use crate::read::code::languages::Placed;
pub(crate) use located::go_module;
use located::{Known, dotted_name, ends_with_part, located};

mod located;

/// The test a citation stands in, as the matcher looks it up.
pub(crate) struct Site<'s> {
    /// The file, relative to the source root, `/`-separated.
    pub path: &'s str,
    /// Its name (a function's, a case's title).
    pub name: &'s str,
    /// What it stands in, outermost first.
    pub scope: &'s [String],
    /// The rows it runs over, when it is parameterised.
    pub parameters: Option<&'s crate::read::code::parameters::Parameters>,
    /// It is named by a title (a test call's, a test macro's, a line's).
    pub titled: bool,
}

impl Site<'_> {
    /// Whether its cases are named by its title inside its groups' titles: a titled test, or
    /// any test of a language whose row says so.
    pub(crate) fn titled(&self) -> bool {
        self.titled || by_title(self.path)
    }
}

/// The cases of one test, and whether they can be placed.
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// The cases that count (each test's newest attempt), as indexes into the results.
    pub cases: Vec<usize>,
    /// The report says no file for these cases, and another file holds a test of the same
    /// name: which of them ran is not known.
    pub unplaced: bool,
}

/// Finds the cases of a citation's test.
pub(crate) struct Matcher<'r> {
    results: &'r Results,
    by_function: CaseMap<&'r str, Vec<usize>>,
    /// The cases whose name may be a parameterized `expand` case of a test (`test_put_0_s3`
    /// of `test_put`), by that test's name: they are its cases when no test has their name.
    expanded_from: CaseMap<&'r str, Vec<usize>>,
    /// The providers whose names cases are compared with.
    providers: Vec<String>,
    /// For each case, what its name says of the provider it ran for.
    named: Vec<Named>,
    /// Which attempts count, and what the others say.
    pub(crate) attempts: Attempts,
    /// The Go import path of each folder looked up, by its path under the source root.
    packages: Mutex<HashMap<String, Option<String>>>,
    /// The cases of Go packages that failed before their tests ran (`[build failed]`).
    package_failures: Vec<usize>,
}

impl<'r> Matcher<'r> {
    /// A matcher of `results`' cases, whose names are compared with those of `providers`.
    pub(crate) fn new(results: &'r Results, providers: Vec<String>) -> Matcher<'r> {
        let attempts = Attempts::of(results);
        let mut by_function: CaseMap<&str, Vec<usize>> = CaseMap::default();
        let mut expanded_from: CaseMap<&str, Vec<usize>> = CaseMap::default();
        let mut package_failures = Vec::new();
        for i in 0..results.cases.len() {
            if attempts.counts[i] {
                if super::gotest::is_package_failure(&results.cases[i].name) {
                    package_failures.push(i);
                    continue;
                }
                let function = results.function(i);
                by_function.entry(function).or_default().push(i);
                if let Some((test, _)) = expanded(function) {
                    expanded_from.entry(test).or_default().push(i);
                }
            }
        }
        // A case's name is read on its own: on the pool for a report of many cases.
        let named = crate::util::parallel::map(
            &results.cases,
            results.cases.len().saturating_mul(CASE_WORK),
            |_, case| named(&case.name, case.display.as_deref(), &providers),
        );
        Matcher {
            results,
            by_function,
            expanded_from,
            providers,
            named,
            attempts,
            packages: Mutex::default(),
            package_failures,
        }
    }

    /// The case that says the Go package of the file `path` (under `source_root`) failed
    /// before any of its tests ran (it did not build), if the results hold one: every test of
    /// the package failed with it.
    pub(crate) fn package_failed(&self, source_root: &Path, path: &str) -> Option<usize> {
        if self.package_failures.is_empty() {
            return None;
        }
        let placed_by = crate::read::code::for_path(path).and_then(|l| l.placed_by);
        if placed_by != Some(Placed::GoPackage) {
            return None;
        }
        let (folder, _) = path.rsplit_once('/').unwrap_or(("", path));
        let package = self.go_package(source_root, folder);
        self.package_failures.iter().copied().find(|&i| {
            let classname = self.results.cases[i].classname.trim();
            located::in_go_package(classname, folder, package.as_deref())
        })
    }

    /// What case `case`'s name says of the provider it ran for.
    pub(crate) fn named(&self, case: usize) -> Named {
        self.named.get(case).copied().unwrap_or(Named::None)
    }

    /// The results whose cases it finds.
    pub(crate) fn results(&self) -> &'r super::Results {
        self.results
    }

    /// The providers cases are compared with.
    pub(crate) fn providers(&self) -> &[String] {
        &self.providers
    }

    /// The index of `provider` among the providers cases are compared with.
    pub(crate) fn provider_index(&self, provider: &str) -> Option<super::names::Compared> {
        self.providers
            .iter()
            .position(|p| p == provider)
            .map(super::names::Compared)
    }

    /// The cases of the test `site`, its file under `source_root`; `others` are the other
    /// tests that cite rules (a case that names no file may be any of them).
    pub(crate) fn cases(&self, source_root: &Path, site: &Site<'_>, others: &[Site<'_>]) -> Found {
        if site.titled() {
            return self.by_title(site, others);
        }
        let own = self.by_function.get(site.name).into_iter().flatten();
        let expanded = self.expanded_from.get(site.name).into_iter().flatten();
        let candidates: Vec<usize> = own
            .chain(expanded.filter(|&&i| {
                let function = self.results.function(i);
                !others.iter().any(|o| o.name == function)
            }))
            .copied()
            .collect();
        if candidates.is_empty() {
            return Found::default();
        }
        // What the file is known by, worked out once for all its cases.
        let placed_by = crate::read::code::for_path(site.path).and_then(|l| l.placed_by);
        let (folder, _) = site.path.rsplit_once('/').unwrap_or(("", site.path));
        let package = (placed_by == Some(Placed::GoPackage))
            .then(|| self.go_package(source_root, folder))
            .flatten();
        let known = Known {
            placed_by,
            folder,
            package: package.as_deref(),
            dotted: dotted_name(site, placed_by),
        };
        let cases: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| located(&self.results.cases[i], site, &known))
            .collect();
        // Where neither a file nor a class says whose a case is (C, C#, Ruby, Swift, PHP,
        // shell without a `file`), another file's test of the same name may have run it: no
        // borrowed pass.
        let unplaced = placed_by.is_none()
            && cases.iter().any(|&i| self.results.cases[i].file.is_none())
            && others
                .iter()
                .any(|o| o.path != site.path && o.name == site.name);
        Found { cases, unplaced }
    }

    /// The cases of a test named by its title (JavaScript, TypeScript, C++'s test macros),
    /// inside its groups' titles.
    fn by_title(&self, site: &Site<'_>, others: &[Site<'_>]) -> Found {
        let Some(pattern) = TitlePattern::new(site.scope, site.name) else {
            return Found::default();
        };
        let mut found = Found::default();
        // The titles' longest fixed part stands whole in the name, the classname or the suite
        // of every case of this test: sought with one searcher, so that a case of another
        // test costs no more than that (no text written out per case and test).
        let fixed = memchr::memmem::Finder::new(pattern.fixed());
        let holds = |text: &str| fixed.find(text.as_bytes()).is_some();
        for (i, case) in self.results.cases.iter().enumerate() {
            if !self.attempts.counts[i]
                || !(holds(&case.name)
                    || holds(&case.classname)
                    || case.suite.as_deref().is_some_and(holds))
            {
                continue;
            }
            // The title alone, or after what the report puts its groups in: the classname
            // (jest-junit, jasmine-reporters) or the suite (Node's runner).
            let titled = pattern.matches(&case.name).is_some()
                || pattern
                    .matches(&format!("{} {}", case.classname, case.name))
                    .is_some()
                || case
                    .suite
                    .as_deref()
                    .is_some_and(|s| pattern.matches(&format!("{s} {}", case.name)).is_some());
            if !titled {
                continue;
            }
            match file_of(case) {
                Some(file) if same_file(&file, site.path) => found.cases.push(i),
                Some(_) => {}
                None => match self.unfiled(case, site, others) {
                    Some(true) => found.cases.push(i),
                    Some(false) => {}
                    None => {
                        found.cases.push(i);
                        found.unplaced |= others.iter().any(|o| same_test(o, site));
                    }
                },
            }
        }
        found
    }

    /// Whether a case whose report names no file is of the test `site`, as its classname
    /// says: one that spells a test's file (its suite too) is of that file; one that names a
    /// provider (not the title again, as Jest's and Mocha's do; Catch2's
    /// binary `s3_provider_test`) is of a file whose path names it; one whose first part is
    /// the stem of one file alone among the tests of that title (`conformance_test.global`) is
    /// of that file. `None`: the classname does not say.
    fn unfiled(&self, case: &Case, site: &Site<'_>, others: &[Site<'_>]) -> Option<bool> {
        let classname = case.classname.trim();
        // A classname or a suite that spells a test's file (Robot, TAP::Formatter::JUnit).
        let names = [Some(classname), case.suite.as_deref()].map(|n| n.map(fold));
        let spelled = |path: &str| names.iter().flatten().any(|n| spelled_by(n, path));
        if spelled(site.path) {
            return Some(true);
        }
        if others
            .iter()
            .any(|o| o.path != site.path && spelled(o.path))
        {
            return Some(false);
        }
        if classname.is_empty() || case.name.contains(classname) {
            return None;
        }
        if let Some(named) = named_in(classname, &self.providers) {
            return Some(named_in(site.path, &self.providers) == Some(named));
        }
        let first = classname.split('.').next().unwrap_or(classname);
        let stem = |path: &str| {
            let name = path.rsplit('/').next().unwrap_or(path);
            name.split('.').next().unwrap_or(name).to_owned()
        };
        let sharing = others
            .iter()
            .filter(|o| same_test(o, site) && o.path != site.path && stem(o.path) == first)
            .count();
        match (stem(site.path) == first, sharing) {
            (true, 0) => Some(true),
            (false, 1..) => Some(false),
            _ => None,
        }
    }

    /// The provider a case named by the title `pattern` (its test's) ran for.
    pub(crate) fn title_named(&self, pattern: &TitlePattern, case: usize) -> Named {
        let case = &self.results.cases[case];
        match pattern.provider(&case.name, &self.providers) {
            // GoogleTest keeps a parameter's value beside the index it names a case by;
            // Catch2 names a case's binary (`s3_provider_test.global`) in its classname,
            // TAP::Formatter::JUnit a file (`providers_gcs_provider_t`) in its suite.
            Named::None => [
                case.display.as_deref(),
                Some(case.classname.as_str()),
                case.suite.as_deref(),
            ]
            .into_iter()
            .flatten()
            .find_map(|d| named_in(d, &self.providers))
            .map_or(Named::None, Named::provider),
            named => named,
        }
    }
}

/// Whether `other` is another file's test of the same titles as `site`.
fn same_test(other: &Site<'_>, site: &Site<'_>) -> bool {
    other.path != site.path
        && other.titled()
        && other.name == site.name
        && other.scope == site.scope
}

/// Whether the tests of the file at `path` are named by their titles (its language's row).
pub(crate) fn by_title(path: &str) -> bool {
    crate::read::code::languages::for_path(path).is_some_and(|l| l.by_title)
}

/// The file a case is of, when its report says: its `file`, or a classname that is the path
/// of a source file (Vitest, bats), with the line after a `:` (busted's
/// `conformance/x_spec.lua:5`).
fn file_of(case: &Case) -> Option<String> {
    if let Some(file) = &case.file {
        return Some(file.clone());
    }
    let classname = case.classname.trim();
    let path = classname
        .rsplit_once(':')
        .filter(|(_, line)| !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()))
        .map_or(classname, |(path, _)| path);
    (path.contains('/') && crate::read::code::languages::for_path(path).is_some())
        .then(|| path.to_owned())
}

fn same_file(file: &str, path: &str) -> bool {
    let file = file.trim_start_matches("./").replace('\\', "/");
    path == file || ends_with_part(path, &file, '/') || ends_with_part(&file, path, '/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_classname_that_is_a_source_file_names_the_file() {
        let case = |classname: &str| Case {
            name: "x".to_owned(),
            classname: classname.to_owned(),
            file: None,
            suite: None,
            display: None,
            outcome: super::super::Outcome::Passed,
            message: None,
            report: 0,
        };
        for (classname, file) in [
            (
                "conformance/conformance_spec.lua:5",
                Some("conformance/conformance_spec.lua"),
            ),
            (
                "./providers/gcs/provider.bats",
                Some("./providers/gcs/provider.bats"),
            ),
            ("src/a.test.ts", Some("src/a.test.ts")),
            ("Minitest::Result", None),
            ("example.com/store/providers", None),
            ("conformance.bats", None),
        ] {
            assert_eq!(file_of(&case(classname)).as_deref(), file, "{classname}");
        }
    }
}
