//! The places of the source tree that hold each provider's code: the folders its claims cite
//! as evidence (outside the shared layer), the folders, files and globs `provider-paths` gives
//! it, and every folder named after it; the most specific place wins. To add a kind of place,
//! a variant of [`Place`] and how specifically it holds a path ([`Place::holds`]).

use std::collections::HashSet;

use crate::model::Model;
use crate::read::citation::{Citation, classify};
use crate::read::code::{Roots, is_glob};
use crate::read::config::Config;

/// A place of the source tree that holds a provider's code.
#[derive(Debug, Clone)]
pub(super) enum Place {
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
/// The providers (indexes of `places`) whose place holds `path` most specifically: all of them
/// when several name the same place; none for a file no provider holds.
pub(super) fn owners(places: &[Vec<Place>], path: &str) -> Vec<usize> {
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
/// The folders that hold a folder named after a provider of the book (`internal/provider`
/// of `internal/provider/kvm/`), found in `paths`: a folder beside those is another
/// provider's, one the book does not name, rather than a suite shared by all. A folder at the
/// root is never one (`tests/` beside `kvm/` is as likely shared).
pub(super) fn parents_of<'p>(
    places: &[Vec<Place>],
    paths: impl Iterator<Item = &'p str>,
) -> Vec<String> {
    let names: Vec<&str> = places
        .iter()
        .flatten()
        .filter_map(|place| match place {
            Place::Named(name) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let mut parents: Vec<String> = Vec::new();
    for path in paths {
        let Some((folders, _file)) = path.rsplit_once('/') else {
            continue;
        };
        let mut end = 0;
        for part in folders.split('/') {
            if end > 0 && names.contains(&part) {
                let parent = &folders[..end - 1];
                if !parents.iter().any(|p| p == parent) {
                    parents.push(parent.to_owned());
                }
            }
            end += part.len() + 1;
        }
    }
    parents.sort();
    parents
}

/// The folder beside providers' folders that holds `path` (`internal/provider/ovh` beside
/// `internal/provider/kvm`), when one does: the deepest, for a file no provider holds.
pub(super) fn beside<'p>(parents: &[String], path: &'p str) -> Option<&'p str> {
    parents
        .iter()
        .filter_map(|parent| {
            let rest = path.strip_prefix(parent.as_str())?.strip_prefix('/')?;
            let (folder, _) = rest.split_once('/')?;
            Some(&path[..parent.len() + 1 + folder.len()])
        })
        .max_by_key(|folder| folder.len())
}

/// The places of provider `p`, built or not: the folder of each path its claims cite as
/// evidence (a file's folder, a glob's fixed part), outside the shared layer, its
/// `provider-paths` as written (folders, files and globs), and every folder named after it.
pub(super) fn places_of(
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

    #[test]
    fn a_folder_beside_providers_folders_is_another_providers() {
        let named = |n: &str| vec![Place::Named(n.to_owned())];
        let places = vec![named("kvm"), named("gcp")];
        let paths = [
            "internal/provider/kvm/kvm_test.go",
            "kvm/top.go",
            "test/conformance/put_test.go",
        ];
        let parents = parents_of(&places, paths.into_iter());
        assert_eq!(parents, ["internal/provider"]);
        assert_eq!(
            beside(&parents, "internal/provider/ovh/ovh_test.go"),
            Some("internal/provider/ovh")
        );
        // A file in the parent itself, or outside it, is no other provider's.
        assert_eq!(beside(&parents, "internal/provider/provider_test.go"), None);
        assert_eq!(beside(&parents, "test/conformance/put_test.go"), None);
        assert_eq!(beside(&parents, "internal/providerx/a/b.go"), None);
    }
}
