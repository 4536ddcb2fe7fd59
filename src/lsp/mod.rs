//! `mdbook-contract lsp`: a language server for the book's Markdown, over stdio.
//!
//! Built on rust-analyzer's `lsp-server` (the transport, the handshake, shutdown) and
//! `lsp-types`, with one thread and no async runtime. The server finds book.toml from the
//! workspace root, keeps every open document's text as an overlay, and after each batch of
//! changes loads the book as `check` does ([`crate::read::load`], overlays read in place of the
//! files) and runs every check ([`crate::pipeline`]). That is a few milliseconds for a book of
//! this size, so each change re-checks the whole book, which is what keeps the appendix's
//! diagnostics right when the contract changes; only the files whose diagnostics changed are
//! published again. The answers to requests come from the [`Outline`] of the last check.
//!
//! A mistake in `[preprocessor.contract]` is a finding like any other (see
//! [`crate::read::config::Problem`]). A book that cannot be loaded (book.toml that is not TOML, a
//! chapter SUMMARY.md names that does not exist) is one diagnostic on book.toml, and the last
//! good outline keeps serving requests until the book loads again.
//!
//! This file holds the session (the overlays, the notifications, the loop); `handshake.rs` the
//! start, `diagnostics.rs` the checks and what they publish, `requests.rs` the requests'
//! dispatch. To add a request: its capability in `handshake.rs`'s `capabilities`, its arm in
//! `requests.rs`'s `Server::request`, and its answer in `features.rs`.

mod diagnostics;
mod external;
mod features;
mod handshake;
mod places;
mod requests;
mod rewrites;
mod rules;
mod text;
mod transport;
mod uris;

pub use external::arrival;
pub use transport::serve_stream;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;
use lsp_server::{Connection, ErrorCode, Message, Notification, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Exit, LogMessage, Notification as _,
};
use lsp_types::request::{Request as _, Shutdown};
use lsp_types::{Diagnostic, ServerInfo, Url};

use self::handshake::{book_root, capabilities, find_above, initialize};
use self::text::Encoding;
use crate::pipeline::outline::Outline;
use crate::read::chapter::Overlays;

/// Runs the server on `connection` (the handshake included) until the client shuts it down
/// or the connection ends.
pub fn serve(connection: Connection, commands: crate::read::load::Commands) -> Result<()> {
    // Every check reads the source tree again: an unchanged file is not read twice.
    crate::read::code::keep_reads();
    let Some((id, params)) = initialize(&connection)? else {
        return Ok(());
    };
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_deref());
    let encoding = Encoding::negotiate(offered);
    let snippets = params
        .capabilities
        .text_document
        .as_ref()
        .and_then(|t| t.completion.as_ref())
        .and_then(|c| c.completion_item.as_ref())
        .and_then(|i| i.snippet_support)
        .unwrap_or(false);
    let result = serde_json::json!({
        "capabilities": capabilities(encoding),
        "serverInfo": ServerInfo {
            name: env!("CARGO_PKG_NAME").to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        },
    });
    // The `initialized` notification that follows is not waited for: a client that sends
    // something else first is served all the same.
    connection
        .sender
        .send(Response::new_ok(id, result).into())?;
    let mut uris = uris::Uris::default();
    #[allow(deprecated)] // `root_uri` is what clients without workspace folders send.
    for folder in params.root_uri.iter().chain(
        params
            .workspace_folders
            .iter()
            .flatten()
            .map(|folder| &folder.uri),
    ) {
        uris.note_folder(folder);
    }
    let mut server = Server {
        root: book_root(&params),
        uris,
        encoding,
        snippets,
        overlays: Arc::default(),
        outline: Outline::default(),
        published: BTreeMap::new(),
        dirty: true,
        saved: true,
        externals: external::Externals::default(),
        commands,
        told: None,
        shut_down: false,
        kept: Arc::default(),
        connection,
    };
    server.run()
}

struct Server {
    connection: Connection,
    root: Option<PathBuf>,
    encoding: Encoding,
    /// Whether the client takes completions as snippets with placeholders.
    snippets: bool,
    /// The open documents' text, by absolute path.
    overlays: Arc<Overlays>,
    /// Where the names are, as of the last check that loaded the book.
    outline: Outline,
    /// The diagnostics last published, by document.
    published: BTreeMap<Url, Vec<Diagnostic>>,
    /// How the editor spells the URIs of files: every URI sent is spelled so.
    uris: uris::Uris,
    /// Whether a change came in since the last check.
    dirty: bool,
    /// Whether a file was saved (or changed on disk) since the book's own preprocessors last
    /// started: the next check starts them again.
    saved: bool,
    /// The runs of the book's own preprocessors (see `external.rs`).
    externals: external::Externals,
    /// Whether they run at all (`lsp --allow-commands`).
    commands: crate::read::load::Commands,
    /// What the editor was last told of the commands left out.
    told: Option<String>,
    /// Whether the client sent `shutdown`: from then on only `exit` is taken.
    shut_down: bool,
    /// What a check leaves for the next (see `kept.rs`).
    kept: Arc<crate::read::kept::Kept>,
}

impl Server {
    fn run(&mut self) -> Result<()> {
        // The book as on disk, before the first document is opened.
        self.check_if_changed();
        loop {
            let runs = self.externals.receiver.clone();
            crossbeam_channel::select! {
                recv(self.connection.receiver) -> message => {
                    // The editor closed the connection without `exit`: nothing is left to
                    // serve.
                    let Ok(message) = message else {
                        return Ok(());
                    };
                    if self.handle(message)? {
                        return self.exited();
                    }
                }
                recv(runs) -> finished => {
                    if let Ok(finished) = finished
                        && self.externals.finished(finished)
                    {
                        self.dirty = true;
                    }
                }
            }
            // Every change already queued is taken in before checking once.
            while let Ok(message) = self.connection.receiver.try_recv() {
                if self.handle(message)? {
                    return self.exited();
                }
            }
            self.check_if_changed();
        }
    }

    /// The end on `exit`: an error when `shutdown` did not come first, so that the process
    /// exits 1, as LSP asks.
    fn exited(&self) -> Result<()> {
        if self.shut_down {
            Ok(())
        } else {
            anyhow::bail!("the client sent `exit` before `shutdown`")
        }
    }

    /// Handles one message; `true` once the client has asked the server to exit.
    fn handle(&mut self, message: Message) -> Result<bool> {
        match message {
            Message::Request(request) => {
                let response = if self.shut_down {
                    Response::new_err(
                        request.id,
                        ErrorCode::InvalidRequest as i32,
                        format!(
                            "`{}` after `shutdown`: only `exit` is taken now",
                            request.method
                        ),
                    )
                } else if request.method == Shutdown::METHOD {
                    self.shut_down = true;
                    Response::new_ok(request.id, ())
                } else {
                    // An answer reflects every change received before the request.
                    self.check_if_changed();
                    let id = request.id.clone();
                    let method = request.method.clone();
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.request(request)
                    }))
                    .unwrap_or_else(|_| {
                        Response::new_err(
                            id,
                            ErrorCode::InternalError as i32,
                            format!(
                                "internal error: mdbook-contract {} panicked while answering `{method}`; this is a bug (please report it with the book)",
                                env!("CARGO_PKG_VERSION")
                            ),
                        )
                    })
                };
                self.connection.sender.send(response.into())?;
            }
            Message::Notification(n) if n.method == Exit::METHOD => return Ok(true),
            Message::Notification(_) if self.shut_down => {}
            Message::Notification(notification) => self.notification(notification),
            Message::Response(_) => {}
        }
        Ok(false)
    }

    fn notification(&mut self, notification: Notification) {
        let method = notification.method.clone();
        let read = match method.as_str() {
            DidOpenTextDocument::METHOD => serde_json::from_value::<
                lsp_types::DidOpenTextDocumentParams,
            >(notification.params)
            .map(|params| {
                self.set_overlay(&params.text_document.uri, Some(params.text_document.text));
            }),
            DidChangeTextDocument::METHOD => serde_json::from_value::<
                lsp_types::DidChangeTextDocumentParams,
            >(notification.params)
            .map(|params| {
                // Full sync: the last change holds the whole text.
                if let Some(change) = params.content_changes.into_iter().last() {
                    self.set_overlay(&params.text_document.uri, Some(change.text));
                }
            }),
            DidCloseTextDocument::METHOD => {
                serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(notification.params)
                    .map(|params| self.set_overlay(&params.text_document.uri, None))
            }
            DidSaveTextDocument::METHOD | DidChangeWatchedFiles::METHOD => {
                self.dirty = true;
                self.saved = true;
                Ok(())
            }
            _ => Ok(()),
        };
        // A notification has no reply; the editor's log is where a bad one is told.
        if let Err(error) = read {
            let params = lsp_types::LogMessageParams {
                typ: lsp_types::MessageType::WARNING,
                message: format!(
                    "mdbook-contract: `{method}` was not taken, its parameters cannot be read: {error}"
                ),
            };
            let note = Notification::new(LogMessage::METHOD.to_owned(), params);
            let _ = self.connection.sender.send(note.into());
        }
    }

    fn set_overlay(&mut self, uri: &Url, text: Option<String>) {
        let Ok(path) = uri.to_file_path() else {
            return;
        };
        let path = crate::util::paths::lexical(&path);
        if text.is_some() {
            self.uris.note_document(&path, uri);
        }
        if self.root.is_none() {
            self.root = find_above(&path);
        }
        let overlays = Arc::make_mut(&mut self.overlays);
        match text {
            Some(text) => {
                overlays.insert(path, text);
            }
            None => {
                overlays.remove(&path);
            }
        }
        self.dirty = true;
    }

    /// The text of the file at `path` as the editor has it: its overlay, else what is on disk
    /// (empty when it cannot be read).
    fn text_of(&self, path: &Path) -> String {
        self.overlays
            .get(&crate::util::paths::lexical(path))
            .cloned()
            .or_else(|| std::fs::read_to_string(path).ok())
            .unwrap_or_default()
    }
}
