//! Which test case of the results is the test a citation stands in.
//!
//! A citation `r[verify ID]` stands in the function directly under it (past blank lines,
//! comments, `#[test]` and decorators), else in the function around it (the nearest declaration
//! above): [`test_function`], run when the citation is read. A case is that test when its name
//! is the function's (the part a runner adds taken away: Go's `/subtest`, pytest's `[param]`,
//! the `module::` path nextest writes) and its package, module or file is the citation's:
//!
//! - Go: the case's classname is the import path of the citation's package (the module path of
//!   the nearest `go.mod` and the folder under it);
//! - Rust under cargo-nextest: the module path before the name starts with the file's (`a::b`
//!   for `src/a/b.rs`; a test in `tests/` is a binary of its own);
//! - Python under pytest: the classname holds the file's module (`tests.test_store`);
//! - Java and Kotlin under Surefire: the classname's last part is the file's name;
//! - any report with a `file` attribute: that file is the citation's.
//!
//! A case whose subtest or parameter is a provider's name (`TestPublish/kafka`,
//! `test_put[s3]`) is that provider's alone ([`Matcher::provider_of`]).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use super::{Case, Results};

/// The function a case is of: its name without what a runner adds.
fn base(name: &str) -> &str {
    let name = name.split('[').next().unwrap_or(name);
    let name = name.split('/').next().unwrap_or(name);
    let name = name.rsplit("::").next().unwrap_or(name);
    let name = name.rsplit('.').next().unwrap_or(name);
    name.trim_end_matches("()").trim()
}

/// The first of `providers` that a subtest or parameter of `name` is (Go writes a subtest's
/// spaces as `_`), found without a copy of the name: a report may hold hundreds of thousands
/// of cases.
fn named(name: &str, providers: &[String]) -> Option<usize> {
    if !name.contains(['/', '[']) {
        return None;
    }
    let same = |part: &str, provider: &str| {
        part.len() == provider.len()
            && part
                .bytes()
                .zip(provider.bytes())
                .all(|(a, b)| a.eq_ignore_ascii_case(&b) || (a == b'_' && b == b' '))
    };
    let mut segments: Vec<&str> = name.split('/').skip(1).collect();
    if let Some((_, params)) = name.split_once('[') {
        let params = params.trim_end_matches(']');
        segments.push(params);
        segments.extend(params.split(['-', ',']));
    }
    providers
        .iter()
        .position(|provider| segments.iter().any(|s| same(s, provider)))
}

/// Finds the cases of a citation's test, by the name of its function.
pub(crate) struct Matcher<'r> {
    results: &'r Results,
    by_function: HashMap<&'r str, Vec<usize>>,
    /// The providers whose names subtests and parameters are compared with.
    providers: Vec<String>,
    /// For each case, the provider its subtest or parameter names (an index into `providers`).
    named: Vec<Option<usize>>,
    /// The Go import path of each folder looked up, by its path under the source root.
    packages: Mutex<HashMap<String, Option<String>>>,
}

impl<'r> Matcher<'r> {
    /// A matcher of `results`' cases, whose subtests and parameters are compared with the names
    /// of `providers`.
    pub(crate) fn new(results: &'r Results, providers: Vec<String>) -> Matcher<'r> {
        let mut by_function: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, case) in results.cases.iter().enumerate() {
            by_function.entry(base(&case.name)).or_default().push(i);
        }
        let named = results
            .cases
            .iter()
            .map(|case| named(&case.name, &providers))
            .collect();
        Matcher {
            results,
            by_function,
            providers,
            named,
            packages: Mutex::default(),
        }
    }

    /// The provider case `case` is of alone (its subtest or parameter names it), if any.
    pub(crate) fn provider_of(&self, case: usize) -> Option<&str> {
        self.named
            .get(case)
            .copied()
            .flatten()
            .map(|p| self.providers[p].as_str())
    }

    /// The cases (indexes into the results) of function `function` of the file at `path`
    /// (relative to `source_root`).
    pub(crate) fn cases(&self, source_root: &Path, path: &str, function: &str) -> Vec<usize> {
        let Some(candidates) = self.by_function.get(function) else {
            return Vec::new();
        };
        // What the file is known by, worked out once for all its cases.
        let (folder, file) = path.rsplit_once('/').unwrap_or(("", path));
        let package = path
            .ends_with(".go")
            .then(|| self.go_package(source_root, folder))
            .flatten();
        let in_folder = format!("/{folder}");
        candidates
            .iter()
            .copied()
            .filter(|&i| {
                let case = &self.results.cases[i];
                located(case, path, file, folder, package.as_deref(), &in_folder)
            })
            .collect()
    }
}

/// Whether `case` belongs to the file at `path` (`folder`/`file`, of Go package `package`), as
/// its runner names files.
fn located(
    case: &Case,
    path: &str,
    file: &str,
    folder: &str,
    package: Option<&str>,
    in_folder: &str,
) -> bool {
    {
        if let Some(file) = &case.file {
            let file = file.trim_start_matches("./").replace('\\', "/");
            return path.ends_with(&file) || file.ends_with(path);
        }
        let (stem, extension) = file.rsplit_once('.').unwrap_or((file, ""));
        match extension {
            "go" => {
                package == Some(case.classname.as_str())
                    || (!folder.is_empty() && case.classname.ends_with(in_folder))
                    || case.classname == folder
            }
            "rs" => rust_module_matches(path, &case.name, &case.classname),
            "py" => {
                let module = path.trim_end_matches(".py").replace('/', ".");
                case.classname.split('.').any(|part| part == stem)
                    || module.ends_with(&case.classname)
            }
            "java" | "kt" => case.classname.rsplit('.').next() == Some(stem),
            _ => true,
        }
    }
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

/// Whether nextest's `name` (`a::b::tests::f`) of binary `classname` is of the Rust file at
/// `path`: its module path starts with the file's; a file of `tests/` is a binary of its own.
fn rust_module_matches(path: &str, name: &str, classname: &str) -> bool {
    let modules: Vec<&str> = name.split("::").collect();
    let modules = &modules[..modules.len().saturating_sub(1)];
    let (under_tests, rest) = match path.rsplit_once("tests/") {
        Some((_, rest)) if !path.contains("/src/") && !path.starts_with("src/") => (true, rest),
        _ => (
            false,
            path.rsplit_once("src/").map_or(path, |(_, rest)| rest),
        ),
    };
    let rest = rest.trim_end_matches(".rs");
    let mut file_modules: Vec<&str> = rest.split('/').collect();
    if matches!(file_modules.last(), Some(&"mod" | &"lib" | &"main")) {
        file_modules.pop();
    }
    if under_tests {
        let binary = file_modules.first().copied().unwrap_or("");
        return classname.ends_with(binary) || classname.is_empty();
    }
    modules.starts_with(&file_modules)
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
    fn names_of_cases() {
        assert_eq!(base("TestPublish/kafka"), "TestPublish");
        assert_eq!(base("store::tests::put"), "put");
        assert_eq!(base("test_put[s3-large]"), "test_put");
        assert_eq!(base("testPut()"), "testPut");
        let providers = [
            "kafka".to_owned(),
            "nats-jetstream".to_owned(),
            "s3".to_owned(),
            "big store".to_owned(),
        ];
        assert_eq!(named("TestPublish/kafka", &providers), Some(0));
        assert_eq!(named("TestPublish/Nats-JetStream", &providers), Some(1));
        assert_eq!(named("test_put[s3]", &providers), Some(2));
        assert_eq!(named("test_put[s3-large]", &providers), Some(2));
        assert_eq!(named("TestPut/big_store", &providers), Some(3));
        assert_eq!(named("TestPublish", &providers), None);
        assert_eq!(named("TestKafka", &providers), None);
    }

    #[test]
    fn rust_modules() {
        assert!(rust_module_matches(
            "store/src/s3.rs",
            "s3::tests::put",
            "store"
        ));
        assert!(rust_module_matches("src/lib.rs", "tests::put", "store"));
        assert!(!rust_module_matches(
            "src/s3.rs",
            "gcs::tests::put",
            "store"
        ));
        assert!(rust_module_matches(
            "tests/conformance.rs",
            "put",
            "store::conformance"
        ));
    }
}
