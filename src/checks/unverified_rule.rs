//! `unverified-rule`: a built provider bound by a rule that no `r[verify ID]` counting for it
//! cites (in its folders, or in a file no provider holds). One finding per provider and rule,
//! at the provider's heading, for the rules that oblige (MUST or SHOULD): a MAY permits and
//! has nothing to verify. It runs only with `source-root`: without the tree nothing is known.

use super::{Context, Draft};
use crate::model::rules::coverage::Status;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let coverage = cx.coverage;
    if !coverage.known {
        return;
    }
    for (column, &p) in coverage.providers.iter().enumerate() {
        let provider = &cx.model.providers[p];
        for (rule, row) in cx.rules.rules.iter().zip(&coverage.cells) {
            let what = match row[column] {
                // A failed test is `failing-rule`'s.
                Status::Verified(_)
                | Status::Failed(..)
                | Status::NotBound
                | Status::Undecided
                | Status::Optional => {
                    continue;
                }
                Status::Skipped(..) => "is verified only by a test the last run skipped",
                Status::NotRun(_) => {
                    "is cited by a test that no result of the test run names (not run)"
                }
                Status::Implemented(_) => "is implemented but no test verifies it",
                Status::Uncovered => "is cited by no test or code",
            };
            let applies = match &rule.applies {
                Some((axis, profile)) => format!(" (it claims `{profile}` on `{axis}`)"),
                None => String::new(),
            };
            let citation = crate::model::rules::marker::cited(&rule.id, rule.version);
            out.push(
                Draft::new(
                    Check::UnverifiedRule,
                    provider.chapter,
                    provider.range.clone(),
                    format!(
                        "`{}` is bound by the rule `{}`{applies}, which {what}",
                        provider.name, rule.id
                    ),
                )
                .help(format!(
                    "write `r[verify {citation}]` in a comment of the test that verifies it, in the provider's folders or a shared test"
                ))
                .related(rule.chapter, rule.id_range.clone(), "the rule"),
            );
        }
    }
}
