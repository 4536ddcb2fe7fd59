//! Messages in and out as MCP's stdio transport frames them: one JSON-RPC message per line.
//!
//! rmcp's own stdio transport drops a line that is not JSON without a word (so that a client
//! that prints garbage cannot start an error storm). An agent's client that sends a broken
//! message deserves to hear so, as JSON-RPC says: a line that is no JSON is answered with a
//! Parse error (`-32700`, id `null`), JSON that is no message of the protocol with an Invalid
//! Request (`-32600`, with its id when it has one), and reading goes on. A notification that
//! cannot be read is left unanswered, since a notification is never answered.
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

/// A line longer than this is refused without being held: 16 MiB is far beyond any message
/// of these tools.
const MAX_LINE: u64 = 16 << 20;

/// Where replies are written.
type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// The transport of one stdio session.
pub(crate) struct Lines {
    incoming: tokio::sync::mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    output: Output,
}

/// Reads messages from `input` (on a thread) and writes replies to `output`.
pub(crate) fn lines(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> Lines {
    let output: Output = Arc::new(Mutex::new(Box::new(output)));
    let (sender, incoming) = tokio::sync::mpsc::channel(16);
    let replies = Arc::clone(&output);
    std::thread::spawn(move || read(input, &sender, &replies));
    Lines { incoming, output }
}

/// Reads lines until the input ends or the server stops listening.
fn read(
    mut input: impl BufRead,
    sender: &tokio::sync::mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    output: &Output,
) {
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = std::io::Read::take(&mut input, MAX_LINE).read_until(b'\n', &mut line);
        match read {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if !line.ends_with(b"\n") && line.len() as u64 == MAX_LINE {
            // The rest of the line is skipped, and the line refused.
            if skip_line(&mut input).is_err() {
                return;
            }
            let refusal = error(
                -32700,
                "Parse error: the line is longer than 16 MiB",
                Value::Null,
            );
            let _ = write(output, &refusal);
            continue;
        }
        match parse(&line) {
            Parsed::Message(message) => {
                if sender.blocking_send(*message).is_err() {
                    return;
                }
            }
            Parsed::Unanswered => {}
            Parsed::Refused(reply) => {
                let _ = write(output, &reply);
            }
        }
    }
}

fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        if let Some(end) = memchr::memchr(b'\n', buffer) {
            input.consume(end + 1);
            return Ok(());
        }
        let all = buffer.len();
        input.consume(all);
    }
}

/// What a line is.
enum Parsed {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Blank, or a notification that cannot be read.
    Unanswered,
    /// The error reply it gets.
    Refused(Value),
}

fn parse(line: &[u8]) -> Parsed {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Parsed::Unanswered;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(e) => return Parsed::Refused(error(-32700, &format!("Parse error: {e}"), Value::Null)),
    };
    let id = value.get("id").cloned();
    let is_notification = value.get("method").is_some() && id.is_none();
    match serde_json::from_value(value) {
        Ok(message) => Parsed::Message(Box::new(message)),
        Err(_) if is_notification => Parsed::Unanswered,
        Err(e) => {
            // An id of a type JSON-RPC does not allow cannot be echoed back.
            let id = id
                .filter(|id| id.is_string() || id.is_number())
                .unwrap_or(Value::Null);
            Parsed::Refused(error(-32600, &format!("Invalid Request: {e}"), id))
        }
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

impl Transport<RoleServer> for Lines {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        std::future::ready(write(&self.output, &item))
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
        assert_eq!(refused("[1, 2]")["error"]["code"], -32600);
    }

    #[test]
    fn a_message_is_read_and_an_unreadable_notification_left_alone() {
        let ping = r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#;
        assert!(matches!(parse(ping.as_bytes()), Parsed::Message(_)));
        let odd = r#"{"jsonrpc": "2.0", "method": "notifications/odd", "params": 3}"#;
        assert!(matches!(parse(odd.as_bytes()), Parsed::Unanswered));
        assert!(matches!(parse(b"  \r\n"), Parsed::Unanswered));
    }
}
