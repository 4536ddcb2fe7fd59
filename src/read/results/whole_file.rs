//! A case that failed before any test of its file ran: the file did not compile, import or
//! collect. Such a case fails every cited test of that file (`model::rules::coverage`), never
//! hides as their *not run*. Each runner writes one its own way: a row of [`RUNNERS`] says how
//! to know it and which file it names. To read another runner's, add a row.

use super::{Case, Outcome};

/// How one runner writes a file that failed before its tests ran.
struct FileFailure {
    /// Whether a failed case is one.
    is: fn(&Case) -> bool,
    /// The file it names, `/`-separated, with or without its extension.
    file: fn(&Case) -> String,
}

const RUNNERS: &[FileFailure] = &[
    // pytest: `<testcase classname="" name="conformance.test_broken">` with `<error
    // message="collection failure">`, the name the file's module.
    FileFailure {
        is: |case| {
            case.classname.is_empty() && case.message.as_deref() == Some("collection failure")
        },
        file: |case| case.name.trim().replace('.', "/"),
    },
    // Vitest: `<testcase classname="providers/gcs/broken.test.ts"
    // name="providers/gcs/broken.test.ts">`, a case named after its file: a source file of a
    // language read here, with no space (jest-junit's defaults name a case and its class
    // alike, by a title such as `parses config.ts`).
    FileFailure {
        is: |case| {
            case.name == case.classname
                && !case.name.contains(char::is_whitespace)
                && crate::read::code::for_path(&case.name).is_some()
        },
        file: |case| case.name.clone(),
    },
    // jest-junit with `reportTestSuiteErrors`: `classname="Test suite failed to run"`, the
    // file in `file` when the report adds it, else the name.
    FileFailure {
        is: |case| case.classname == "Test suite failed to run",
        file: |case| case.file.clone().unwrap_or_else(|| case.name.clone()),
    },
];

/// The file that the failed case `case` says failed before any of its tests ran, if it is
/// such a case.
pub(crate) fn failed_file(case: &Case) -> Option<String> {
    if case.outcome != Outcome::Failed {
        return None;
    }
    RUNNERS
        .iter()
        .find(|r| (r.is)(case))
        .map(|r| (r.file)(case))
        .filter(|f| !f.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(classname: &str, name: &str, outcome: Outcome, message: Option<&str>) -> Case {
        Case {
            name: name.to_owned(),
            classname: classname.to_owned(),
            file: None,
            suite: None,
            display: None,
            outcome,
            message: message.map(str::to_owned),
            report: 0,
        }
    }

    #[test]
    fn a_pytest_collection_error_names_its_module() {
        let error = case(
            "",
            "conformance.test_broken",
            Outcome::Failed,
            Some("collection failure"),
        );
        assert_eq!(
            failed_file(&error).as_deref(),
            Some("conformance/test_broken")
        );
        // A test that failed, or a case of a module that failed otherwise, is no such case.
        for other in [
            case(
                "conformance.test_x",
                "test_put",
                Outcome::Failed,
                Some("collection failure"),
            ),
            case("", "conformance.test_broken", Outcome::Failed, Some("boom")),
            case(
                "",
                "conformance.test_broken",
                Outcome::Passed,
                Some("collection failure"),
            ),
        ] {
            assert_eq!(failed_file(&other), None, "{other:?}");
        }
    }

    #[test]
    fn a_vitest_or_jest_file_that_did_not_parse_names_itself() {
        let file = "providers/gcs/broken.test.ts";
        let vitest = case(file, file, Outcome::Failed, Some("Transform failed"));
        assert_eq!(failed_file(&vitest).as_deref(), Some(file));
        let mut jest = case(
            "Test suite failed to run",
            "providers/gcs/b.test.js",
            Outcome::Failed,
            None,
        );
        assert_eq!(
            failed_file(&jest).as_deref(),
            Some("providers/gcs/b.test.js")
        );
        jest.file = Some("src/providers/gcs/b.test.js".to_owned());
        assert_eq!(
            failed_file(&jest).as_deref(),
            Some("src/providers/gcs/b.test.js")
        );
        // A test whose title is its class's, not a file: a failed test, no more.
        for other in [
            case("store", "store", Outcome::Failed, None),
            case("a put is atomic", "a put is atomic", Outcome::Failed, None),
            case(
                " parses config.ts",
                " parses config.ts",
                Outcome::Failed,
                None,
            ),
            case(file, "a put on gcs is atomic", Outcome::Failed, None),
        ] {
            assert_eq!(failed_file(&other), None, "{other:?}");
        }
    }
}
