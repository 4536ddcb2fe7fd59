//! `dangling-link`: a link to a `.md` or `.html` file that is not a chapter, or to a `#fragment`
//! that the target page will not have; with `source-root` set, also a link that leaves the book
//! to a file that does not exist.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::{Context, Draft, Place};
use crate::read::companion::Companion;
use crate::read::markdown::{ChapterIndex, MarkdownOptions};
use crate::util::paths;
use crate::util::suggest;
use crate::util::vocab::Check;

/// Where a link leads.
pub(super) enum Target<'d> {
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
type Fine = (usize, bool);

/// Pages mdBook writes itself.
const GENERATED_PAGES: &[&str] = &[
    "print.html",
    "toc.html",
    "404.html",
    "index.html",
    "searchindex.json",
];

/// The chapters by the paths a link can name them with: the source path (`key`) and the path
/// mdBook renders them at. Built once per check, so resolving a link is a hash lookup.
pub(super) struct Pages {
    by_path: HashMap<String, usize>,
    /// Each chapter's folder, the base of its relative links.
    folders: Vec<String>,
    /// Each chapter's folder as a number, the same for chapters in the same folder.
    folder_numbers: Vec<usize>,
    /// The links known to lead where they say, with the folders they were written in and
    /// whether a file on disk decided it: a link's target depends only on its folder, and books
    /// repeat links across chapters (the Rust Reference's mdbook-spec appends the same
    /// thousands of rule link definitions to every chapter), so each is resolved once per
    /// folder.
    fine: RefCell<HashMap<Box<str>, Vec<Fine>>>,
    /// Whether a file on disk decided a link since this was last set to `false`: then what
    /// was found holds only as long as the files do.
    pub(super) disk_read: Cell<bool>,
}

impl Pages {
    pub(super) fn new(cx: &Context<'_>) -> Pages {
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
    pub(super) fn fine_fragments(&self) -> Vec<Box<str>> {
        self.fine
            .borrow()
            .keys()
            .filter_map(|dest| dest.split_once('#'))
            .map(|(_, fragment)| paths::percent_decode(fragment).into())
            .collect()
    }

    fn lookup(&self, key: &str) -> Option<usize> {
        self.by_path.get(key).copied()
    }
}

/// Where the link `dest` in chapter `from` leads. Runs once per link of the book: the path is
/// normalised on strings, with no `Path` or per-component allocation.
pub(super) fn resolve<'d>(
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
fn split_link(dest: &str) -> (&str, Option<std::borrow::Cow<'_, str>>) {
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

/// The link `dest` for a message, with the path in the book it leads to when that is not what
/// it says (`../a/b.md`, `a%20b.md`).
fn leads_to(dest: &str, path: &str) -> String {
    let written = dest.split(['#', '?']).next().unwrap_or(dest);
    if written.trim_start_matches("./") == path {
        format!("`{dest}`")
    } else {
        format!("`{dest}` (`{path}` in the book)")
    }
}

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let pages = Pages::new(cx);
    for (number, chapter) in cx.each_chapter() {
        for link in &chapter.index.links {
            if let Some((message, help)) = problem(cx, &pages, number, &link.dest) {
                let draft = Draft::new(Check::DanglingLink, number, link.range.clone(), message);
                out.push(match help {
                    Some(help) => draft.help(help),
                    None => draft,
                });
            }
        }
    }
    let mut outside = OutsideAnchors::default();
    for (number, companion) in cx.each_companion() {
        for link in &companion.index.links {
            if let Some((message, help)) =
                from_companion(cx, &pages, companion, &link.dest, &mut outside)
            {
                let draft = Draft::at(
                    Check::DanglingLink,
                    Place::Companion(number),
                    link.range.clone(),
                    message,
                );
                out.push(match help {
                    Some(help) => draft.help(help),
                    None => draft,
                });
            }
        }
    }
}

const ANCHOR_HELP: &str =
    "anchors are the ids mdBook gives headings: lowercase, spaces as `-`, punctuation dropped";

/// The anchors of Markdown files outside the book that companions link to, each read once.
#[derive(Default)]
struct OutsideAnchors {
    files: HashMap<PathBuf, Option<std::collections::HashSet<String>>>,
}

impl OutsideAnchors {
    /// The heading ids of the Markdown file at `path` (`None` when it cannot be read as text).
    fn of(&mut self, path: &Path) -> Option<&std::collections::HashSet<String>> {
        self.files
            .entry(path.to_owned())
            .or_insert_with(|| {
                let text = crate::util::text::read_to_string(path).ok()?;
                Some(ChapterIndex::parse_with(&text, &MarkdownOptions::default(), false).anchors)
            })
            .as_ref()
    }
}

/// A link to `#fragment` of `page`, when `anchors` (its ids) do not hold it.
fn missing_anchor(
    anchors: &std::collections::HashSet<String>,
    page: &str,
    fragment: &str,
) -> Option<(String, Option<&'static str>)> {
    if fragment.is_empty() || fragment == "top" || anchors.contains(fragment) {
        return None;
    }
    let hint = suggest::hint(fragment, anchors.iter().map(String::as_str));
    Some((
        format!("{page} has no anchor `#{fragment}`{hint}"),
        Some(ANCHOR_HELP),
    ))
}

/// What is wrong with the link `dest` of a companion: relative to the companion's folder (a
/// leading `/` to the book root), a target that is a chapter needs its fragment to be an id of
/// that chapter; any other target must exist, and a fragment into another Markdown file must
/// be one of its heading ids.
fn from_companion(
    cx: &Context<'_>,
    pages: &Pages,
    companion: &Companion,
    dest: &str,
    outside: &mut OutsideAnchors,
) -> Option<(String, Option<&'static str>)> {
    if paths::is_external(dest) {
        return None;
    }
    let (path, fragment) = split_link(dest);
    let missing_anchor = |anchors: &std::collections::HashSet<String>, page: String| {
        missing_anchor(anchors, &page, fragment.as_deref()?)
    };
    if path.is_empty() {
        return missing_anchor(&companion.index.anchors, "this file".to_owned());
    }
    let decoded = paths::percent_decode(path);
    let target = paths::lexical(&match decoded.strip_prefix('/') {
        Some(rest) => cx.files.root().join(rest),
        None => companion.folder().join(&*decoded),
    });
    let src = paths::lexical(&cx.files.src_dir());
    if let Ok(in_src) = target.strip_prefix(&src) {
        let key = paths::components(in_src).join("/");
        if let Some(chapter) = pages.lookup(&key) {
            if fragment
                .as_deref()
                .is_some_and(|f| cx.rules.is_anchor_in(chapter, f))
            {
                return None;
            }
            let anchors = &cx.chapters[chapter].index.anchors;
            return missing_anchor(anchors, format!("the chapter `{key}`"));
        }
    }
    let shown = cx.files.display(&target);
    if !target.exists() {
        return Some((
            format!(
                "the link to `{dest}` leads to no file: `{}` does not exist",
                shown.display()
            ),
            None,
        ));
    }
    if fragment.is_none() || target.extension().is_none_or(|e| e != "md") {
        return None;
    }
    let own = cx
        .companions
        .iter()
        .find(|c| paths::lexical(&c.path) == target)
        .map(|c| &c.index.anchors);
    let anchors = match own {
        Some(anchors) => anchors,
        None => outside.of(&target)?,
    };
    missing_anchor(anchors, format!("`{}`", shown.display()))
}

/// What is wrong with the link `dest` of chapter `from`, and what to do about it; `None` when
/// it leads where it says.
pub(super) fn problem(
    cx: &Context<'_>,
    pages: &Pages,
    from: usize,
    dest: &str,
) -> Option<(String, Option<&'static str>)> {
    // A link without a path leads into its own chapter: that one is not shared.
    let shared = !(dest.starts_with(['#', '?']) || dest.is_empty());
    let folder = pages.folder_numbers[from];
    let known = shared
        .then(|| {
            pages
                .fine
                .borrow()
                .get(dest)?
                .iter()
                .find(|(f, _)| *f == folder)
                .map(|&(_, disk)| disk)
        })
        .flatten();
    if let Some(disk) = known {
        pages.disk_read.set(pages.disk_read.get() | disk);
        return None;
    }
    let (found, disk) = resolved_problem(cx, pages, from, dest);
    pages.disk_read.set(pages.disk_read.get() | disk);
    if shared && found.is_none() {
        pages
            .fine
            .borrow_mut()
            .entry(dest.into())
            .or_default()
            .push((folder, disk));
    }
    found
}

/// [`problem`] worked out, and whether a file on disk decided it.
fn resolved_problem(
    cx: &Context<'_>,
    pages: &Pages,
    from: usize,
    dest: &str,
) -> (Option<(String, Option<&'static str>)>, bool) {
    let target = resolve(cx, pages, from, dest);
    let disk = matches!(
        target,
        Target::Page { chapter: None, .. } | Target::File { .. } | Target::Outside { .. }
    );
    (problem_with(cx, from, dest, target), disk)
}

fn problem_with(
    cx: &Context<'_>,
    from: usize,
    dest: &str,
    target: Target<'_>,
) -> Option<(String, Option<&'static str>)> {
    match target {
        Target::External => None,
        Target::Page {
            chapter: None,
            path,
            ..
        } => no_chapter(cx, dest, &path).map(|message| (message, None)),
        Target::Page {
            chapter: Some(target),
            path,
            fragment: Some(fragment),
        } => no_anchor(cx, from, target, &path, &fragment)
            .map(|message| (message, Some(ANCHOR_HELP))),
        Target::Page { .. } => None,
        Target::File { path } => (!cx.files.src_dir().join(&path).exists()).then(|| {
            (
                format!(
                    "the link to {} leads to no file of the book's sources",
                    leads_to(dest, &path)
                ),
                None,
            )
        }),
        Target::Outside { path } => {
            (cx.config.source_root.is_some() && !path.exists()).then(|| {
                (
                    format!(
                        "`{dest}` leaves the book and does not exist (`{}`)",
                        cx.files.display(&path).display()
                    ),
                    None,
                )
            })
        }
    }
}

/// A link to `path`, a page no chapter is: said unless mdBook writes the page itself.
fn no_chapter(cx: &Context<'_>, dest: &str, path: &str) -> Option<String> {
    let on_disk = cx.files.src_dir().join(path);
    if GENERATED_PAGES.contains(&path) || on_disk.is_file() && path.ends_with(".html") {
        return None;
    }
    let hint = suggest::hint(path, cx.chapters.iter().map(|c| c.key.as_str()));
    let why = if on_disk.is_file() {
        "; the file exists, but SUMMARY.md does not list it, so mdBook does not render it"
    } else {
        ""
    };
    Some(format!(
        "the link to {} leads to no chapter of the book{why}{hint}",
        leads_to(dest, path)
    ))
}

/// A link from chapter `from` to `#fragment` of chapter `target` (at `path`), when the page
/// has no such anchor.
fn no_anchor(
    cx: &Context<'_>,
    from: usize,
    target: usize,
    path: &str,
    fragment: &str,
) -> Option<String> {
    let anchors = &cx.chapters[target].index.anchors;
    if fragment.is_empty()
        || fragment == "top"
        || fragment.starts_with("mdbook-")
        || anchors.contains(fragment)
        || cx.rules.is_anchor_in(target, fragment)
    {
        return None;
    }
    let hint = suggest::hint(fragment, anchors.iter().map(String::as_str));
    let page = if target == from {
        "this page".to_owned()
    } else {
        format!("`{path}`")
    };
    Some(format!("{page} has no anchor `#{fragment}`{hint}"))
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
