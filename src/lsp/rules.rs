//! The requests on rules, answered from the [`Outline`]: what the cursor is on (a marker's ID,
//! a `{{#rule}}`, a citation in code), hover (the rule's text and coverage), definition,
//! references (the citations in code included), completion after `{{#rule `, and rename of an
//! ID everywhere it is written.

use std::path::Path;
use std::sync::LazyLock;

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, Hover, HoverContents,
    Location as LspLocation, MarkupContent, MarkupKind, Position, Range, TextEdit, WorkspaceEdit,
};
use regex::Regex;

use super::places::{Target, lsp_location, same_file};
use super::text::{self, Encoding};
use crate::pipeline::outline::Outline;

/// The rule ID at `position` of the file at `path`, if the cursor is on one.
pub(super) fn target<'o>(
    outline: &'o Outline,
    path: &Path,
    position: Position,
    encoding: Encoding,
) -> Option<Target<'o>> {
    let defined = outline.rules.iter().map(|r| (&r.id, &r.at, None));
    let used = outline
        .rule_uses
        .iter()
        .map(|u| (&u.id, &u.at, u.note.as_deref()));
    defined.chain(used).find_map(|(id, at, note)| {
        let range = text::range(at, encoding);
        (same_file(at, path) && text::contains(&range, position)).then_some(Target::Rule {
            id,
            range,
            note,
        })
    })
}

/// The hover of rule `id` at `range`, with what to know of that use.
pub(super) fn hover(
    outline: &Outline,
    id: &str,
    range: Range,
    note: Option<&str>,
) -> Option<Hover> {
    let rule = outline.rule(id)?;
    let value = match note {
        Some(note) => format!("{}\n\n{note}", rule.about),
        None => rule.about.clone(),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(range),
    })
}

/// Where rule `id` is defined: the ID in its marker.
pub(super) fn definition(outline: &Outline, id: &str, encoding: Encoding) -> Option<LspLocation> {
    lsp_location(&outline.rule(id)?.at, encoding)
}

/// Every place that names rule `id`, and its marker when `declaration` is asked for.
pub(super) fn references(
    outline: &Outline,
    id: &str,
    declaration: bool,
    encoding: Encoding,
) -> Vec<LspLocation> {
    let marker = outline
        .rule(id)
        .filter(|_| declaration)
        .map(|r| &r.at)
        .into_iter();
    let uses = outline
        .rule_uses
        .iter()
        .filter(|u| u.id == id)
        .map(|u| &u.at);
    marker
        .chain(uses)
        .filter_map(|l| lsp_location(l, encoding))
        .collect()
}

static AFTER_RULE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\{\{#rule\s+([a-z0-9.-]*)$").expect("valid regex"));

/// The rule IDs to offer after `{{#rule ` (`before` is the line up to the cursor), or `None`
/// when the cursor is not there.
pub(super) fn completion(
    outline: &Outline,
    before: &str,
    replace: impl Fn(&str) -> Range,
) -> Option<Vec<CompletionItem>> {
    let caps = AFTER_RULE.captures(before)?;
    let range = replace(&caps[1]);
    Some(
        outline
            .rules
            .iter()
            .map(|rule| CompletionItem {
                label: rule.id.clone(),
                kind: Some(CompletionItemKind::REFERENCE),
                documentation: Some(Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: rule.about.clone(),
                })),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                    range,
                    rule.id.clone(),
                ))),
                ..CompletionItem::default()
            })
            .collect(),
    )
}

/// The workspace edit that renames rule `old` to `new`: its marker, every `{{#rule}}` and
/// every citation in code (a version suffix stays as written). `Err` says why not.
pub(super) fn rename(
    outline: &Outline,
    old: &str,
    new: &str,
    encoding: Encoding,
) -> Result<WorkspaceEdit, String> {
    let Some(rule) = outline.rule(old) else {
        return Err(format!("no rule `{old}` is defined"));
    };
    if !crate::model::rules::marker::is_id(new) {
        return Err(format!(
            "`{new}` is not a rule ID: dot-separated segments of lowercase letters, digits and single hyphens"
        ));
    }
    if new != old && outline.rule(new).is_some() {
        return Err(format!("a rule `{new}` already exists"));
    }
    let uses = outline
        .rule_uses
        .iter()
        .filter(|u| u.id == old)
        .map(|u| &u.at);
    Ok(super::places::replace_all(
        std::iter::once(&rule.at).chain(uses),
        new,
        encoding,
    ))
}
