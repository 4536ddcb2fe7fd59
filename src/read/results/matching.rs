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
const CASE_WORK: usize = 64;
use std::path::Path;
use std::sync::Mutex;

pub(crate) use super::attempts::Attempts;
use super::cases_in::{fold, spelled_by};
use super::names::{Named, TitlePattern, base, expanded, named, named_in};
use super::{Case, CaseMap, Results};

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
}

impl<'r> Matcher<'r> {
    /// A matcher of `results`' cases, whose names are compared with those of `providers`.
    pub(crate) fn new(results: &'r Results, providers: Vec<String>) -> Matcher<'r> {
        let attempts = Attempts::of(results);
        let mut by_function: CaseMap<&str, Vec<usize>> = CaseMap::default();
        let mut expanded_from: CaseMap<&str, Vec<usize>> = CaseMap::default();
        for (i, case) in results.cases.iter().enumerate() {
            if attempts.counts[i] {
                let function = base(&case.name);
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
        }
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
    pub(crate) fn provider_index(&self, provider: &str) -> Option<usize> {
        self.providers.iter().position(|p| p == provider)
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
                let function = base(&self.results.cases[i].name);
                !others.iter().any(|o| o.name == function)
            }))
            .copied()
            .collect();
        if candidates.is_empty() {
            return Found::default();
        }
        // What the file is known by, worked out once for all its cases.
        let (folder, _) = site.path.rsplit_once('/').unwrap_or(("", site.path));
        let package = site
            .path
            .ends_with(".go")
            .then(|| self.go_package(source_root, folder))
            .flatten();
        let known = Known {
            folder,
            package: package.as_deref(),
            dotted: dotted_name(site),
        };
        let cases: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| located(&self.results.cases[i], site, &known))
            .collect();
        // Where neither a file nor a class says whose a case is (C, C#, Ruby, Swift, PHP,
        // shell without a `file`), another file's test of the same name may have run it: no
        // borrowed pass.
        let unplaced = known.dotted.is_none()
            && !site.path.ends_with(".go")
            && !site.path.ends_with(".rs")
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
        for (i, case) in self.results.cases.iter().enumerate() {
            if !self.attempts.counts[i] {
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

    /// The provider a case of the test `site`, named by its title, ran for.
    pub(crate) fn title_named(&self, site: &Site<'_>, case: usize) -> Named {
        let case = &self.results.cases[case];
        match TitlePattern::new(site.scope, site.name) {
            Some(pattern) => match pattern.provider(&case.name, &self.providers) {
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
                .map_or(Named::None, Named::Provider),
                named => named,
            },
            None => Named::None,
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

/// Whether `case` is of the test `site` (in `folder`, of Go package `package`), as its runner
/// names files.
/// What a test's file is known by in a report's class names: its folder, its Go package, and
/// its test's dotted name (Python's module, Java's class, with the scopes).
struct Known<'k> {
    folder: &'k str,
    package: Option<&'k str>,
    dotted: Option<String>,
}

/// The dotted name a Python or Java report gives the test at `site`: `pkg.test_store.TestS3`,
/// `com.example.StoreTest.Inner`; `None` for other languages.
fn dotted_name(site: &Site<'_>) -> Option<String> {
    let path = site.path;
    match path.rsplit_once('.').map_or("", |(_, e)| e) {
        "py" => Some(dotted(
            &path.trim_end_matches(".py").replace('/', "."),
            site.scope,
        )),
        "java" | "kt" | "kts" => {
            // A package cannot hold `-`: the folder `azure-blob` is the package `azureblob`.
            let class = path
                .rsplit_once('.')
                .map_or(path, |(p, _)| p)
                .replace('/', ".")
                .replace('-', "");
            Some(match site.scope.split_first() {
                Some((_, inner)) => dotted(&class, inner),
                None => class,
            })
        }
        _ => None,
    }
}

fn located(case: &Case, site: &Site<'_>, known: &Known<'_>) -> bool {
    if let Some(file) = &case.file {
        return same_file(file, site.path);
    }
    let path = site.path;
    let extension = path.rsplit_once('.').map_or("", |(_, e)| e);
    let classname = case.classname.trim();
    let folder = known.folder;
    match (extension, known.dotted.as_deref()) {
        ("go", _) => {
            known.package == Some(classname)
                || (!folder.is_empty()
                    && (classname == folder || ends_with_part(classname, folder, '/')))
        }
        ("rs", _) => rust_module_matches(path, site.scope, &case.name, classname),
        ("py", Some(full)) => full == classname || ends_with_part(full, classname, '.'),
        ("java" | "kt" | "kts", Some(full)) => {
            // Nested classes: `Outer$Inner` (Surefire) or `Outer.Inner`.
            let classname: std::borrow::Cow<'_, str> = if classname.contains('$') {
                classname.replace('$', ".").into()
            } else {
                classname.into()
            };
            full == classname || ends_with_part(full, &classname, '.')
        }
        _ => true,
    }
}

/// Whether `text` ends with `separator` and `part` (`a/b` with `/` and `b`): asked once per
/// case of a report, so without writing the two out.
fn ends_with_part(text: &str, part: &str, separator: char) -> bool {
    text.strip_suffix(part)
        .is_some_and(|rest| rest.ends_with(separator))
}

fn dotted(base: &str, scope: &[String]) -> String {
    let mut out = base.to_owned();
    for part in scope {
        out.push('.');
        out.push_str(part);
    }
    out
}

/// The module path a `go.mod` file declares (its `module` line), if it has one.
pub(crate) fn go_module(go_mod: &str) -> Option<String> {
    go_mod
        .lines()
        .find_map(|l| l.trim().strip_prefix("module "))
        .map(|m| m.trim().trim_matches('"').to_owned())
}

impl Matcher<'_> {
    /// The Go import path of the package in `folder` (under `source_root`): the module path of
    /// the nearest `go.mod` at or above it, and the folders under that.
    fn go_package(&self, source_root: &Path, folder: &str) -> Option<String> {
        let mut packages = self
            .packages
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(known) = packages.get(folder) {
            return known.clone();
        }
        let mut at = folder;
        let found = loop {
            let go_mod = source_root.join(at).join("go.mod");
            if let Ok(text) = std::fs::read_to_string(&go_mod) {
                let module = go_module(&text);
                let under = folder
                    .strip_prefix(at)
                    .unwrap_or("")
                    .trim_start_matches('/');
                break module.map(|m| {
                    if under.is_empty() {
                        m
                    } else {
                        format!("{m}/{under}")
                    }
                });
            }
            if at.is_empty() {
                break None;
            }
            at = at.rsplit_once('/').map_or("", |(parent, _)| parent);
        };
        packages.insert(folder.to_owned(), found.clone());
        found
    }
}

/// Whether nextest's `name` (`a::b::tests::f`, `a::f::case_2_gcs`) of binary `classname`
/// (`crate::binary`, or the crate's name for its unit tests) is of the Rust file at `path`,
/// inside the inline modules `scope`: the binary is the file's crate (the folder that holds its
/// `src/` or `tests/`) and, for a file of `tests/`, the file itself; its module path starts
/// with the file's and the scope's.
fn rust_module_matches(path: &str, scope: &[String], name: &str, classname: &str) -> bool {
    let mut modules: Vec<&str> = name.split("::").collect();
    modules.pop();
    // rstest: `f::case_2_gcs`, the function a module of its cases (as `names::base` reads
    // it: `case_insensitive_get` is a test of its own).
    if name.rsplit("::").next().is_some_and(super::names::is_case) {
        modules.pop();
    }
    let split = |marker: &str| {
        path.strip_prefix(marker.trim_start_matches('/'))
            .map(|rest| ("", rest))
            .or_else(|| path.rsplit_once(marker))
    };
    let (crate_folder, rest, under_tests) = match (split("/src/"), split("/tests/")) {
        (Some((folder, rest)), _) => (folder, rest, false),
        (None, Some((folder, rest))) => (folder, rest, true),
        (None, None) => ("", path, false),
    };
    let crate_name = crate_folder.rsplit('/').next().unwrap_or("");
    let rest = rest.trim_end_matches(".rs");
    let mut file_modules: Vec<&str> = rest.split('/').collect();
    if matches!(file_modules.last(), Some(&"mod" | &"lib" | &"main")) {
        file_modules.pop();
    }
    let binary = if under_tests {
        Some(file_modules.remove(0))
    } else {
        None
    };
    file_modules.extend(scope.iter().map(String::as_str));
    // The crate, when the report and the tree both name it (nextest writes a package's name,
    // which is its folder's in most workspaces; `-` and `_` are one).
    let of_crate = |reported: &str| {
        crate_name.is_empty()
            || reported.is_empty()
            || super::names::same(reported, crate_name)
            || !classname.contains("::") && binary.is_none()
    };
    let (reported_crate, reported_binary) = match classname.split_once("::") {
        Some((krate, binary)) => (krate, Some(binary)),
        None => (classname, None),
    };
    if let Some(binary) = binary {
        let of_binary = match reported_binary {
            Some(reported) => reported == binary && of_crate(reported_crate),
            None => classname.is_empty() || classname == binary,
        };
        return of_binary && modules.starts_with(&file_modules);
    }
    of_crate(reported_crate) && modules.starts_with(&file_modules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_module_line_of_a_go_mod() {
        let go_mod = "// c\nmodule \"example.com/broker\" \n\ngo 1.22\n";
        assert_eq!(go_module(go_mod).as_deref(), Some("example.com/broker"));
        assert_eq!(go_module("go 1.22\n"), None);
    }

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

    #[test]
    fn rust_modules() {
        let none: &[String] = &[];
        assert!(rust_module_matches(
            "store/src/s3.rs",
            none,
            "s3::tests::put",
            "store"
        ));
        assert!(rust_module_matches(
            "store/src/s3.rs",
            &["tests".to_owned()],
            "s3::tests::put",
            "store"
        ));
        assert!(!rust_module_matches(
            "store/src/s3.rs",
            &["other".to_owned()],
            "s3::tests::put",
            "store"
        ));
        assert!(rust_module_matches(
            "src/lib.rs",
            none,
            "tests::put",
            "store"
        ));
        assert!(!rust_module_matches(
            "src/s3.rs",
            none,
            "gcs::tests::put",
            "store"
        ));
        assert!(rust_module_matches(
            "tests/conformance.rs",
            none,
            "put",
            "store::conformance"
        ));
        assert!(rust_module_matches(
            "conformance/tests/conformance.rs",
            none,
            "put_atomic::case_2_gcs",
            "conformance::conformance"
        ));
        // A test whose name starts with `case_` is no rstest case: its module is its own.
        assert!(rust_module_matches(
            "store/src/s3.rs",
            &["tests".to_owned()],
            "s3::tests::case_insensitive_get",
            "store"
        ));
        // The same binary name in two crates: the crate decides.
        assert!(rust_module_matches(
            "providers/s3/tests/provider.rs",
            none,
            "delete_missing",
            "s3::provider"
        ));
        assert!(!rust_module_matches(
            "providers/s3/tests/provider.rs",
            none,
            "delete_missing",
            "gcs::provider"
        ));
    }
}
