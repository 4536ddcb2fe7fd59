//! Coverage: for each built provider and each rule, whether its code and tests cite it.
//!
//! A citation counts for the provider whose places hold its file: the folders its claims cite
//! as evidence (a cited file's folder), outside the shared layer, and the folders, files and
//! globs `provider-paths` gives it; the most specific place wins (a file over a glob over a
//! folder, a deeper folder over its parent). A citation in a file no provider holds
//! (a shared conformance suite, the shared layer) counts for every built provider. A spec or a
//! proposed section is not counted until it is built. A citation of an older version than the
//! rule's counts for nothing (`stale-rule` says so).

use std::collections::HashSet;

use super::code::{CodeCitation, Verb};
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
    /// case of the results is its test).
    NotRun(usize),
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
}

/// The coverage of every rule for every built provider.
#[derive(Debug, Default)]
pub(crate) struct Coverage {
    /// The built providers, as indexes into the model's providers, one per name, in document
    /// order.
    pub providers: Vec<usize>,
    /// Per rule (as [`Rules::rules`]), the status for each of [`Coverage::providers`].
    pub cells: Vec<Vec<Status>>,
    /// Whether the source tree was read: without it every bound rule is `Uncovered` and
    /// nothing is known.
    pub known: bool,
    /// Whether test results were read: with them, verified means passed.
    pub results: bool,
    /// The places of each provider of the model (built or not), in its order: which
    /// provider's code a file is.
    places: Vec<Vec<Place>>,
}

/// A place of the source tree that holds a provider's code.
#[derive(Debug, Clone)]
enum Place {
    /// A path: the file itself, or a folder and everything under it.
    Path(String),
    /// A glob of `provider-paths`, with its fixed leading part's length (its depth).
    Glob(globset::GlobMatcher, usize),
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
        }
    }
}

/// The test results and what finds their cases, with the source tree's root.
pub(crate) struct WithResults<'r> {
    pub results: &'r crate::read::results::Results,
    pub matcher: &'r crate::read::results::matching::Matcher<'r>,
    pub source_root: &'r std::path::Path,
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
        // counts for nobody until it is built, not for everyone.
        let places: Vec<Vec<Place>> = (0..model.providers.len())
            .map(|p| places_of(model, config, shared, excluded, p))
            .collect();
        if rules.rules.is_empty() {
            return Coverage {
                providers,
                cells: Vec::new(),
                known: citations.is_some(),
                results: results.is_some(),
                places,
            };
        }
        let known = citations.is_some();
        let citations = citations.unwrap_or_default();
        let owners: Vec<Vec<usize>> = citations.iter().map(|c| owners(&places, &c.path)).collect();
        let cells = rules
            .rules
            .iter()
            .map(|rule| {
                providers
                    .iter()
                    .map(|&p| {
                        // Whom an unreadable `applies=` binds is unknown: counted for nobody.
                        if rule.applies_unread {
                            return Status::Undecided;
                        }
                        if let Some((axis, _)) = &rule.applies
                            && !rule.binds(model, p)
                        {
                            let stated = model.claims_of(p, axis).any(|c| !c.is_unknown());
                            return if stated {
                                Status::NotBound
                            } else {
                                Status::Undecided
                            };
                        }
                        if !rule.obliges() {
                            return Status::Optional;
                        }
                        let counting = |verb: Verb| {
                            citations
                                .iter()
                                .zip(&owners)
                                .enumerate()
                                .filter(move |(_, (c, owner))| {
                                    c.verb == verb
                                        && cites(c, rule)
                                        && (owner.is_empty() || owner.contains(&p))
                                })
                                .map(|(i, _)| i)
                        };
                        let verify: Vec<usize> = counting(Verb::Verify).collect();
                        match (verify.first(), counting(Verb::Impl).next()) {
                            (Some(&i), _) => match results {
                                Some(with) => tested(with, citations, &verify, model, p),
                                None => Status::Verified(i),
                            },
                            (None, Some(i)) => Status::Implemented(i),
                            (None, None) => Status::Uncovered,
                        }
                    })
                    .collect()
            })
            .collect();
        Coverage {
            providers,
            cells,
            known,
            results: results.is_some(),
            places,
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
        let mut verified = 0;
        let mut bound = 0;
        for row in &self.cells {
            match row[column] {
                Status::Verified(_) => {
                    verified += 1;
                    bound += 1;
                }
                Status::Implemented(_)
                | Status::Uncovered
                | Status::Failed(..)
                | Status::Skipped(..)
                | Status::NotRun(_) => bound += 1,
                Status::NotBound | Status::Undecided | Status::Optional => {}
            }
        }
        (verified, bound)
    }
}

impl Coverage {
    /// How many of the rules that bind the provider in column `column` are left as `status`
    /// says (compared by kind, not by citation).
    pub(crate) fn count(&self, column: usize, kind: fn(&Status) -> bool) -> usize {
        self.cells.iter().filter(|row| kind(&row[column])).count()
    }

    /// How many of the rules that bind the provider in column `column` only an `impl` cites.
    pub(crate) fn implemented_only(&self, column: usize) -> usize {
        self.cells
            .iter()
            .filter(|row| matches!(row[column], Status::Implemented(_)))
            .count()
    }
}

/// Where the tests `verify` (citations counting for provider `p`) leave a rule, by their
/// results: a case naming `p` (a subtest, a parameter) is `p`'s alone; else the cases naming
/// no built provider are the test's own. Failed before skipped before not run; passed only
/// when every one passed.
fn tested(
    with: &WithResults<'_>,
    citations: &[CodeCitation],
    verify: &[usize],
    model: &Model,
    p: usize,
) -> Status {
    use crate::read::results::Outcome;
    let name = model.providers[p].name.as_str();
    let mut worst: Option<Status> = None;
    let rank = |status: &Status| match status {
        Status::Failed(..) => 3,
        Status::Skipped(..) => 2,
        Status::NotRun(_) => 1,
        _ => 0,
    };
    for &c in verify {
        let citation = &citations[c];
        let cases = citation.test.as_ref().map_or_else(Vec::new, |test| {
            with.matcher
                .cases(with.source_root, &citation.path, &test.name)
        });
        let of_provider: Vec<usize> = cases
            .iter()
            .copied()
            .filter(|&i| with.matcher.provider_of(i) == Some(name))
            .collect();
        let own: Vec<usize> = if of_provider.is_empty() {
            cases
                .iter()
                .copied()
                .filter(|&i| with.matcher.provider_of(i).is_none())
                .collect()
        } else {
            of_provider
        };
        let status = if own.is_empty() {
            Status::NotRun(c)
        } else {
            let worst_case = own
                .iter()
                .copied()
                .max_by_key(|&i| with.results.cases[i].outcome)
                .expect("not empty");
            match with.results.cases[worst_case].outcome {
                Outcome::Failed => Status::Failed(c, worst_case),
                Outcome::Skipped => Status::Skipped(c, worst_case),
                Outcome::Passed => Status::Verified(c),
            }
        };
        if worst.as_ref().is_none_or(|w| rank(&status) > rank(w)) {
            worst = Some(status);
        }
    }
    worst.unwrap_or(Status::Uncovered)
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

/// The places of provider `p`: the folder of each path its claims cite as evidence (a file's
/// folder, a glob's fixed part), outside the shared layer, and its `provider-paths` as written
/// (folders, files and globs).
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
