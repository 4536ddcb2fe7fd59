//! The cases of the results by the files their reports say they are of, so that a cited test
//! with no case is *not run* only where its report ran nothing of its file
//! (`model::rules::coverage`'s *unmatched*). To read another way a report names a case's file,
//! add it to `case_files` (or, for a name that spells a path with other separators, to what
//! [`spelled_by`] compares).

/// The cases of the results with the files their reports say they are of: a `file` attribute,
/// or a class that is a path (`./spec/a_spec.rb`, `a/b.lua:5`) or a dotted one
/// (`Src.Conformance.Conformance`), each as a key without its extension, in lower case. What
/// finds the cases of a cited test's file that no test was placed on, so that a test is "not
/// run" only where its report ran nothing of its file that could be its. The suites that spell
/// a whole path, extension included (TAP::Formatter::JUnit's `providers_gcs_provider_t`), are
/// kept folded, once per suite.
#[derive(Debug, Default)]
pub(crate) struct CasesIn {
    /// The cases by their files, gathered the first time a test with no case of its own asks
    /// (most runs have none: a report of 400,000 cases is not gone over for nothing).
    files: std::sync::OnceLock<Files>,
    /// The cases that failed before any test of their file ran (`whole_file.rs`), by the
    /// file's key.
    failed_before: Vec<(String, usize)>,
}

/// The cases of the results by the files and suites their reports name.
#[derive(Debug, Default)]
struct Files {
    /// Each distinct file key, with its cases in the results' order: a report holds many
    /// cases of few files, so a file is compared once, not once per case.
    keys: Vec<(String, Vec<usize>)>,
    suites: Vec<(String, Vec<usize>)>,
}

impl CasesIn {
    pub(crate) fn of(results: &super::Results) -> CasesIn {
        let failed = results.cases.iter().enumerate();
        let failed_before = failed
            .filter_map(|(i, case)| {
                let file = super::whole_file::failed_file(case)?;
                Some((path_key(&file), i))
            })
            .collect();
        CasesIn {
            files: std::sync::OnceLock::new(),
            failed_before,
        }
    }

    /// A case that failed before any test of the file `path` ran (it did not compile or
    /// collect), if the results hold one.
    pub(crate) fn failed_before(&self, path: &str) -> Option<usize> {
        if self.failed_before.is_empty() {
            return None;
        }
        let wanted = path_key(path);
        self.failed_before
            .iter()
            .find(|(key, _)| *key == wanted || ends_with_part(&wanted, key))
            .map(|(_, i)| *i)
    }

    /// The cases of `results` (the results this was made of) whose file is `path` (under the
    /// source root), in the results' order.
    pub(crate) fn in_file(&self, results: &super::Results, path: &str) -> Vec<usize> {
        self.files.get_or_init(|| Files::of(results)).in_file(path)
    }
}

impl Files {
    fn of(results: &super::Results) -> Files {
        let mut keys: Vec<(String, Vec<usize>)> = Vec::new();
        let mut key_at: super::CaseMap<String, usize> = super::CaseMap::default();
        // The keys of a classname and file, worked out once for all their cases.
        let mut of_case: super::CaseMap<(&str, Option<&str>), Vec<usize>> =
            super::CaseMap::default();
        let mut suites: super::CaseMap<&str, Vec<usize>> = super::CaseMap::default();
        // A report writes the cases of a class one after another: the last one's keys are
        // asked first, without a hash.
        let mut last: Option<(&str, Option<&str>, Vec<usize>)> = None;
        for (i, case) in results.cases.iter().enumerate() {
            let (classname, file) = (case.classname.as_str(), case.file.as_deref());
            let same = last
                .as_ref()
                .is_some_and(|(c, f, _)| *c == classname && *f == file);
            if !same {
                let at = of_case.entry((classname, file)).or_insert_with(|| {
                    let files = case_files(case).into_iter();
                    files
                        .map(|key| {
                            *key_at.entry(key).or_insert_with_key(|key| {
                                keys.push((key.clone(), Vec::new()));
                                keys.len() - 1
                            })
                        })
                        .collect()
                });
                last = Some((classname, file, at.clone()));
            }
            for &k in last.as_ref().map_or(&[][..], |(_, _, at)| at) {
                keys[k].1.push(i);
            }
            if let Some(suite) = case.suite.as_deref() {
                suites.entry(suite).or_default().push(i);
            }
        }
        let mut suites: Vec<(String, Vec<usize>)> = suites
            .into_iter()
            .map(|(suite, cases)| (fold(suite), cases))
            .filter(|(folded, _)| folded.contains('/'))
            .collect();
        suites.sort();
        Files { keys, suites }
    }

    /// The cases whose file is `path` (under the source root), in the results' order.
    fn in_file(&self, path: &str) -> Vec<usize> {
        if self.keys.is_empty() && self.suites.is_empty() {
            return Vec::new();
        }
        let wanted = path_key(path);
        let mut cases: Vec<usize> = self
            .keys
            .iter()
            .filter(|(key, _)| {
                *key == wanted
                    || ends_with_part(key, &wanted)
                    || (key.contains('/') && ends_with_part(&wanted, key))
            })
            .flat_map(|(_, of_key)| of_key.iter().copied())
            .collect();
        let whole = fold(path);
        for (suite, of_suite) in &self.suites {
            if *suite == whole || ends_with_part(suite, &whole) {
                cases.extend(of_suite);
            }
        }
        cases.sort_unstable();
        cases.dedup();
        cases
    }
}

/// A name or a path with `/`, `\\`, `.`, `_` and a space one separator, in lower case: how
/// [`spelled_by`] compares them.
pub(crate) fn fold(text: &str) -> String {
    let bytes: Vec<u8> = text.trim().bytes().map(fold_byte).collect();
    // Only ASCII bytes change, each into ASCII: still UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}

fn fold_byte(b: u8) -> u8 {
    match b {
        b'/' | b'\\' | b'.' | b'_' | b' ' => b'/',
        b => b.to_ascii_lowercase(),
    }
}

/// Whether `folded`, a report's classname or suite name [`fold`]ed, spells the source file at
/// `path` (under the source root) with another separator: Robot Framework's
/// `Src.Providers.Gcs.Provider` (folders and the file's stem, capitalised, from the folder it
/// ran in) and TAP::Formatter::JUnit's `providers_gcs_provider_t` (the path with `/` and `.` as
/// `_`). Compared without case, `/`, `.`, `_` and a space one; the path whole, with or without
/// its extension, at the end of the name. Asked of every test's path for one case: the path is
/// compared as it is folded, never copied.
pub(crate) fn spelled_by(folded: &str, path: &str) -> bool {
    if !folded.contains('/') {
        return false;
    }
    let stem = path.rsplit_once('.').map_or(path, |(stem, _)| stem);
    [path, stem].iter().any(|p| {
        let (name, p) = (folded.as_bytes(), p.as_bytes());
        let Some(at) = name.len().checked_sub(p.len()) else {
            return false;
        };
        // `fold` maps ASCII alone: byte by byte is the same.
        name[at..].iter().zip(p).all(|(n, b)| *n == fold_byte(*b))
            && (at == 0 || name[at - 1] == b'/')
    })
}

/// Whether `path` ends with `tail` as whole parts (`a/b/c` with `b/c`, not with `/c` of `ab/c`).
fn ends_with_part(path: &str, tail: &str) -> bool {
    path.strip_suffix(tail)
        .is_some_and(|head| head.ends_with('/'))
}

/// The files a case's report says it is of, as [`path_key`]s.
fn case_files(case: &super::Case) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(file) = &case.file {
        out.push(path_key(file));
    }
    let class = case.classname.as_str();
    if class.contains('/') {
        // `conformance/x_spec.lua:5`: a path and a line.
        let path = class
            .rsplit_once(':')
            .filter(|(_, line)| line.bytes().all(|b| b.is_ascii_digit()))
            .map_or(class, |(path, _)| path);
        out.push(path_key(path));
    } else if class.contains('.') && !class.contains("::") {
        out.push(class.replace('.', "/").to_lowercase());
    }
    out.retain(|k| !k.is_empty());
    out
}

/// `path` as a key to compare files by: `/`-separated, without `./`, its last part's
/// extension or a leading folder of an absolute path's machine, in lower case.
fn path_key(path: &str) -> String {
    let path = path.replace('\\', "/");
    let path = path.trim_start_matches("./").trim_start_matches('/');
    let stem = match path.rsplit_once('/') {
        Some((folder, name)) => format!("{folder}/{}", without_extension(name)),
        None => without_extension(path).to_owned(),
    };
    stem.to_lowercase()
}

/// A file name without its last extension (`a.test.ts` is `a.test`).
fn without_extension(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |(stem, _)| stem)
}

#[cfg(test)]
mod failed_in {
    use super::*;

    #[test]
    fn a_failure_is_found_by_the_file_its_report_names() {
        assert_eq!(
            path_key("./conformance/conformance.bats"),
            "conformance/conformance"
        );
        assert_eq!(
            path_key("/ci/work/src/spec/a_spec.rb"),
            "ci/work/src/spec/a_spec"
        );
        let case = |file: Option<&str>, class: &str| super::super::Case {
            name: "x".to_owned(),
            classname: class.to_owned(),
            file: file.map(str::to_owned),
            display: None,
            outcome: super::super::Outcome::Failed,
            message: None,
            report: 0,
            suite: None,
        };
        let in_suite = |suite: &str| super::super::Case {
            suite: Some(suite.into()),
            ..case(None, "")
        };
        let results = super::super::Results {
            cases: vec![
                case(None, "conformance/conformance_spec.lua:5"),
                case(None, "Src.Conformance.Robot"),
                case(Some("/home/ci/src/providers/gcs/provider_spec.rb"), "x"),
                in_suite("providers_gcs_provider_t"),
                in_suite("pytest"),
                in_suite("example.com/store/providers"),
            ],
            ..Default::default()
        };
        let cases = Files::of(&results);
        assert_eq!(cases.in_file("conformance/conformance_spec.lua"), [0]);
        assert_eq!(cases.in_file("conformance/robot.robot"), [1]);
        assert_eq!(cases.in_file("providers/gcs/provider_spec.rb"), [2]);
        assert!(cases.in_file("providers/s3/provider_spec.rb").is_empty());
        // A suite that spells the whole path, its extension too (TAP::Formatter::JUnit).
        assert_eq!(cases.in_file("providers/gcs/provider.t"), [3]);
        assert!(cases.in_file("providers/s3/provider.t").is_empty());
        // A suite that is no file's (a runner's name, a Go package).
        assert!(cases.in_file("pytest.py").is_empty());
        assert!(cases.in_file("store/providers.go").is_empty());
    }

    fn spells(name: &str, path: &str) -> bool {
        spelled_by(&fold(name), path)
    }

    #[test]
    fn a_classname_or_a_suite_that_spells_a_path() {
        assert!(spells(
            "Src.Providers.Azure-Blob.Provider",
            "providers/azure-blob/provider.robot"
        ));
        assert!(spells(
            "Src.Conformance.Conformance",
            "conformance/conformance.robot"
        ));
        assert!(spells(
            "providers_gcs_provider_t",
            "providers/gcs/provider.t"
        ));
        assert!(spells(
            "conformance_conformance_t",
            "conformance/conformance.t"
        ));
        // Another file, a part of a name, a name of one part: none.
        assert!(!spells(
            "providers_gcs_provider_t",
            "providers/s3/provider.t"
        ));
        assert!(!spells(
            "Src.Providers.Gcs.Provider",
            "gcs/provider.robot.bak/x.robot"
        ));
        assert!(!spells(
            "xproviders_gcs_provider_t",
            "providers/gcs/provider.t"
        ));
        assert!(!spells("Provider", "providers/gcs/provider.robot"));
        assert!(!spells("Minitest::Result", "test_provider.rb"));
    }
}
