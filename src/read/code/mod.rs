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
//! To add a language, see `languages/mod.rs`; to read something new from a tree, add it to the
//! walk in `walk.rs`, which names no language.

mod automata;
mod cache;
mod calls;
pub(crate) mod fallback;
mod groups;
pub(crate) mod index;
pub(crate) mod languages;
mod memo;
mod parameterised;
pub(crate) mod parameters;
mod roots;
mod scan;
mod search;
mod syntax;
mod walk;
mod yielded;

use std::cell::RefCell;
use std::ops::Range;

use syntax::{Role, Syntax};

pub(crate) use cache::{ENV as NO_CACHE_ENV, turn_off as turn_off_cache};
pub(crate) use index::{Extra, Options, SourceIndex, wanted_words};
pub(crate) use languages::{Lang, UnitKind, for_path, is_test_file};
pub(crate) use memo::keep_reads;
pub(crate) use roots::{Roots, glob, is_glob};

/// A file larger than this is not parsed (a generated file, data): it is read as text.
pub(crate) const LARGEST_PARSED: usize = 4 << 20;

/// A code unit of a file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Whether it stands in a function or a test case: a helper declared inside one is part
    /// of it, not a unit of its own for `--unmapped`.
    pub nested: bool,
    /// Its bytes, with the comments, attributes and decorators that stand directly above it.
    pub range: Range<usize>,
    /// Where the unit itself starts (after its comments).
    pub start: usize,
    /// The line of its name, from 1.
    pub line: usize,
}

/// The test a citation stands in: its name (a function's, a case's title), the names of what
/// it stands in (a class, a module, a `describe`), and its line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct TestSite {
    pub name: String,
    pub scope: Vec<String>,
    pub line: usize,
    /// It is named by a title (a test call's, a test macro's, a line's), which a report
    /// writes inside its groups' titles, not by a function's name: `scope` then holds the
    /// titles of the groups alone.
    #[serde(default)]
    pub titled: bool,
    /// The rows it runs over, when it is parameterised (`parameters.rs`).
    pub parameters: Option<parameters::Parameters>,
}

/// A place in a file of the source tree that a finding is about, other than a citation (an
/// ignore region never closed, a syntax error).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Spot {
    /// The file, relative to `source-root`, `/`-separated.
    pub path: String,
    /// From 1.
    pub line: usize,
    /// In characters, from 1.
    pub column: usize,
    /// In characters.
    pub width: usize,
    /// The text of its line, for snippets.
    pub line_text: String,
}

/// Syntax errors the parser recovered from: how many, and where the first is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct SyntaxErrors {
    pub count: usize,
    /// The line of the first, from 1.
    pub first_line: usize,
    /// The byte of its line where the first starts, from 0.
    pub first_byte: usize,
}

/// A file read as code: its syntax tree, asked what stands at a place.
pub(crate) struct Parsed<'t> {
    tree: tree_sitter::Tree,
    syntax: Syntax<'t>,
}

impl std::fmt::Debug for Parsed<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parsed")
            .field("language", &self.syntax.lang.name)
            .finish_non_exhaustive()
    }
}

impl<'t> Parsed<'t> {
    /// The innermost node at byte `at`, and its ancestors after it.
    ///
    /// Found going down from the root: a node keeps no link to its parent, and
    /// [`tree_sitter::Node::parent`] goes down from the root each time, so a walk up from
    /// the innermost node costs the square of the depth (a tenth of a build's reading, on a
    /// tree of a few hundred citations).
    fn at(&self, at: usize) -> impl Iterator<Item = tree_sitter::Node<'_>> {
        let mut cursor = self.tree.walk();
        let mut chain = vec![cursor.node()];
        while cursor.goto_first_child_for_byte(at).is_some() {
            let node = cursor.node();
            if node.start_byte() > at {
                break;
            }
            chain.push(node);
        }
        chain.into_iter().rev()
    }

    /// The comment or string holding byte `at`, with which of the two it is.
    fn literal_at(&self, at: usize) -> Option<(Role, tree_sitter::Node<'_>)> {
        self.at(at).find_map(|n| match self.syntax.reading(n) {
            role @ (Role::Comment | Role::String) => Some((role, n)),
            _ => None,
        })
    }

    /// Whether byte `at` lies in a comment (a docstring included).
    pub(crate) fn in_comment(&self, at: usize) -> bool {
        matches!(self.literal_at(at), Some((Role::Comment, _)))
    }

    /// Whether the word at `word` is a name the code gives: a word of its code, or the whole of
    /// a string literal (`name = "tracey_status"`, a header `"traceparent"`, a JSON key), not
    /// a word of a comment or of a sentence in a string.
    pub(crate) fn names(&self, word: Range<usize>) -> bool {
        let string = match self.literal_at(word.start) {
            None => return true,
            Some((Role::String, string)) => string.byte_range(),
            Some(_) => return false,
        };
        let text = self.syntax.text;
        let quote = |b: &u8| matches!(b, b'"' | b'\'' | b'`');
        let literal = &text[string.clone()];
        let (Some(open), Some(close)) = (
            literal.iter().position(quote),
            literal.iter().rposition(quote),
        ) else {
            return false;
        };
        let content = string.start + open + 1..string.start + close;
        let bare = |part: &[u8]| part.iter().all(|b| quote(b) || *b == b'#');
        content.start <= word.start
            && word.end <= content.end
            && bare(&text[content.start..word.start])
            && bare(&text[word.end..content.end])
    }

    /// The test that byte `at` stands in: the one its comment stands directly above, or the
    /// innermost test that holds it; with the names of the units and scopes around it.
    pub(crate) fn test_at(&self, at: usize) -> Option<TestSite> {
        let syntax = &self.syntax;
        // A test, with where the comments above it start (asked once: it walks up the tree).
        let below = self
            .literal_at(at)
            .filter(|(role, _)| *role == Role::Comment)
            .and_then(|(_, comment)| syntax.below(comment))
            .map(|d| (syntax.above(d.node), d))
            .filter(|(above, d)| syntax.is_test(d, *above));
        let (above, declared) = match below {
            Some(found) => found,
            None => self.at(at).find_map(|n| {
                let d = syntax.declared(n)?;
                let above = syntax.above(n);
                syntax.is_test(&d, above).then_some((above, d))
            })?,
        };
        let parameters = parameters::of(syntax, self.tree.root_node(), &declared, above);
        let (node, name, line) = (declared.node, declared.name, declared.line);
        let titled = declared.titled;
        // Its ancestors, found going down as in `at` (the test starts on their path): of a
        // titled test, the groups a call declares (a `describe`, not a class around it).
        let mut scope: Vec<String> = self
            .at(node.start_byte())
            .skip_while(|n| n.id() != node.id())
            .skip(1)
            .filter(|n| !titled || syntax.role(*n) == Role::Call)
            .filter_map(|n| syntax.declared(n).map(|d| d.name))
            .collect();
        scope.reverse();
        // A test macro names its whole group (`TEST(Suite, Name)` is `Suite.Name` whatever
        // namespace holds it), inside the flat groups open where it stands (Boost.Test's
        // suites: `providers.s3.get_missing`, `conformance.put_atomic/_1`).
        let mut flat = groups::open_at(syntax, node);
        if let Some(group) = declared.group {
            flat.push(group);
            scope = flat;
        } else if !flat.is_empty() {
            flat.extend(scope);
            scope = flat;
        }
        Some(TestSite {
            name,
            scope,
            line,
            titled,
            parameters,
        })
    }

    /// Every code unit and scope, in the order they start (a walk over the whole tree).
    pub(crate) fn units(&self) -> Vec<Unit> {
        walk::units(&self.syntax, &self.tree)
    }

    /// The code units of [`Parsed::units`]: declarations at the top of a file or in a type or
    /// scope (not scopes, not a function declared inside a function); a test case stays one
    /// wherever it is declared.
    pub(crate) fn code_units(&self) -> Vec<Unit> {
        let mut units = self.units();
        units.retain(|u| {
            !matches!(u.kind, UnitKind::Scope | UnitKind::Members)
                && (u.kind == UnitKind::Case || !u.nested)
        });
        units
    }

    /// The syntax errors the parser recovered from, if any: how many, and where the first is.
    pub(crate) fn errors(&self) -> Option<SyntaxErrors> {
        let root = self.tree.root_node();
        if !root.has_error() {
            return None;
        }
        let mut out: Option<SyntaxErrors> = None;
        // Down the subtrees that hold an error only.
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            if node.is_error() || node.is_missing() {
                let at = node.start_position();
                let errors = out.get_or_insert(SyntaxErrors {
                    count: 0,
                    first_line: at.row + 1,
                    first_byte: at.column,
                });
                errors.count += 1;
                if (at.row + 1, at.column) < (errors.first_line, errors.first_byte) {
                    (errors.first_line, errors.first_byte) = (at.row + 1, at.column);
                }
            }
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor).filter(|c| c.has_error()));
        }
        out
    }
}

thread_local! {
    /// One parser per thread, its language set per file (setting it is cheap).
    static PARSER: RefCell<tree_sitter::Parser> = RefCell::new(tree_sitter::Parser::new());
}

/// Reads `text` as code of `lang`, or `None` when it cannot be (no grammar, too large): the
/// caller reads it as text then.
pub(crate) fn parse<'t>(lang: &'static Lang, text: &'t [u8]) -> Option<Parsed<'t>> {
    let grammar = lang.grammar?;
    if text.len() > LARGEST_PARSED {
        return None;
    }
    let tree = PARSER.with(|parser| {
        let mut parser = parser.borrow_mut();
        parser.set_language(&grammar()).ok()?;
        parser.parse(text, None)
    })?;
    Some(Parsed {
        tree,
        syntax: Syntax::new(lang, text),
    })
}

#[cfg(all(test, feature = "lang-all"))]
mod tests;
