//! The requests, answered from the [`Outline`] of the last check and the open document's text:
//! completion, hover, definition, references, rename and document symbols.

use std::path::Path;
use std::sync::LazyLock;

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, DocumentSymbol, Documentation, Hover,
    HoverContents, InsertTextFormat, Location as LspLocation, MarkupContent, MarkupKind, Position,
    Range, SymbolKind, TextEdit, WorkspaceEdit,
};
use regex::Regex;

use super::places::{Target, lsp_location, replace_all, same_file};
use super::text::{self, Encoding};
use crate::model::UNKNOWN_PROFILE;
use crate::pipeline::outline::{AxisOutline, Outline};
use crate::util::vocab::Check;

/// What is at `position` of the file at `path`.
pub(crate) fn target<'o>(
    outline: &'o Outline,
    path: &Path,
    position: Position,
    encoding: Encoding,
) -> Option<Target<'o>> {
    for axis in &outline.axes {
        let range = text::range(&axis.code_at, encoding);
        if same_file(&axis.code_at, path) && text::contains(&range, position) {
            return Some(Target::Axis {
                axis: &axis.code,
                range,
            });
        }
    }
    for usage in &outline.uses {
        if !same_file(&usage.at, path) {
            continue;
        }
        let range = text::range(&usage.at, encoding);
        if text::contains(&range, position) {
            return Some(Target::Axis {
                axis: &usage.code,
                range,
            });
        }
        if let Some((profile, at)) = &usage.profile {
            let range = text::range(at, encoding);
            if text::contains(&range, position) {
                return Some(Target::Profile {
                    axis: &usage.code,
                    profile,
                    range,
                });
            }
        }
    }
    super::rules::target(outline, path, position, encoding)
}

static SHORTCODE_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\{\{#([a-z-]*)$").expect("valid regex"));
static AFTER_CODE_SHORTCODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\{\{#(?:axis|profile|answers)\s+([a-z0-9-]*)$").expect("valid regex")
});
static AFTER_PROFILE_AXIS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\{\{#profile\s+([a-z0-9-]+)\s+([a-z0-9-]*)$").expect("valid regex")
});
static IN_ALLOW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"<!--\s*contract:\s*allow\b[^>]*?([a-z-]*)$").expect("valid regex")
});

/// The completions at `position` of `text` (the open document).
pub(crate) fn completion(
    outline: &Outline,
    text: &str,
    position: Position,
    encoding: Encoding,
    snippets: bool,
) -> Vec<CompletionItem> {
    let offset = text::offset(text, position, encoding);
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    // The word being typed, replaced by the completion.
    let replace = |typed: &str| {
        let start = text::position(text, offset - typed.len(), encoding);
        Range::new(start, position)
    };
    if let Some(items) = super::rules::completion(outline, before, replace) {
        return items;
    }
    if let Some(caps) = SHORTCODE_NAME.captures(before) {
        // The closing braces too, unless the editor put them there already.
        let close = if text[offset..].starts_with("}}") {
            ""
        } else {
            "}}"
        };
        return shortcode_names(replace(&caps[1]), close, snippets);
    }
    if let Some(caps) = AFTER_PROFILE_AXIS.captures(before) {
        return outline
            .axis(&caps[1])
            .map(|axis| profile_items(axis, replace(&caps[2])))
            .unwrap_or_default();
    }
    if let Some(caps) = AFTER_CODE_SHORTCODE.captures(before) {
        let range = replace(&caps[1]);
        return outline
            .axes
            .iter()
            .map(|axis| {
                item(
                    &axis.code,
                    CompletionItemKind::ENUM,
                    Some(first_line(&axis.question)),
                    Some(axis_markdown(axis, None)),
                    range,
                )
            })
            .collect();
    }
    if let Some(caps) = IN_ALLOW.captures(before) {
        let range = replace(&caps[1]);
        return Check::ALL
            .iter()
            .map(|check| {
                item(
                    check.name(),
                    CompletionItemKind::KEYWORD,
                    Some(check.summary().to_owned()),
                    None,
                    range,
                )
            })
            .collect();
    }
    Vec::new()
}

/// A completion that writes `label` over `range`, with its detail and Markdown documentation.
fn item(
    label: &str,
    kind: CompletionItemKind,
    detail: Option<String>,
    docs: Option<String>,
    range: Range,
) -> CompletionItem {
    CompletionItem {
        label: label.to_owned(),
        kind: Some(kind),
        detail,
        documentation: docs.map(|value| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            })
        }),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
            range,
            label.to_owned(),
        ))),
        ..CompletionItem::default()
    }
}

/// The profiles of `axis`, and `unknown`, written over `range`.
fn profile_items(axis: &AxisOutline, range: Range) -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = axis
        .profiles
        .iter()
        .map(|p| {
            item(
                &p.name,
                CompletionItemKind::ENUM_MEMBER,
                p.meaning.clone(),
                Some(profile_markdown(p)),
                range,
            )
        })
        .collect();
    items.push(item(
        UNKNOWN_PROFILE,
        CompletionItemKind::KEYWORD,
        Some("not verified yet (reported by `unknown-claim`)".to_owned()),
        None,
        range,
    ));
    items
}

/// Every shortcode's name after `{{#`: with `snippets`, its arguments as placeholders and the
/// closing braces (`close`); else the name, and a space where arguments follow.
fn shortcode_names(range: Range, close: &str, snippets: bool) -> Vec<CompletionItem> {
    use crate::read::shortcode::Name;
    Name::ALL
        .iter()
        .map(|name| {
            let takes_arguments = name.snippet().contains(' ');
            let (text, format) = match (snippets, takes_arguments) {
                (true, _) => (
                    format!("{}{close}", name.snippet()),
                    InsertTextFormat::SNIPPET,
                ),
                (false, true) => (format!("{} ", name.as_str()), InsertTextFormat::PLAIN_TEXT),
                (false, false) => (
                    format!("{}{close}", name.as_str()),
                    InsertTextFormat::PLAIN_TEXT,
                ),
            };
            CompletionItem {
                label: name.as_str().to_owned(),
                kind: Some(CompletionItemKind::FUNCTION),
                detail: Some(name.usage().to_owned()),
                documentation: Some(Documentation::String(name.renders().to_owned())),
                insert_text_format: Some(format),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(range, text))),
                ..CompletionItem::default()
            }
        })
        .collect()
}

fn first_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn profile_markdown(p: &crate::pipeline::outline::ProfileOutline) -> String {
    let mut out = format!("`{}`", p.name);
    for (label, cell) in [
        ("", &p.meaning),
        ("obliges: ", &p.obliges),
        ("tolerated by: ", &p.tolerated_by),
    ] {
        if let Some(cell) = cell.as_deref().filter(|c| !c.is_empty()) {
            out.push_str(if label.is_empty() { ": " } else { "; " });
            out.push_str(label);
            out.push_str(cell);
        }
    }
    out
}

/// The hover text of an axis: its code, its question and its profiles with what they mean,
/// oblige and who tolerates them; `profile` first and in bold when given.
fn axis_markdown(axis: &AxisOutline, profile: Option<&str>) -> String {
    let mut out = format!("**axis `{}`** ({})\n\n", axis.code, axis.chapter);
    if !axis.question.is_empty() {
        out.push_str(&axis.question);
        out.push_str("\n\n");
    }
    if let Some(name) = profile {
        match axis.profiles.iter().find(|p| p.name == name) {
            Some(p) => out.push_str(&format!("**{}**\n\n", profile_markdown(p))),
            None if name == UNKNOWN_PROFILE => {
                out.push_str("**`unknown`**: not verified yet\n\n");
            }
            None => out.push_str(&format!("`{name}` is not a profile of this axis\n\n")),
        }
    }
    out.push_str("Profiles:\n\n");
    for p in &axis.profiles {
        out.push_str("- ");
        out.push_str(&profile_markdown(p));
        out.push('\n');
    }
    out
}

/// The hover of `target`.
pub(crate) fn hover(outline: &Outline, target: &Target<'_>) -> Option<Hover> {
    let (code, profile, range) = match target {
        Target::Axis { axis, range } => (*axis, None, *range),
        Target::Profile {
            axis,
            profile,
            range,
        } => (*axis, Some(*profile), *range),
        Target::Rule { id, range, note } => {
            return super::rules::hover(outline, id, *range, *note);
        }
    };
    let axis = outline.axis(code)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: axis_markdown(axis, profile),
        }),
        range: Some(range),
    })
}

/// Where the axis named at `target` is defined: the code in its heading.
pub(crate) fn definition(
    outline: &Outline,
    target: &Target<'_>,
    encoding: Encoding,
) -> Option<LspLocation> {
    let code = match target {
        Target::Axis { axis, .. } | Target::Profile { axis, .. } => *axis,
        Target::Rule { id, .. } => return super::rules::definition(outline, id, encoding),
    };
    lsp_location(&outline.axis(code)?.code_at, encoding)
}

/// Every use of axis `code`: claims, answer sites and `{{#axis}}` links, and its heading when
/// `declaration` is asked for.
pub(crate) fn references(
    outline: &Outline,
    code: &str,
    declaration: bool,
    encoding: Encoding,
) -> Vec<LspLocation> {
    let heading = outline
        .axis(code)
        .filter(|_| declaration)
        .map(|a| &a.code_at);
    let uses = outline
        .uses
        .iter()
        .filter(|u| u.code == code)
        .map(|u| &u.at);
    heading
        .into_iter()
        .chain(uses)
        .filter_map(|l| lsp_location(l, encoding))
        .collect()
}

/// The workspace edit that renames axis `old` to `new`: the code in its heading, every
/// shortcode that names it, and the link fragments that use its id when the id is the code.
/// `Err` says why not.
pub(crate) fn rename(
    outline: &Outline,
    old: &str,
    new: &str,
    encoding: Encoding,
) -> Result<WorkspaceEdit, String> {
    let Some(axis) = outline.axis(old) else {
        return Err(format!("no axis `{old}` is defined"));
    };
    if !crate::read::shortcode::is_code(new) {
        return Err(format!(
            "`{new}` is not an axis code: codes are kebab-case (lowercase letters and digits, words joined by `-`)"
        ));
    }
    if new != old && outline.axis(new).is_some() {
        return Err(format!("an axis `{new}` already exists"));
    }
    let uses = outline.uses.iter().filter(|u| u.code == old).map(|u| &u.at);
    let fragments = outline
        .fragments
        .iter()
        .filter(|f| f.code == old)
        .map(|f| &f.at);
    let places = std::iter::once(&axis.code_at).chain(uses).chain(fragments);
    Ok(replace_all(places, new, encoding))
}

/// The symbols of the file at `path`: its axes, providers and entries, in document order.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written, as `None`.
pub(crate) fn symbols(outline: &Outline, path: &Path, encoding: Encoding) -> Vec<DocumentSymbol> {
    let axes = outline.axes.iter().map(|a| {
        (
            format!("axis {}", a.code),
            SymbolKind::ENUM,
            &a.heading,
            &a.code_at,
        )
    });
    let providers = outline.providers.iter().map(|p| {
        (
            format!("provider {}", p.name),
            SymbolKind::CLASS,
            &p.heading,
            &p.heading,
        )
    });
    let entries = outline.entries.iter().map(|e| {
        (
            format!("entry {}", e.name),
            SymbolKind::FIELD,
            &e.heading,
            &e.heading,
        )
    });
    let mut symbols: Vec<DocumentSymbol> = axes
        .chain(providers)
        .chain(entries)
        .filter(|(_, _, heading, _)| same_file(heading, path))
        .map(|(name, kind, heading, selection)| DocumentSymbol {
            name,
            detail: None,
            kind,
            tags: None,
            deprecated: None,
            range: text::range(heading, encoding),
            selection_range: text::range(selection, encoding),
            children: None,
        })
        .collect();
    symbols.sort_by_key(|s| (s.range.start.line, s.range.start.character));
    symbols
}
