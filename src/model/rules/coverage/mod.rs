//! Coverage: for each built provider and each rule, whether its code and tests cite it.
//!
//! A citation counts for the provider whose places hold its file: the folders its claims cite
//! as evidence (a cited file's folder), outside the shared layer, and the folders, files and
//! globs `provider-paths` gives it, and every folder named after it (`internal/hetzner/`);
//! the most specific place wins (a file over a glob over a folder, a deeper folder over its
//! parent). Every provider has places, built, proposed or only a spec: a new provider's code
//! counts for it alone from its first file. A citation in a file no provider holds counts for
//! every built provider where it is a shared suite: under the shared layer, or anywhere but in
//! a folder beside the folders named after providers (`internal/provider/ovh/` beside
//! `internal/provider/kvm/` is a provider the book does not name, and counts for none). A spec or a
//! proposed section is not counted until it is built. A citation of an older version than the
//! rule's counts for nothing (`stale-rule` says so).

use std::collections::{BTreeSet, HashSet};

mod places;
mod tested;

use super::code::{CodeCitation, Verb};
use super::status::Kind;
use super::{Rule, Rules};
use crate::model::Model;
use crate::read::code::Roots;
use crate::read::config::Config;
use places::{Place, beside, owners, parents_of, places_of};
use tested::{Tested, tested, unmatched_of};
pub(crate) use tested::{WithResults, site_of};

/// A citation of the source tree, as an index into the source index's citations: a cell's
/// status names one beside a case of the results, and the two never change places.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Cited(pub(crate) usize);

/// A case of the test results, as an index into the results' cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Ran(pub(crate) usize);

/// Where a rule stands for one provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// A `verify` counts for it, and no test results were read: the first such citation (an
    /// index into the source index's citations).
    Verified(Cited),
    /// With test results: every test citing it for the provider passed (the citation, and a
    /// case of it that passed for the provider, whose name the cell shows).
    Passed(Cited, Ran),
    /// With test results: a test citing it for the provider failed (the citation, and the
    /// case, an index into the results' cases).
    Failed(Cited, Ran),
    /// With test results: none failed, and one was skipped.
    Skipped(Cited, Ran),
    /// With test results: none failed or was skipped, and one has no result (cited, but no
    /// case of the results is its test, or none ran for the provider).
    NotRun(Cited),
    /// With test results: the test ran, but its report cannot say for this provider (its
    /// cases are named by position only, `put{String}[2]`) or for this file (it names no
    /// file, and another file has a test of the same name). Not a pass: the citation, and a
    /// case of it that failed (told, whoever it was for).
    Unattributed(Cited, Unknowable, Option<Ran>),
    /// With test results: no case of its test was found, and its report holds cases of the
    /// test's file that could not be placed on a test and a provider (listed in
    /// [`Coverage::unmatched`]): the citation, and one of them that failed.
    Unmatched(Cited, Option<Ran>),
    /// With test results: every test citing it for the provider passed, one of them on a
    /// rerun after it failed (the citation, and the case).
    Flaky(Cited, Ran),
    /// Only an `impl` counts for it: the first one.
    Implemented(Cited),
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
    pub(crate) fn citation(self) -> Option<Cited> {
        match self {
            Status::Verified(i)
            | Status::Passed(i, _)
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
    /// The folders that hold folders named after providers (`internal/provider`): a file no
    /// provider holds in a folder beside those is an unnamed provider's, counted for none.
    parents: Vec<String>,
    /// The shared layer: a file under it that no provider holds counts for every built
    /// provider, wherever it stands.
    shared: Option<Roots>,
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

/// What a cell is worked out from: the citations of the source tree, whose places hold each
/// one's file, and the test results.
struct Cells<'c> {
    model: &'c Model,
    citations: &'c [CodeCitation],
    owners: &'c [Vec<usize>],
    /// Per citation, whether it counts for every built provider (a shared suite's).
    shared: &'c [bool],
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
                .zip(self.owners.iter().zip(self.shared))
                .enumerate()
                .filter(move |(_, (c, (owner, shared)))| {
                    c.verb == verb
                        && cites(c, rule)
                        && (owner.contains(&p) || (!own_only && **shared))
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
                None => (Status::Verified(Cited(i)), None),
            },
            (None, Some(i)) => (Status::Implemented(Cited(i)), None),
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
        let providers = sections(model, &mut names, |p| !p.proposed && !p.spec);
        // Every section's places, built or not: a citation in a proposed provider's folder
        // counts for nobody until it is built, not for everyone. Without a source tree there
        // is no file to place (the benchmark's 100 providers spent 2 % of a build on them).
        let places: Vec<Vec<Place>> = match citations {
            Some(_) => (0..model.providers.len())
                .map(|p| places_of(model, config, shared, excluded, p))
                .collect(),
            None => Vec::new(),
        };
        let parents = parents_of(
            &places,
            citations.unwrap_or_default().iter().map(|c| &*c.path),
        );
        let mut coverage = Coverage {
            reports: vec![BTreeSet::new(); providers.len()],
            places,
            parents,
            shared: Some(shared.clone()),
            providers,
            known: citations.is_some(),
            results: results.is_some(),
            ..Coverage::default()
        };
        if rules.rules.is_empty() {
            return coverage;
        }
        let citations = citations.unwrap_or_default();
        let (owners, for_every) = coverage.placed(citations);
        let cells_of = Cells {
            model,
            citations,
            owners: &owners,
            shared: &for_every,
            results,
        };
        coverage.cells = rules
            .rules
            .iter()
            .map(|rule| coverage.row_of(&cells_of, rule))
            .collect();
        coverage.pending = sections(model, &mut names, |p| p.spec);
        coverage.pending_cells = rules
            .rules
            .iter()
            .map(|rule| {
                let pending = coverage.pending.iter();
                pending.map(|&p| cells_of.status(rule, p, true).0).collect()
            })
            .collect();
        if let Some(with) = results {
            coverage.unmatched = unmatched_of(&coverage.cells, with);
        }
        coverage
    }

    /// Per citation, the providers whose places hold its file, and whether it counts for
    /// every built provider (no provider holds it, and it stands beside no provider's folder).
    fn placed(&self, citations: &[CodeCitation]) -> (Vec<Vec<usize>>, Vec<bool>) {
        let owners: Vec<Vec<usize>> = citations
            .iter()
            .map(|c| owners(&self.places, &c.path))
            .collect();
        let for_every = citations
            .iter()
            .zip(&owners)
            .map(|(c, owner)| owner.is_empty() && self.beside_providers(&c.path).is_none())
            .collect();
        (owners, for_every)
    }

    /// The cells of `rule` for the built providers, with the reports and the citations for
    /// all that decided them.
    fn row_of(&mut self, cells_of: &Cells<'_>, rule: &Rule) -> Vec<Status> {
        let mut row = Vec::with_capacity(self.providers.len());
        for (column, &p) in self.providers.iter().enumerate() {
            let (status, tested) = cells_of.status(rule, p, false);
            if let Some(tested) = tested {
                self.reports[column].extend(tested.reports);
                self.for_all.extend(tested.for_all);
            }
            row.push(status);
        }
        row
    }

    /// The providers (indexes into the model's) whose code the file at `path` is: none for
    /// shared code.
    pub(crate) fn owners(&self, path: &str) -> Vec<usize> {
        owners(&self.places, path)
    }

    /// The folder beside providers' folders that holds `path` when no provider's place does
    /// and the shared layer does not (`internal/provider/ovh` beside `internal/provider/kvm`):
    /// an unnamed provider's code, whose citations count for none.
    pub(crate) fn unplaced<'p>(&self, path: &'p str) -> Option<&'p str> {
        // The short list of folders first: a file's owners are sought in every provider's
        // places.
        let folder = self.beside_providers(path)?;
        self.owners(path).is_empty().then_some(folder)
    }

    /// Whether the citations in the file at `path` count for every built provider: no
    /// provider's place holds it, and it stands beside no provider's folder (or in the shared
    /// layer).
    pub(crate) fn for_every_built(&self, path: &str) -> bool {
        self.owners(path).is_empty() && self.beside_providers(path).is_none()
    }

    /// The folder beside providers' folders that holds `path`, outside the shared layer,
    /// whoever's places hold it.
    fn beside_providers<'p>(&self, path: &'p str) -> Option<&'p str> {
        let shared = self
            .shared
            .as_ref()
            .is_some_and(|roots| roots.contains(path));
        if shared {
            return None;
        }
        beside(&self.parents, path)
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
            Status::Passed(..) => Kind::Passed,
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

/// The providers whose sections `keep` keeps, one per name (the first section of a name),
/// in document order; `names` holds the names already taken.
fn sections<'m>(
    model: &'m Model,
    names: &mut HashSet<&'m str>,
    keep: impl Fn(&crate::model::Provider) -> bool,
) -> Vec<usize> {
    let providers = model.providers.iter().enumerate();
    providers
        .filter(|(_, p)| keep(p) && names.insert(p.name.as_str()))
        .map(|(i, _)| i)
        .collect()
}

/// Whether `citation` cites `rule` at its version or a later one.
fn cites(citation: &CodeCitation, rule: &Rule) -> bool {
    citation
        .cited
        .as_ref()
        .is_ok_and(|v| v.id == rule.id && v.version == rule.version)
}
