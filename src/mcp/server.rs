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
const INSTRUCTIONS: &str = "The contract of an mdBook documented with mdbook-contract: axes of variation with their profiles, providers and their claims, rules (`r[ID]`) with their coverage by the code and tests, filled specs and their open entries, and the book's findings. Start with `contract_overview`; `contract_provider` says what to do next for a provider, `contract_uncovered` which rules still lack a passing test, `contract_check` what the book's build would report. Every answer follows the files on disk and says what changed since the previous call.";

/// One client's server: the book, and what this client last saw of it.
pub(crate) struct Server {
    watch: Arc<Mutex<Watch>>,
    seen: Arc<Mutex<Option<Arc<State>>>>,
    dir: PathBuf,
}

impl Server {
    pub(crate) fn new(dir: PathBuf) -> Server {
        Server {
            watch: Arc::new(Mutex::new(Watch::new(dir.clone()))),
            seen: Arc::new(Mutex::new(None)),
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
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
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
    seen: &Mutex<Option<Arc<State>>>,
    dir: &std::path::Path,
    name: &str,
    arguments: rmcp::model::JsonObject,
) -> CallToolResult {
    let state = lock(watch).current();
    let changed = {
        let mut seen = lock(seen);
        let lines = seen
            .as_ref()
            .filter(|before| !Arc::ptr_eq(before, &state))
            .map(|before| changes::between(before, &state))
            .unwrap_or_default();
        *seen = Some(Arc::clone(&state));
        lines
    };
    crate::util::guard::fault("mcp-tool");
    let (value, text, failed) = match &*state {
        State::Failed(why) => {
            let text = format!("the book at `{}` cannot be loaded: {why}", dir.display());
            (json!({ "error": text }), text, true)
        }
        State::Loaded(loaded) => match tools::call(name, arguments, loaded) {
            Ok(answer) => (answer.value, answer.text, false),
            Err(refusal) => (json!({ "error": refusal }), refusal, true),
        },
    };
    result(value, &text, &changed, failed)
}

/// A result with `value` as its structured content (with `changed` in it) and `text`, after
/// what changed, as its text.
fn result(mut value: Value, text: &str, changed: &[String], failed: bool) -> CallToolResult {
    let shown = if changed.is_empty() {
        text.to_owned()
    } else {
        format!(
            "changed since the last call: {}\n\n{text}",
            changed.join("\n")
        )
    };
    if let Value::Object(object) = &mut value {
        object.insert("changed".to_owned(), json!(changed));
    }
    let mut result = text_result(shown, failed);
    result.structured_content = Some(value);
    result
}

fn text_result(text: String, failed: bool) -> CallToolResult {
    let content = vec![ContentBlock::text(text)];
    if failed {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    }
}
