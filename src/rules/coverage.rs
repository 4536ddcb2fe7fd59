//! Coverage: for each built provider and each rule, whether its code and tests cite it.
//!
//! A citation counts for the provider whose folders hold its file: the folders its claims cite
//! as evidence (a cited file's folder), outside the shared layer, and those
//! `provider-paths` gives it; the deepest folder wins. A citation in a file no provider holds
//! (a shared conformance suite, the shared layer) counts for every built provider. A spec or a
//! proposed section is not counted until it is built. A citation of an older version than the
//! rule's counts for nothing (`stale-rule` says so).

use std::collections::HashSet;

use super::code::{CodeCitation, Verb};
use super::{Rule, Rules};
use crate::citation::{Citation, classify};
use crate::config::Config;
use crate::model::Model;
use crate::source_tree::{Roots, is_glob};

/// Where a rule stands for one provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// A `verify` counts for it: the first such citation (an index into the source index's
    /// citations).
    Verified(usize),
    /// Only an `impl` counts for it: the first one.
    Implemented(usize),
    /// It binds the provider and nothing cites it.
    Uncovered,
    /// `applies=` names a profile the provider does not claim.
    NotBound,
    /// `applies=` names a profile of an axis whose profile the provider has not stated yet
    /// (`unknown`, or no claim): whether the rule binds it is not known.
    Undecided,
    /// A MAY, or a rule with no RFC 2119 keyword, that binds the provider: it permits and
    /// obliges nothing, so there is nothing to verify and it is not counted.
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
    ) -> Coverage {
        let mut names = HashSet::new();
        let providers: Vec<usize> = model
            .providers
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.proposed && !p.spec && names.insert(p.name.as_str()))
            .map(|(i, _)| i)
            .collect();
        // Every section's folders, built or not: a citation in a proposed provider's folder
        // counts for nobody until it is built, not for everyone.
        let folders: Vec<Vec<String>> = (0..model.providers.len())
            .map(|p| folders_of(model, config, shared, excluded, p))
            .collect();
        let known = citations.is_some();
        let citations = citations.unwrap_or_default();
        let owners: Vec<Vec<usize>> = citations
            .iter()
            .map(|c| owners(&folders, &c.path))
            .collect();
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
                        let counts = |verb: Verb| {
                            citations.iter().zip(&owners).position(|(c, owner)| {
                                c.verb == verb
                                    && cites(c, rule)
                                    && (owner.is_empty() || owner.contains(&p))
                            })
                        };
                        match (counts(Verb::Verify), counts(Verb::Impl)) {
                            (Some(i), _) => Status::Verified(i),
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
        }
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
                Status::Implemented(_) | Status::Uncovered => bound += 1,
                Status::NotBound | Status::Undecided | Status::Optional => {}
            }
        }
        (verified, bound)
    }
}

impl Coverage {
    /// How many of the rules that bind the provider in column `column` only an `impl` cites.
    pub(crate) fn implemented_only(&self, column: usize) -> usize {
        self.cells
            .iter()
            .filter(|row| matches!(row[column], Status::Implemented(_)))
            .count()
    }
}

/// Whether `citation` cites `rule` at its version or a later one.
fn cites(citation: &CodeCitation, rule: &Rule) -> bool {
    citation
        .cited
        .as_ref()
        .is_ok_and(|v| v.id == rule.id && v.version == rule.version)
}

/// The providers (indexes of `folders`) whose folder holds `path` most deeply: all of them
/// when several cite the same folder; none for a file no provider holds.
fn owners(folders: &[Vec<String>], path: &str) -> Vec<usize> {
    let holding: Vec<(usize, usize)> = folders
        .iter()
        .enumerate()
        .flat_map(|(p, list)| list.iter().map(move |f| (p, f)))
        .filter(|(_, folder)| {
            path.strip_prefix(folder.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
        })
        .map(|(p, folder)| (p, folder.len()))
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

/// The folders of provider `p`: each path its claims cite as evidence (a file's folder, a
/// glob's fixed part), outside the shared layer, and its `provider-paths`.
fn folders_of(
    model: &Model,
    config: &Config,
    shared: &Roots,
    excluded: &HashSet<String>,
    p: usize,
) -> Vec<String> {
    let name = &model.providers[p].name;
    let is_excluded = |w: &str| excluded.contains(w);
    let mut folders: Vec<String> = config.provider_paths.get(name).cloned().unwrap_or_default();
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
    folders
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
        let folders = vec![
            vec!["internal/provider".to_owned()],
            vec!["internal/provider/kvm".to_owned()],
        ];
        assert_eq!(owners(&folders, "internal/provider/kvm/kvm_test.go"), [1]);
        assert_eq!(owners(&folders, "internal/provider/gcp/x.go"), [0]);
        assert!(owners(&folders, "test/conformance/x_test.go").is_empty());
        assert!(owners(&folders, "internal/providerx/a.go").is_empty());
        // Two providers citing one folder both own it.
        let tied = vec![
            vec!["pkg/cloudinit".to_owned()],
            vec!["pkg/cloudinit".to_owned()],
        ];
        assert_eq!(owners(&tied, "pkg/cloudinit/c_test.go"), [0, 1]);
    }
}
