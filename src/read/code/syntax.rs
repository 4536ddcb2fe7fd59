//! What a node of a syntax tree is, read through the kinds a language's row of the table gives:
//! a comment, a string, a code unit (with its name, whether it is a test, and the comments that
//! stand above it). Both readings of a tree use it: the queries at one place (`mod.rs`: is this
//! byte in a comment, which test holds it) and the walk over every unit (`walk.rs`). Nothing
//! here names a language.

use tree_sitter::Node;

pub(super) use super::languages::Role;
use super::languages::{Lang, MacroCases, UnitKind};

/// A node that declares a unit: what it is and its name.
pub(super) struct Declared<'t> {
    pub(super) kind: UnitKind,
    pub(super) name: String,
    /// Where its name starts (its start when it has none): what stands before it are its
    /// attributes, annotations and modifiers.
    pub(super) name_at: usize,
    pub(super) line: usize,
    pub(super) node: Node<'t>,
    /// The group a test macro names beside its test (`Suite` of `TEST(Suite, Name)`): the
    /// innermost scope of the test.
    pub(super) group: Option<String>,
    /// Its name is a title (a test call's or a test macro's), not a function's.
    pub(super) titled: bool,
}

/// A file's text read through its language's row.
#[derive(Clone, Copy)]
pub(super) struct Syntax<'t> {
    pub(super) lang: &'static Lang,
    roles: &'static [Role],
    pub(super) text: &'t [u8],
}

impl<'t> Syntax<'t> {
    pub(super) fn new(lang: &'static Lang, text: &'t [u8]) -> Syntax<'t> {
        Syntax {
            lang,
            roles: lang.roles(),
            text,
        }
    }

    pub(super) fn role(&self, node: Node<'_>) -> Role {
        self.roles
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(Role::Other)
    }

    /// The role of a node read as code: a docstring is a comment.
    pub(super) fn reading(&self, node: Node<'_>) -> Role {
        match self.role(node) {
            Role::String if self.lang.docstrings && is_docstring(node) => Role::Comment,
            role => role,
        }
    }

    /// The unit `node` declares, if it declares one.
    pub(super) fn declared<'n>(&self, node: Node<'n>) -> Option<Declared<'n>> {
        let (kind, title) = match self.role(node) {
            Role::Unit(UnitKind::Function) if !self.lang.test_macros.is_empty() => {
                if let Some(declared) = self.test_macro(node) {
                    return Some(declared);
                }
                (UnitKind::Function, None)
            }
            Role::Unit(kind) => (kind, None),
            Role::Declarator => {
                let (_, kinds) = self.lang.function_values?;
                let value = node.child_by_field_name("value")?;
                if !kinds.contains(&value.kind()) {
                    return None;
                }
                (UnitKind::Function, None)
            }
            Role::Call => {
                let (kind, title) = self.test_call(node)?;
                (kind, Some(title))
            }
            _ => return None,
        };
        let name_node = name_of(node);
        // Kotlin's and Swift's backticks quote a name (`fun `put is atomic`()`): not part of
        // it.
        let titled = title.is_some();
        let name = match title {
            Some(title) => title,
            None => name_node
                .map(|n| self.text_of(n).trim_matches('`').to_owned())
                .unwrap_or_default(),
        };
        Some(Declared {
            kind,
            titled,
            name,
            name_at: name_node.map_or(node.start_byte(), |n| n.start_byte()),
            line: name_node.unwrap_or(node).start_position().row + 1,
            node,
            group: None,
        })
    }

    /// A function definition that is a test macro of the row (`TEST(Suite, Name) { ... }`,
    /// which a C++ grammar reads as a function `TEST` with parameters of the types `Suite`
    /// and `Name`): a test case titled `Name` in the group `Suite`. A parameterised one's
    /// cases are `Instance/Suite.Name/N`, a Boost.Test data test case's `name/_N`: the
    /// instance and the index are placeholders.
    fn test_macro<'n>(&self, node: Node<'n>) -> Option<Declared<'n>> {
        let declarator = node.child_by_field_name("declarator")?;
        let callee = declarator.child_by_field_name("declarator")?;
        let (_, cases) = self
            .lang
            .test_macros
            .iter()
            .find(|(name, _)| *name == self.text_of(callee))?;
        let parameters = declarator.child_by_field_name("parameters")?;
        let mut cursor = parameters.walk();
        let names: Vec<&str> = parameters
            .named_children(&mut cursor)
            .filter_map(|p| p.child_by_field_name("type").or(Some(p)))
            .map(|n| self.text_of(n).trim())
            .collect();
        let (name, group) = match (cases, names.as_slice()) {
            (MacroCases::Samples, [name, ..]) => ("_${index}", Some(*name)),
            (_, [group, .., name]) => (*name, Some(*group)),
            (_, [name]) => (*name, None),
            (_, []) => return None,
        };
        let (name, group) = if *cases == MacroCases::Parameterised {
            (
                format!("{name}/${{index}}"),
                group.map(|g| format!("${{instance}}/{g}")),
            )
        } else {
            (name.to_owned(), group.map(str::to_owned))
        };
        Some(Declared {
            kind: UnitKind::Case,
            name,
            name_at: callee.start_byte(),
            line: node.start_position().row + 1,
            node,
            group,
            titled: true,
        })
    }

    /// Whether a declared unit is a test, given where the comments above it start.
    pub(super) fn is_test(&self, declared: &Declared<'_>, above: usize) -> bool {
        match declared.kind {
            UnitKind::Case => true,
            UnitKind::Function => {
                let before =
                    String::from_utf8_lossy(&self.text[above..declared.name_at.max(above)]);
                self.lang.is_test(&declared.name, &before)
            }
            UnitKind::Type | UnitKind::Scope | UnitKind::Members => false,
        }
    }

    /// Where the unit at `node` starts with what stands directly above it: out of its
    /// wrappers, back over the comments, attributes and decorators before it, up to the first
    /// sibling that is none of those (tracey's rule). A comment that ends a line of code is
    /// that code's, not the unit's.
    pub(super) fn above(&self, node: Node<'_>) -> usize {
        let outer = self.outer(node);
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

    /// `node` with the wrappers around it (`export`, a decorated definition).
    fn outer<'n>(&self, node: Node<'n>) -> Node<'n> {
        let mut outer = node;
        while let Some(parent) = outer.parent() {
            if self.role(parent) != Role::Wrapper {
                break;
            }
            outer = parent;
        }
        outer
    }

    /// The unit that the comment `comment` stands directly above, if any: past the comments,
    /// attributes and decorators after it, into wrappers and into a body it starts.
    pub(super) fn below<'n>(&self, comment: Node<'n>) -> Option<Declared<'n>> {
        if !self.starts_its_line(comment.start_byte()) {
            return None;
        }
        // A comment the parser put at the end of a statement it recovered (a macro call with
        // no `;`, `BOOST_AUTO_TEST_SUITE(s3)`, where only a missing `;` follows it): it stands
        // above what follows that statement.
        let mut node = match self.next_unit_sibling(comment) {
            Some(next) => next,
            None => {
                let statement = comment.parent().filter(|p| p.has_error())?;
                self.next_unit_sibling(statement)?
            }
        };
        let next = node;
        // Into wrappers (`export function`, a decorated definition) and into a body whose
        // first statement it is (Python's block after its header).
        for _ in 0..4 {
            if let Some(declared) = self.declared(node) {
                return Some(declared);
            }
            let mut cursor = node.walk();
            let Some(first) = node
                .named_children(&mut cursor)
                .find(|c| !matches!(self.role(*c), Role::Comment | Role::Skipped))
            else {
                break;
            };
            node = first;
        }
        // A statement that declares its test inside: a loop over the providers (`for`,
        // Ruby's `%w[s3 gcs].each do |store|`) whose body holds the test.
        self.first_declared(self.statement_at(next)?)
    }

    /// The statement that starts at `node`: the outermost node starting there whose parts
    /// but one start on its first line (a loop's header and body, a call with its block),
    /// not a list of statements.
    fn statement_at<'n>(&self, node: Node<'n>) -> Option<Node<'n>> {
        let mut at = node;
        loop {
            let row = at.start_position().row;
            let mut cursor = at.walk();
            let later = at
                .named_children(&mut cursor)
                .filter(|c| c.start_position().row > row)
                .count();
            if later <= 1 {
                return Some(at);
            }
            let mut cursor = at.walk();
            at = at
                .named_children(&mut cursor)
                .find(|c| c.start_byte() == at.start_byte())?;
        }
    }

    /// The first unit declared in `node` (itself or inside it), in document order, not
    /// looking inside a unit, a comment or a string.
    fn first_declared<'n>(&self, node: Node<'n>) -> Option<Declared<'n>> {
        let mut stack = vec![node];
        // A bound on the nodes looked at: a statement, not a file.
        for _ in 0..4096 {
            let at = stack.pop()?;
            if let Some(declared) = self.declared(at) {
                return Some(declared);
            }
            if matches!(self.role(at), Role::Comment | Role::String) {
                continue;
            }
            push_children(&mut stack, at);
        }
        None
    }

    /// The first sibling after `node` that is no comment, attribute or decorator.
    fn next_unit_sibling<'n>(&self, node: Node<'n>) -> Option<Node<'n>> {
        let mut next = node.next_sibling();
        while let Some(n) = next {
            if matches!(self.role(n), Role::Comment | Role::Skipped) {
                next = n.next_sibling();
                continue;
            }
            break;
        }
        next
    }

    fn starts_its_line(&self, at: usize) -> bool {
        self.text[..at]
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .all(|b| b.is_ascii_whitespace())
    }

    pub(super) fn text_of(&self, node: Node<'_>) -> &'t str {
        std::str::from_utf8(&self.text[node.byte_range()]).unwrap_or("")
    }
}

/// The node that names a unit: its `name` field, else the identifier its declarator chain
/// ends in (C and C++: never the return type, which is the `type` field there), else what an
/// `impl` is for.
fn name_of(node: Node<'_>) -> Option<Node<'_>> {
    if let Some(name) = node.child_by_field_name("name") {
        return Some(name);
    }
    if node.child_by_field_name("declarator").is_none()
        && let Some(name) = node.child_by_field_name("type")
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

/// `node`'s named children onto `stack`, the first on top: a walk in the tree's order.
pub(super) fn push_children<'n>(stack: &mut Vec<Node<'n>>, node: Node<'n>) {
    let mut cursor = node.walk();
    let children: Vec<Node<'n>> = node.named_children(&mut cursor).collect();
    stack.extend(children.into_iter().rev());
}
