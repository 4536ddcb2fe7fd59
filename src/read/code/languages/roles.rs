//! What each kind of a language's grammar is to the reading of a tree (a comment, a string, a
//! code unit, a test call), worked out once per row from its fields, by kind id: a node's kind
//! is compared by number. To give a kind a new role, add a variant and its field's arm here.

use super::{Lang, UnitKind};

/// What a kind of node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
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

impl Lang {
    /// The role of each kind id of its grammar (a kind with several ids, an alias, has each);
    /// none without a grammar.
    pub(crate) fn roles(&self) -> &[Role] {
        self.roles.get_or_init(|| {
            let Some(grammar) = self.grammar else {
                return Vec::new();
            };
            let language = grammar();
            (0..language.node_kind_count())
                .map(|id| {
                    let id = u16::try_from(id).unwrap_or(u16::MAX);
                    match language.node_kind_for_id(id) {
                        Some(kind) if language.node_kind_is_named(id) => role_of(self, kind),
                        _ => Role::Other,
                    }
                })
                .collect()
        })
    }
}

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
