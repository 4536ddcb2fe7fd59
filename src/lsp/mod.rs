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
//! good outline keeps serving requests until the book loads again. To add a request: its capability in [`capabilities`], its arm
//! in [`Server::request`], and its answer in `features.rs`.

mod external;
mod features;
mod places;
mod rewrites;
mod rules;
mod text;
mod transport;

pub use external::arrival;
pub use transport::serve_stream;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Exit, LogMessage, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, Initialize,
    PrepareRenameRequest, References, Rename, Request as _, Shutdown,
};
use lsp_types::{
    CompletionOptions, CompletionResponse, Diagnostic, DiagnosticRelatedInformation,
    DiagnosticSeverity, DocumentSymbolResponse, GotoDefinitionResponse, InitializeParams,
    NumberOrString, OneOf, PrepareRenameResponse, PublishDiagnosticsParams, RenameOptions,
    ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Url,
};

use self::places::Target;
use self::text::Encoding;
use crate::pipeline::outline::Outline;
use crate::read::chapter::Overlays;
use crate::read::load::Preprocessors;
use crate::report::diagnostic::Finding;
use crate::util::vocab::Severity;

/// Runs the server on `connection` (the handshake included) until the client shuts it down
/// or the connection ends.
pub fn serve(connection: Connection) -> Result<()> {
    let Some((id, params)) = initialize(&connection)? else {
        return Ok(());
    };
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_deref());
    let encoding = Encoding::negotiate(offered);
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
    let mut server = Server {
        root: book_root(&params),
        encoding,
        overlays: Arc::default(),
        outline: Outline::default(),
        published: BTreeMap::new(),
        dirty: true,
        saved: true,
        externals: external::Externals::default(),
        shut_down: false,
        kept: Arc::default(),
        connection,
    };
    server.run()
}

/// Waits for the `initialize` request: its id and parameters, or `None` when the client exits
/// or the connection ends first. Other requests are answered ServerNotInitialized, and an
/// `initialize` whose parameters cannot be read gets InvalidParams, as LSP asks; neither ends
/// the wait.
fn initialize(connection: &Connection) -> Result<Option<(RequestId, InitializeParams)>> {
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

fn capabilities(encoding: Encoding) -> ServerCapabilities {
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
            trigger_characters: Some(vec![" ".to_owned()]),
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
fn book_root(params: &InitializeParams) -> Option<PathBuf> {
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

fn find_below(dir: &Path, depth: usize) -> Option<PathBuf> {
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
fn find_above(file: &Path) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .find(|dir| dir.join("book.toml").is_file())
        .map(crate::util::paths::lexical)
}

/// What one check of the book found, and what of it waits for the next run of the book's
/// own preprocessors.
struct Checked {
    report: crate::report::diagnostic::Report,
    outline: Outline,
    /// The book's `src` folder, absolute.
    src: PathBuf,
    held: Vec<external::Held>,
}

struct Server {
    connection: Connection,
    root: Option<PathBuf>,
    encoding: Encoding,
    /// The open documents' text, by absolute path.
    overlays: Arc<Overlays>,
    /// Where the names are, as of the last check that loaded the book.
    outline: Outline,
    /// The diagnostics last published, by document.
    published: BTreeMap<Url, Vec<Diagnostic>>,
    /// Whether a change came in since the last check.
    dirty: bool,
    /// Whether a file was saved (or changed on disk) since the book's own preprocessors last
    /// started: the next check starts them again.
    saved: bool,
    /// The runs of the book's own preprocessors (see `external.rs`).
    externals: external::Externals,
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

    fn check_if_changed(&mut self) {
        if self.dirty {
            self.dirty = false;
            self.check();
        }
    }

    /// Loads and checks the book, and publishes the diagnostics that changed. The book is
    /// loaded with mdBook's own preprocessors; what the book's own (external) ones make of it
    /// comes from their last run (see `external.rs`), which a save starts again.
    fn check(&mut self) {
        let Some(root) = self.root.clone() else {
            return;
        };
        let overlays = Arc::clone(&self.overlays);
        let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.check_with_runs(&root, &overlays)
        }));
        let diagnostics = match checked {
            Ok(Ok(None)) => return,
            Ok(Ok(Some(checked))) => self.diagnostics_of(&root, checked),
            Ok(Err(error)) => {
                let (uri, diagnostic) = self.unloadable(&root, &format!("{error:#}"));
                BTreeMap::from([(uri, vec![diagnostic])])
            }
            Err(_) => {
                let message = format!(
                    "internal error: mdbook-contract {} panicked while checking the book; this is a bug (please report it with the book)",
                    env!("CARGO_PKG_VERSION")
                );
                let (uri, diagnostic) = self.unloadable(&root, &message);
                BTreeMap::from([(uri, vec![diagnostic])])
            }
        };
        self.publish(diagnostics);
    }

    /// The diagnostics of a checked book by document, what the baseline records as hints; a
    /// document whose findings wait for the book's preprocessors keeps what was published.
    fn diagnostics_of(&mut self, root: &Path, checked: Checked) -> BTreeMap<Url, Vec<Diagnostic>> {
        let Checked {
            report,
            outline,
            src,
            held,
        } = checked;
        self.outline = outline;
        let mut diagnostics: BTreeMap<Url, Vec<Diagnostic>> = BTreeMap::new();
        let mut kept = Vec::new();
        let mut lines = Vec::new();
        for held in held {
            match held {
                external::Held::All(path) => kept.push(src.join(path)),
                external::Held::Lines(path, range) => lines.push((src.join(path), range)),
            }
        }
        // What the baseline records is shown as a hint: known, not failing the build.
        let known = report.known.iter().map(|f| (f, true));
        for (finding, baselined) in report.findings.iter().map(|f| (f, false)).chain(known) {
            let path = if finding.location.path.is_absolute() {
                finding.location.path.clone()
            } else {
                root.join(&finding.location.path)
            };
            // Held for the next run of the book's preprocessors.
            let waits = kept.contains(&path)
                || lines
                    .iter()
                    .any(|(file, range)| *file == path && range.contains(&finding.location.line));
            if waits {
                continue;
            }
            if let Ok(uri) = Url::from_file_path(&path) {
                let mut diagnostic = self.diagnostic(finding, &uri);
                if baselined {
                    diagnostic.severity = Some(DiagnosticSeverity::HINT);
                    diagnostic
                        .message
                        .push_str("\nnote: known: the baseline records it");
                }
                diagnostics.entry(uri).or_default().push(diagnostic);
            }
        }
        for path in kept {
            if let Ok(uri) = Url::from_file_path(&path)
                && let Some(last) = self.published.get(&uri)
            {
                diagnostics.insert(uri, last.clone());
            }
        }
        diagnostics
    }

    /// Publishes each document's diagnostics that changed, and an empty list for each that
    /// had some and has none now.
    fn publish(&mut self, mut diagnostics: BTreeMap<Url, Vec<Diagnostic>>) {
        let gone: Vec<Url> = self
            .published
            .keys()
            .filter(|uri| !diagnostics.contains_key(*uri))
            .cloned()
            .collect();
        for uri in gone {
            diagnostics.insert(uri, Vec::new());
        }
        for (uri, list) in diagnostics {
            if self.published.get(&uri) == Some(&list) {
                continue;
            }
            let params = PublishDiagnosticsParams::new(uri.clone(), list.clone(), None);
            let note = Notification::new(PublishDiagnostics::METHOD.to_owned(), params);
            let _ = self.connection.sender.send(note.into());
            if list.is_empty() {
                self.published.remove(&uri);
            } else {
                self.published.insert(uri, list);
            }
        }
    }

    /// The check of [`Server::check`]: `None` while the first run of the book's own
    /// preprocessors is still under way (nothing is published before it is in).
    fn check_with_runs(
        &mut self,
        root: &Path,
        overlays: &Arc<Overlays>,
    ) -> Result<Option<Checked>> {
        let (ctx, links) =
            crate::read::load::load_for_editor(root, overlays, Preprocessors::MdbookOnly)?;
        let src = ctx.root.join(&ctx.config.book.src);
        if crate::read::chapter::external_preprocessors(&ctx.config).is_empty() {
            self.externals.cancel();
            let (report, outline) =
                crate::pipeline::for_editor(&ctx, &links, Arc::clone(overlays), &self.kept)?;
            return Ok(Some(Checked {
                report,
                outline,
                src,
                held: Vec::new(),
            }));
        }
        if std::mem::take(&mut self.saved) {
            self.externals.start(root, overlays);
        }
        if let Some(error) = &self.externals.failed {
            anyhow::bail!("{error}");
        }
        let Some(arrival) = &self.externals.arrival else {
            // The outline serves requests meanwhile.
            if let Ok((_, outline)) =
                crate::pipeline::for_editor(&ctx, &links, Arc::clone(overlays), &self.kept)
            {
                self.outline = outline;
            }
            return Ok(None);
        };
        let (book, held) = arrival.current(&links, |path| self.text_of(&src.join(path)));
        let (report, outline) =
            crate::pipeline::for_editor(&ctx, &book, Arc::clone(overlays), &self.kept)?;
        Ok(Some(Checked {
            report,
            outline,
            src,
            held,
        }))
    }

    fn diagnostic(&self, finding: &Finding, uri: &Url) -> Diagnostic {
        let location = &finding.location;
        let range = text::range(location, self.encoding);
        let mut message = finding.message.clone();
        if let Some(note) = &location.note {
            message.push_str("\nnote: ");
            message.push_str(note);
        }
        let mut related = Vec::new();
        if let Some(help) = &finding.help {
            related.push(DiagnosticRelatedInformation {
                location: lsp_types::Location::new(uri.clone(), range),
                message: format!("help: {help}"),
            });
        }
        for note in &finding.notes {
            match self.note_location(note) {
                Some((label, location)) => related.push(DiagnosticRelatedInformation {
                    location,
                    message: label,
                }),
                None => {
                    message.push_str("\nnote: ");
                    message.push_str(note);
                }
            }
        }
        Diagnostic {
            range,
            severity: Some(match finding.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                _ => DiagnosticSeverity::WARNING,
            }),
            code: Some(NumberOrString::String(finding.check.name().to_owned())),
            source: Some(env!("CARGO_PKG_NAME").to_owned()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..Diagnostic::default()
        }
    }

    /// A note as `resolve` writes it, `label: path:line:col`, as a label and a place.
    fn note_location(&self, note: &str) -> Option<(String, lsp_types::Location)> {
        let mut parts = note.rsplitn(3, ':');
        let column: usize = parts.next()?.trim().parse().ok()?;
        let line: usize = parts.next()?.trim().parse().ok()?;
        let (label, path) = parts.next()?.split_once(": ")?;
        let path = PathBuf::from(path);
        let path = match &self.root {
            Some(root) if path.is_relative() => root.join(path),
            _ => path,
        };
        let uri = Url::from_file_path(&path).ok()?;
        let text = self.text_of(&path);
        let line_text = text.lines().nth(line.saturating_sub(1)).unwrap_or("");
        let location = crate::read::sourcemap::Location {
            path,
            line,
            column,
            width: 1,
            line_text: line_text.to_owned(),
            note: None,
        };
        Some((
            label.to_owned(),
            lsp_types::Location::new(uri, text::range(&location, self.encoding)),
        ))
    }

    /// The diagnostic of a book that cannot be loaded: on book.toml, at the key the message
    /// names when it names one, else at the top.
    fn unloadable(&self, root: &Path, message: &str) -> (Url, Diagnostic) {
        let toml = root.join("book.toml");
        let text = self.text_of(&toml);
        let key = message
            .split('`')
            .find_map(|part| part.strip_prefix("preprocessor.contract."))
            .map(|key| key.split(['.', '[']).next().unwrap_or(key));
        let location = crate::report::resolve::key_location(
            toml.clone(),
            &text,
            &crate::read::config::KeyPath::key(key.unwrap_or("")),
        );
        let uri = Url::from_file_path(&toml)
            .unwrap_or_else(|()| Url::parse("file:///book.toml").expect("a valid URL"));
        let diagnostic = Diagnostic {
            range: text::range(&location, self.encoding),
            severity: Some(DiagnosticSeverity::ERROR),
            code: Some(NumberOrString::String("book".to_owned())),
            source: Some(env!("CARGO_PKG_NAME").to_owned()),
            message: format!("the book cannot be loaded: {message}"),
            ..Diagnostic::default()
        };
        (uri, diagnostic)
    }

    /// Answers a request by its method; one the server does not serve is an error.
    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            Completion::METHOD => self.with_position(request, |s, path, text, position| {
                let _ = path;
                let items = features::completion(&s.outline, text, position, s.encoding);
                json(CompletionResponse::Array(items))
            }),
            HoverRequest::METHOD => self.with_position(request, |s, path, _, position| {
                let hover = features::target(&s.outline, path, position, s.encoding)
                    .and_then(|t| features::hover(&s.outline, &t));
                json(hover)
            }),
            GotoDefinition::METHOD => self.with_position(request, |s, path, _, position| {
                let at = features::target(&s.outline, path, position, s.encoding)
                    .and_then(|t| features::definition(&s.outline, &t, s.encoding))
                    .map(GotoDefinitionResponse::Scalar);
                json(at)
            }),
            References::METHOD => self.references(request),
            PrepareRenameRequest::METHOD => self.prepare_rename(request),
            Rename::METHOD => self.rename(request),
            DocumentSymbolRequest::METHOD => self.document_symbols(&request),
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("`{}` is not served", request.method),
            )),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    /// The places that name the axis, profile or rule at the position (with its definition
    /// unless the request leaves it out).
    fn references(&mut self, request: Request) -> Answer {
        let declaration = request
            .params
            .pointer("/context/includeDeclaration")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(true);
        self.with_position(request, move |s, path, _, position| {
            let found = match features::target(&s.outline, path, position, s.encoding) {
                Some(Target::Axis { axis, .. } | Target::Profile { axis, .. }) => Some(
                    features::references(&s.outline, axis, declaration, s.encoding),
                ),
                Some(Target::Rule { id, .. }) => {
                    Some(rules::references(&s.outline, id, declaration, s.encoding))
                }
                None => None,
            };
            json(found)
        })
    }

    /// The range and name of the axis code or rule ID at the position, if one is there.
    fn prepare_rename(&mut self, request: Request) -> Answer {
        self.with_position(request, |s, path, _, position| {
            let answer = match features::target(&s.outline, path, position, s.encoding) {
                Some(Target::Axis { axis: name, range } | Target::Rule { id: name, range }) => {
                    Some(PrepareRenameResponse::RangeWithPlaceholder {
                        range,
                        placeholder: name.to_owned(),
                    })
                }
                _ => None,
            };
            json(answer)
        })
    }

    /// The edit that renames the axis code or rule ID at the position everywhere it is
    /// written, or why it cannot.
    fn rename(&mut self, request: Request) -> Answer {
        let new_name = request
            .params
            .get("newName")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_owned();
        self.with_position(request, move |s, path, _, position| match features::target(
            &s.outline, path, position, s.encoding,
        ) {
            Some(Target::Axis { axis, .. }) => {
                match features::rename(&s.outline, axis, &new_name, s.encoding) {
                    Ok(edit) => json(edit),
                    Err(why) => Err((ErrorCode::RequestFailed, why)),
                }
            }
            Some(Target::Rule { id, .. }) => {
                match rules::rename(&s.outline, id, &new_name, s.encoding) {
                    Ok(edit) => json(edit),
                    Err(why) => Err((ErrorCode::RequestFailed, why)),
                }
            }
            _ => Err((
                ErrorCode::RequestFailed,
                "only an axis code or a rule ID can be renamed here".to_owned(),
            )),
        })
    }

    /// The outline of the document the request names.
    fn document_symbols(&self, request: &Request) -> Answer {
        let uri = request
            .params
            .pointer("/textDocument/uri")
            .and_then(|u| serde_json::from_value::<Url>(u.clone()).ok());
        match uri.map(|uri| uri.to_file_path()) {
            Some(Ok(path)) => {
                let symbols = features::symbols(&self.outline, &path, self.encoding);
                json(DocumentSymbolResponse::Nested(symbols))
            }
            // An untitled buffer is in no book.
            Some(Err(())) => Ok(serde_json::Value::Null),
            None => Err((ErrorCode::InvalidParams, "no document URI".to_owned())),
        }
    }

    /// Answers a request about a position in a document: `answer` gets the document's path,
    /// its text (the overlay, else the file) and the position.
    fn with_position(
        &mut self,
        request: Request,
        answer: impl FnOnce(&Server, &Path, &str, lsp_types::Position) -> Answer,
    ) -> Answer {
        let params: lsp_types::TextDocumentPositionParams =
            match serde_json::from_value(request.params.clone()) {
                Ok(params) => params,
                Err(error) => return Err((ErrorCode::InvalidParams, error.to_string())),
            };
        let Ok(path) = params.text_document.uri.to_file_path() else {
            // An untitled buffer (`untitled:`) is in no book: nothing to answer, as for any
            // place that holds nothing of ours.
            return Ok(serde_json::Value::Null);
        };
        let path = crate::util::paths::lexical(&path);
        let text = self.text_of(&path);
        answer(self, &path, &text, params.position)
    }
}

/// A request's answer: a value, or an error's code and message.
type Answer = Result<serde_json::Value, (ErrorCode, String)>;

fn json(value: impl serde::Serialize) -> Answer {
    serde_json::to_value(value).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}
