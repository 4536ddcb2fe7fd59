//! `dangling-link`: a link to a `.md` or `.html` file that is not a chapter, or to a `#fragment`
//! that the target page will not have; with `source-root` set, also a link that leaves the book
//! to a file that does not exist.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

mod target;

use target::split_link;
pub(super) use target::{Pages, Target, resolve};

use super::{Context, Draft, Place};
use crate::read::companion::Companion;
use crate::read::markdown::{ChapterIndex, MarkdownOptions};
use crate::util::paths;
use crate::util::suggest;
use crate::util::vocab::Check;

/// Pages mdBook writes itself.
const GENERATED_PAGES: &[&str] = &[
    "print.html",
    "toc.html",
    "404.html",
    "index.html",
    "searchindex.json",
];

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
