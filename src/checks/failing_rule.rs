//! `failing-rule`: a built provider bound by a rule whose test failed for it in the test
//! results: an error for a required rule, a warning for a SHOULD, at the rule's marker, naming
//! the provider, the test and the first line of its failure. A failed case of a test whose
//! report does not say for which provider (or which file) it ran is told the same way, saying
//! so: a failure is never hidden, nor put on a provider by a guess; so is a failed case of a
//! cited test's file that no test could be placed on. A test whose file or package failed
//! before any test ran (it did not compile, build or collect) did not fail: the finding says
//! its file or package did, and the report's words.

use super::{Context, Draft};
use crate::model::rules::coverage::{Status, Unknowable};
use crate::read::results::{gotest, whole_file};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (column, &p) in cx.coverage.providers.iter().enumerate() {
        let provider = &cx.model.providers[p];
        for (rule, row) in cx.rules.rules.iter().zip(&cx.coverage.cells) {
            let (citation, case, whose) = match row[column] {
                Status::Failed(citation, case) => (citation, case, ""),
                Status::Unattributed(citation, Unknowable::Provider, Some(case)) => (
                    citation,
                    case,
                    ", for a provider its report does not name (its cases are named by position only), so it may be another's",
                ),
                Status::Unattributed(citation, Unknowable::File, Some(case)) => (
                    citation,
                    case,
                    ", in a file its report does not name (another file has a test of the same name), so it may be another's",
                ),
                Status::Unmatched(citation, Some(case)) => (
                    citation,
                    case,
                    ", a case of the test's file that could not be placed on a test and a provider (name it after the test it runs, and its provider where it runs for one)",
                ),
                _ => continue,
            };
            let (Some(citation), Some(case)) =
                (cx.citations.get(citation.0), cx.results.cases.get(case.0))
            else {
                continue;
            };
            let file = &cx.results.files[case.report];
            let said = what_failed(&citation.path, case, whose);
            let run = match &file.timestamp {
                Some(at) => format!("`{}` ({at})", file.shown),
                None => format!("`{}`", file.shown),
            };
            out.push(
                Draft::new(
                    Check::FailingRule,
                    rule.chapter,
                    rule.id_range.clone(),
                    format!("`{}` fails the rule `{}`: {said}", provider.name, rule.id),
                )
                .help(format!(
                    "the test cites the rule at {}:{}; the run is {run}: fix `{}` or the test, and run the tests again",
                    citation.path, citation.line, provider.name
                ))
                .lenient(!rule.required())
                .related(provider.chapter, provider.range.clone(), "the provider"),
            );
        }
    }
}

/// What failed, for the finding's message: the test, or the file or package it is in when that
/// failed before any test ran (it did not compile, build or collect: its tests never ran), with
/// the report's first line.
fn what_failed(path: &str, case: &crate::read::results::Case, whose: &str) -> String {
    let why = case
        .message
        .as_deref()
        .map_or_else(String::new, |m| format!(": {m}"));
    if gotest::is_package_failure(&case.name) {
        let folder = path.rsplit_once('/').map_or(".", |(f, _)| f);
        format!(
            "the package of its test (`{folder}`) failed before any test ran, `{}`{why}",
            case.name
        )
    } else if whole_file::failed_file(case).is_some() {
        format!(
            "the file of its test (`{path}`) failed before any test ran, `{}`{why}",
            case.name
        )
    } else {
        format!("its test `{}` failed{whose}{why}", case.name)
    }
}
