//! The language server's diagnostics latency: how long after an edit the diagnostics of the
//! edited chapter arrive, on a book, for `scripts/bench.sh` and `scripts/bench-lsp.sh`.
//!
//! The server is the `mdbook-contract` binary (`MDBOOK_CONTRACT`, default `mdbook-contract` on
//! the PATH) started as an editor starts it, `lsp` over its standard input and output. The
//! chapter is opened with a line holding an em-dash added at its end, and saved (so a book's
//! own preprocessors, which run on save, have seen it); once an em-dash is reported, the
//! chapter is edited `RUNS` times (default 20): each edit adds or takes away a line at the top,
//! which moves the em-dash's diagnostic, so the chapter's diagnostics change every time; an
//! edit is timed until they do. `TYPED` is the line added (default a line of prose). The
//! time is taken from writing `didChange` to reading the chapter's `publishDiagnostics`.
//! Prints the median, the minimum and the maximum in milliseconds, and the server's resident
//! memory (VmRSS) after the first 50 edits and after the last when there are more.
//!
//! Usage: `lsp_latency BOOK_DIR CHAPTER` (CHAPTER relative to BOOK_DIR).

#![allow(clippy::print_stdout)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn main() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().expect("BOOK_DIR"))
        .canonicalize()
        .expect("the book folder exists");
    let chapter = root.join(args.next().expect("CHAPTER"));
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    let binary = std::env::var("MDBOOK_CONTRACT").unwrap_or_else(|_| "mdbook-contract".into());
    let uri = lsp_types::Url::from_file_path(&chapter).expect("an absolute path");
    let root_uri = lsp_types::Url::from_file_path(&root).expect("an absolute path");
    let text = std::fs::read_to_string(&chapter).expect("the chapter exists");
    let text = format!("{text}\nAn added line with an em\u{2014}dash in it.\n");

    let mut server = Command::new(&binary)
        .arg("lsp")
        .current_dir(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let pid = server.id();
    let mut input = server.stdin.take().expect("piped");
    let output = BufReader::new(server.stdout.take().expect("piped"));
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || read_messages(output, sender));
    let mut send = |message: Value| {
        let body = message.to_string();
        write!(input, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("the server reads");
        input.flush().expect("the server reads");
    };
    let wait_for = |done: &dyn Fn(&Value) -> bool, within: Duration| loop {
        let message = receiver.recv_timeout(within).expect("the server answers");
        if done(&message) {
            return message;
        }
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": root_uri, "capabilities": {}}}),
    );
    wait_for(&|m| m["id"] == 1, Duration::from_secs(60));
    send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let published = |m: &Value| {
        (m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str())
            .then(|| m["params"]["diagnostics"].clone())
    };
    let has_dash = |list: &Value| {
        list.as_array()
            .into_iter()
            .flatten()
            .any(|d| d["code"] == "em-dash")
    };
    send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "markdown", "version": 0, "text": text}}}),
    );
    send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": uri}}}),
    );
    // A book whose own preprocessors are built on their first run (`cargo run`) takes long.
    let mut last = published(&wait_for(
        &|m| published(m).is_some_and(|l| has_dash(&l)),
        Duration::from_secs(1800),
    ))
    .unwrap_or_default();
    // A request is answered once every change before it is checked: what is published by then
    // is the state the edits start from.
    send(
        json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": uri}}}),
    );
    loop {
        let message = wait_for(&|_| true, Duration::from_secs(120));
        if let Some(list) = published(&message) {
            last = list;
        }
        if message["id"] == 3 {
            break;
        }
    }

    // Each edit moves the em-dash's line, so the chapter's diagnostics change every time
    // (wherever a server places them).
    // `TYPED` is the line (`## A heading`, say, which changes the chapter's anchors).
    let typed = std::env::var("TYPED").unwrap_or_else(|_| "A line typed at the top.".into());
    let moved = format!("{typed}\n\n{text}");
    let mut times = Vec::with_capacity(runs);
    let mut rss_after_50 = None;
    for run in 0..runs {
        let edited = if run % 2 == 0 { &moved } else { &text };
        let started = Instant::now();
        send(
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": run + 1}, "contentChanges": [{"text": edited}]}}),
        );
        let message = wait_for(
            &|m| published(m).is_some_and(|l| l != last),
            Duration::from_secs(120),
        );
        times.push(started.elapsed());
        last = published(&message).unwrap_or_default();
        if run + 1 == 50 {
            rss_after_50 = rss(pid);
        }
    }
    let rss_at_end = rss(pid);
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null}));
    wait_for(&|m| m["id"] == 2, Duration::from_secs(60));
    send(json!({"jsonrpc": "2.0", "method": "exit", "params": null}));
    let _ = server.wait();

    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mut line = format!(
        "lsp diagnostics after an edit of {} ({} edits): median {:.1} ms, min {:.1} ms, max {:.1} ms",
        chapter.strip_prefix(&root).unwrap_or(&chapter).display(),
        runs,
        ms(times[runs / 2]),
        ms(times[0]),
        ms(times[runs - 1])
    );
    if let (Some(after_50), Some(at_end)) = (rss_after_50, rss_at_end) {
        line.push_str(&format!(
            "; resident memory {:.1} MB after 50 edits, {:.1} MB after {runs} ({:+.1} %)",
            after_50 as f64 / 1024.0,
            at_end as f64 / 1024.0,
            (at_end as f64 / after_50 as f64 - 1.0) * 100.0
        ));
    }
    println!("{line}");
}

/// Reads framed messages until the output ends.
fn read_messages(mut output: impl BufRead, sender: mpsc::Sender<Value>) {
    loop {
        let mut length = 0;
        loop {
            let mut line = String::new();
            if output.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        if output.read_exact(&mut body).is_err() {
            return;
        }
        if let Ok(message) = serde_json::from_slice(&body)
            && sender.send(message).is_err()
        {
            return;
        }
    }
}

/// The resident memory of process `pid`, in KiB (Linux).
fn rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
