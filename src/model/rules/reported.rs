//! The coverage of the providers whose evidence comes from their own repositories
//! (`provider-reports`): each report's citations and results made into the same
//! [`CodeCitation`]s and [`Case`]s the source tree and the test results give, appended to
//! them, and the report's provider's column of the coverage worked out from them alone.
//!
//! A cell is the local one's in kind: a `verify` whose test passed (every case the report
//! holds for it) is verified, one that failed failed, and so on; a declared status counts only
//! where no citation does (`Declared`, never verified; `not-applicable` is not bound); the
//! binding (`applies=`, MAY) is the book's. With `provider-reports` set, a built provider
//! without a report is `NoReport` wherever a rule binds it. What a report says of a rule whose
//! text or version changed since it was made (its digest differs) is recorded in
//! [`Reported::drift`] for the checks; the cell still says what the report says.

use std::collections::BTreeSet;

use super::Rules;
use super::code::{CodeCitation, Remote, Verb};
use super::coverage::{Cited, Coverage, Ran, Status, Unknowable};
use super::marker::Versioned;
use crate::model::Model;
use crate::read::code::TestSite;
use crate::read::reports::document::{Declared, ReportCitation, digest};
use crate::read::reports::{Reports, blob};
use crate::read::results::{Case, Outcome, Results, ResultsFile};

/// What the reports made of the coverage, for the checks and `status`.
#[derive(Debug, Default)]
pub(crate) struct Reported {
    /// The reports read, and what could not be.
    pub reports: Reports,
    /// Per column of the coverage, the report that made it.
    pub columns: Vec<Option<usize>>,
    /// Per report, the rules (indexes into [`Rules::rules`]) whose digest differs from the one
    /// the report recorded: their text or version changed since it was made.
    pub drift: Vec<Vec<usize>>,
    /// Per report, the rule IDs it cites or declares that the contract does not have.
    pub unknown: Vec<Vec<String>>,
    /// The reports whose provider is no built provider of the book.
    pub strangers: Vec<usize>,
    /// The built providers (indexes into the model's) without a report, when
    /// `provider-reports` is set.
    pub missing: Vec<usize>,
    /// How many of the results' files are the test results' own: the reports' runs follow.
    pub local_files: usize,
}

/// Puts the reports' evidence into `coverage`, its citations into `citations` and its results
/// into `results`. `texts` is each rule's text, as the digest is made of it.
pub(crate) fn apply(
    reports: Reports,
    coverage: &mut Coverage,
    rules: &Rules,
    texts: &[&str],
    model: &Model,
    citations: &mut Vec<CodeCitation>,
    results: &mut Results,
) -> Reported {
    let mut reported = Reported {
        columns: vec![None; coverage.providers.len()],
        local_files: results.files.len(),
        ..Reported::default()
    };
    if !reports.asked {
        reported.reports = reports;
        return reported;
    }
    coverage.known = true;
    // Every column is a report's (or has none): passed means passed only when every report
    // holds its tests' results.
    coverage.results =
        !reports.reports.is_empty() && reports.reports.iter().all(|r| r.report.tested);
    let digests: Vec<String> = rules
        .rules
        .iter()
        .zip(texts)
        .map(|(rule, text)| digest(&rule.id, rule.version, text))
        .collect();
    for (r, loaded) in reports.reports.iter().enumerate() {
        let report = &loaded.report;
        let (drift, unknown) = judged(report, rules, &digests);
        reported.unknown.push(unknown);
        let column = coverage
            .providers
            .iter()
            .position(|&p| model.providers[p].name == report.provider);
        let Some(column) = column else {
            reported.drift.push(drift);
            reported.strangers.push(r);
            continue;
        };
        reported.columns[column] = Some(r);
        coverage
            .older_text
            .extend(drift.iter().map(|&row| (row, column)));
        reported.drift.push(drift);
        let first = citations.len();
        let cases = append(loaded, r, citations, results);
        coverage.reports[column].extend(cases.iter().flatten().map(|&c| results.cases[c].report));
        for (row, rule) in coverage.cells.iter_mut().zip(&rules.rules) {
            let said = Said {
                cited: &report.citations,
                first,
                cases: &cases,
                results,
                tested: report.tested,
            };
            row[column] = cell(rule, row[column], &said)
                .or_else(|| declared(row[column], report.declared.get(&rule.id)))
                .unwrap_or(Status::Uncovered);
        }
    }
    no_report(coverage, &mut reported);
    reported.reports = reports;
    reported
}

/// The rules (indexes) whose digest differs from the one `report` recorded, and the rule IDs
/// it cites or declares that the contract does not have.
fn judged(
    report: &crate::read::reports::document::ProviderReport,
    rules: &Rules,
    digests: &[String],
) -> (Vec<usize>, Vec<String>) {
    let drift = rules
        .rules
        .iter()
        .enumerate()
        .filter(|(i, rule)| {
            let seen = report.contract.rules.iter();
            seen.filter(|seen| seen.id == rule.id)
                .any(|seen| seen.digest != digests[*i])
        })
        .map(|(i, _)| i)
        .collect();
    let known = |id: &str| rules.rules.iter().any(|rule| rule.id == id);
    let cited = report.citations.iter().map(|c| c.rule.as_str());
    let unknown: BTreeSet<String> = cited
        .chain(report.declared.keys().map(String::as_str))
        .filter(|id| !known(id))
        .map(str::to_owned)
        .collect();
    (drift, unknown.into_iter().collect())
}

/// Every built provider without a report is `NoReport` wherever a rule binds it.
fn no_report(coverage: &mut Coverage, reported: &mut Reported) {
    for (column, &p) in coverage.providers.iter().enumerate() {
        if reported.columns[column].is_some() {
            continue;
        }
        reported.missing.push(p);
        for row in &mut coverage.cells {
            if !matches!(
                row[column],
                Status::NotBound | Status::Undecided | Status::Optional
            ) {
                row[column] = Status::NoReport;
            }
        }
    }
}

/// What one report says, for its column's cells: its citations (appended to the analysis'
/// from `first` on), each one's cases, and whether it read its tests' results.
struct Said<'s> {
    cited: &'s [ReportCitation],
    first: usize,
    cases: &'s [Vec<usize>],
    results: &'s Results,
    tested: bool,
}

/// Appends the report's citations (as remote ones) and the results of their tests (a results
/// file per run the report names); gives, per citation, the indexes of its cases.
fn append(
    loaded: &crate::read::reports::Loaded,
    r: usize,
    citations: &mut Vec<CodeCitation>,
    results: &mut Results,
) -> Vec<Vec<usize>> {
    let report = &loaded.report;
    let mut runs: Vec<(String, usize)> = Vec::new();
    let mut cases = Vec::new();
    for c in &report.citations {
        let written = crate::model::rules::marker::cited(&c.rule, c.version);
        let verb = match c.verb.as_str() {
            "verify" => Verb::Verify,
            "impl" => Verb::Impl,
            _ => Verb::Mentions,
        };
        let link = match (&report.repository, &report.commit) {
            (Some(repository), Some(commit)) => blob(repository, commit, &c.path, c.line),
            _ => None,
        };
        citations.push(CodeCitation {
            path: c.path.clone(),
            line: c.line,
            column: c.column,
            verb,
            text: format!("r[{} {written}]", c.verb),
            written,
            line_text: c.line_text.clone(),
            cited: Ok(Versioned {
                id: c.rule.clone(),
                version: c.version,
            }),
            test: c.test.as_ref().map(|t| TestSite {
                name: t.name.clone(),
                scope: Vec::new(),
                line: t.line,
                titled: false,
                parameters: None,
            }),
            remote: Some(Remote { report: r, link }),
        });
        let mut mine = Vec::new();
        for result in &c.results {
            let file = match runs.iter().find(|(run, _)| *run == result.run) {
                Some(&(_, file)) => file,
                None => {
                    results.files.push(ResultsFile {
                        path: std::path::PathBuf::from(&loaded.shown),
                        item: loaded.item,
                        shown: format!("{} ({} of {})", loaded.shown, result.run, report.provider),
                        modified: None,
                        timestamp: None,
                    });
                    runs.push((result.run.clone(), results.files.len() - 1));
                    results.files.len() - 1
                }
            };
            let outcome = match result.outcome.as_str() {
                "failed" => Outcome::Failed,
                "skipped" => Outcome::Skipped,
                _ => Outcome::Passed,
            };
            results.cases.push(Case {
                name: result.case.clone(),
                // Its own per report: two providers' cases of one name are no rerun of each
                // other, nor reports that disagree.
                classname: format!("{}: {}", loaded.shown, result.run),
                file: Some(c.path.clone()),
                display: None,
                outcome,
                message: result.message.clone(),
                report: file,
                suite: None,
            });
            mine.push(results.cases.len() - 1);
        }
        cases.push(mine);
    }
    cases
}

/// The cell of `rule` from the report's citations (`cited`, appended from `first` on, with
/// their cases): `None` when none cites the rule at its version. The binding is the book's.
fn cell(rule: &super::Rule, local: Status, said: &Said<'_>) -> Option<Status> {
    if matches!(
        local,
        Status::NotBound | Status::Undecided | Status::Optional
    ) {
        return Some(local);
    }
    let Said {
        cited,
        first,
        cases,
        results,
        tested,
    } = *said;
    let of = |verb: &'static str| {
        cited
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.verb == verb && c.rule == rule.id && c.version == rule.version)
            .map(|(i, _)| i)
    };
    let verify: Vec<usize> = of("verify").collect();
    if let Some(&v) = verify.first() {
        if !tested {
            return Some(Status::Verified(Cited(first + v)));
        }
        let rank = |status: &Status| match status {
            Status::Failed(..) => 5,
            Status::Skipped(..) => 4,
            Status::Unattributed(..) => 3,
            Status::NotRun(_) => 2,
            Status::Flaky(..) => 1,
            _ => 0,
        };
        return verify
            .iter()
            .map(|&i| one_test(Cited(first + i), &cited[i], &cases[i], results))
            .max_by_key(rank);
    }
    of("impl")
        .next()
        .map(|i| Status::Implemented(Cited(first + i)))
}

/// Where one cited test's cases leave the rule: failed before skipped before passed on a
/// rerun before passed; a test whose cases cannot say they ran for the provider is
/// unattributed (its failure still told), one without cases not run.
fn one_test(c: Cited, cited: &ReportCitation, cases: &[usize], results: &Results) -> Status {
    let attributed: Vec<usize> = cases
        .iter()
        .zip(&cited.results)
        .filter(|(_, r)| !r.unattributed)
        .map(|(&i, _)| i)
        .collect();
    let worst = |list: &[usize]| {
        list.iter()
            .copied()
            .max_by_key(|&i| results.cases[i].outcome)
    };
    if attributed.is_empty() {
        return match worst(cases) {
            None => Status::NotRun(c),
            Some(i) => {
                let failed = (results.cases[i].outcome == Outcome::Failed).then_some(Ran(i));
                Status::Unattributed(c, Unknowable::Provider, failed)
            }
        };
    }
    let Some(case) = worst(&attributed) else {
        return Status::NotRun(c);
    };
    match results.cases[case].outcome {
        Outcome::Failed => Status::Failed(c, Ran(case)),
        Outcome::Skipped => Status::Skipped(c, Ran(case)),
        Outcome::Passed => {
            let flaky = cases.iter().zip(&cited.results).find(|(_, r)| r.flaky);
            match flaky {
                Some((&i, _)) => Status::Flaky(c, Ran(i)),
                None => Status::Passed(c, Ran(case)),
            }
        }
    }
}

/// A declared status, where no citation decided the cell.
fn declared(local: Status, said: Option<&Declared>) -> Option<Status> {
    if matches!(
        local,
        Status::NotBound | Status::Undecided | Status::Optional
    ) {
        return Some(local);
    }
    Some(match said? {
        Declared::Implemented => Status::Declared(true),
        Declared::NotImplemented => Status::Declared(false),
        Declared::NotApplicable => Status::NotBound,
    })
}
