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

/// pytest: `<testcase classname="" name="conformance.test_broken">` with `<error
/// message="collection failure">`, the name the file's module.
const RUNNERS: &[FileFailure] = &[FileFailure {
    is: |case| case.classname.is_empty() && case.message.as_deref() == Some("collection failure"),
    file: |case| case.name.trim().replace('.', "/"),
}];

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
}
