//! What the coverage of the rules rests on that its reader should know, each said once, for
//! `status`: a `verify` that stands in no test (its results cannot be found), a test that
//! passed on a rerun after failing, two reports that disagree on one test, and a test that
//! names no provider yet is the only evidence of a rule for several of them, the files that
//! count for every built provider (a shared suite no provider's places hold), and the folders
//! beside providers' folders that count for none (a provider the book does not name).

use std::collections::BTreeSet;

use super::analysis::Analysis;
use crate::model::rules::code::Verb;
use crate::model::rules::coverage::{Cited, Ran, Status};
use crate::read::results::matching::Attempts;

/// A file or folder of the source tree and how many citations of rules it holds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct CitedPlace {
    /// Its path, relative to `source-root`.
    pub path: String,
    /// How many citations of rules it holds.
    pub citations: usize,
}

/// The notes of an analysis, in a stable order; `shared` and `unplaced` are its
/// [`shared_files`] and [`unplaced_folders`], which `status` also lists.
pub(super) fn notes(
    analysis: &Analysis<'_>,
    shared: &[CitedPlace],
    unplaced: &[CitedPlace],
) -> Vec<String> {
    let mut out = Vec::new();
    let results = &analysis.results;
    if results.asked && !results.files.is_empty() {
        in_no_test(analysis, &mut out);
        flaky(analysis, &mut out);
        disagreements(analysis, &mut out);
    }
    for_every_provider(analysis, &mut out);
    shared_suites(analysis, shared, &mut out);
    unplaced_notes(unplaced, &mut out);
    provider_reports(analysis, &mut out);
    out
}

/// The files no provider's places hold whose citations count for every built provider (a
/// shared suite), said once with their citations' count, so that a first `status` says which
/// suite counts for whom.
fn shared_suites(analysis: &Analysis<'_>, files: &[CitedPlace], out: &mut Vec<String>) {
    let coverage = &analysis.coverage;
    if files.is_empty() || coverage.providers.len() < 2 {
        return;
    }
    let names: Vec<String> = coverage
        .providers
        .iter()
        .map(|&p| format!("`{}`", analysis.model.providers[p].name))
        .collect();
    let listed: Vec<String> = files
        .iter()
        .map(|f| {
            format!(
                "{} ({})",
                f.path,
                crate::util::counted(f.citations, "citation")
            )
        })
        .collect();
    out.push(format!(
        "counting for every built provider ({}), as no provider's places hold them: {}; to count a file for one provider alone, put it in that provider's folder or name it in `provider-paths`",
        names.join(", "),
        listed.join(", ")
    ));
}

/// The folders beside providers' folders that no provider of the book is named after, whose
/// citations count for none: said once per folder, with what makes them count.
fn unplaced_notes(folders: &[CitedPlace], out: &mut Vec<String>) {
    for folder in folders {
        let parent = folder.path.rsplit_once('/').map_or("", |(p, _)| p);
        out.push(format!(
            "counting for no provider: {} in `{}/`, a folder beside the providers' folders in `{parent}/` that no provider of the book is named after; to count them, add that provider's section or spec, name the folder in its `provider-paths`, or put it in `shared-layer` if every provider's code shares it",
            crate::util::counted(folder.citations, "citation"),
            folder.path
        ));
    }
}

/// The files whose citations count for every built provider: no provider's places hold them,
/// and they stand beside no provider's folder. Only a citation of a rule is counted.
pub(super) fn shared_files(analysis: &Analysis<'_>) -> Vec<CitedPlace> {
    cited_places(analysis, |path| {
        analysis.coverage.for_every_built(path).then_some(path)
    })
}

/// The folders beside providers' folders that no provider is named after, with their
/// citations: those count for none.
pub(super) fn unplaced_folders(analysis: &Analysis<'_>) -> Vec<CitedPlace> {
    cited_places(analysis, |path| analysis.coverage.unplaced(path))
}

/// The places `place` gives the local citations of rules, each with their count, in the
/// order first cited; none when the source tree was not read.
fn cited_places<'a>(
    analysis: &'a Analysis<'_>,
    place: impl Fn(&'a str) -> Option<&'a str>,
) -> Vec<CitedPlace> {
    let mut out: Vec<CitedPlace> = Vec::new();
    if !analysis.coverage.known {
        return out;
    }
    let local = analysis.citations.iter().filter(|c| c.remote.is_none());
    for citation in local.filter(|c| c.cited.is_ok()) {
        let Some(path) = place(&citation.path) else {
            continue;
        };
        match out.iter_mut().find(|f| f.path == path) {
            Some(f) => f.citations += 1,
            None => out.push(CitedPlace {
                path: path.to_owned(),
                citations: 1,
            }),
        }
    }
    out
}

/// What each provider report says of its provider, and each built provider without one.
fn provider_reports(analysis: &Analysis<'_>, out: &mut Vec<String>) {
    let reported = &analysis.reported;
    for (r, loaded) in reported.reports.reports.iter().enumerate() {
        let report = &loaded.report;
        let cited = analysis
            .citations
            .iter()
            .filter(|c| c.remote.as_ref().is_some_and(|remote| remote.report == r))
            .count();
        let from = match (&report.repository, &report.commit) {
            (Some(repository), Some(commit)) => format!("{repository} at {commit}"),
            (Some(repository), None) => format!("{repository}, no commit said"),
            _ => "a repository it does not name".to_owned(),
        };
        let declared = report.declared.len();
        out.push(format!(
            "`{}`'s report `{}` (of {from}): {cited} citations of rules{}, {} declared without evidence; its own check found {} and {}",
            report.provider,
            loaded.shown,
            if report.tested { " with their tests' results" } else { ", no test results" },
            declared,
            crate::util::counted(report.check.errors, "error"),
            crate::util::counted(report.check.warnings, "warning"),
        ));
    }
    for &p in &reported.missing {
        out.push(format!(
            "`{}` has no report among `provider-reports`: every rule that binds it is `no report`",
            analysis.model.providers[p].name
        ));
    }
}

/// A `verify` whose test cannot be found: it stands in no test and above none.
fn in_no_test(analysis: &Analysis<'_>, out: &mut Vec<String>) {
    for citation in analysis
        .citations
        .iter()
        .filter(|c| c.verb == Verb::Verify && c.test.is_none())
    {
        out.push(format!(
            "{}:{}: `{}` stands in no test: no result can be found for it (a citation counts for the test it stands in, or the one its comment stands directly above)",
            citation.path, citation.line, citation.text
        ));
    }
}

/// A test that passed on a rerun after it failed, once per test.
fn flaky(analysis: &Analysis<'_>, out: &mut Vec<String>) {
    let mut seen = BTreeSet::new();
    for row in &analysis.coverage.cells {
        for (column, status) in row.iter().enumerate() {
            let Status::Flaky(_, Ran(case)) = *status else {
                continue;
            };
            let case = &analysis.results.cases[case];
            if seen.insert((column, case.classname.clone(), case.name.clone())) {
                let provider = &analysis.model.providers[analysis.coverage.providers[column]];
                out.push(format!(
                    "`{}`: `{}` passed on a rerun after failing (flaky), in `{}`",
                    provider.name, case.name, analysis.results.files[case.report].shown
                ));
            }
        }
    }
}

/// Two reports that say otherwise of one test: the newer counts, and both are named.
fn disagreements(analysis: &Analysis<'_>, out: &mut Vec<String>) {
    let results = &analysis.results;
    // The attempts alone: the cases' names need not be read again for this.
    for &(kept, other) in &Attempts::of(results).disagreements {
        let (kept, other) = (&results.cases[kept], &results.cases[other]);
        let when = |report: usize| {
            let file = &results.files[report];
            match &file.timestamp {
                Some(at) => format!("`{}` ({at})", file.shown),
                None => format!("`{}`", file.shown),
            }
        };
        out.push(format!(
            "the reports disagree on `{}` ({}): {} says {}, {} says {}; the newer counts",
            kept.name,
            kept.classname,
            when(kept.report),
            kept.outcome.as_str(),
            when(other.report),
            other.outcome.as_str()
        ));
    }
}

/// A rule verified, for several providers, only by tests whose cases name none of them:
/// once, with the way to name them.
fn for_every_provider(analysis: &Analysis<'_>, out: &mut Vec<String>) {
    let coverage = &analysis.coverage;
    if !coverage.results || coverage.providers.len() < 2 {
        return;
    }
    let mut rules = Vec::new();
    for (rule, row) in analysis.rules.rules.iter().zip(&coverage.cells) {
        let mut verified = 0;
        let mut only_for_all = true;
        for status in row {
            if let Status::Verified(Cited(c))
            | Status::Passed(Cited(c), _)
            | Status::Flaky(Cited(c), _) = status
            {
                verified += 1;
                only_for_all &= coverage.for_all.contains(c);
            }
        }
        if verified >= 2 && only_for_all {
            rules.push(format!("`{}`", rule.id));
        }
    }
    if rules.is_empty() {
        return;
    }
    let (the, are) = if rules.len() == 1 {
        ("the rule", "is")
    } else {
        ("the rules", "are")
    };
    out.push(format!(
        "{the} {} {are} verified for several providers only by tests whose results name no provider: each provider passes on that test's word; to see each one's own result, run the test once per provider, named (a Go subtest `t.Run(name, ...)`, a pytest parameter, an rstest case, a `test.each` title)",
        rules.join(", ")
    ));
}
