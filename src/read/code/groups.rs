//! Groups that a call opens and a later call closes, as statements of their own rather than
//! around their tests: Boost.Test's `BOOST_AUTO_TEST_SUITE(s3)` ... `BOOST_AUTO_TEST_SUITE_END()`.
//! A test's scope is the groups still open where it stands (a report names its suites so:
//! `providers.s3`). Which calls open and close them is its language's row
//! (`TestCalls::flat_groups`).

use tree_sitter::Node;

use super::syntax::{Role, Syntax};

/// The flat groups open where `node` stands, outermost first: at each level of the tree up
/// from it, the opening calls before it that no closing call before it closed.
pub(super) fn open_at(syntax: &Syntax<'_>, node: Node<'_>) -> Vec<String> {
    let Some(calls) = syntax.lang.test_calls.as_ref() else {
        return Vec::new();
    };
    let Some((open, close)) = calls.flat_groups else {
        return Vec::new();
    };
    let mut groups = Vec::new();
    let mut level = Some(node);
    while let Some(at) = level {
        let mut closed = 0usize;
        let mut sibling = at.prev_named_sibling();
        while let Some(s) = sibling {
            sibling = s.prev_named_sibling();
            let Some((callee, argument)) = call_of(syntax, s) else {
                continue;
            };
            if callee == close {
                closed += 1;
            } else if callee == open {
                match closed.checked_sub(1) {
                    Some(left) => closed = left,
                    None => groups.push(argument.to_owned()),
                }
            }
        }
        level = at.parent();
    }
    groups.reverse();
    groups
}

/// The callee and first argument of the call `node` is or holds as a statement.
fn call_of<'t>(syntax: &Syntax<'t>, node: Node<'_>) -> Option<(&'t str, &'t str)> {
    let calls = syntax.lang.test_calls.as_ref()?;
    let call = if syntax.role(node) == Role::Call {
        node
    } else {
        node.named_child(0)
            .filter(|c| syntax.role(*c) == Role::Call)?
    };
    let callee = syntax.text_of(call.child_by_field_name(calls.callee)?);
    let first = call
        .child_by_field_name(calls.arguments)
        .and_then(|a| a.named_child(0))
        .map_or("", |a| syntax.text_of(a).trim());
    Some((callee, first))
}
