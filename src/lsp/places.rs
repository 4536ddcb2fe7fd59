//! Where things are, in the editor's terms: what the cursor is on ([`Target`]), a place of the
//! book as an LSP location, and one edit that writes a name at many places. Shared by the
//! requests on axes (`features.rs`) and on rules (`rules.rs`).

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{Location as LspLocation, Range, TextEdit, Url, WorkspaceEdit};

use super::text::{self, Encoding};
use crate::read::sourcemap::Location;

/// What the cursor is on.
pub(crate) enum Target<'o> {
    /// An axis code: in a shortcode, or in the axis's own heading.
    Axis { axis: &'o str, range: Range },
    /// The profile of a claim.
    Profile {
        axis: &'o str,
        profile: &'o str,
        range: Range,
    },
    /// A rule ID: in its marker, a `{{#rule}}`, or a citation in code (with what to know of
    /// that use).
    Rule {
        id: &'o str,
        range: Range,
        note: Option<&'o str>,
    },
}

pub(super) fn same_file(location: &Location, path: &Path) -> bool {
    crate::util::paths::lexical(&location.path) == crate::util::paths::lexical(path)
}

pub(super) fn lsp_location(location: &Location, encoding: Encoding) -> Option<LspLocation> {
    let uri = Url::from_file_path(&location.path).ok()?;
    Some(LspLocation::new(uri, text::range(location, encoding)))
}

/// One workspace edit that writes `new` at each of `places` (once each).
pub(super) fn replace_all<'l>(
    places: impl Iterator<Item = &'l Location>,
    new: &str,
    encoding: Encoding,
) -> WorkspaceEdit {
    let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
    for at in places.filter_map(|l| lsp_location(l, encoding)) {
        let edits = changes.entry(at.uri).or_default();
        let edit = TextEdit::new(at.range, new.to_owned());
        if !edits.contains(&edit) {
            edits.push(edit);
        }
    }
    WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    }
}
