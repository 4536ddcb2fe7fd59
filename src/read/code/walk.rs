//! One walk over a whole syntax tree: every code unit with the units and scopes it stands in,
//! for the reverse of coverage (`status --unmapped`). The queries at one place need no walk
//! (`mod.rs`).

use tree_sitter::Tree;

use super::Unit;
use super::languages::UnitKind;
use super::syntax::{Role, Syntax};

/// Every unit and scope of `tree`, in the order they start.
pub(super) fn units(syntax: &Syntax<'_>, tree: &Tree) -> Vec<Unit> {
    let mut units: Vec<Unit> = Vec::new();
    // The units the walk is inside: their index in `units` and where each ends.
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut cursor = tree.walk();
    // Depth-first, in document order, without recursion (a tree can be deeper than a stack).
    loop {
        let node = cursor.node();
        while open
            .last()
            .is_some_and(|&(_, end)| end <= node.start_byte())
        {
            open.pop();
        }
        let descend = !matches!(syntax.role(node), Role::Comment | Role::String);
        if let Some(declared) = syntax.declared(node) {
            let above = syntax.above(node);
            let enclosing: Vec<&Unit> = open.iter().map(|&(i, _)| &units[i]).collect();
            let method = declared.kind == UnitKind::Function
                && enclosing
                    .last()
                    .is_some_and(|u| matches!(u.kind, UnitKind::Type | UnitKind::Members));
            let unit = Unit {
                kind: declared.kind,
                method,
                test: syntax.is_test(&declared, above),
                nested: enclosing
                    .iter()
                    .any(|u| matches!(u.kind, UnitKind::Function | UnitKind::Case)),
                scope: enclosing.iter().map(|u| u.name.clone()).collect(),
                name: declared.name,
                range: above..node.end_byte(),
                start: node.start_byte(),
                line: declared.line,
            };
            units.push(unit);
            open.push((units.len() - 1, node.end_byte()));
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                units.sort_by_key(|u| u.range.start);
                return units;
            }
        }
    }
}
