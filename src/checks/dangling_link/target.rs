//! Where a link of a chapter leads: another site, a chapter (or a page that is not one) with
//! its fragment, a file of `src`, or a file outside the book. Resolved on strings, once per
//! link and folder; `dangling-link`, `readme-link` and `dangling-definition` ask it. A new kind
//! of destination is a [`Target`] variant and its arm in [`resolve`].

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::checks::Context;
use crate::util::paths;

/// Where a link leads.
pub(in crate::checks) enum Target<'d> {
    /// Another site, or mail.
    External,
    /// A chapter (or a page that is not one), perhaps with a fragment.
    Page {
        chapter: Option<usize>,
        path: String,
        fragment: Option<Cow<'d, str>>,
    },
    /// A file inside `src` that is not a page.
    File { path: String },
    /// A file outside the book's `src`, at this path on disk.
    Outside { path: PathBuf },
}

/// A folder where a link leads where it says, and whether a file on disk decided it.
pub(super) type Fine = (usize, bool);

/// The chapters by the paths a link can name them with: the source path (`key`) and the path
/// mdBook renders them at. Built once per check, so resolving a link is a hash lookup.
pub(in crate::checks) struct Pages {
    by_path: HashMap<String, usize>,
    /// Each chapter's folder, the base of its relative links.
    folders: Vec<String>,
    /// Each chapter's folder as a number, the same for chapters in the same folder.
    pub(super) folder_numbers: Vec<usize>,
    /// The links known to lead where they say, with the folders they were written in and
    /// whether a file on disk decided it: a link's target depends only on its folder, and books
    /// repeat links across chapters (the Rust Reference's mdbook-spec appends the same
    /// thousands of rule link definitions to every chapter), so each is resolved once per
    /// folder.
    pub(super) fine: RefCell<HashMap<Box<str>, Vec<Fine>>>,
    /// Whether a file on disk decided a link since this was last set to `false`: then what
    /// was found holds only as long as the files do.
    pub(in crate::checks) disk_read: Cell<bool>,
}

impl Pages {
    pub(in crate::checks) fn new(cx: &Context<'_>) -> Pages {
        let mut by_path = HashMap::with_capacity(cx.chapters.len() * 2);
        // The first chapter either path names wins, as a scan in book order would find.
        for (number, chapter) in cx.chapters.iter().enumerate() {
            by_path.entry(chapter.key.clone()).or_insert(number);
            if let Some(path) = chapter.path {
                by_path
                    .entry(paths::components(path).join("/"))
                    .or_insert(number);
            }
        }
        let folders = cx
            .chapters
            .iter()
            .map(|chapter| {
                chapter
                    .link_path()
                    .parent()
                    .map(|folder| folder.to_string_lossy().into_owned())
                    .unwrap_or_default()
            })
            .collect::<Vec<String>>();
        let mut numbers: HashMap<&str, usize> = HashMap::new();
        let folder_numbers = folders
            .iter()
            .map(|folder| {
                let next = numbers.len();
                *numbers.entry(folder.as_str()).or_insert(next)
            })
            .collect();
        Pages {
            by_path,
            folders,
            folder_numbers,
            fine: RefCell::default(),
            disk_read: Cell::new(false),
        }
    }

    /// The fragments (decoded) of the links found leading where they say.
    pub(in crate::checks) fn fine_fragments(&self) -> Vec<Box<str>> {
        self.fine
            .borrow()
            .keys()
            .filter_map(|dest| dest.split_once('#'))
            .map(|(_, fragment)| paths::percent_decode(fragment).into())
            .collect()
    }

    pub(super) fn lookup(&self, key: &str) -> Option<usize> {
        self.by_path.get(key).copied()
    }
}

/// Where the link `dest` in chapter `from` leads. Runs once per link of the book: the path is
/// normalised on strings, with no `Path` or per-component allocation.
pub(in crate::checks) fn resolve<'d>(
    cx: &Context<'_>,
    pages: &Pages,
    from: usize,
    dest: &'d str,
) -> Target<'d> {
    if paths::is_external(dest) {
        return Target::External;
    }
    let (path, fragment) = split_link(dest);
    let chapter = &cx.chapters[from];
    if path.is_empty() {
        return Target::Page {
            chapter: Some(from),
            path: chapter.key.clone(),
            fragment,
        };
    }
    let decoded = paths::percent_decode(path);
    // A leading `/` is the root of `src`; anything else starts in the chapter's folder.
    let (folder, relative) = match decoded.strip_prefix('/') {
        Some(rest) => ("", rest),
        None => (pages.folders[from].as_str(), &*decoded),
    };
    let Some(normal) = normalise(folder, relative) else {
        let on_disk = chapter.source_path.map_or_else(
            || cx.files.src_dir(),
            |p| {
                cx.files
                    .src_dir()
                    .join(p)
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_default()
            },
        );
        return Target::Outside {
            path: on_disk.join(&*decoded),
        };
    };
    if normal.ends_with(".md") {
        return Target::Page {
            chapter: pages.lookup(&normal),
            path: normal,
            fragment,
        };
    }
    if let Some(stem) = normal.strip_suffix(".html") {
        let chapter = pages.lookup(&format!("{stem}.md"));
        return Target::Page {
            chapter,
            path: normal,
            fragment,
        };
    }
    Target::File { path: normal }
}

/// A link's path (without its query) and its fragment, percent-decoded.
pub(super) fn split_link(dest: &str) -> (&str, Option<std::borrow::Cow<'_, str>>) {
    let (path, fragment) = match dest.split_once('#') {
        Some((path, fragment)) => (path, Some(paths::percent_decode(fragment))),
        None => (dest, None),
    };
    (path.split('?').next().unwrap_or(""), fragment)
}

/// `relative` (split at `/`) taken from `folder` (a path of this system), with `.` and `..`
/// worked out and `/` between the parts: `None` when a `..` climbs above the starting folder
/// at any point, as `a/../../b` does.
fn normalise(folder: &str, relative: &str) -> Option<String> {
    let mut normal = String::with_capacity(folder.len() + relative.len());
    let parts = folder
        .split(std::path::is_separator)
        .chain(relative.split('/'));
    for part in parts {
        match part {
            "" | "." => {}
            ".." => {
                if normal.is_empty() {
                    return None;
                }
                let cut = normal.rfind('/').unwrap_or(0);
                normal.truncate(cut);
            }
            part => {
                if !normal.is_empty() {
                    normal.push('/');
                }
                normal.push_str(part);
            }
        }
    }
    Some(normal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised_from_the_chapter_folder() {
        assert_eq!(normalise("", "a.md").as_deref(), Some("a.md"));
        assert_eq!(normalise("p", "a.md").as_deref(), Some("p/a.md"));
        assert_eq!(normalise("p/q", "../a.md").as_deref(), Some("p/a.md"));
        assert_eq!(
            normalise("p", "./x//y/./z.md").as_deref(),
            Some("p/x/y/z.md")
        );
        assert_eq!(normalise("p", "../a.md").as_deref(), Some("a.md"));
        assert_eq!(normalise("", "/a.md").as_deref(), Some("a.md"));
        assert_eq!(
            normalise("p/q/r", "../../s/../t.md").as_deref(),
            Some("p/t.md")
        );
    }

    #[test]
    fn climbing_above_the_start_at_any_point_escapes() {
        assert_eq!(normalise("", "../a.md"), None);
        assert_eq!(normalise("p", "../../a.md"), None);
        // Back inside by the end, but above the start on the way.
        assert_eq!(normalise("", "../p/a.md"), None);
        assert_eq!(normalise("p", "../../p/a.md"), None);
    }
}
