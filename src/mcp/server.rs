//! The server's side of the protocol, on rmcp's `ServerHandler`: what it says of itself at
//! `initialize`, `tools/list`, and `tools/call`, which loads the book if it changed, answers,
//! and says what changed since the previous call.
//!
//! A call runs on tokio's blocking pool (loading a book runs its preprocessors and reads the
//! source tree), inside [`crate::util::guard::catch`]: a panic is an error result of that call, and
//! the server reads on.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    Implementation, InitializeResult, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};

use super::changes;
use super::tools;
use super::watch::{State, Watch};

/// What the server says an agent can do with it.
const INSTRUCTIONS: &str = "The contract of an mdBook documented with mdbook-contract: axes of variation with their profiles, providers and their claims, rules (`r[ID]`) with their coverage by the code and tests, filled specs and their open entries, and the book's findings. Start with `contract_overview`. To start a new provider: `contract_new_spec` writes its spec, `contract_provider` lists its open entries and the rules its claimed profiles bind it to, `contract_brief` gives everything needed to build it (by `section`). While building: `contract_uncovered` lists the rules still lacking a passing test, `contract_rules` filters the rules, `contract_check` says what the book's build would report. Every answer follows the files on disk and says what changed since the previous call; every path is from the repository's root.";

/// What one client last saw of the book: the state of its previous call, and the last one of
/// its calls that found the book loaded (what changed is told against it when the book loads
/// again after a failure).
#[derive(Default)]
pub(crate) struct Seen {
    last: Option<Arc<State>>,
    loaded: Option<Arc<State>>,
    /// The note on the book's commands left out that this client was last told.
    told: Option<String>,
}

/// One client's server: the book, and what this client last saw of it.
pub(crate) struct Server {
    watch: Arc<Mutex<Watch>>,
    seen: Arc<Mutex<Seen>>,
    dir: PathBuf,
}

impl Server {
    pub(crate) fn new(dir: PathBuf, commands: crate::read::load::Commands) -> Server {
        Server {
            watch: Arc::new(Mutex::new(Watch::new(dir.clone(), commands))),
            seen: Arc::new(Mutex::new(Seen::default())),
            dir,
        }
    }
}

/// A lock that a panic while it was held does not make unusable: what it guards is replaced
/// whole, never left half-changed.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl ServerHandler for Server {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                env!("CARGO_PKG_NAME"),
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // One page: a cursor is none of its pages, and answering the list anyway would hide
        // the client's mistake.
        if let Some(cursor) = request.and_then(|r| r.cursor) {
            return Err(ErrorData::invalid_params(
                format!(
                    "`{}` is not a cursor of `tools/list`: the list is one page (no `nextCursor`); ask without a cursor",
                    crate::mcp::answers::echoed(&cursor)
                ),
                None,
            ));
        }
        Ok(ListToolsResult::with_all_items(tools::list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.into_owned();
        if !tools::exists(&name) {
            let names = tools::names();
            let hint = crate::util::suggest::hint(&name, names.iter().map(String::as_str));
            return Err(ErrorData::invalid_params(
                format!(
                    "no tool `{name}`{hint} (the tools are {})",
                    names.join(", ")
                ),
                None,
            ));
        }
        let arguments = request.arguments.unwrap_or_default();
        let (watch, seen, dir) = (
            Arc::clone(&self.watch),
            Arc::clone(&self.seen),
            self.dir.clone(),
        );
        let work = move || {
            crate::util::guard::catch(|| answer(&watch, &seen, &dir, &name, arguments))
                .unwrap_or_else(|panic| {
                    text_result(
                        format!(
                            "internal error: {}; the book is not at fault, this is a bug of mdbook-contract {} (please report it)",
                            panic.0,
                            env!("CARGO_PKG_VERSION")
                        ),
                        true,
                    )
                })
        };
        match tokio::task::spawn_blocking(work).await {
            Ok(result) => Ok(result.into()),
            Err(error) => Err(ErrorData::internal_error(error.to_string(), None)),
        }
    }
}

/// The answer to a call of the tool `name` (one that exists).
fn answer(
    watch: &Mutex<Watch>,
    seen: &Mutex<Seen>,
    dir: &std::path::Path,
    name: &str,
    arguments: rmcp::model::JsonObject,
) -> CallToolResult {
    let state = lock(watch).current();
    let mut changed = lock(seen).update(&state);
    if let State::Loaded(loaded) = &*state
        && let Some(note) = lock(seen).tell(loaded.left_out.as_deref())
    {
        changed.push(note);
    }
    crate::util::guard::fault("mcp-tool");
    let outcome = match &*state {
        State::Failed(why) => Err(format!(
            "the book at `{}` cannot be loaded: {why}",
            dir.display()
        )),
        State::Loaded(loaded) => tools::call(name, arguments, loaded),
    };
    match outcome {
        Ok(answer) => result(answer.value, &answer.text, &changed),
        Err(refusal) => text_result(with_changed(&refusal, &changed), true),
    }
}

impl Seen {
    /// The note on the commands left out, once per client and again only when it changes.
    fn tell(&mut self, left_out: Option<&str>) -> Option<String> {
        let note = left_out?;
        if self.told.as_deref() == Some(note) {
            return None;
        }
        self.told = Some(note.to_owned());
        Some(format!("note: {note}"))
    }

    /// What changed since the client's previous call, now that it sees `state`.
    fn update(&mut self, state: &Arc<State>) -> Vec<String> {
        let mut lines = match &self.last {
            Some(before) if !Arc::ptr_eq(before, state) => changes::between(before, state),
            _ => Vec::new(),
        };
        // Back from a book that could not load: what changed since it last loaded.
        if let (Some(before), Some(last), State::Loaded(_)) = (&self.loaded, &self.last, &**state)
            && matches!(**last, State::Failed(_))
        {
            lines.extend(changes::between(before, state));
        }
        if matches!(**state, State::Loaded(_)) {
            self.loaded = Some(Arc::clone(state));
        }
        self.last = Some(Arc::clone(state));
        lines
    }
}

/// `text`, after what changed since the previous call.
fn with_changed(text: &str, changed: &[String]) -> String {
    if changed.is_empty() {
        text.to_owned()
    } else {
        format!(
            "changed since the last call: {}\n\n{text}",
            changed.join("\n")
        )
    }
}

/// A result with `value` as its structured content (with `changed` in it), serialised as JSON
/// in the first text block (for hosts that give the model only the text), and `text` after
/// what changed in the second.
fn result(mut value: Value, text: &str, changed: &[String]) -> CallToolResult {
    if let Value::Object(object) = &mut value {
        object.insert("changed".to_owned(), json!(changed));
    }
    let content = vec![
        ContentBlock::text(value.to_string()),
        ContentBlock::text(with_changed(text, changed)),
    ];
    let mut result = CallToolResult::success(content);
    result.structured_content = Some(value);
    result
}

/// A result of text only: an error has no structured content (its tool's output schema
/// describes answers, not refusals).
fn text_result(text: String, failed: bool) -> CallToolResult {
    let content = vec![ContentBlock::text(text)];
    if failed {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    }
}
