//! `failing-rule`: a built provider bound by a rule whose test failed for it in the test
//! results: an error for a MUST, a warning for a SHOULD, at the rule's marker, naming the
//! provider, the test and the first line of its failure.

use super::{Context, Draft};
use crate::model::rules::coverage::Status;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (column, &p) in cx.coverage.providers.iter().enumerate() {
        let provider = &cx.model.providers[p];
        for (rule, row) in cx.rules.rules.iter().zip(&cx.coverage.cells) {
            let Status::Failed(citation, case) = row[column] else {
                continue;
            };
            let (Some(citation), Some(case)) =
                (cx.citations.get(citation), cx.results.cases.get(case))
            else {
                continue;
            };
            let file = &cx.results.files[case.report];
            let why = case
                .message
                .as_deref()
                .map_or_else(String::new, |m| format!(": {m}"));
            let run = match &file.timestamp {
                Some(at) => format!("`{}` ({at})", file.shown),
                None => format!("`{}`", file.shown),
            };
            out.push(
                Draft::new(
                    Check::FailingRule,
                    rule.chapter,
                    rule.id_range.clone(),
                    format!(
                        "`{}` fails the rule `{}`: its test `{}` failed{why}",
                        provider.name, rule.id, case.name
                    ),
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
