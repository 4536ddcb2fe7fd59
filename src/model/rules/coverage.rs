//! Coverage: for each built provider and each rule, whether its code and tests cite it.
//!
//! A citation counts for the provider whose places hold its file: the folders its claims cite
//! as evidence (a cited file's folder), outside the shared layer, and the folders, files and
//! globs `provider-paths` gives it, and every folder named after it (`internal/hetzner/`);
//! the most specific place wins (a file over a glob over a folder, a deeper folder over its
//! parent). Every provider has places, built, proposed or only a spec: a new provider's code
//! counts for it alone from its first file. A citation in a file no provider holds
//! (a shared conformance suite, the shared layer) counts for every built provider. A spec or a
//! proposed section is not counted until it is built. A citation of an older version than the
//! rule's counts for nothing (`stale-rule` says so).

use std::collections::{BTreeSet, HashSet};

use super::code::{CodeCitation, Verb};
use super::status::Kind;
use super::{Rule, Rules};
use crate::model::Model;
use crate::read::citation::{Citation, classify};
use crate::read::code::{Roots, is_glob};
use crate::read::config::Config;

/// Where a rule stands for one provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// A `verify` counts for it: the first such citation (an index into the source index's
    /// citations). With test results, every test citing it for the provider passed.
    Verified(usize),
    /// With test results: a test citing it for the provider failed (the citation, and the
    /// case, an index into the results' cases).
    Failed(usize, usize),
    /// With test results: none failed, and one was skipped.
    Skipped(usize, usize),
    /// With test results: none failed or was skipped, and one has no result (cited, but no
    /// case of the results is its test, or none ran for the provider).
    NotRun(usize),
    /// With test results: the test ran, but its report cannot say for this provider (its
    /// cases are named by position only, `put{String}[2]`) or for this file (it names no
    /// file, and another file has a test of the same name). Not a pass: the citation, and a
    /// case of it that failed (told, whoever it was for).
    Unattributed(usize, Unknowable, Option<usize>),
    /// With test results: no case of its test was found, and its report holds cases of the
    /// test's file that could not be placed on a test and a provider (listed in
    /// [`Coverage::unmatched`]): the citation, and one of them that failed.
    Unmatched(usize, Option<usize>),
    /// With test results: every test citing it for the provider passed, one of them on a
    /// rerun after it failed (the citation, and the case).
    Flaky(usize, usize),
    /// Only an `impl` counts for it: the first one.
    Implemented(usize),
    /// It binds the provider and nothing cites it.
    Uncovered,
    /// `applies=` names a profile the provider does not claim.
    NotBound,
    /// `applies=` names a profile of an axis whose profile the provider has not stated yet
    /// (`unknown`, or no claim): whether the rule binds it is not known.
    Undecided,
    /// A MAY that binds the provider: it permits and obliges nothing, so there is nothing to
    /// verify and it is not counted.
    Optional,
    /// From a provider's report: nothing cites the rule, and the provider declares it
    /// implemented (`true`) or not implemented (`false`). A claim, never verified.
    Declared(bool),
    /// `provider-reports` is set and no report of the provider was read: nothing is known.
    NoReport,
}

impl Status {
    /// The citation that decides the cell, if one does.
    pub(crate) fn citation(self) -> Option<usize> {
        match self {
            Status::Verified(i)
            | Status::Failed(i, _)
            | Status::Skipped(i, _)
            | Status::NotRun(i)
            | Status::Flaky(i, _)
            | Status::Unattributed(i, ..)
            | Status::Unmatched(i, _)
            | Status::Implemented(i) => Some(i),
            Status::Uncovered
            | Status::NotBound
            | Status::Undecided
            | Status::Optional
            | Status::Declared(_)
            | Status::NoReport => None,
        }
    }
}

/// What a report cannot say of a test's cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unknowable {
    /// For which provider each ran.
    Provider,
    /// Which file's test they are.
    File,
}

/// The coverage of every rule for every built provider.
#[derive(Debug, Default)]
pub(crate) struct Coverage {
    /// The built providers, as indexes into the model's providers, one per name, in document
    /// order.
    pub providers: Vec<usize>,
    /// Per rule (as [`Rules::rules`]), the status for each of [`Coverage::providers`].
    pub cells: Vec<Vec<Status>>,
    /// The providers that only a spec describes so far (not built, not proposed), one per
    /// name: what binds them by the profiles their specs claim, for whoever starts one.
    pub pending: Vec<usize>,
    /// Per rule, the status for each of [`Coverage::pending`]: only citations in the
    /// provider's own places count (a shared suite has not run for code that may not exist).
    pub pending_cells: Vec<Vec<Status>>,
    /// Whether the source tree was read: without it every bound rule is `Uncovered` and
    /// nothing is known.
    pub known: bool,
    /// Whether test results were read: with them, verified means passed.
    pub results: bool,
    /// The places of each provider of the model (built or not), in its order: which
    /// provider's code a file is.
    places: Vec<Vec<Place>>,
    /// Per provider (as [`Coverage::providers`]), the reports (indexes into the results'
    /// files) whose cases decided its cells.
    pub reports: Vec<BTreeSet<usize>>,
    /// The `verify` citations whose test's cases name no provider: each counted for every
    /// provider it binds, on that test's word.
    pub for_all: BTreeSet<usize>,
    /// The cells (rule, column) a provider's report made against another text or version of
    /// the rule than the book's (`reported.rs`).
    pub older_text: BTreeSet<(usize, usize)>,
    /// Per citation of an [`Status::Unmatched`] cell, the cases of its file that could not be
    /// placed, in the results' order.
    pub unmatched: std::collections::BTreeMap<usize, Vec<usize>>,
}

/// A place of the source tree that holds a provider's code.
#[derive(Debug, Clone)]
enum Place {
    /// A path: the file itself, or a folder and everything under it.
    Path(String),
    /// A glob of `provider-paths`, with its fixed leading part's length (its depth).
    Glob(globset::GlobMatcher, usize),
    /// Every folder named after the provider (`internal/provider/hetzner/`), wherever it is:
    /// its code before anything names its place.
    Named(String),
}

impl Place {
    /// How specifically the place holds `path`, when it does: a file named exactly is more
    /// specific than any folder or glob, and a deeper folder than its parent.
    fn holds(&self, path: &str) -> Option<usize> {
        match self {
            Place::Path(place) if place == path => Some(usize::MAX),
            Place::Path(place) => path
                .strip_prefix(place.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
                .then_some(place.len()),
            Place::Glob(glob, depth) => glob.is_match(path).then_some(*depth),
            Place::Named(name) => {
                let (folders, _file) = path.rsplit_once('/')?;
                let mut end = 0;
                for part in folders.split('/') {
                    end += part.len();
                    if part == name {
                        return Some(end);
                    }
                    end += 1;
                }
                None
            }
        }
    }
}

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
    /// [`crate::read::results::matching::CasesIn`]).
    pub cases_in: crate::read::results::matching::CasesIn,
    /// Per citation, the cases of its file that no cited test of the file was placed on,
    /// worked out when a cell first needs them.
    pub unplaced: Vec<std::sync::OnceLock<Vec<usize>>>,
}

/// The cases of a citation's test, and what each one's name says of its provider.
pub(crate) struct Matched {
    found: crate::read::results::matching::Found,
    kinds: Vec<(usize, crate::read::results::names::Named)>,
}

/// What a cell is worked out from: the citations of the source tree, whose places hold each
/// one's file, and the test results.
struct Cells<'c> {
    model: &'c Model,
    citations: &'c [CodeCitation],
    owners: &'c [Vec<usize>],
    results: Option<&'c WithResults<'c>>,
}

impl Cells<'_> {
    /// Where `rule` stands for provider `p`, and the reports that decided it when its tests'
    /// results did. With `own_only`, a citation counts only in `p`'s own places.
    fn status(&self, rule: &Rule, p: usize, own_only: bool) -> (Status, Option<Tested>) {
        let model = self.model;
        // Whom an unreadable `applies=` binds is unknown: counted for nobody.
        if rule.applies_unread {
            return (Status::Undecided, None);
        }
        if let Some((axis, _)) = &rule.applies
            && !rule.binds(model, p)
        {
            let stated = model.claims_of(p, axis).any(|c| model.answers(c));
            let status = if stated {
                Status::NotBound
            } else {
                Status::Undecided
            };
            return (status, None);
        }
        if !rule.obliges() {
            return (Status::Optional, None);
        }
        let counting = |verb: Verb| {
            self.citations
                .iter()
                .zip(self.owners)
                .enumerate()
                .filter(move |(_, (c, owner))| {
                    c.verb == verb
                        && cites(c, rule)
                        && (owner.contains(&p) || (!own_only && owner.is_empty()))
                })
                .map(|(i, _)| i)
        };
        let verify: Vec<usize> = counting(Verb::Verify).collect();
        match (verify.first(), counting(Verb::Impl).next()) {
            (Some(&i), _) => match self.results {
                Some(with) => {
                    let tested = tested(with, self.citations, &verify, model, p);
                    (tested.status, Some(tested))
                }
                None => (Status::Verified(i), None),
            },
            (None, Some(i)) => (Status::Implemented(i), None),
            (None, None) => (Status::Uncovered, None),
        }
    }
}

impl Coverage {
    /// Works out the coverage; `citations` are those of the source tree, when it was read.
    pub(crate) fn of(
        rules: &Rules,
        model: &Model,
        config: &Config,
        citations: Option<&[CodeCitation]>,
        shared: &Roots,
        excluded: &HashSet<String>,
        results: Option<&WithResults<'_>>,
    ) -> Coverage {
        let mut names = HashSet::new();
        let providers: Vec<usize> = model
            .providers
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.proposed && !p.spec && names.insert(p.name.as_str()))
            .map(|(i, _)| i)
            .collect();
        // Every section's places, built or not: a citation in a proposed provider's folder
        // counts for nobody until it is built, not for everyone. Without a source tree there
        // is no file to place (the benchmark's 100 providers spent 2 % of a build on them).
        let places: Vec<Vec<Place>> = match citations {
            Some(_) => (0..model.providers.len())
                .map(|p| places_of(model, config, shared, excluded, p))
                .collect(),
            None => Vec::new(),
        };
        if rules.rules.is_empty() {
            return Coverage {
                reports: vec![BTreeSet::new(); providers.len()],
                for_all: BTreeSet::new(),
                providers,
                cells: Vec::new(),
                pending: Vec::new(),
                pending_cells: Vec::new(),
                known: citations.is_some(),
                results: results.is_some(),
                places,
                older_text: BTreeSet::new(),
                unmatched: Default::default(),
            };
        }
        let known = citations.is_some();
        let citations = citations.unwrap_or_default();
        let owners: Vec<Vec<usize>> = citations.iter().map(|c| owners(&places, &c.path)).collect();
        let cells_of = Cells {
            model,
            citations,
            owners: &owners,
            results,
        };
        let mut reports: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); providers.len()];
        let mut for_all: BTreeSet<usize> = BTreeSet::new();
        let cells: Vec<Vec<Status>> = rules
            .rules
            .iter()
            .map(|rule| {
                providers
                    .iter()
                    .enumerate()
                    .map(|(column, &p)| {
                        let (status, tested) = cells_of.status(rule, p, false);
                        if let Some(tested) = tested {
                            reports[column].extend(tested.reports);
                            for_all.extend(tested.for_all);
                        }
                        status
                    })
                    .collect()
            })
            .collect();
        let pending: Vec<usize> = model
            .providers
            .iter()
            .enumerate()
            .filter(|(_, p)| p.spec && names.insert(p.name.as_str()))
            .map(|(i, _)| i)
            .collect();
        let pending_cells = rules
            .rules
            .iter()
            .map(|rule| {
                pending
                    .iter()
                    .map(|&p| cells_of.status(rule, p, true).0)
                    .collect()
            })
            .collect();
        Coverage {
            providers,
            pending,
            pending_cells,
            known,
            results: results.is_some(),
            places,
            reports,
            for_all,
            older_text: BTreeSet::new(),
            unmatched: results.map_or_else(Default::default, |with| unmatched_of(&cells, with)),
            cells,
        }
    }

    /// The providers (indexes into the model's) whose code the file at `path` is: none for
    /// shared code.
    pub(crate) fn owners(&self, path: &str) -> Vec<usize> {
        owners(&self.places, path)
    }

    /// How many of the rules that bind the provider in column `column` are verified, and how
    /// many bind it.
    pub(crate) fn verified_of_bound(&self, column: usize) -> (usize, usize) {
        let kinds = || self.cells.iter().map(|row| self.kind(row[column]));
        let verified = kinds()
            .filter(|k| matches!(k, Kind::Passed | Kind::Verified))
            .count();
        (verified, kinds().filter(|k| k.obliges()).count())
    }
}

impl Coverage {
    /// The kind of `status`: with test results (`results`) a verified rule is passed; without
    /// the source tree (`known` false) an uncited rule's coverage is unknown.
    pub(crate) fn kind(&self, status: Status) -> Kind {
        let (results, known) = (self.results, self.known);
        match status {
            Status::Verified(_) | Status::Flaky(..) if results => Kind::Passed,
            Status::Verified(_) | Status::Flaky(..) => Kind::Verified,
            Status::Failed(..) => Kind::Failed,
            Status::Skipped(..) => Kind::Skipped,
            Status::NotRun(_) => Kind::NotRun,
            Status::Unattributed(..) => Kind::Unattributed,
            Status::Unmatched(..) => Kind::Unmatched,
            Status::Implemented(_) => Kind::Implemented,
            Status::Uncovered if known => Kind::Uncovered,
            Status::Uncovered => Kind::Unknown,
            Status::NotBound => Kind::NotBound,
            Status::Undecided => Kind::ProfileUnknown,
            Status::Optional => Kind::Optional,
            Status::Declared(true) => Kind::Declared,
            Status::Declared(false) => Kind::DeclaredNotImplemented,
            Status::NoReport => Kind::NoReport,
        }
    }

    /// The cases an unmatched cell of citation `c` stands for, as a reader reads them: the
    /// first three names and how many more, and how many in all.
    pub(crate) fn unmatched_names(
        &self,
        c: usize,
        results: &crate::read::results::Results,
    ) -> (String, usize) {
        let cases = self.unmatched.get(&c).map_or(&[][..], Vec::as_slice);
        let mut names: Vec<String> = cases
            .iter()
            .take(3)
            .filter_map(|&i| results.cases.get(i))
            .map(|case| format!("`{}`", case.name))
            .collect();
        if cases.len() > 3 {
            names.push(format!("{} more", cases.len() - 3));
        }
        (names.join(", "), cases.len())
    }

    /// How many of the rules of the provider in column `column` are of `kind`.
    pub(crate) fn count(&self, column: usize, kind: Kind) -> usize {
        self.cells
            .iter()
            .filter(|row| self.kind(row[column]) == kind)
            .count()
    }
}

/// A cell worked out from test results, and the reports whose cases decided it.
struct Tested {
    status: Status,
    reports: BTreeSet<usize>,
    /// The citations whose test's cases named no provider.
    for_all: Vec<usize>,
}

/// Where the tests `verify` (citations counting for provider `p`) leave a rule, by their
/// results: no cell passes unless its runner reported a case of the test as passed for `p`.
/// Failed before skipped before not attributable before not run before passed on a rerun;
/// passed only when every one passed.
fn tested(
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
    use crate::read::results::Outcome;
    use crate::read::results::names::Named;
    let Some(Matched { found, kinds }) = matched(with, citations, c) else {
        // A file in which no test was recognised (a language or a runner whose tests are not
        // read): what its report holds of that file is told, never hidden as not run.
        return unmatched(with, citations, c).unwrap_or((Status::NotRun(c), Vec::new(), false));
    };
    // No case is this test's, yet the report ran its file: not "not run".
    if found.cases.is_empty()
        && let Some(told) = unmatched(with, citations, c)
    {
        return told;
    }
    let me = with.matcher.provider_index(&model.providers[p].name);
    let worst = |cases: &[usize]| {
        cases
            .iter()
            .copied()
            .max_by_key(|&i| with.results.cases[i].outcome)
    };
    let failed_among = |cases: &[usize]| {
        worst(cases).filter(|&i| with.results.cases[i].outcome == Outcome::Failed)
    };
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
        let unknown: Vec<usize> = kinds
            .iter()
            .filter(|(_, n)| *n == Named::Unknown)
            .map(|(i, _)| *i)
            .collect();
        if !unknown.is_empty() || (found.unplaced && !found.cases.is_empty()) {
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
            // A failure is told even when whose it is is not known: never hidden.
            return (Status::Unattributed(c, why, failed_among(&all)), all, false);
        }
        kinds.iter().map(|(i, _)| *i).collect()
    };
    let Some(case) = worst(&own) else {
        return (Status::NotRun(c), own, false);
    };
    let status = match with.results.cases[case].outcome {
        Outcome::Failed => Status::Failed(c, case),
        Outcome::Skipped => Status::Skipped(c, case),
        Outcome::Passed => match own.iter().find(|&&i| with.matcher.attempts.flaky[i]) {
            Some(&flaky) => Status::Flaky(c, flaky),
            None => Status::Verified(c),
        },
    };
    (status, own, !by_provider)
}

/// The cell of citation `c` when its report holds a failed case of its file that no test was
/// Per citation of an unmatched cell, the cases of its file that could not be placed.
fn unmatched_of(
    cells: &[Vec<Status>],
    with: &WithResults<'_>,
) -> std::collections::BTreeMap<usize, Vec<usize>> {
    cells
        .iter()
        .flatten()
        .filter_map(|status| match *status {
            Status::Unmatched(c, _) => Some((c, with.unplaced[c].get()?.clone())),
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
        let found = with.matcher.cases(with.source_root, &site, with.sites);
        let named = |case: usize| {
            if crate::read::results::matching::by_title(&citation.path) {
                with.matcher.title_named(&site, case)
            } else {
                with.matcher.named(case)
            }
        };
        let kinds = found.cases.iter().map(|&i| (i, named(i))).collect();
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
        let cases = with.cases_in.in_file(path);
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
        let failed =
            |i: &usize| with.results.cases[*i].outcome == crate::read::results::Outcome::Failed;
        if cases.iter().any(|i| placed.contains(i)) && !rest.iter().any(failed) {
            return Vec::new();
        }
        rest
    });
    if unplaced.is_empty() {
        return None;
    }
    let failed = unplaced
        .iter()
        .copied()
        .find(|&i| with.results.cases[i].outcome == crate::read::results::Outcome::Failed);
    Some((Status::Unmatched(c, failed), unplaced.clone(), false))
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
    }
}

/// Whether `citation` cites `rule` at its version or a later one.
fn cites(citation: &CodeCitation, rule: &Rule) -> bool {
    citation
        .cited
        .as_ref()
        .is_ok_and(|v| v.id == rule.id && v.version == rule.version)
}

/// The providers (indexes of `places`) whose place holds `path` most specifically: all of them
/// when several name the same place; none for a file no provider holds.
fn owners(places: &[Vec<Place>], path: &str) -> Vec<usize> {
    let holding: Vec<(usize, usize)> = places
        .iter()
        .enumerate()
        .flat_map(|(p, list)| {
            list.iter()
                .filter_map(move |place| Some((p, place.holds(path)?)))
        })
        .collect();
    let deepest = holding.iter().map(|(_, depth)| *depth).max();
    let mut out: Vec<usize> = holding
        .into_iter()
        .filter(|(_, depth)| Some(*depth) == deepest)
        .map(|(p, _)| p)
        .collect();
    out.dedup();
    out
}

/// The places of provider `p`, built or not: the folder of each path its claims cite as
/// evidence (a file's folder, a glob's fixed part), outside the shared layer, its
/// `provider-paths` as written (folders, files and globs), and every folder named after it.
fn places_of(
    model: &Model,
    config: &Config,
    shared: &Roots,
    excluded: &HashSet<String>,
    p: usize,
) -> Vec<Place> {
    let name = &model.providers[p].name;
    let is_excluded = |w: &str| excluded.contains(w);
    let mut places: Vec<Place> = Vec::new();
    let mut folders: Vec<String> = Vec::new();
    for path in config.provider_paths.get(name).into_iter().flatten() {
        if is_glob(path) {
            if let Ok(glob) = crate::read::code::glob(path) {
                let depth = path.find(['*', '?', '[', '{']).unwrap_or(path.len());
                places.push(Place::Glob(glob.compile_matcher(), depth));
            }
        } else {
            folders.push(path.clone());
        }
    }
    for claim in model.claims.iter().filter(|c| c.provider == p) {
        for evidence in &claim.evidence {
            let Some(Citation::Path(path)) = classify(&evidence.text, &is_excluded) else {
                continue;
            };
            let Some(folder) = folder_of(path) else {
                continue;
            };
            if !shared.contains(&folder) && !folders.contains(&folder) {
                folders.push(folder);
            }
        }
    }
    places.extend(folders.into_iter().map(Place::Path));
    places.push(Place::Named(name.clone()));
    places
}

/// The folder a cited path stands for: a folder itself, a file's folder, a glob's fixed
/// leading folders. A path whose last part has a dot is taken for a file.
fn folder_of(path: &str) -> Option<String> {
    let fixed: Vec<&str> = path.split('/').take_while(|part| !is_glob(part)).collect();
    let whole = fixed.len() == path.split('/').count();
    let last_is_file = whole && fixed.last().is_some_and(|last| last.contains('.'));
    let keep = if !whole || last_is_file {
        fixed.len().saturating_sub(usize::from(whole))
    } else {
        fixed.len()
    };
    let folder = fixed[..keep.min(fixed.len())].join("/");
    (!folder.is_empty()).then_some(folder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_of_cited_paths() {
        assert_eq!(
            folder_of("internal/provider/kvm/kvm.go").as_deref(),
            Some("internal/provider/kvm")
        );
        assert_eq!(
            folder_of("internal/provider/kvm").as_deref(),
            Some("internal/provider/kvm")
        );
        assert_eq!(
            folder_of("internal/provider/kvm/*.go").as_deref(),
            Some("internal/provider/kvm")
        );
        assert_eq!(folder_of("main.go"), None);
        assert_eq!(folder_of("*.go"), None);
    }

    #[test]
    fn the_deepest_folder_owns_a_file() {
        let folder = |f: &str| Place::Path(f.to_owned());
        let folders = vec![
            vec![folder("internal/provider")],
            vec![folder("internal/provider/kvm")],
        ];
        assert_eq!(owners(&folders, "internal/provider/kvm/kvm_test.go"), [1]);
        assert_eq!(owners(&folders, "internal/provider/gcp/x.go"), [0]);
        assert!(owners(&folders, "test/conformance/x_test.go").is_empty());
        assert!(owners(&folders, "internal/providerx/a.go").is_empty());
        // Two providers citing one folder both own it.
        let tied = vec![vec![folder("pkg/cloudinit")], vec![folder("pkg/cloudinit")]];
        assert_eq!(owners(&tied, "pkg/cloudinit/c_test.go"), [0, 1]);
        // A file named exactly, then a glob, beat the folder that holds them.
        let glob = |g: &str, depth| {
            Place::Glob(crate::read::code::glob(g).unwrap().compile_matcher(), depth)
        };
        let files = vec![
            vec![folder("flagsvc")],
            vec![folder("flagsvc/launchdarkly.py")],
            vec![glob("flagsvc/unleash*.py", 8)],
        ];
        assert_eq!(owners(&files, "flagsvc/launchdarkly.py"), [1]);
        assert_eq!(owners(&files, "flagsvc/unleash_client.py"), [2]);
        assert_eq!(owners(&files, "flagsvc/common.py"), [0]);
    }
}
