//! The start of a session: `initialize` answered with the server's capabilities and the
//! position encoding agreed, and the book found from the workspace (its book.toml at the root,
//! below it or above an open file).

use std::path::{Path, PathBuf};

use anyhow::Result;
use lsp_server::{Connection, ErrorCode, Message, RequestId, Response};
use lsp_types::notification::{Exit, Notification as _};
use lsp_types::request::{Initialize, Request as _};
use lsp_types::{
    CompletionOptions, InitializeParams, OneOf, RenameOptions, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions,
};

use super::text::Encoding;

/// Waits for the `initialize` request: its id and parameters, or `None` when the client exits
/// or the connection ends first. Other requests are answered ServerNotInitialized, and an
/// `initialize` whose parameters cannot be read gets InvalidParams, as LSP asks; neither ends
/// the wait.
pub(super) fn initialize(connection: &Connection) -> Result<Option<(RequestId, InitializeParams)>> {
    while let Ok(message) = connection.receiver.recv() {
        let reply = match message {
            Message::Request(request) if request.method == Initialize::METHOD => {
                match serde_json::from_value::<InitializeParams>(request.params) {
                    Ok(params) => return Ok(Some((request.id, params))),
                    Err(error) => Response::new_err(
                        request.id,
                        ErrorCode::InvalidParams as i32,
                        format!("the parameters of `initialize` cannot be read: {error}"),
                    ),
                }
            }
            Message::Request(request) => Response::new_err(
                request.id,
                ErrorCode::ServerNotInitialized as i32,
                format!(
                    "`{}` before `initialize`: the server is not initialized yet",
                    request.method
                ),
            ),
            Message::Notification(n) if n.method == Exit::METHOD => return Ok(None),
            _ => continue,
        };
        connection.sender.send(reply.into())?;
    }
    Ok(None)
}

pub(super) fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![" ".to_owned(), "#".to_owned()]),
            ..CompletionOptions::default()
        }),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// The folder of the book: the workspace's first folder (or root) if book.toml is there, else
/// the first folder under it, two levels deep at most, that has one (hidden folders, `target`
/// and `node_modules` skipped). `None` until a document under a book is opened.
pub(super) fn book_root(params: &InitializeParams) -> Option<PathBuf> {
    #[allow(deprecated)] // `root_uri` is what clients without workspace folders send.
    let folders = params
        .workspace_folders
        .iter()
        .flatten()
        .map(|f| f.uri.clone())
        .chain(params.root_uri.clone());
    for uri in folders {
        if let Ok(dir) = uri.to_file_path()
            && let Some(root) = find_below(&dir, 2)
        {
            return Some(root);
        }
    }
    None
}

pub(super) fn find_below(dir: &Path, depth: usize) -> Option<PathBuf> {
    if dir.join("book.toml").is_file() {
        return Some(crate::util::paths::lexical(dir));
    }
    if depth == 0 {
        return None;
    }
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            !name.starts_with('.') && name != "target" && name != "node_modules"
        })
        .collect();
    subdirs.sort();
    subdirs.iter().find_map(|d| find_below(d, depth - 1))
}

/// The folder above `file` (itself included) that holds book.toml.
pub(super) fn find_above(file: &Path) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .find(|dir| dir.join("book.toml").is_file())
        .map(crate::util::paths::lexical)
}
