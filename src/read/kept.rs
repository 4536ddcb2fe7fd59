//! What the language server keeps from one check of the book to the next, so that the check
//! after an edit redoes only what the edit can change.
//!
//! A book like the Rust Reference hands every chapter over with some 300 KB of link
//! definitions that mdbook-spec appends: parsing all of them and resolving every definition
//! again was most of an edit's time, though an edit changes one chapter. Each item here is
//! kept with what it was computed from and reused only when that is exactly the same (the
//! texts are compared, not hashed); each check keeps only what it used, so what is kept is one
//! book's worth however long the session. `check`, a build and `diff` keep nothing.
//!
//! To keep another result: hold it with everything it was computed from, compare those in
//! full before reusing it, and let the check that uses it replace the whole set (see
//! [`Parses::finish`]).

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::read::markdown::{ChapterIndex, MarkdownOptions};

/// Everything kept (see the module's documentation).
#[derive(Default)]
pub(crate) struct Kept {
    /// Each chapter's parse.
    pub(crate) parses: Parses,
    /// What `dangling-definition` found in each chapter.
    pub(crate) definitions: Definitions,
}

impl Kept {
    /// Ends a check: what it used is what the next one may reuse.
    pub(crate) fn finish(&self) {
        self.parses.finish();
    }
}

/// Each chapter's parse from one check to the next, so that a check after an edit parses only
/// the chapters whose content changed. A parse is reused when the chapter's key, content,
/// options and whether it keeps tables are those it was made from.
#[derive(Default)]
pub(crate) struct Parses {
    /// The previous check's parses, and this one's so far, by chapter key.
    previous: Mutex<HashMap<String, Parsed>>,
    current: Mutex<HashMap<String, Parsed>>,
}

struct Parsed {
    content: String,
    options: [bool; 3],
    tables: bool,
    index: Arc<ChapterIndex>,
}

impl Parses {
    /// The parse of `content`, chapter `key`'s: the previous check's when it was made of the
    /// same, else a new one.
    pub(crate) fn parse(
        &self,
        key: &str,
        content: &str,
        options: &MarkdownOptions,
        tables: bool,
    ) -> Arc<ChapterIndex> {
        let flags = [
            options.smart_punctuation,
            options.definition_lists,
            options.admonitions,
        ];
        let previous = lock(&self.previous).remove(key);
        let parsed = match previous {
            Some(parsed)
                if parsed.content == content
                    && parsed.options == flags
                    && parsed.tables == tables =>
            {
                parsed
            }
            _ => Parsed {
                content: content.to_owned(),
                options: flags,
                tables,
                index: Arc::new(ChapterIndex::parse_with(content, options, tables)),
            },
        };
        let index = Arc::clone(&parsed.index);
        lock(&self.current).insert(key.to_owned(), parsed);
        index
    }

    /// Ends a check: the parses it used are what the next one may reuse.
    pub(crate) fn finish(&self) {
        let current = std::mem::take(&mut *lock(&self.current));
        *lock(&self.previous) = current;
    }
}

/// What `dangling-definition` found in each chapter at the last check (see
/// [`DefinitionsKept`]). The check takes it out while it runs and puts back what it found.
#[derive(Default)]
pub(crate) struct Definitions(pub(crate) Mutex<Option<DefinitionsKept>>);

/// What `dangling-definition` found, by chapter key, with the book's [`Links`] then and the
/// fragments its definitions lead to. A chapter's findings are reused when its parse is the
/// same and either the links are, or only anchors changed, none of which a definition leads
/// to, and the chapter had no finding (a finding's hint names the target's anchors). A chapter
/// where a file on disk decided a link is not kept: the file may change with no edit.
pub(crate) struct DefinitionsKept {
    pub(crate) links: Links,
    pub(crate) chapters: HashMap<String, Found>,
    /// The fragments (decoded) of the definitions found leading where they say, in every chapter
    /// kept: typing a heading changes anchors no definition names, and must not cost a check
    /// of every definition of the book.
    pub(crate) fragments: HashSet<Box<str>>,
}

/// What a chapter's unused definitions gave (ranges and messages), and the parse they were
/// read from.
pub(crate) struct Found {
    pub(crate) index: Arc<ChapterIndex>,
    pub(crate) drafts: Vec<(Range<usize>, String)>,
}

/// What a link's target and the message about it depend on besides the link itself: every
/// chapter's key, paths and anchors, in order, and the rules' anchors.
pub(crate) struct Links {
    pub(crate) chapters: Vec<LinkedChapter>,
    /// Each rule's ID and chapter.
    pub(crate) rules: Vec<(String, usize)>,
}

/// A chapter as links see it.
pub(crate) struct LinkedChapter {
    pub(crate) key: String,
    pub(crate) path: Option<PathBuf>,
    pub(crate) source_path: Option<PathBuf>,
    /// The parse, for its anchors.
    pub(crate) index: Arc<ChapterIndex>,
}

/// How two [`Links`] differ.
#[derive(Debug)]
pub(crate) enum LinksChange {
    None,
    /// Only anchors: these, added or taken away, in any chapter.
    Anchors(HashSet<String>),
    /// Chapters, their paths or the rules.
    More,
}

impl Links {
    /// How `self` differs from `then`.
    pub(crate) fn since(&self, then: &Links) -> LinksChange {
        if self.rules != then.rules || self.chapters.len() != then.chapters.len() {
            return LinksChange::More;
        }
        let mut anchors = HashSet::new();
        for (now, then) in self.chapters.iter().zip(&then.chapters) {
            if now.key != then.key || now.path != then.path || now.source_path != then.source_path {
                return LinksChange::More;
            }
            if !Arc::ptr_eq(&now.index, &then.index) {
                let (now, then) = (&now.index.anchors, &then.index.anchors);
                anchors.extend(now.symmetric_difference(then).cloned());
            }
        }
        if anchors.is_empty() {
            LinksChange::None
        } else {
            LinksChange::Anchors(anchors)
        }
    }
}

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parse_is_reused_only_for_the_same_text_options_and_tables() {
        let parses = Parses::default();
        let options = MarkdownOptions::default();
        let first = parses.parse("a.md", "# A\n\ntext\n", &options, false);
        parses.finish();
        let same = parses.parse("a.md", "# A\n\ntext\n", &options, false);
        assert!(Arc::ptr_eq(&first, &same));
        parses.finish();
        let edited = parses.parse("a.md", "# A\n\ntext.\n", &options, false);
        assert!(!Arc::ptr_eq(&same, &edited));
        parses.finish();
        let tables = parses.parse("a.md", "# A\n\ntext.\n", &options, true);
        assert!(!Arc::ptr_eq(&edited, &tables));
        parses.finish();
        let mut plain = MarkdownOptions::default();
        plain.smart_punctuation = !options.smart_punctuation;
        let other = parses.parse("a.md", "# A\n\ntext.\n", &plain, true);
        assert!(!Arc::ptr_eq(&tables, &other));
        // Another chapter with the same text is parsed for itself.
        let b = parses.parse("b.md", "# A\n\ntext.\n", &plain, true);
        assert!(!Arc::ptr_eq(&other, &b));
    }

    #[test]
    fn a_check_keeps_only_the_parses_it_used() {
        let parses = Parses::default();
        let options = MarkdownOptions::default();
        let a = parses.parse("a.md", "# A\n", &options, false);
        parses.parse("b.md", "# B\n", &options, false);
        parses.finish();
        parses.parse("b.md", "# B\n", &options, false);
        parses.finish();
        assert_eq!(lock(&parses.previous).len(), 1);
        let again = parses.parse("a.md", "# A\n", &options, false);
        assert!(!Arc::ptr_eq(&a, &again));
    }
}
