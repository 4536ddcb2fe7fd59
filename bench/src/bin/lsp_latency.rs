//! The language server's diagnostics latency: how long after an edit the diagnostics of the
//! edited chapter arrive, on a book (default: this repository's), for `scripts/bench.sh`.
//!
//! The server runs in-process on an in-memory connection (`lsp_server::Connection::memory`),
//! as an editor would drive it over stdio minus the pipe. The chapter is opened, then edited
//! `RUNS` times (default 20): each edit adds or takes away a line with an em-dash at its end,
//! so its diagnostics change every time. The time is taken from sending `didChange` to
//! receiving the chapter's `publishDiagnostics`. Prints the median, the minimum and the maximum
//! in milliseconds.
//!
//! Usage: `lsp_latency [BOOK_DIR] [CHAPTER]` (CHAPTER relative to BOOK_DIR, default
//! `book/provider-contract.md`).

#![allow(clippy::print_stdout)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};

fn main() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().unwrap_or_else(|| ".".to_owned()))
        .canonicalize()
        .expect("the book folder exists");
    let chapter = root.join(
        args.next()
            .unwrap_or_else(|| "book/provider-contract.md".to_owned()),
    );
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    let uri = lsp_types::Url::from_file_path(&chapter).expect("an absolute path");
    let root_uri = lsp_types::Url::from_file_path(&root).expect("an absolute path");
    let text = std::fs::read_to_string(&chapter).expect("the chapter exists");

    let (client, server) = Connection::memory();
    let thread = std::thread::spawn(move || mdbook_contract::serve_language_server(server));
    let send = |message: Message| client.sender.send(message).expect("the server listens");
    send(
        Request::new(
            RequestId::from(1),
            "initialize".to_owned(),
            json!({"processId": null, "rootUri": root_uri, "capabilities": {}}),
        )
        .into(),
    );
    let wait_for = |done: &dyn Fn(&Message) -> bool| loop {
        let message = client
            .receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers");
        if done(&message) {
            return message;
        }
    };
    wait_for(&|m| matches!(m, Message::Response(_)));
    send(Notification::new("initialized".to_owned(), json!({})).into());
    // The chapter's diagnostics count as last published (none published: none).
    let count_in = |m: &Message| match m {
        Message::Notification(n)
            if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri.as_str() =>
        {
            n.params["diagnostics"].as_array().map(Vec::len)
        }
        _ => None,
    };
    send(Notification::new("textDocument/didOpen".to_owned(), json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 0, "text": text}})).into());
    // A request is answered after every change before it is checked: what was published by
    // then is the state the edits start from.
    send(
        Request::new(
            RequestId::from(2),
            "textDocument/documentSymbol".to_owned(),
            json!({"textDocument": {"uri": uri}}),
        )
        .into(),
    );
    let mut current = 0;
    loop {
        let message = wait_for(&|_| true);
        if let Some(count) = count_in(&message) {
            current = count;
        }
        if matches!(message, Message::Response(_)) {
            break;
        }
    }

    let dashed = format!("{text}\nAn edit \u{2014} with an em-dash.\n");
    let mut times = Vec::with_capacity(runs);
    for run in 0..runs {
        let edited = if run % 2 == 0 { &dashed } else { &text };
        let started = Instant::now();
        send(Notification::new("textDocument/didChange".to_owned(), json!({"textDocument": {"uri": uri, "version": run + 1}, "contentChanges": [{"text": edited}]})).into());
        let message = wait_for(&|m| count_in(m).is_some_and(|c| c != current));
        times.push(started.elapsed());
        current = count_in(&message).unwrap_or(current);
    }
    send(Request::new(RequestId::from(3), "shutdown".to_owned(), Value::Null).into());
    wait_for(&|m| matches!(m, Message::Response(_)));
    send(Notification::new("exit".to_owned(), Value::Null).into());
    thread
        .join()
        .expect("the server ends")
        .expect("the server ends cleanly");

    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "lsp diagnostics after an edit of {} ({} edits): median {:.1} ms, min {:.1} ms, max {:.1} ms",
        chapter.strip_prefix(&root).unwrap_or(&chapter).display(),
        runs,
        ms(times[runs / 2]),
        ms(times[0]),
        ms(times[runs - 1])
    );
}
