//! Whether a case is of a test's file, as each runner says where a case is from: Go's package
//! (the import path of the test's folder), Rust's module path under cargo-nextest, Python's
//! and Java's dotted class names, a report's `file`. Which way a language's reports place a
//! case is its row's `placed_by` (`read::code::languages::Placed`); another way is a variant
//! there and its arm of [`located`].

use std::path::Path;

use super::{Case, Matcher, Site};
use crate::read::code::languages::Placed;

/// What a test's file is known by in a report's class names: how its language's reports place
/// a case, its folder, its Go package, and its test's dotted name (Python's module, Java's
/// class, with the scopes).
pub(super) struct Known<'k> {
    pub(super) placed_by: Option<Placed>,
    pub(super) folder: &'k str,
    pub(super) package: Option<&'k str>,
    pub(super) dotted: Option<String>,
}

/// The dotted name a Python or Java report gives the test at `site`: `pkg.test_store.TestS3`,
/// `com.example.StoreTest.Inner`; `None` for a language whose reports name no such class.
pub(super) fn dotted_name(site: &Site<'_>, placed_by: Option<Placed>) -> Option<String> {
    let path = site.path;
    let module = path.rsplit_once('.').map_or(path, |(p, _)| p);
    match placed_by? {
        Placed::PythonModule => Some(dotted(&module.replace('/', "."), site.scope)),
        Placed::JvmClass => {
            let class = module.replace('/', ".").replace('-', "");
            Some(match site.scope.split_first() {
                Some((_, inner)) => dotted(&class, inner),
                None => class,
            })
        }
        Placed::GoPackage | Placed::RustModule => None,
    }
}

/// Whether `case` is of the test `site` (in `folder`, of Go package `package`), as its runner
/// names files.
pub(super) fn located(case: &Case, site: &Site<'_>, known: &Known<'_>) -> bool {
    if let Some(file) = &case.file {
        return super::same_file(file, site.path);
    }
    let path = site.path;
    let classname = case.classname.trim();
    let folder = known.folder;
    match (known.placed_by, known.dotted.as_deref()) {
        (Some(Placed::GoPackage), _) => in_go_package(classname, folder, known.package),
        (Some(Placed::RustModule), _) => {
            rust_module_matches(path, site.scope, &case.name, classname)
        }
        (Some(Placed::PythonModule), Some(full)) => {
            full == classname || ends_with_part(full, classname, '.')
        }
        (Some(Placed::JvmClass), Some(full)) => {
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

/// Whether a Go case of the package `classname` is of the folder `folder` (whose import path
/// is `package`, when its `go.mod` says): the import path, or the folder's own path.
pub(super) fn in_go_package(classname: &str, folder: &str, package: Option<&str>) -> bool {
    package == Some(classname)
        || (!folder.is_empty() && (classname == folder || ends_with_part(classname, folder, '/')))
}

/// Whether `text` ends with `separator` and `part` (`a/b` with `/` and `b`): asked once per
/// case of a report, so without writing the two out.
pub(super) fn ends_with_part(text: &str, part: &str, separator: char) -> bool {
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
    pub(super) fn go_package(&self, source_root: &Path, folder: &str) -> Option<String> {
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
    if name
        .rsplit("::")
        .next()
        .is_some_and(crate::read::results::names::is_case)
    {
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
            || crate::read::results::names::same(reported, crate_name)
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
