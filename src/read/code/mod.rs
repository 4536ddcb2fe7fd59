//! Source read as code: which bytes of a file are comments, which are strings, and which code
//! units (functions, methods, types, test cases) it declares, from its syntax tree.
//!
//! [`parse`] reads a file of a language of [`languages::LANGUAGES`] with its tree-sitter
//! grammar into a [`Parsed`]: what the source index asks of it (is this citation in a comment?
//! is this word in code?) and what the coverage asks (which test does this citation stand
//! in? which units does no citation map?). A file without a grammar (its language unknown, its
//! feature off, or over [`LARGEST_PARSED`]) is read as text by [`fallback`], as every file was
//! before grammars.
//!
//! A file the grammar cannot fully parse is read as far as the parser recovers: tree-sitter
//! keeps every comment and unit around a syntax error, and the errors are counted
//! ([`Parsed::errors`]) for `status`, never a failure.
//!
//! To add a language, see `languages.rs`; to read something new from a tree, add it to the
//! walk in `walk.rs`, which names no language.

pub(crate) mod fallback;
pub(crate) mod index;
pub(crate) mod languages;
mod roots;
mod walk;

use std::cell::RefCell;
use std::ops::Range;

pub(crate) use index::{Extra, Options, SourceIndex, wanted_words};
pub(crate) use languages::{Lang, UnitKind, for_path, is_test_file};
pub(crate) use roots::{Roots, glob, is_glob};

/// A file larger than this is not parsed (a generated file, data): it is read as text.
pub(crate) const LARGEST_PARSED: usize = 4 << 20;

/// A code unit of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unit {
    /// What it is; a function inside a type is a method.
    pub kind: UnitKind,
    /// Whether it is a method (a function inside a type).
    pub method: bool,
    /// Its name (a test case's title).
    pub name: String,
    /// The names of the units and scopes it stands in, outermost first (`mod tests`, a class,
    /// a `describe`).
    pub scope: Vec<String>,
    /// Whether it is a test: a test function by its language's conventions, or a test case.
    pub test: bool,
    /// Its bytes, with the comments, attributes and decorators that stand directly above it.
    pub range: Range<usize>,
    /// Where the unit itself starts (after its comments).
    pub start: usize,
    /// The line of its name, from 1.
    pub line: usize,
}

/// The test a citation stands in: its name (a function's, a case's title), the names of what
/// it stands in (a class, a module, a `describe`), and its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TestSite {
    pub name: String,
    pub scope: Vec<String>,
    pub line: usize,
}

impl TestSite {
    pub(crate) fn of(unit: &Unit) -> TestSite {
        TestSite {
            name: unit.name.clone(),
            scope: unit.scope.clone(),
            line: unit.line,
        }
    }
}

/// Syntax errors the parser recovered from: how many, and where the first is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SyntaxErrors {
    pub count: usize,
    /// The line of the first, from 1.
    pub first_line: usize,
}

/// What a syntax tree says of a file.
#[derive(Debug, Clone, Default)]
pub(crate) struct Parsed {
    /// The comments (and docstrings), in order, none inside another.
    pub comments: Vec<Range<usize>>,
    /// The string and character literals, in order, none inside another.
    pub strings: Vec<Range<usize>>,
    /// The code units and scopes, in the order they start.
    pub units: Vec<Unit>,
    /// Errors the parser recovered from, if any.
    pub errors: Option<SyntaxErrors>,
}

fn inside(ranges: &[Range<usize>], at: usize) -> bool {
    let i = ranges.partition_point(|r| r.start <= at);
    i > 0 && ranges[i - 1].contains(&at)
}

impl Parsed {
    /// Whether byte `at` lies in a comment.
    pub(crate) fn in_comment(&self, at: usize) -> bool {
        inside(&self.comments, at)
    }

    /// Whether byte `at` lies in code: in neither a comment nor a string.
    pub(crate) fn in_code(&self, at: usize) -> bool {
        !inside(&self.comments, at) && !inside(&self.strings, at)
    }

    /// The test that byte `at` stands in: the innermost test unit whose range (its comments
    /// above included) holds it.
    pub(crate) fn test_at(&self, at: usize) -> Option<&Unit> {
        self.units
            .iter()
            .filter(|u| u.test && u.range.contains(&at))
            .max_by_key(|u| u.range.start)
    }

    /// The units that are code (not scopes), in order.
    pub(crate) fn code_units(&self) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .filter(|u| !matches!(u.kind, UnitKind::Scope | UnitKind::Members))
    }
}

thread_local! {
    /// One parser per thread, its language set per file (setting it is cheap).
    static PARSER: RefCell<tree_sitter::Parser> = RefCell::new(tree_sitter::Parser::new());
}

/// Reads `text` as code of `lang`, or `None` when it cannot be (no grammar, too large): the
/// caller reads it as text then.
pub(crate) fn parse(lang: &Lang, text: &[u8]) -> Option<Parsed> {
    let grammar = lang.grammar?;
    if text.len() > LARGEST_PARSED {
        return None;
    }
    let tree = PARSER.with(|parser| {
        let mut parser = parser.borrow_mut();
        parser.set_language(&grammar()).ok()?;
        parser.parse(text, None)
    })?;
    Some(walk::walk(lang, &tree, text))
}

#[cfg(test)]
mod tests;
