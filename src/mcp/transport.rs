//! Messages in and out as MCP's stdio transport frames them: one JSON-RPC message per line.
//!
//! rmcp's own stdio transport drops a line that is not JSON without a word (so that a client
//! that prints garbage cannot start an error storm). An agent's client that sends a broken
//! message deserves to hear so, as JSON-RPC says: a line that is no JSON is answered with a
//! Parse error (`-32700`, id `null`), JSON that is no message of the protocol with an Invalid
//! Request (`-32600`, with its id when it has one), and reading goes on. A notification that
//! cannot be read is left unanswered, since a notification is never answered.
//!
//! A request whose method this server serves but whose params do not fit it (`tools/call`
//! without a `name`, `arguments` that are no object) is an Invalid params error (`-32602`)
//! saying what the method takes; a request of any other method, the protocol's that this
//! server leaves out (`prompts/list`) or one it never heard of, is Method not found
//! (`-32601`) naming it and the methods there are.
//!
//! A line over 16 MiB is refused unread past that (a Parse error), with the request's id when
//! the line's start says it (`{"jsonrpc": "2.0", "id": 7, "method": ...`), so that the client
//! hears which request failed rather than waiting for its own timeout.
//!
//! A batch (a JSON array of messages, which protocol version 2025-03-26 requires a server to
//! take) is read message by message; its replies are held until the last one is written, and
//! go out together as one array, as JSON-RPC 2.0 says.
//!
//! Lines are read on a thread of their own (a blocking read of stdin cannot be cancelled on an
//! async runtime); the protocol's messages reach the server through a channel, and every
//! reply, ours and rmcp's, is written whole under one lock.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};

use super::long_line;

/// Where replies are written.
type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// The batches whose replies are not all written yet.
type Batches = Arc<Mutex<Vec<Batch>>>;

/// One batch: the ids of its requests not answered yet, and the replies it has.
#[derive(Default)]
struct Batch {
    waiting: Vec<Value>,
    replies: Vec<Value>,
}

/// The transport of one stdio session.
pub(crate) struct Lines {
    incoming: tokio::sync::mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    output: Output,
    batches: Batches,
}

/// Where the reading thread sends what it read.
struct Reader {
    sender: tokio::sync::mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    output: Output,
    batches: Batches,
}

/// Reads messages from `input` (on a thread) and writes replies to `output`.
pub(crate) fn lines(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> Lines {
    let output: Output = Arc::new(Mutex::new(Box::new(output)));
    let batches = Batches::default();
    let (sender, incoming) = tokio::sync::mpsc::channel(16);
    let reader = Reader {
        sender,
        output: Arc::clone(&output),
        batches: Arc::clone(&batches),
    };
    std::thread::spawn(move || read(input, &reader));
    Lines {
        incoming,
        output,
        batches,
    }
}

/// Reads lines until the input ends or the server stops listening.
fn read(mut input: impl BufRead, reader: &Reader) {
    let output = &reader.output;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read =
            std::io::Read::take(&mut input, long_line::MAX_LINE).read_until(b'\n', &mut line);
        match read {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if !line.ends_with(b"\n") && line.len() as u64 == long_line::MAX_LINE {
            // The rest of the line is skipped, and the line refused.
            if long_line::skip(&mut input).is_err() {
                return;
            }
            let refusal = error(
                -32700,
                "Parse error: the line is longer than 16 MiB (16777216 bytes), the most this server reads as one message",
                long_line::id_at_start(&line),
            );
            let _ = write(output, &refusal);
            continue;
        }
        let listening = match json(&line) {
            Err(reply) => write(output, &reply).is_ok(),
            Ok(None) => true,
            Ok(Some(Value::Array(items))) => reader.batch(items),
            Ok(Some(value)) => reader.one(message(value)),
        };
        if !listening {
            return;
        }
    }
}

impl Reader {
    /// Hands one message on, or writes its refusal; false once the server stopped listening.
    fn one(&self, parsed: Parsed) -> bool {
        match parsed {
            Parsed::Message(message) => self.sender.blocking_send(*message).is_ok(),
            Parsed::Unanswered => true,
            Parsed::Refused(reply) => write(&self.output, &reply).is_ok(),
        }
    }

    /// Hands a batch's messages on, its refusals held for its one reply.
    fn batch(&self, items: Vec<Value>) -> bool {
        if items.is_empty() {
            let reply = error(-32600, "Invalid Request: an empty batch", Value::Null);
            return write(&self.output, &reply).is_ok();
        }
        let mut batch = Batch::default();
        let mut messages = Vec::new();
        for item in items {
            match message(item) {
                Parsed::Message(m) => {
                    if let rmcp::model::JsonRpcMessage::Request(request) = &*m {
                        batch.waiting.push(json!(request.id));
                    }
                    messages.push(m);
                }
                Parsed::Unanswered => {}
                Parsed::Refused(reply) => batch.replies.push(reply),
            }
        }
        if batch.waiting.is_empty() {
            // Only notifications and refusals: nothing more will come.
            if !batch.replies.is_empty() && write(&self.output, &batch.replies).is_err() {
                return false;
            }
        } else {
            lock(&self.batches).push(batch);
        }
        messages
            .into_iter()
            .all(|m| self.sender.blocking_send(*m).is_ok())
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a line is.
enum Parsed {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Blank, or a notification that cannot be read.
    Unanswered,
    /// The error reply it gets.
    Refused(Value),
}

/// The JSON of a line: none for a blank line, a Parse error reply for one that is no JSON.
fn json(line: &[u8]) -> Result<Option<Value>, Value> {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    serde_json::from_slice(line)
        .map(Some)
        .map_err(|e| error(-32700, &format!("Parse error: {e}"), Value::Null))
}

/// What one message of a line (or of a batch) is.
fn message(value: Value) -> Parsed {
    let id = value.get("id").cloned();
    let method = value
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let is_notification = method.is_some() && id.is_none();
    // An id of a type JSON-RPC does not allow cannot be echoed back.
    let id = id
        .filter(|id| id.is_string() || id.is_number())
        .unwrap_or(Value::Null);
    if let (Some(method), false) = (&method, is_notification) {
        if !SERVED.contains(&method.as_str()) {
            return Parsed::Refused(error(-32601, &not_found(method), id));
        }
        if let Some(why) = invalid_params(method, value.get("params")) {
            return Parsed::Refused(error(-32602, &format!("Invalid params: {why}"), id));
        }
    }
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value) {
        // A method this server serves, read by rmcp as no request it knows: its params.
        Ok(rmcp::model::JsonRpcMessage::Request(request))
            if matches!(
                &request.request,
                rmcp::model::ClientRequest::CustomRequest(_)
            ) =>
        {
            let method = method.unwrap_or_default();
            Parsed::Refused(error(
                -32602,
                &format!("Invalid params: the params of `{method}` are not what the method takes"),
                id,
            ))
        }
        Ok(message) => Parsed::Message(Box::new(message)),
        Err(_) if is_notification => Parsed::Unanswered,
        Err(e) => Parsed::Refused(error(-32600, &format!("Invalid Request: {e}"), id)),
    }
}

/// The requests this server answers; any other is Method not found, the protocol's
/// (`prompts/list`, `resources/read`) as much as a made-up one.
const SERVED: &[&str] = &["initialize", "ping", "tools/list", "tools/call"];

/// The Method not found message: the method asked for, and those there are.
fn not_found(method: &str) -> String {
    let served: Vec<String> = SERVED.iter().map(|m| format!("`{m}`")).collect();
    let (last, first) = served.split_last().unwrap_or((&served[0], &[]));
    format!(
        "Method not found: `{}` (this server answers {} and {last})",
        echoed(method),
        first.join(", ")
    )
}

/// A method name as a message repeats it: whole when short, else its start and its length.
fn echoed(method: &str) -> String {
    if method.len() <= 100 {
        return method.to_owned();
    }
    let mut end = 40;
    while !method.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &method[..end], method.len())
}

/// What is wrong with the params of a `tools/call`, in words; nothing for another method.
fn invalid_params(method: &str, params: Option<&Value>) -> Option<String> {
    if method != "tools/call" {
        return None;
    }
    let Some(Value::Object(params)) = params else {
        return Some(
            "`tools/call` takes params, an object with `name` (the tool's name) and `arguments` (an object)".to_owned(),
        );
    };
    match params.get("name") {
        Some(Value::String(_)) => {}
        Some(_) => {
            return Some("the `name` of `tools/call` is the tool's name, a string".to_owned());
        }
        None => return Some("`tools/call` needs `name`, the tool's name".to_owned()),
    }
    match params.get("arguments") {
        None | Some(Value::Null | Value::Object(_)) => None,
        Some(_) => Some(
            "the `arguments` of `tools/call` are an object of the tool's arguments by name"
                .to_owned(),
        ),
    }
}

fn error(code: i64, message: &str, id: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

/// Writes `message` as one line.
fn write(output: &Output, message: &impl serde::Serialize) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    let mut output = output.lock().unwrap_or_else(|e| e.into_inner());
    output.write_all(&bytes)?;
    output.flush()
}

impl Lines {
    /// Writes `item`, or holds it for its batch's reply until the batch is answered.
    fn reply(&self, item: &TxJsonRpcMessage<RoleServer>) -> std::io::Result<()> {
        let value = serde_json::to_value(item).map_err(std::io::Error::other)?;
        let is_reply = value.get("method").is_none()
            && (value.get("result").is_some() || value.get("error").is_some());
        if let (true, Some(id)) = (is_reply, value.get("id")) {
            let mut batches = lock(&self.batches);
            if let Some(i) = batches.iter().position(|b| b.waiting.contains(id)) {
                let batch = &mut batches[i];
                batch.waiting.retain(|w| w != id);
                batch.replies.push(value);
                if batch.waiting.is_empty() {
                    let batch = batches.swap_remove(i);
                    drop(batches);
                    return write(&self.output, &batch.replies);
                }
                return Ok(());
            }
        }
        write(&self.output, &value)
    }
}

impl Transport<RoleServer> for Lines {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        std::future::ready(self.reply(&item))
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.incoming.recv()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.incoming.close();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &[u8]) -> Parsed {
        match json(line) {
            Err(reply) => Parsed::Refused(reply),
            Ok(None) => Parsed::Unanswered,
            Ok(Some(value)) => message(value),
        }
    }

    fn refused(line: &str) -> Value {
        match parse(line.as_bytes()) {
            Parsed::Refused(reply) => reply,
            Parsed::Message(_) => panic!("`{line}` was read as a message"),
            Parsed::Unanswered => panic!("`{line}` was left unanswered"),
        }
    }

    #[test]
    fn a_line_that_is_no_json_is_a_parse_error() {
        let reply = refused("{\"jsonrpc\": \"2.0\", \"id\": 1,");
        assert_eq!(reply["error"]["code"], -32700);
        assert_eq!(reply["id"], Value::Null);
    }

    #[test]
    fn json_that_is_no_message_is_an_invalid_request_with_its_id() {
        let reply = refused(r#"{"jsonrpc": "2.0", "id": 7, "method": 12}"#);
        assert_eq!(reply["error"]["code"], -32600);
        assert_eq!(reply["id"], 7);
        assert_eq!(refused("3")["error"]["code"], -32600);
    }

    #[test]
    fn a_message_is_read_and_an_unreadable_notification_left_alone() {
        let ping = r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#;
        assert!(matches!(parse(ping.as_bytes()), Parsed::Message(_)));
        let odd = r#"{"jsonrpc": "2.0", "method": "notifications/odd", "params": 3}"#;
        assert!(matches!(parse(odd.as_bytes()), Parsed::Unanswered));
        assert!(matches!(parse(b"  \r\n"), Parsed::Unanswered));
    }

    #[test]
    fn a_method_this_server_does_not_serve_is_not_found_naming_those_it_serves() {
        for method in [
            "prompts/list",
            "resources/read",
            "completion/complete",
            "made/up",
        ] {
            let reply = refused(&format!(
                r#"{{"jsonrpc": "2.0", "id": 4, "method": "{method}", "params": {{}}}}"#
            ));
            assert_eq!(reply["error"]["code"], -32601, "{reply}");
            assert_eq!(reply["id"], 4);
            let message = reply["error"]["message"].as_str().unwrap();
            assert!(message.contains(&format!("`{method}`")), "{message}");
            assert!(message.contains("`tools/call`"), "{message}");
        }
    }

    #[test]
    fn a_call_whose_params_do_not_fit_is_invalid_params() {
        let call = |params: &str| {
            refused(&format!(
                r#"{{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {params}}}"#
            ))
        };
        let reply = call(r#"{"arguments": {}}"#);
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert_eq!(reply["id"], 3);
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .contains("needs `name`")
        );
        let reply = call(r#"{"name": "contract_rule", "arguments": "id=a"}"#);
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .contains("`arguments`"),
            "{reply}"
        );
        assert_eq!(call("7")["error"]["code"], -32602);
        let ok = r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}}"#;
        assert!(matches!(parse(ok.as_bytes()), Parsed::Message(_)));
    }
}
