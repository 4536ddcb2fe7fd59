//! `dangling-definition`: a link reference definition (`[label]: target`) that no link of its
//! chapter uses, and whose target dangles. A definition that a link uses is checked with the
//! link, by `dangling-link`; an unused one shows nowhere, but is the next author's broken link.
//!
//! In the language server, what a chapter's definitions gave is kept
//! ([`crate::read::kept::DefinitionsKept`]): mdbook-spec
//! appends thousands of definitions to every chapter of the Rust Reference, and resolving all
//! of them at each edit took longer than everything else the edit asks for.

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use super::dangling_link::{Pages, problem};
use super::{Context, Draft};
use crate::read::kept::{DefinitionsKept, Found, LinkedChapter, Links, LinksChange, lock};
use crate::util::vocab::Check;

const HELP: &str = "fix its target, or remove the definition if no link needs it";

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let pages = Pages::new(cx);
    let kept = cx.files.kept().map(|kept| &kept.definitions);
    let links = kept.map(|_| Links::of(cx));
    // Taken out, so that a check that panics leaves nothing half-kept.
    let previous = kept.and_then(|kept| lock(&kept.0).take());
    let (mut previous, mut fragments, only_clean) = match (previous, &links) {
        (Some(then), Some(links)) => match links.since(&then.links) {
            LinksChange::None => (then.chapters, then.fragments, false),
            LinksChange::Anchors(changed)
                if !changed.iter().any(|a| then.fragments.contains(a.as_str())) =>
            {
                (then.chapters, then.fragments, true)
            }
            _ => Default::default(),
        },
        _ => Default::default(),
    };
    let mut now = HashMap::new();
    for (number, chapter) in cx.each_chapter() {
        if let Some(found) = previous.remove(&chapter.key)
            && Arc::ptr_eq(&found.index, &chapter.index)
            && (!only_clean || found.drafts.is_empty())
        {
            out.extend(drafted(number, &found.drafts));
            now.insert(chapter.key.clone(), found);
            continue;
        }
        pages.disk_read.set(false);
        let mut drafts = Vec::new();
        for definition in &chapter.index.unused_definitions {
            if let Some((message, _)) = problem(cx, &pages, number, &definition.dest) {
                drafts.push((
                    definition.range.clone(),
                    format!("an unused link definition: {message}"),
                ));
            }
        }
        out.extend(drafted(number, &drafts));
        // What a file on disk decided may change with no edit to the book.
        if kept.is_some() && !pages.disk_read.get() {
            let index = Arc::clone(&chapter.index);
            now.insert(chapter.key.clone(), Found { index, drafts });
        }
    }
    if let (Some(kept), Some(links)) = (kept, links) {
        fragments.extend(pages.fine_fragments());
        *lock(&kept.0) = Some(DefinitionsKept {
            links,
            chapters: now,
            fragments,
        });
    }
}

/// The findings of chapter `number`, from their ranges and messages.
fn drafted(number: usize, found: &[(Range<usize>, String)]) -> impl Iterator<Item = Draft> + '_ {
    found.iter().map(move |(range, message)| {
        Draft::new(
            Check::DanglingDefinition,
            number,
            range.clone(),
            message.clone(),
        )
        .help(HELP)
    })
}

impl Links {
    fn of(cx: &Context<'_>) -> Links {
        let chapters = cx
            .chapters
            .iter()
            .map(|c| LinkedChapter {
                key: c.key.clone(),
                path: c.path.map(PathBuf::from),
                source_path: c.source_path.map(PathBuf::from),
                index: Arc::clone(&c.index),
            })
            .collect();
        let rules = cx
            .rules
            .rules
            .iter()
            .map(|rule| (rule.id.clone(), rule.chapter))
            .collect();
        Links { chapters, rules }
    }
}
