//! One walk over a syntax tree: its comments, strings, units and syntax errors, read through
//! the kinds a language's row of the table gives. Nothing here names a language.

use std::sync::LazyLock;

use tree_sitter::{Node, Tree};

use super::languages::{LANGUAGES, Lang, UnitKind};
use super::{Parsed, SyntaxErrors, Unit};

/// What a kind of node is to the walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Other,
    Comment,
    String,
    Unit(UnitKind),
    /// A declarator whose value may make it a function (`const f = () => {}`).
    Declarator,
    /// A call that may declare a test case.
    Call,
    Wrapper,
    Skipped,
}

/// Per language (as [`LANGUAGES`]), the role of each kind id of its grammar: kinds are
/// compared by number in the walk, and a kind with several ids (an alias) has each.
static ROLES: LazyLock<Vec<Vec<Role>>> = LazyLock::new(|| {
    LANGUAGES
        .iter()
        .map(|lang| {
            let Some(grammar) = lang.grammar else {
                return Vec::new();
            };
            let language = grammar();
            (0..language.node_kind_count())
                .map(|id| {
                    let id = u16::try_from(id).unwrap_or(u16::MAX);
                    match language.node_kind_for_id(id) {
                        Some(kind) if language.node_kind_is_named(id) => role_of(lang, kind),
                        _ => Role::Other,
                    }
                })
                .collect()
        })
        .collect()
});

fn role_of(lang: &Lang, kind: &str) -> Role {
    if lang.comments.contains(&kind) {
        Role::Comment
    } else if lang.strings.contains(&kind) {
        Role::String
    } else if let Some((_, unit)) = lang.units.iter().find(|(k, _)| *k == kind) {
        Role::Unit(*unit)
    } else if lang.function_values.is_some_and(|(k, _)| k == kind) {
        Role::Declarator
    } else if lang.test_calls.as_ref().is_some_and(|c| c.call == kind) {
        Role::Call
    } else if lang.wrappers.contains(&kind) {
        Role::Wrapper
    } else if lang.skipped.contains(&kind) {
        Role::Skipped
    } else {
        Role::Other
    }
}

struct Walk<'t> {
    lang: &'t Lang,
    roles: &'t [Role],
    text: &'t [u8],
    out: Parsed,
    /// The units the walk is inside: their index in `out.units` and where each ends.
    open: Vec<(usize, usize)>,
}

/// Reads `tree` of `text`, a file of `lang`.
pub(super) fn walk(lang: &Lang, tree: &Tree, text: &[u8]) -> Parsed {
    let index = LANGUAGES
        .iter()
        .position(|l| std::ptr::eq(l, lang))
        .expect("a language of the table");
    let mut walk = Walk {
        lang,
        roles: &ROLES[index],
        text,
        out: Parsed::default(),
        open: Vec::new(),
    };
    let mut cursor = tree.walk();
    // Depth-first, in document order, without recursion (a tree can be deeper than a stack).
    loop {
        let node = cursor.node();
        let descend = walk.visit(node);
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                walk.out.units.sort_by_key(|u| u.range.start);
                return walk.out;
            }
        }
    }
}

impl Walk<'_> {
    fn role(&self, node: Node<'_>) -> Role {
        self.roles
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(Role::Other)
    }

    /// Records `node`; whether its children are to be walked.
    fn visit(&mut self, node: Node<'_>) -> bool {
        if node.is_error() || node.is_missing() {
            let line = node.start_position().row + 1;
            let errors = self.out.errors.get_or_insert(SyntaxErrors {
                count: 0,
                first_line: line,
            });
            errors.count += 1;
        }
        while self
            .open
            .last()
            .is_some_and(|&(_, end)| end <= node.start_byte())
        {
            self.open.pop();
        }
        match self.role(node) {
            Role::Comment => {
                self.out.comments.push(node.byte_range());
                false
            }
            Role::String => {
                if self.lang.docstrings && is_docstring(node) {
                    self.out.comments.push(node.byte_range());
                } else {
                    self.out.strings.push(node.byte_range());
                }
                false
            }
            Role::Unit(kind) => {
                self.unit(node, kind, None);
                true
            }
            Role::Declarator => {
                let is_function = node
                    .child_by_field_name("value")
                    .zip(self.lang.function_values)
                    .is_some_and(|(value, (_, kinds))| kinds.contains(&value.kind()));
                if is_function {
                    self.unit(node, UnitKind::Function, None);
                }
                true
            }
            Role::Call => {
                if let Some((kind, title)) = self.test_call(node) {
                    self.unit(node, kind, Some(title));
                }
                true
            }
            Role::Other | Role::Wrapper | Role::Skipped => true,
        }
    }

    /// Opens a unit at `node`, named `title` or by its name.
    fn unit(&mut self, node: Node<'_>, kind: UnitKind, title: Option<String>) {
        let name_node = name_of(node);
        let name = match title {
            Some(title) => title,
            None => name_node
                .map(|n| self.text_of(n).to_owned())
                .unwrap_or_default(),
        };
        let start = self.above(node);
        let name_start = name_node.map_or(node.start_byte(), |n| n.start_byte());
        let before = String::from_utf8_lossy(&self.text[start..name_start.max(start)]);
        let enclosing: Vec<&Unit> = self.open.iter().map(|&(i, _)| &self.out.units[i]).collect();
        let method = kind == UnitKind::Function
            && enclosing
                .last()
                .is_some_and(|u| matches!(u.kind, UnitKind::Type | UnitKind::Members));
        let test = match kind {
            UnitKind::Case => true,
            UnitKind::Function => self.lang.is_test(&name, &before),
            UnitKind::Type | UnitKind::Scope | UnitKind::Members => false,
        };
        let scope = enclosing.iter().map(|u| u.name.clone()).collect();
        self.out.units.push(Unit {
            kind,
            method,
            name,
            scope,
            test,
            range: start..node.end_byte(),
            start: node.start_byte(),
            line: name_node.unwrap_or(node).start_position().row + 1,
        });
        self.open.push((self.out.units.len() - 1, node.end_byte()));
    }

    /// Where the unit at `node` starts with what stands directly above it: out of its
    /// wrappers, back over the comments, attributes and decorators before it, up to the first
    /// sibling that is none of those (tracey's rule). A comment that ends a line of code is
    /// that code's, not the unit's.
    fn above(&self, node: Node<'_>) -> usize {
        let mut outer = node;
        while let Some(parent) = outer.parent() {
            if self.role(parent) != Role::Wrapper {
                break;
            }
            outer = parent;
        }
        let mut start = outer.start_byte();
        let mut sibling = outer.prev_sibling();
        // The first statement of a body: a grammar may give the comments above it to what
        // holds the body (Python's block starts at its first statement).
        if sibling.is_none() {
            sibling = outer.parent().and_then(|p| p.prev_sibling());
        }
        while let Some(s) = sibling {
            match self.role(s) {
                Role::Comment if self.starts_its_line(s.start_byte()) => start = s.start_byte(),
                Role::Skipped => start = s.start_byte(),
                _ => break,
            }
            sibling = s.prev_sibling();
        }
        start
    }

    fn starts_its_line(&self, at: usize) -> bool {
        self.text[..at]
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .all(|b| b.is_ascii_whitespace())
    }

    /// A call that declares a test case or a group (`test("title", ...)`, `describe(...)`,
    /// `test.each(table)("title", ...)`): what it declares and its title.
    fn test_call(&self, node: Node<'_>) -> Option<(UnitKind, String)> {
        let calls = self.lang.test_calls.as_ref()?;
        // In `test.each(table)("title", fn)` only the outer call declares the case.
        if let Some(parent) = node.parent()
            && self.role(parent) == Role::Call
            && parent
                .child_by_field_name(calls.callee)
                .is_some_and(|c| c.id() == node.id())
        {
            return None;
        }
        let mut callee = node.child_by_field_name(calls.callee)?;
        // The name the chain starts with: `test` of `test.skip.each(...)`.
        loop {
            let next = callee
                .child_by_field_name("object")
                .or_else(|| callee.child_by_field_name(calls.callee));
            match next {
                Some(inner) => callee = inner,
                None => break,
            }
        }
        let name = self.text_of(callee);
        let (_, kind) = calls.names.iter().find(|(n, _)| *n == name)?;
        let arguments = node.child_by_field_name(calls.arguments)?;
        let first = arguments.named_child(0)?;
        let title = self.text_of(first);
        let title = title
            .strip_prefix(['"', '\'', '`'])
            .and_then(|t| t.strip_suffix(['"', '\'', '`']))
            .unwrap_or(title);
        Some((*kind, title.to_owned()))
    }

    fn text_of(&self, node: Node<'_>) -> &str {
        std::str::from_utf8(&self.text[node.byte_range()]).unwrap_or("")
    }
}

/// The node that names a unit: its `name` field, else what an `impl` is for, else the
/// identifier its declarator chain ends in (C and C++).
fn name_of(node: Node<'_>) -> Option<Node<'_>> {
    if let Some(name) = node
        .child_by_field_name("name")
        .or_else(|| node.child_by_field_name("type"))
    {
        return Some(name);
    }
    let mut at = node;
    for _ in 0..6 {
        match at.child_by_field_name("declarator") {
            Some(next) => at = next,
            None => break,
        }
    }
    if at.id() != node.id() {
        return Some(at);
    }
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .find(|c| c.kind().contains("identifier") || c.kind() == "constant")
}

/// Whether a string node is a docstring: the first statement of a module or a block.
fn is_docstring(node: Node<'_>) -> bool {
    let Some(statement) = node.parent() else {
        return false;
    };
    if statement.named_child_count() != 1 {
        return false;
    }
    let Some(body) = statement.parent() else {
        return false;
    };
    let mut cursor = body.walk();
    let first = body.named_children(&mut cursor).find(|c| !c.is_extra());
    first.is_some_and(|f| f.id() == statement.id())
}
