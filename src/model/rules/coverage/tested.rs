//! A cell worked out from test results: the cases of each cited test (found once per
//! citation), which of them are the provider's, and the worst of their outcomes; where no case
//! is the test's, whether its report ran its file (*unmatched*) or not (*not run*). To read a
//! new way a report names its cases, teach `read::results` (`matching/`, `names/`); this
//! file only decides what the found cases say of a cell.

use std::collections::{BTreeSet, HashSet};

use super::{Cited, Ran, Status, Unknowable};
use crate::model::Model;
use crate::model::rules::code::CodeCitation;
use crate::read::results::Outcome;

/// The test results and what finds their cases, with the source tree's root.
pub(crate) struct WithResults<'r> {
    pub results: &'r crate::read::results::Results,
    pub matcher: &'r crate::read::results::matching::Matcher<'r>,
    pub source_root: &'r std::path::Path,
    /// Every test that a `verify` stands in: a case whose report names no file may be any.
    pub sites: &'r [crate::read::results::matching::Site<'r>],
    /// Per citation, its test's cases and what each name says, worked out at its first cell:
    /// they are the same for every provider and rule it counts for.
    pub matched: Vec<std::sync::OnceLock<Matched>>,
    /// Every case with the files its report says it is of (see
    /// [`crate::read::results::cases_in::CasesIn`]).
    pub cases_in: crate::read::results::cases_in::CasesIn,
    /// Per citation, the cases of its file that no cited test of the file was placed on,
    /// worked out when a cell first needs them.
    pub unplaced: Vec<std::sync::OnceLock<Vec<usize>>>,
}
/// The cases of a citation's test, and what each one's name says of its provider.
pub(crate) struct Matched {
    found: crate::read::results::matching::Found,
    kinds: Vec<(usize, crate::read::results::names::Named)>,
}
/// A cell worked out from test results, and the reports whose cases decided it.
pub(super) struct Tested {
    pub(super) status: Status,
    pub(super) reports: BTreeSet<usize>,
    /// The citations whose test's cases named no provider.
    pub(super) for_all: Vec<usize>,
}
/// Where the tests `verify` (citations counting for provider `p`) leave a rule, by their
/// results: no cell passes unless its runner reported a case of the test as passed for `p`.
/// Failed before skipped before not attributable before not run before passed on a rerun;
/// passed only when every one passed.
pub(super) fn tested(
    with: &WithResults<'_>,
    citations: &[CodeCitation],
    verify: &[usize],
    model: &Model,
    p: usize,
) -> Tested {
    // A pass on a rerun ranks above a plain pass, so that the cell says it whichever
    // citation comes first.
    let rank = |status: &Status| match status {
        Status::Failed(..) => 5,
        Status::Skipped(..) => 4,
        Status::Unmatched(_, Some(_)) | Status::Unattributed(..) => 3,
        Status::Unmatched(_, None) | Status::NotRun(_) => 2,
        Status::Flaky(..) => 1,
        _ => 0,
    };
    let mut worst: Option<Status> = None;
    let mut reports = BTreeSet::new();
    let mut for_all = Vec::new();
    let me = with.matcher.provider_index(&model.providers[p].name);
    for &c in verify {
        // A test whose own name is another provider's (`PutAtomic_gcs`) says nothing of `p`.
        let named_for = citations[c].test.as_ref().and_then(|t| {
            crate::read::results::names::named_for(&t.name, with.matcher.providers())
        });
        if named_for.is_some_and(|n| Some(n) != me) {
            continue;
        }
        let (status, cases, plain) = one_test(with, citations, c, model, p);
        reports.extend(cases.iter().map(|&i| with.results.cases[i].report));
        if plain && !cases.is_empty() {
            for_all.push(c);
        }
        if worst.as_ref().is_none_or(|w| rank(&status) > rank(w)) {
            worst = Some(status);
        }
    }
    Tested {
        status: worst.unwrap_or(Status::Uncovered),
        reports,
        for_all,
    }
}
/// Where the test of the citation `c` leaves a rule for provider `p`, the cases that decided
/// it, and whether they name no provider (the test's word is every provider's).
fn one_test(
    with: &WithResults<'_>,
    citations: &[CodeCitation],
    c: usize,
    model: &Model,
    p: usize,
) -> (Status, Vec<usize>, bool) {
    use crate::read::results::names::Named;
    // Its file or package failed before any test ran (it did not compile, build or
    // collect): so did it.
    let path = &citations[c].path;
    if let Some(case) = with
        .cases_in
        .failed_before(path)
        .or_else(|| with.matcher.package_failed(with.source_root, path))
    {
        return (Status::Failed(Cited(c), Ran(case)), vec![case], true);
    }
    let Some(Matched { found, kinds }) = matched(with, citations, c) else {
        // A file in which no test was recognised (a language or a runner whose tests are not
        // read): what its report holds of that file is told, never hidden as not run.
        return unmatched(with, citations, c).unwrap_or((
            Status::NotRun(Cited(c)),
            Vec::new(),
            false,
        ));
    };
    // No case is this test's, yet the report ran its file: not "not run".
    if found.cases.is_empty()
        && let Some(told) = unmatched(with, citations, c)
    {
        return told;
    }
    let me = with.matcher.provider_index(&model.providers[p].name);
    // A test whose cases name providers: this provider's cases alone, none when it has none
    // (its subtest did not run, whatever the parent did).
    let by_provider = kinds.iter().any(|(_, n)| matches!(n, Named::Provider(_)));
    let own: Vec<usize> = if by_provider {
        kinds
            .iter()
            .filter(|(_, n)| me.is_some_and(|me| *n == Named::Provider(me)))
            .map(|(i, _)| *i)
            .collect()
    } else {
        if let Some(told) = unattributed(with, found, kinds, c) {
            return told;
        }
        kinds.iter().map(|(i, _)| *i).collect()
    };
    let Some(case) = worst(with, &own) else {
        return (Status::NotRun(Cited(c)), own, false);
    };
    let status = match with.results.cases[case].outcome {
        Outcome::Failed => Status::Failed(Cited(c), Ran(case)),
        Outcome::Skipped => Status::Skipped(Cited(c), Ran(case)),
        Outcome::Passed => match own.iter().find(|&&i| with.matcher.attempts.flaky[i]) {
            Some(&flaky) => Status::Flaky(Cited(c), Ran(flaky)),
            None => Status::Passed(Cited(c), Ran(case)),
        },
    };
    (status, own, !by_provider)
}

/// The case of `cases` with the worst outcome.
fn worst(with: &WithResults<'_>, cases: &[usize]) -> Option<usize> {
    cases
        .iter()
        .copied()
        .max_by_key(|&i| with.results.cases[i].outcome)
}

/// For a test whose cases name no provider: the cell when its report cannot say whose they
/// are (named by position only) or which file's (a name another file's test has too). A
/// failure among them is told even so: never hidden.
fn unattributed(
    with: &WithResults<'_>,
    found: &crate::read::results::matching::Found,
    kinds: &[(usize, crate::read::results::names::Named)],
    c: usize,
) -> Option<(Status, Vec<usize>, bool)> {
    use crate::read::results::names::Named;
    let unknown: Vec<usize> = kinds
        .iter()
        .filter(|(_, n)| *n == Named::Unknown)
        .map(|(i, _)| *i)
        .collect();
    if unknown.is_empty() && (!found.unplaced || found.cases.is_empty()) {
        return None;
    }
    let all: Vec<usize> = if unknown.is_empty() {
        found.cases.clone()
    } else {
        unknown
    };
    let why = if found.unplaced {
        Unknowable::File
    } else {
        Unknowable::Provider
    };
    // Where which file ran is not known, a case's earlier "attempts" may be the other files'
    // tests of its name: a failure among them is told, never passed over as a rerun's.
    let failed = worst(with, &all).filter(|&i| failed(with, i)).or_else(|| {
        found
            .unplaced
            .then(|| {
                all.iter()
                    .find_map(|&i| with.matcher.attempts.failed_before(with.results, i))
            })
            .flatten()
    });
    Some((
        Status::Unattributed(Cited(c), why, failed.map(Ran)),
        all,
        false,
    ))
}

/// Per citation of an unmatched cell, the cases of its file that could not be placed.
pub(super) fn unmatched_of(
    cells: &[Vec<Status>],
    with: &WithResults<'_>,
) -> std::collections::BTreeMap<usize, Vec<usize>> {
    cells
        .iter()
        .flatten()
        .filter_map(|status| match *status {
            Status::Unmatched(Cited(c), _) => Some((c, with.unplaced[c].get()?.clone())),
            _ => None,
        })
        .collect()
}
/// The cases of the test of citation `c`, and what each one's name says of its provider,
/// worked out once; `None` for a citation that stands in no test.
fn matched<'w>(
    with: &'w WithResults<'_>,
    citations: &[CodeCitation],
    c: usize,
) -> Option<&'w Matched> {
    let citation = &citations[c];
    let test = citation.test.as_ref()?;
    Some(with.matched[c].get_or_init(|| {
        let site = site_of(citation, test);
        let mut found = with.matcher.cases(with.source_root, &site, with.sites);
        let kinds = with.matcher.named_cases(&site, &mut found);
        Matched { found, kinds }
    }))
}
/// For a test no case was found for: the cell when its report holds cases of its file that
/// no cited test of that file was placed on. Where none of the file's cases could be placed
/// (its runner's names are not read), every such case is the cell's, passed ones too; where
/// some were, only a failure among the rest makes it unmatched (else the test did not run).
fn unmatched(
    with: &WithResults<'_>,
    citations: &[CodeCitation],
    c: usize,
) -> Option<(Status, Vec<usize>, bool)> {
    let path = &citations[c].path;
    let unplaced = with.unplaced[c].get_or_init(|| {
        let cases = with.cases_in.in_file(with.results, path);
        if cases.is_empty() {
            return cases;
        }
        let placed: HashSet<usize> = (0..citations.len())
            .filter(|&i| citations[i].path == *path)
            .filter_map(|i| matched(with, citations, i))
            .flat_map(|m| m.found.cases.iter().copied())
            .collect();
        let rest: Vec<usize> = cases
            .iter()
            .copied()
            .filter(|i| !placed.contains(i))
            .collect();
        if cases.iter().any(|i| placed.contains(i)) && !rest.iter().any(|&i| failed(with, i)) {
            return Vec::new();
        }
        rest
    });
    if unplaced.is_empty() {
        return None;
    }
    let failed = unplaced.iter().copied().find(|&i| failed(with, i));
    Some((
        Status::Unmatched(Cited(c), failed.map(Ran)),
        unplaced.clone(),
        false,
    ))
}

/// Whether case `i` of the results failed.
fn failed(with: &WithResults<'_>, i: usize) -> bool {
    with.results.cases[i].outcome == Outcome::Failed
}
/// The test a citation stands in, as the matcher looks it up.
pub(crate) fn site_of<'c>(
    citation: &'c CodeCitation,
    test: &'c crate::read::code::TestSite,
) -> crate::read::results::matching::Site<'c> {
    crate::read::results::matching::Site {
        path: &citation.path,
        name: &test.name,
        scope: &test.scope,
        titled: test.titled,
        parameters: test.parameters.as_ref(),
    }
}
