//! Where a book's files may be read from and written to: its repository's work tree (the
//! nearest folder at or above the book that holds `.git`), or, outside a repository, the
//! book's own folder.
//!
//! A book can come from anyone. Its book.toml may name `companions = ["../secret.env"]`, a
//! `test-results` glob under `/var`, or a chapter that is a symlink to `~/.ssh/config`; a
//! command that writes (`new-spec`, `install`, `init`, `diff`'s checkout) may meet a symlink
//! that leads elsewhere. [`Confinement::holds`] says whether a path, its symlinks followed,
//! stays inside; a read outside is a finding that names the key (and never prints the file),
//! a write outside is refused before anything is written.
//!
//! What the user names on the command line is theirs ([`given_on_command_line`]): a report or
//! a baseline given with `--test-results` or `--baseline` is read wherever it is.
//!
//! *Invariant*: a path is judged after every symlink on it is followed, a dangling one
//! included (its target is where a write would land).

use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// What the user named on the command line (`--test-results`, `--baseline`), resolved: theirs
/// to read wherever it is, since no book wrote it.
static GIVEN: OnceLock<Vec<PathBuf>> = OnceLock::new();

/// Records the files and folders the user named on the command line; only the first call
/// counts (the binary makes it once, before any book is read).
pub fn given_on_command_line(paths: &[PathBuf]) {
    // A glob's folder: the components before its first wildcard.
    let fixed = |p: &PathBuf| -> PathBuf {
        p.components()
            .take_while(|c| {
                !c.as_os_str()
                    .to_string_lossy()
                    .contains(['*', '?', '[', '{'])
            })
            .collect()
    };
    let resolved = paths.iter().filter_map(|p| resolve(&fixed(p))).collect();
    let _ = GIVEN.set(resolved);
}

/// The folder that a book's reads and writes stay in.
#[derive(Debug, Clone)]
pub(crate) struct Confinement {
    /// As given (to show).
    shown: PathBuf,
    /// With every symlink resolved (to compare).
    resolved: PathBuf,
}

impl Confinement {
    /// The repository that holds the book at `book_root`, or its folder outside any.
    pub(crate) fn of_book(book_root: &Path) -> Confinement {
        let absolute = std::path::absolute(book_root).unwrap_or_else(|_| book_root.to_path_buf());
        let top = absolute
            .ancestors()
            .find(|folder| folder.join(".git").exists())
            .unwrap_or(&absolute)
            .to_path_buf();
        Confinement::at(&top)
    }

    /// Exactly the folder `folder`.
    pub(crate) fn at(folder: &Path) -> Confinement {
        let resolved = resolve(folder).unwrap_or_else(|| folder.to_path_buf());
        Confinement {
            shown: folder.to_path_buf(),
            resolved,
        }
    }

    /// The folder, as found.
    pub(crate) fn root(&self) -> &Path {
        &self.shown
    }

    /// Refuses, naming the first, any of `targets` that a write would put outside (through a
    /// symlink, a dangling one included): checked before the first file is written, so a
    /// refusal changes nothing.
    pub(crate) fn check_writes<'p>(
        &self,
        targets: impl IntoIterator<Item = &'p Path>,
    ) -> anyhow::Result<()> {
        for target in targets {
            if !self.holds(target) {
                let leads = resolve(target).map_or_else(
                    || "a loop of symlinks".to_owned(),
                    |p| format!("`{}`", p.display()),
                );
                anyhow::bail!(
                    "`{}` leads to {leads}, outside `{}` (the book's repository, or its folder outside one): nothing is written through a symlink that leads out",
                    target.display(),
                    self.shown.display()
                );
            }
        }
        Ok(())
    }

    /// Whether `path` (its symlinks followed, a dangling one to its target) is inside.
    pub(crate) fn holds(&self, path: &Path) -> bool {
        resolve(path).is_some_and(|p| {
            p.starts_with(&self.resolved)
                || GIVEN.get().into_iter().flatten().any(|g| p.starts_with(g))
        })
    }
}

/// Where `path` leads: every symlink on it followed (a dangling one to where its target
/// would be), `.` and `..` taken lexically after that; `None` past 40 links (a loop).
pub(crate) fn resolve(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    let mut out = PathBuf::new();
    let mut pending: Vec<std::ffi::OsString> = Vec::new();
    // The components still to walk, last first.
    for component in absolute.components().rev() {
        pending.push(component.as_os_str().to_owned());
    }
    let mut links = 0;
    while let Some(part) = pending.pop() {
        match Path::new(&part).components().next() {
            Some(Component::Prefix(_) | Component::RootDir) => out.push(&part),
            Some(Component::CurDir) | None => {}
            Some(Component::ParentDir) => {
                out.pop();
            }
            Some(Component::Normal(name)) => {
                let next = out.join(name);
                match std::fs::symlink_metadata(&next) {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        links += 1;
                        if links > 40 {
                            return None;
                        }
                        let target = std::fs::read_link(&next).ok()?;
                        if target.is_absolute() {
                            out = PathBuf::new();
                        }
                        for component in target.components().rev() {
                            pending.push(component.as_os_str().to_owned());
                        }
                    }
                    _ => out = next,
                }
            }
        }
    }
    Some(out)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn symlinks_are_followed_dangling_ones_too() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("book/src")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        let confined = Confinement::of_book(&root.join("book"));
        assert_eq!(confined.root(), root);
        assert!(confined.holds(&root.join("book/src/a.md")));
        assert!(confined.holds(&root.join("book/../README.md")));
        assert!(!confined.holds(&root.join("../secret.env")));
        assert!(!confined.holds(Path::new("/etc/hostname")));
        std::os::unix::fs::symlink(&outside, root.join("book/code")).unwrap();
        assert!(!confined.holds(&root.join("book/code/x.py")));
        std::os::unix::fs::symlink(outside.join("nothing.md"), root.join("book/src/new.md"))
            .unwrap();
        assert!(!confined.holds(&root.join("book/src/new.md")));
        std::os::unix::fs::symlink("a.md", root.join("book/src/b.md")).unwrap();
        assert!(confined.holds(&root.join("book/src/b.md")));
        std::os::unix::fs::symlink("loop", root.join("loop")).unwrap();
        assert!(!confined.holds(&root.join("loop")));
        // Outside a repository, the book's folder.
        let alone = Confinement::of_book(&outside);
        assert!(alone.holds(&outside.join("x")));
        assert!(!alone.holds(&root));
    }
}
