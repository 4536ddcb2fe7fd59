//! The language server's transport: LSP frames read and written here, so that one bad message
//! costs one error reply, not the server.
//!
//! lsp-server's own stdio transport ends its reader at the first body that is not a message,
//! and the server with it: the editor loses every diagnostic until it restarts the server.
//! Here each frame is read by its `Content-Length`, and its body decoded on its own
//! ([`decode`]): a body that is not JSON is answered with a ParseError (-32700, id null), one
//! that is JSON but not a message with an InvalidRequest (-32600, with its id when it has one
//! that can be read), as JSON-RPC 2.0 says, and reading goes on with the next frame. Only a
//! header that cannot be read ends the connection ([`FrameError`]), since where the next
//! frame starts is then unknown.
//!
//! The messages that decode go to the server over an [`lsp_server::Connection`], so the loop
//! in `mod.rs` is the same for stdio, for the tests' in-memory connection and for the fuzz
//! target, which drives [`serve_stream`] with arbitrary bytes.

use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use lsp_server::{Connection, ErrorCode, Message};
use serde_json::{Value, json};

/// The longest header line taken (a header line is `Name: value`; real ones are tens of bytes).
const MAX_HEADER_LINE: u64 = 8 * 1024;

/// A frame that cannot be read: the stream is lost from here on.
#[derive(Debug)]
pub(crate) struct FrameError(String);

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FrameError {}

fn lost(what: impl Into<String>) -> FrameError {
    FrameError(format!(
        "{}; the server stops, since it cannot tell where the next message starts (an LSP message is `Content-Length: N` and a blank line, each ending in \\r\\n, then N bytes of JSON)",
        what.into()
    ))
}

/// Reads one frame's body: `None` at the end of the input, between two frames.
pub(crate) fn read_frame(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, FrameError> {
    let mut length: Option<u64> = None;
    let mut headers: Vec<String> = Vec::new();
    let mut first = true;
    loop {
        let Some(line) = header_line(input, first)? else {
            return Ok(None);
        };
        first = false;
        if line.is_empty() {
            break;
        }
        if let Some(n) = content_length(&line)? {
            if length.is_some_and(|m| m != n) {
                return Err(lost("the header gives two different `Content-Length`s"));
            }
            length = Some(n);
        }
        headers.push(line.escape_debug().to_string());
    }
    let Some(length) = length else {
        return Err(lost(if headers.is_empty() {
            "a message has no header (a blank line came where `Content-Length: N` was due)"
                .to_owned()
        } else {
            format!(
                "a message's header (`{}`) has no `Content-Length`",
                headers.join("`, `")
            )
        }));
    };
    // Read as it arrives, rather than allocated up front from what the header claims.
    let mut body = Vec::new();
    input
        .by_ref()
        .take(length)
        .read_to_end(&mut body)
        .map_err(|e| lost(format!("the input could not be read: {e}")))?;
    if (body.len() as u64) < length {
        return Err(lost(format!(
            "the input ended inside a message: `Content-Length` is {length}, but {} bytes came",
            body.len()
        )));
    }
    Ok(Some(body))
}

/// One line of a frame's header, without its line end; `None` at the end of the input
/// before the `first` line of a frame.
fn header_line(input: &mut impl BufRead, first: bool) -> Result<Option<String>, FrameError> {
    let mut line = Vec::new();
    let read = input
        .by_ref()
        .take(MAX_HEADER_LINE)
        .read_until(b'\n', &mut line)
        .map_err(|e| lost(format!("the input could not be read: {e}")))?;
    if read == 0 {
        if first {
            return Ok(None);
        }
        return Err(lost("the input ended inside a message's header"));
    }
    if line.last() != Some(&b'\n') {
        if line.len() as u64 >= MAX_HEADER_LINE {
            return Err(lost(format!(
                "a header line is longer than {MAX_HEADER_LINE} bytes"
            )));
        }
        return Err(lost("the input ended inside a message's header"));
    }
    line.pop();
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    match String::from_utf8(line) {
        Ok(text) => Ok(Some(text)),
        Err(e) => Err(lost(format!(
            "a header line is not UTF-8 text: {}",
            String::from_utf8_lossy(e.as_bytes()).escape_debug()
        ))),
    }
}

/// The number a `Content-Length` header line gives; `None` for another header.
fn content_length(text: &str) -> Result<Option<u64>, FrameError> {
    let Some((name, value)) = text.split_once(':') else {
        return Err(lost(format!(
            "`{}` is not a header (`Name: value`)",
            text.escape_debug()
        )));
    };
    if !name.trim().eq_ignore_ascii_case("Content-Length") {
        return Ok(None);
    }
    match value.trim().parse::<u64>() {
        Ok(n) => Ok(Some(n)),
        Err(_) => Err(lost(format!(
            "`Content-Length` is `{}`, not a number of bytes",
            value.trim().escape_debug()
        ))),
    }
}

/// Decodes one frame's body into a message, or gives the error reply that JSON-RPC 2.0 asks
/// for: a ParseError for a body that is not JSON, an InvalidRequest for JSON that is not a
/// message.
pub(crate) fn decode(body: &[u8]) -> Result<Message, Value> {
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(error) => {
            let why = match std::str::from_utf8(body) {
                Err(bad) => format!(
                    "the message is not UTF-8 text (at byte {})",
                    bad.valid_up_to()
                ),
                Ok(_) => format!("the message is not JSON: {error}"),
            };
            return Err(error_reply(Value::Null, ErrorCode::ParseError, &why));
        }
    };
    let Value::Object(object) = &value else {
        let why = match value {
            Value::Array(_) => {
                "the message is a JSON array: a message is one object (LSP has no batches)"
            }
            _ => "the message is not a JSON object",
        };
        return Err(error_reply(Value::Null, ErrorCode::InvalidRequest, why));
    };
    // The id to answer with, when it is one JSON-RPC allows.
    let id = match object.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    match serde_json::from_value::<Message>(value.clone()) {
        // lsp-server takes a request whose id it cannot hold for a notification, which the
        // client would wait on for ever.
        Ok(Message::Notification(_)) if !id.is_null() => Err(error_reply(
            id.clone(),
            ErrorCode::InvalidRequest,
            &format!("the request's `id` must be a string or an integer of 32 bits, found {id}"),
        )),
        Ok(message) => Ok(message),
        Err(error) => {
            let why = match (object.get("method"), object.get("id")) {
                (Some(method), _) if !method.is_string() => {
                    "the message's `method` is not a string".to_owned()
                }
                (Some(_), Some(id)) if !id.is_null() => format!(
                    "the request's `id` must be a string or an integer of 32 bits, found {id}"
                ),
                (None, Some(_)) => {
                    "the message has an `id` but neither `method` (a request) nor `result` or `error` (a response)"
                        .to_owned()
                }
                (None, None) => "the message has no `method`".to_owned(),
                _ => format!("the message is not a request, a response or a notification: {error}"),
            };
            Err(error_reply(id, ErrorCode::InvalidRequest, &why))
        }
    }
}

fn error_reply(id: Value, code: ErrorCode, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code as i32, "message": message}})
}

/// Writes one frame.
fn write_frame(output: &Mutex<impl Write>, body: &[u8]) -> io::Result<()> {
    let mut output = output
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    write!(output, "Content-Length: {}\r\n\r\n", body.len())?;
    output.write_all(body)?;
    output.flush()
}

/// The reader and writer threads of a connection.
pub(crate) struct IoThreads {
    reader: JoinHandle<Result<(), FrameError>>,
    writer: JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits for both threads; a frame that could not be read is the error.
    pub(crate) fn join(self) -> anyhow::Result<()> {
        let read = self
            .reader
            .join()
            .map_err(|_| anyhow::anyhow!("the LSP reader thread panicked"))?;
        let written = self
            .writer
            .join()
            .map_err(|_| anyhow::anyhow!("the LSP writer thread panicked"))?;
        read?;
        // The editor closing its end after `exit` is not an error of ours.
        match written {
            Err(error) if error.kind() != io::ErrorKind::BrokenPipe => {
                Err(anyhow::Error::new(error).context("the editor could not be written to"))
            }
            _ => Ok(()),
        }
    }
}

/// A connection over `input` and `output`: a thread reads frames from `input` and passes on
/// the messages that decode (answering the rest itself), a thread writes the server's
/// messages to `output`. The reader stops at the end of the input, after `exit`, or at a
/// frame it cannot read.
pub(crate) fn connect(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> (Connection, IoThreads) {
    // The far end of an in-memory connection: what the reader sends, the server receives.
    let (server, far) = Connection::memory();
    let output = Arc::new(Mutex::new(output));
    let writer_output = Arc::clone(&output);
    let receiver = far.receiver;
    let writer = std::thread::spawn(move || -> io::Result<()> {
        for message in receiver {
            let mut body = Vec::new();
            // `Message::write` writes the frame; kept whole under the lock the reader's
            // replies take too.
            message.write(&mut body)?;
            let mut out = writer_output
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            out.write_all(&body)?;
            out.flush()?;
        }
        Ok(())
    });
    let sender = far.sender;
    let reader = std::thread::spawn(move || -> Result<(), FrameError> {
        let mut input = input;
        while let Some(body) = read_frame(&mut input)? {
            match decode(&body) {
                Ok(message) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if sender.send(message).is_err() || exit {
                        break;
                    }
                }
                Err(reply) => {
                    if write_frame(&output, reply.to_string().as_bytes()).is_err() {
                        break;
                    }
                }
            }
        }
        Ok(())
    });
    (server, IoThreads { reader, writer })
}

/// Runs the language server over `input` and `output` (standard input and output, as the
/// command line hands them) until the client exits or the input ends. A frame that cannot be
/// read is the error: the connection is lost from there.
pub fn serve_stream(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    commands: crate::read::load::Commands,
) -> anyhow::Result<()> {
    let (connection, threads) = connect(input, output);
    let served = super::serve(connection, commands);
    let joined = threads.join();
    served.and(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Result<Vec<u8>, String>> {
        let mut reader = input;
        let mut out = Vec::new();
        loop {
            match read_frame(&mut reader) {
                Ok(Some(body)) => out.push(Ok(body)),
                Ok(None) => break,
                Err(error) => {
                    out.push(Err(error.to_string()));
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn frames_are_read_by_their_length() {
        let got = frames(b"Content-Length: 2\r\n\r\n{}Content-Type: x\r\ncontent-length:3\n\n[1]");
        assert_eq!(got, [Ok(b"{}".to_vec()), Ok(b"[1]".to_vec())]);
        assert!(frames(b"").is_empty());
    }

    #[test]
    fn a_header_that_cannot_be_read_says_why() {
        let one = |input: &[u8]| frames(input).pop().unwrap().unwrap_err();
        assert!(
            one(b"Content-Lenght: 2\r\n\r\n{}")
                .contains("header (`Content-Lenght: 2`) has no `Content-Length`")
        );
        assert!(one(b"\r\n{}").contains("a message has no header"));
        assert!(one(b"Content-Length: two\r\n\r\n{}").contains("`two`, not a number"));
        assert!(one(b"hello\r\n\r\n").contains("`hello` is not a header"));
        assert!(one(b"Content-Length: 10\r\n\r\n{}").contains("10, but 2 bytes came"));
        assert!(one(b"Content-Length: 2\r\n").contains("ended inside a message's header"));
        assert!(one(&[b'x'; 9000]).contains("longer than 8192 bytes"));
        // A length no input could fill is not allocated up front.
        assert!(one(b"Content-Length: 99999999999999\r\n\r\n{}").contains("but 2 bytes came"));
    }

    #[test]
    fn bodies_that_are_not_messages_get_the_json_rpc_error() {
        let reply = |body: &[u8]| decode(body).unwrap_err();
        let parse = reply(b"{not json");
        assert_eq!(parse["error"]["code"], -32700);
        assert_eq!(parse["id"], Value::Null);
        assert_eq!(reply(b"\xff\xfe")["error"]["code"], -32700);
        let batch = reply(b"[]");
        assert_eq!(batch["error"]["code"], -32600);
        assert!(
            batch["error"]["message"]
                .as_str()
                .unwrap()
                .contains("batches")
        );
        let no_method = reply(br#"{"jsonrpc":"2.0","id":7}"#);
        assert_eq!(no_method["error"]["code"], -32600);
        assert_eq!(no_method["id"], 7);
        let big_id = reply(br#"{"jsonrpc":"2.0","id":9999999999,"method":"x"}"#);
        assert_eq!(big_id["id"], 9999999999_u64);
        assert!(
            big_id["error"]["message"]
                .as_str()
                .unwrap()
                .contains("32 bits")
        );
        assert!(decode(br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#).is_ok());
    }
}
