//! The shared-layer roots, and globs of repository paths as every key of book.toml that names
//! them reads them (`*` stops at `/`, `{a,b}` names both).

use anyhow::{Context as _, Result};
use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

/// The shared-layer roots: folders (a path and everything under it) or globs.
#[derive(Debug, Clone)]
pub(crate) struct Roots {
    prefixes: Vec<String>,
    globs: GlobSet,
    /// The folder part of each glob (`lib` of `lib/*.py`, `a/*` of `a/*/x.rs`), whatever the
    /// language of the files it matches.
    folders: GlobSet,
    empty: bool,
}

/// Whether `pattern` is a glob (it has `*`, `?`, `[..]` or `{a,b}`), not a plain path.
pub(crate) fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?', '[', '{'])
}

impl Roots {
    /// Reads roots such as `internal/provider`, `cmd/main.go` or `internal/provider/*.go`.
    pub(crate) fn new(roots: &[String]) -> Result<Roots> {
        let mut prefixes = Vec::new();
        let mut globs = GlobSetBuilder::new();
        let mut folders = GlobSetBuilder::new();
        for root in roots {
            let root = root.trim_start_matches("./").trim_end_matches('/');
            if is_glob(root) {
                let not_a_glob = || format!("`shared-layer` holds `{root}`, which is not a glob");
                globs.add(glob(root).with_context(not_a_glob)?);
                if let Some((folder, _)) = root.rsplit_once('/') {
                    folders.add(glob(folder).with_context(not_a_glob)?);
                }
            } else {
                prefixes.push(root.to_owned());
            }
        }
        Ok(Roots {
            prefixes,
            globs: globs.build()?,
            folders: folders.build()?,
            empty: roots.is_empty(),
        })
    }

    /// Whether no root is configured.
    pub(crate) fn is_empty(&self) -> bool {
        self.empty
    }

    /// Whether the repository path `path` lies under one of the roots.
    pub(crate) fn contains(&self, path: &str) -> bool {
        let path = path.trim_start_matches("./").trim_end_matches('/');
        self.prefixes.iter().any(|p| {
            path == p
                || path
                    .strip_prefix(p.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        }) || self.globs.is_match(path)
            || self.prefix_of_glob(path)
    }

    /// A folder that holds files a glob root matches (`internal/provider` for
    /// `internal/provider/*.go`, `lib` for `lib/*.py`) counts as under the roots too.
    fn prefix_of_glob(&self, path: &str) -> bool {
        !path.is_empty() && self.folders.is_match(path) && !path.contains(['*', '{'])
    }
}

pub(crate) fn glob(pattern: &str) -> Result<Glob> {
    Ok(GlobBuilder::new(pattern).literal_separator(true).build()?)
}

/// `a/{b,c}/{d,e}` as its four alternatives; a pattern without braces as itself.
pub(crate) fn expand_braces(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_owned()];
    };
    let Some(close) = pattern[open..].find('}').map(|i| open + i) else {
        return vec![pattern.to_owned()];
    };
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    pattern[open + 1..close]
        .split(',')
        .flat_map(|choice| expand_braces(&format!("{head}{choice}{tail}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_match_folders_files_and_globs() {
        let roots = Roots::new(&["internal/provider/*.go".into(), "internal/gc".into()]).unwrap();
        assert!(roots.contains("internal/provider/provider.go"));
        assert!(roots.contains("internal/provider"));
        assert!(!roots.contains("internal/provider/kvm/kvm.go"));
        assert!(roots.contains("internal/gc/gc.go"));
        assert!(!roots.contains("internal/gcx"));
        let python = Roots::new(&["lib/*.py".into()]).unwrap();
        assert!(python.contains("lib") && python.contains("lib/a.py"));
        assert!(!python.contains("lib/a.go") && !python.contains("libs"));
    }
}
