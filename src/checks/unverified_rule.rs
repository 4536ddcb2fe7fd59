//! `unverified-rule`: a built provider bound by a rule that no `r[verify ID]` counting for it
//! cites (in its folders, or in a file no provider holds). One finding per provider and rule,
//! at the provider's heading, for the rules that oblige (MUST or SHOULD): a MAY permits and
//! has nothing to verify. It runs only with `source-root`: without the tree nothing is known.

use super::{Context, Draft};
use crate::model::rules::coverage::{Cited, Status, Unknowable};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let coverage = cx.coverage;
    if !coverage.known {
        return;
    }
    // Results asked for and none read: `malformed-results` names the one cause; every cited
    // rule is not run for it, and saying so per rule would bury it.
    let unread = cx.results.asked && cx.results.files.is_empty();
    let unplaced = unplaced_helps(cx);
    for (column, &p) in coverage.providers.iter().enumerate() {
        let provider = &cx.model.providers[p];
        for (rule, row) in cx.rules.rules.iter().zip(&coverage.cells) {
            let citation = crate::model::rules::marker::cited(&rule.id, rule.version);
            let write = format!(
                "write `r[verify {citation}]` in a comment of the test that verifies it, in the provider's folders or a shared test"
            );
            let Some((mut what, mut help)) = said(cx, row[column], &provider.name, write, unread)
            else {
                continue;
            };
            if matches!(row[column], Status::Uncovered | Status::Implemented(_))
                && let Some(unplaced) = unplaced.get(rule.id.as_str())
            {
                what = "no test counting for it verifies";
                help.clone_from(unplaced);
            }
            let applies = match &rule.applies {
                Some((axis, profile)) => format!(" (it claims `{profile}` on `{axis}`)"),
                None => String::new(),
            };
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
                .help(help)
                .related(rule.chapter, rule.id_range.clone(), "the rule"),
            );
        }
    }
}

/// Per rule, why its `verify` counts for nobody, when one stands in a folder beside the
/// providers' folders that no provider is named after (the first such): what to do instead of
/// writing one. One pass over the citations for the whole check.
fn unplaced_helps<'c>(cx: &'c Context<'_>) -> std::collections::HashMap<&'c str, String> {
    let mut helps = std::collections::HashMap::new();
    for c in cx.citations.iter() {
        let Ok(cited) = c.cited.as_ref() else {
            continue;
        };
        if c.verb != crate::model::rules::code::Verb::Verify
            || c.remote.is_some()
            || helps.contains_key(&*cited.id)
        {
            continue;
        }
        if let Some(folder) = cx.coverage.unplaced(&c.path) {
            helps.insert(&*cited.id, format!(
                "the `verify` at {}:{} stands in `{folder}/`, beside the providers' folders, and no provider of the book is named after it, so it counts for none: put the folder in `shared-layer` if every provider shares it, or name it in its provider's `provider-paths`",
                c.path, c.line
            ));
        }
    }
    helps
}

/// Where `cx.citations[c]` is, with its test's name when it stands in one.
fn test_at(cx: &Context<'_>, c: usize) -> String {
    cx.citations.get(c).map_or_else(String::new, |c| {
        let name = c
            .test
            .as_ref()
            .map_or_else(String::new, |t| format!(" (`{}`)", t.name));
        format!("{}:{}{name}", c.path, c.line)
    })
}

/// What the finding says of a cell of `provider` with `status`, and what to do (`write` the
/// citation to write); `None` for a cell this check does not report (`unread`: no results
/// were read, which `malformed-results` says once).
fn said(
    cx: &Context<'_>,
    status: Status,
    provider: &str,
    write: String,
    unread: bool,
) -> Option<(&'static str, String)> {
    Some(match status {
        // A failed test is `failing-rule`'s.
        Status::Verified(_)
        | Status::Passed(..)
        | Status::Flaky(..)
        | Status::Failed(..)
        | Status::NotBound
        | Status::Undecided
        | Status::Optional => {
            return None;
        }
        Status::Skipped(Cited(c), _) => (
            "is verified only by a test the last run skipped",
            format!(
                "the test at {} cites it: make it run for `{}`",
                test_at(cx, c),
                provider
            ),
        ),
        Status::NotRun(_) if unread => return None,
        Status::NotRun(Cited(c)) => not_run(cx, c, provider),
        // A failure among them is `failing-rule`'s.
        Status::Unattributed(_, _, Some(_)) | Status::Unmatched(_, Some(_)) => return None,
        Status::Unattributed(Cited(c), why, None) => unattributed(cx, c, why),
        Status::Unmatched(Cited(c), None) => unmatched(cx, c),
        Status::Implemented(_) => ("is implemented but no test verifies it", write),
        Status::Uncovered => ("is cited by no test or code", write),
        Status::Declared(implemented) => (
            if implemented {
                "its report declares implemented, with no citation or test result"
            } else {
                "its report declares not implemented"
            },
            format!("{write}, in the provider's repository, and make its report again"),
        ),
        // Said once per provider, not per rule.
        Status::NoReport => return None,
    })
}

/// A cited test no result names for `provider`; a `verify` above a constant or between tests
/// is no test's, and said so.
fn not_run(cx: &Context<'_>, c: usize, provider: &str) -> (&'static str, String) {
    if cx.citations.get(c).is_some_and(|c| c.test.is_none()) {
        return (
            "is cited by a `verify` that stands in no test",
            format!(
                "the citation at {} stands in no test (it is above no test function or case): move it to the line above the test that verifies the rule, for `{}`",
                test_at(cx, c),
                provider
            ),
        );
    }
    (
        "is cited by a test that no result of the test run names (not run)",
        format!(
            "the test at {} cites the rule, and the last run did not report it for `{}`: run it, or have `test-results` name the report that holds it",
            test_at(cx, c),
            provider
        ),
    )
}

/// A test that ran, whose report cannot say for which provider or file.
fn unattributed(cx: &Context<'_>, c: usize, why: Unknowable) -> (&'static str, String) {
    match why {
        Unknowable::Provider => (
            "is cited by a test whose report names its cases by position only, so which provider each ran for is not known",
            format!(
                "name each case of the test at {} by its provider (a JUnit 5 display name `@ParameterizedTest(name = \"{{0}}\")` read from the Console Launcher's report, an rstest `#[case::name]`, a pytest id, a Go subtest)",
                test_at(cx, c)
            ),
        ),
        Unknowable::File => (
            "is cited by a test whose report names no file, while another file has a test of the same name, so which ran is not known",
            format!(
                "have the report name each case's file (jest-junit: `addFileAttribute: \"true\"`), or give the test at {} a title of its own",
                test_at(cx, c)
            ),
        ),
    }
}

/// A test with no case, whose report holds cases of its file that could not be placed.
fn unmatched(cx: &Context<'_>, c: usize) -> (&'static str, String) {
    let (names, n) = cx.coverage.unmatched_names(c, cx.results);
    (
        "is cited by a test that has no case in the test run, whose report holds cases of its file that could not be placed on a test and a provider",
        format!(
            "the report holds {} of the file of the test at {} that no cited test was placed on ({names}): have the runner name each case after its test, and its provider where it runs for one",
            crate::util::counted(n, "case"),
            test_at(cx, c)
        ),
    )
}
