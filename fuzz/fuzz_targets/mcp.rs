//! The MCP server's message handling, as an agent's client talks to it: the bytes are split on
//! `0xFF` into messages, written between a real handshake (`initialize`, then
//! `notifications/initialized`) and a final `tools/call` of `contract_overview`, and the server
//! runs over them on a copy of the broker fixture (rules, a spec, a Go source tree, test
//! results) through [`mdbook_contract::run_mcp`], the stdio server's own transport and loop.
//!
//! The first byte of a message says how it is sent: bit 0 clear writes the rest as one line
//! (its line breaks made spaces), set writes the rest as it is (so lines break anywhere).
//!
//! Checked, besides "no panic" (a panic anywhere aborts): every line the server writes is a
//! JSON-RPC 2.0 object, every response has a result or an error, no tool call ends in the
//! server's internal error (a panic caught, or a task that died); and a run whose messages are
//! all single lines answers the final call: no message, however wrong, stops the server.

#![no_main]

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mdbook_contract::{Commands, run_mcp};
use mdbook_contract_fuzz as harness;
use serde_json::{Value, json};

/// The book the server is started on: the broker fixture, copied once per process (the server
/// never writes a file): `rm -rf /tmp/mdbook-contract-fuzz-mcp-*` after a run.
fn book() -> &'static PathBuf {
    static BOOK: OnceLock<PathBuf> = OnceLock::new();
    BOOK.get_or_init(|| {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/broker");
        let root = std::env::temp_dir().join(format!(
            "mdbook-contract-fuzz-mcp-{}",
            std::process::id()
        ));
        copy(&from, &root);
        // No external preprocessor: the fixture's stand-in for mermaid runs Python.
        std::fs::write(
            root.join("book.toml"),
            "[book]\ntitle = \"Message broker adapters\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\ntemplate = [\"adapter-spec-template.md\"]\nspecs = [\"*-adapter-spec.md\"]\nsource-root = \"code\"\nshared-layer = [\"bus\"]\ntest-results = [\"results/conformance.xml\", \"results/adapters.json\"]\n",
        )
        .unwrap();
        root
    })
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn line(input: &mut Vec<u8>, value: &Value) {
    input.extend_from_slice(value.to_string().as_bytes());
    input.push(b'\n');
}

fuzz_target!(|data: &[u8]| {
    harness::restart_interrupted_calls();
    let root = book();
    let mut input = Vec::new();
    line(
        &mut input,
        &json!({"jsonrpc": "2.0", "id": "fuzz-init", "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}}),
    );
    line(
        &mut input,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    // Whether the final call must be answered.
    let mut must_answer = true;
    for chunk in data.split(|&b| b == 0xFF).take(64) {
        let Some((&mode, rest)) = chunk.split_first() else {
            continue;
        };
        if mode & 1 == 0 {
            input.extend(rest.iter().map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b }));
            input.push(b'\n');
        } else {
            must_answer = false;
            input.extend_from_slice(rest);
        }
    }
    line(
        &mut input,
        &json!({"jsonrpc": "2.0", "id": "fuzz-end", "method": "tools/call", "params": {"name": "contract_overview", "arguments": {}}}),
    );

    let output = harness::Output::default();
    let served = run_mcp(root, Cursor::new(input), output.clone(), Commands::Refuse);
    let bytes = output.take();

    let mut answered_end = false;
    let lines = bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty());
    // A batch is answered with one array of replies (2025-03-26), never an empty one.
    let messages = lines.flat_map(|text| {
        match serde_json::from_slice(text).expect("every line is JSON") {
            Value::Array(replies) => {
                assert!(!replies.is_empty(), "a batch's replies");
                replies
            }
            message => vec![message],
        }
    });
    for message in messages {
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
        // A tool that panicked is answered with the server's internal error, a task that
        // died with InternalError: both are the crash sought.
        assert_ne!(message["error"]["code"], -32603, "{message}");
        let content = message["result"]["content"][0]["text"].as_str().unwrap_or_default();
        assert!(!content.starts_with("internal error: "), "{message}");
    }
    if must_answer {
        assert!(served.is_ok(), "{served:?}");
        assert!(answered_end, "the final call is answered");
    }
});
