//! The URIs of files as the editor spells them.
//!
//! A file has many `file:` URIs: `url` writes `file:///C:/a%20b/caf%C3%A9.md`, VS Code sends
//! `file:///c%3A/a%20b/caf%C3%A9.md`, another client `caf%c3%a9`. Clients that key documents
//! by the URI's text (vim-lsp, some agents) find a diagnostic or a location only under the
//! spelling they sent. So a document the editor opened is answered with the very URI it was
//! opened with, and any other file, on Windows, with its drive written as the editor writes
//! drives (from the workspace's root or the last document it opened).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::{Location, Url, WorkspaceEdit};

use crate::util::paths::lexical;

/// What the editor's URIs look like.
#[derive(Debug, Default)]
pub(super) struct Uris {
    /// The URI each document was opened with, by its path (as [`lexical`] writes it).
    opened: HashMap<PathBuf, Url>,
    /// How the editor writes a drive (`c%3A`, `C:`), from the last URI it sent with one.
    drive: Option<String>,
}

impl Uris {
    /// Notes a URI the editor sent for a folder (the workspace's root): how it writes a drive.
    pub(super) fn note_folder(&mut self, uri: &Url) {
        if let Some(drive) = drive(uri.as_str()) {
            self.drive = Some(drive.to_owned());
        }
    }

    /// Notes `uri`, a document the editor opened or changed, which is the file at `path`.
    pub(super) fn note_document(&mut self, path: &Path, uri: &Url) {
        self.note_folder(uri);
        self.opened.insert(lexical(path), uri.clone());
    }

    /// The URI of the file at `path`, as the editor spells it; none for a path that is no URI.
    pub(super) fn of(&self, path: &Path) -> Option<Url> {
        let path = lexical(path);
        if let Some(uri) = self.opened.get(&path) {
            return Some(uri.clone());
        }
        let uri = Url::from_file_path(&path).ok()?;
        Some(match &self.drive {
            Some(drive) if cfg!(windows) => {
                Url::parse(&with_drive(uri.as_str(), drive)).unwrap_or(uri)
            }
            _ => uri,
        })
    }

    /// `uri`, made by this server from a path, as the editor spells it.
    fn respelled(&self, uri: Url) -> Url {
        uri.to_file_path()
            .ok()
            .and_then(|path| self.of(&path))
            .unwrap_or(uri)
    }

    /// `location` with its URI as the editor spells it.
    pub(super) fn location(&self, location: Location) -> Location {
        Location::new(self.respelled(location.uri), location.range)
    }

    /// `edit` with every file's URI as the editor spells it.
    pub(super) fn edit(&self, edit: WorkspaceEdit) -> WorkspaceEdit {
        WorkspaceEdit {
            changes: edit.changes.map(|changes| {
                changes
                    .into_iter()
                    .map(|(uri, edits)| (self.respelled(uri), edits))
                    .collect()
            }),
            ..edit
        }
    }
}

/// The drive of a `file:` URI as written: `c%3A` in `file:///c%3A/x`, `C:` in `file:///C:/x`;
/// none for a URI without one.
fn drive(uri: &str) -> Option<&str> {
    let rest = uri.strip_prefix("file:///")?;
    let segment = rest.split('/').next()?;
    let mut chars = segment.chars();
    let letter = chars.next()?;
    let colon = chars.as_str();
    (letter.is_ascii_alphabetic() && (colon == ":" || colon.eq_ignore_ascii_case("%3A")))
        .then_some(segment)
}

/// `uri` with its drive written the way `like` (another drive, as [`drive`] reads it) is: the
/// letter's case and the colon, bare or percent-encoded. Unchanged without a drive.
fn with_drive(uri: &str, like: &str) -> String {
    let (Some(own), Some(first)) = (drive(uri), like.chars().next()) else {
        return uri.to_owned();
    };
    let letter = own.chars().next().unwrap_or(first);
    let letter = if first.is_ascii_lowercase() {
        letter.to_ascii_lowercase()
    } else {
        letter.to_ascii_uppercase()
    };
    let colon = &like[first.len_utf8()..];
    let rest = &uri["file:///".len() + own.len()..];
    format!("file:///{letter}{colon}{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drive_is_read_as_the_editor_wrote_it() {
        assert_eq!(drive("file:///c%3A/Users/me/caf%C3%A9.md"), Some("c%3A"));
        assert_eq!(drive("file:///C:/Users/a%20b"), Some("C:"));
        assert_eq!(drive("file:///d%3a/x"), Some("d%3a"));
        assert_eq!(drive("file:///home/me/a.md"), None);
        assert_eq!(drive("file:///c/x"), None);
        assert_eq!(drive("https://c:/x"), None);
    }

    #[test]
    fn a_uri_takes_the_editors_drive_spelling_and_keeps_the_rest() {
        let vscode = "c%3A";
        assert_eq!(
            with_drive("file:///C:/Users/me/a%20b/caf%C3%A9.md", vscode),
            "file:///c%3A/Users/me/a%20b/caf%C3%A9.md"
        );
        assert_eq!(with_drive("file:///c%3A/x.md", "D:"), "file:///C:/x.md");
        assert_eq!(with_drive("file:///home/x.md", vscode), "file:///home/x.md");
        // The spelling parses back to the same file.
        let url = Url::parse(&with_drive("file:///C:/x/caf%C3%A9.md", vscode)).unwrap();
        assert_eq!(url.as_str(), "file:///c%3A/x/caf%C3%A9.md");
    }

    #[test]
    fn an_opened_document_is_answered_with_its_own_uri() {
        let dir = std::path::absolute("book").unwrap();
        let file = dir.join("src").join("café.md");
        let sent = Url::from_file_path(&file)
            .unwrap()
            .as_str()
            .replace("%C3%A9", "%c3%a9");
        let sent = Url::parse(&sent).unwrap();
        let mut uris = Uris::default();
        assert_eq!(uris.of(&file), Url::from_file_path(&file).ok());
        uris.note_document(&file, &sent);
        assert_eq!(uris.of(&dir.join("src/./café.md")), Some(sent.clone()));
        let ours = Url::from_file_path(&file).unwrap();
        let range = lsp_types::Range::default();
        assert_eq!(uris.location(Location::new(ours, range)).uri, sent);
    }
}
