//! The language server's message handling, as an editor talks to it: the bytes are split on
//! `0xFF` into messages, written between a real handshake (`initialize`, `initialized`) and a
//! real end (`shutdown`, `exit`), and the server runs over them on a small book on disk
//! ([`mdbook_contract::run_language_server`], the stdio server's own
//! transport and loop).
//!
//! The first byte of a message says how it is sent: bit 0 clear frames the rest with its
//! `Content-Length` (a JSON-RPC body as an editor would send it, right or wrong), set writes
//! the rest as it is (headers included, so broken frames too). In a body, `@/` stands for the
//! book's folder as a `file://` URI, so a seed can name its chapters.
//!
//! Checked, besides "no panic" (a panic anywhere aborts): the server's output is a sequence of
//! frames, each a JSON-RPC 2.0 object, and every response has a result or an error; a run whose
//! messages are all framed, and in which no `exit` or `shutdown` came before the end, answers
//! the final `shutdown` and ends cleanly: no body, however wrong, stops the server.

#![no_main]

use std::io::{Cursor, Write};
use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mdbook_contract::{Commands, run_language_server};
use mdbook_contract_fuzz as harness;
use serde_json::{Value, json};

/// The book the server is started on, written once per process (the server never writes a
/// file, so it stays as written): `rm -rf /tmp/mdbook-contract-fuzz-lsp-*` after a run.
fn book() -> &'static PathBuf {
    static BOOK: OnceLock<PathBuf> = OnceLock::new();
    BOOK.get_or_init(|| {
        let root = std::env::temp_dir().join(format!(
            "mdbook-contract-fuzz-lsp-{}",
            std::process::id()
        ));
        let files = [
            (
                "book.toml",
                "[book]\ntitle = \"Fuzz\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\ntemplate = [\"template.md\"]\n",
            ),
            (
                "src/SUMMARY.md",
                "# Summary\n\n- [Contract](contract.md)\n- [Template](template.md)\n- [Providers](appendix.md)\n",
            ),
            ("src/contract.md", harness::CONTRACT),
            ("src/template.md", harness::TEMPLATE),
            (
                "src/appendix.md",
                "# Providers\n\n## `pods` {.provider}\n\nReady at once: {{#profile readiness immediate Pod}}.\nCreate blocks: {{#profile create-return unknown}}.\n\n{{#profile-matrix}}\n",
            ),
        ];
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        // A book.toml sent by the fuzzer may configure preprocessors of its own; the server
        // runs them in a child process of its own executable, which here is this fuzzer. The
        // stand-in reads what it is given (so that no write meets a closed pipe) and fails.
        let child = root.join("arrival.sh");
        std::fs::write(&child, "#!/bin/sh\ncat >/dev/null\necho 'no preprocessors run while fuzzing' >&2\nexit 1\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&child, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        // SAFETY: this runs once, on the first input, before any server (or any other thread
        // of this process) starts, so nothing reads the environment meanwhile.
        unsafe { std::env::set_var("MDBOOK_CONTRACT_LSP_ARRIVAL", &child) };
        // A run that a newer one replaces is ended with its processes, perhaps before the
        // stand-in has read its input; the write then meets a closed pipe. In the
        // `mdbook-contract` binary, as in every Rust program, SIGPIPE is ignored and that
        // write returns an error the server drops; libFuzzer's `main` is not Rust's, so the
        // fuzzer sets the same disposition rather than die of the signal.
        // SAFETY: as above, no other thread runs yet; SIG_IGN is a valid disposition.
        #[cfg(unix)]
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        }
        root
    })
}

fn frame(out: &mut Vec<u8>, body: &[u8]) {
    write!(out, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
    out.extend_from_slice(body);
}

/// Replaces every `@/` of `body` with the book's URI and a `/`.
fn with_root(body: &[u8], root: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i..].starts_with(b"@/") {
            out.extend_from_slice(root.as_bytes());
            out.push(b'/');
            i += 2;
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    harness::restart_interrupted_calls();
    let root = book();
    let root_uri = format!("file://{}", root.display());
    let mut input = Vec::new();
    frame(
        &mut input,
        json!({"jsonrpc": "2.0", "id": "fuzz-init", "method": "initialize", "params": {"processId": null, "rootUri": root_uri, "capabilities": {}}})
            .to_string()
            .as_bytes(),
    );
    frame(
        &mut input,
        br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
    );
    // Whether the server must still be there at the end.
    let mut must_answer = true;
    for chunk in data.split(|&b| b == 0xFF).take(64) {
        let Some((&mode, rest)) = chunk.split_first() else {
            continue;
        };
        let body = with_root(rest, &root_uri);
        if mode & 1 == 0 {
            if let Ok(value) = serde_json::from_slice::<Value>(&body)
                && matches!(value.get("method").and_then(Value::as_str), Some("exit" | "shutdown"))
            {
                must_answer = false;
            }
            frame(&mut input, &body);
        } else {
            must_answer = false;
            input.extend_from_slice(&body);
        }
    }
    frame(
        &mut input,
        br#"{"jsonrpc":"2.0","id":"fuzz-end","method":"shutdown"}"#,
    );
    frame(&mut input, br#"{"jsonrpc":"2.0","method":"exit"}"#);

    let output = harness::Output::default();
    let served = run_language_server(Cursor::new(input), output.clone(), Commands::Run);
    let bytes = output.take();

    // The output: frames of JSON-RPC 2.0 objects.
    let mut rest = &bytes[..];
    let mut answered_end = false;
    while !rest.is_empty() {
        let header_end = rest
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("every frame has a header");
        let header = std::str::from_utf8(&rest[..header_end]).expect("a header is text");
        let length: usize = header
            .strip_prefix("Content-Length: ")
            .expect("the header is the length")
            .parse()
            .expect("the length is a number");
        let body = &rest[header_end + 4..header_end + 4 + length];
        rest = &rest[header_end + 4 + length..];
        let message: Value = serde_json::from_slice(body).expect("every body is JSON");
        assert_eq!(message["jsonrpc"], "2.0", "{message}");
        if message.get("method").is_none() {
            assert!(
                message.get("result").is_some() != message.get("error").is_some(),
                "a response has a result or an error: {message}"
            );
            assert!(message.get("id").is_some(), "{message}");
            if message["id"] == "fuzz-end" {
                answered_end = true;
            }
        }
        let text = message.to_string();
        assert!(!text.contains("panicked"), "{text}");
        // A check that panicked is caught and published as an `internal-error` diagnostic; a
        // request that panicked is answered with InternalError: both are the crash sought.
        assert_ne!(message["error"]["code"], -32603, "{text}");
        if let Some(list) = message["params"]["diagnostics"].as_array() {
            assert!(list.iter().all(|d| d["code"] != "internal-error"), "{text}");
        }
    }
    if must_answer {
        assert!(served.is_ok(), "{served:?}");
        assert!(answered_end, "the final shutdown is answered");
    }
});
