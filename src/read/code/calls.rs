//! The calls that declare a test case or a group, read through the row's `test_calls`: which
//! name a call is of (`it`, `test.skip.each`, the whole chain `Deno.test`) and its title as
//! the source writes it, its interpolations (`#{store}`), joined variables (`"on " .. store`)
//! and a variable title made placeholders (`${store}`), as a template's are. Nothing here
//! names a language; a new way of writing a title is a field of `TestCalls`.

use tree_sitter::Node;

use super::languages::{TestCalls, UnitKind};
use super::syntax::{Role, Syntax};

impl Syntax<'_> {
    /// A call that declares a test case or a group (`test("title", ...)`, `describe(...)`,
    /// `test.each(table)("title", ...)`, `Deno.test({ name, fn })`): what it declares and its
    /// title.
    pub(super) fn test_call(&self, node: Node<'_>) -> Option<(UnitKind, String)> {
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
        let named = |callee: Node<'_>| {
            let text = self.text_of(callee);
            calls.names.iter().find(|(n, _)| *n == text)
        };
        let mut callee = node.child_by_field_name(calls.callee)?;
        let mut found = named(callee);
        // A group named on the chain (`describe` of Playwright's `test.describe.parallel`)
        // makes the call a group, whatever name the chain starts with.
        let mut group = false;
        // The name the chain starts with (`test` of `test.skip.each(...)`), or a name that is
        // a whole chain (`Deno.test`).
        while found.is_none()
            && let Some(inner) = callee
                .child_by_field_name("object")
                .or_else(|| callee.child_by_field_name(calls.callee))
        {
            let property = callee.child_by_field_name("property");
            group |= property.is_some_and(|p| {
                let name = self.text_of(p);
                calls
                    .names
                    .iter()
                    .any(|(n, k)| *n == name && *k == UnitKind::Scope)
            });
            callee = inner;
            found = named(callee);
        }
        let (_, kind) = found?;
        let kind = if group { &UnitKind::Scope } else { kind };
        let arguments = node.child_by_field_name(calls.arguments)?;
        let first = if calls.listed {
            arguments.named_child(0)?
        } else {
            arguments
        };
        Some((*kind, self.title_of(calls, first)?))
    }

    /// A test call's title from its first argument: a string's text, its interpolations
    /// (`#{store}`) and the variables joined to it (`"on " .. store`) placeholders
    /// (`${store}`), as a template's are; the `name` of an object of options.
    fn title_of(&self, calls: &TestCalls, node: Node<'_>) -> Option<String> {
        let text = self.text_of(node);
        // A title that is a variable (`it(store, ...)` in a loop) takes whatever it held: a
        // placeholder, as `${store}` in a template.
        if calls.variable_titles && node.kind() == "identifier" {
            return Some(format!("${{{text}}}"));
        }
        if let Some((pair, key)) = calls.title_option
            && node.kind() == "object"
        {
            let mut cursor = node.walk();
            let value = node
                .named_children(&mut cursor)
                .filter(|c| c.kind() == pair)
                .find(|c| {
                    c.child_by_field_name("key")
                        .is_some_and(|k| unquoted(self.text_of(k)) == key)
                })?
                .child_by_field_name("value")?;
            return self.title_of(calls, value);
        }
        if let Some((kind, operator)) = calls.concatenation
            && node.kind() == kind
            && node
                .child_by_field_name("operator")
                .is_some_and(|o| self.text_of(o) == operator)
        {
            let left = self.title_of(calls, node.child_by_field_name("left")?)?;
            let right = self.title_of(calls, node.child_by_field_name("right")?)?;
            return Some(left + &right);
        }
        let mut title = String::new();
        let mut last = node.start_byte();
        let mut cursor = node.walk();
        for part in node.named_children(&mut cursor) {
            if calls.interpolations.contains(&part.kind()) {
                title.push_str(&String::from_utf8_lossy(
                    &self.text[last..part.start_byte()],
                ));
                let inner = part.named_child(0).map_or("", |v| self.text_of(v));
                title.push_str(&format!("${{{inner}}}"));
                last = part.end_byte();
            }
        }
        title.push_str(&String::from_utf8_lossy(&self.text[last..node.end_byte()]));
        Some(unquoted(&title).to_owned())
    }
}

/// `text` without the quotes around it, if it has them.
fn unquoted(text: &str) -> &str {
    text.strip_prefix(['"', '\'', '`'])
        .and_then(|t| t.strip_suffix(['"', '\'', '`']))
        .unwrap_or(text)
}
