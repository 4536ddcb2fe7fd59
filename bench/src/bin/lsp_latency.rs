//! The language server's diagnostics latency: how long after an edit the diagnostics of the
//! edited chapter arrive, on a book, for `scripts/bench.sh` and `scripts/bench-lsp.sh`.
//!
//! The server is the `mdbook-contract` binary (`MDBOOK_CONTRACT`, default `mdbook-contract` on
//! the PATH) started as an editor starts it, `lsp` over its standard input and output. The time
//! is taken from writing `didChange` to reading the chapter's `publishDiagnostics`.
//!
//! - By default the chapter is opened with a line holding an em-dash added at its end, and
//!   saved (so a book's own preprocessors, which run on save, have seen it); once an em-dash
//!   is reported, the chapter is edited `RUNS` times (default 20): each edit adds or takes
//!   away a line at the top, which moves the em-dash's diagnostic, so the chapter's
//!   diagnostics change every time; an edit is timed until they do. `TYPED` is the line added
//!   (default a line of prose). Prints the median, the minimum and the maximum in
//!   milliseconds, and the server's resident memory (VmRSS) after the first 50 edits and after
//!   the last when there are more.
//! - With `MODE=typing`, the chapter is opened and saved as it is, and each edit types the line
//!   with the em-dash at its end, or takes it away again: an edit is timed until a
//!   `publishDiagnostics` of the chapter shows the em-dash on that line, or no longer shows
//!   it. An edit not reflected within 5 s counts as never reflected. After each edit the
//!   chapter is saved, and once the server's run of the book's preprocessors is over (its
//!   child process gone), an em-dash shown before the save and gone after it counts as
//!   vanished. Prints the median, the minimum, the maximum, and the two counts.
//!
//! Usage: `lsp_latency BOOK_DIR CHAPTER` (CHAPTER relative to BOOK_DIR).

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The line typed, as the user typed it.
const DASHED: &str = "An added line with an em\u{2014}dash in it.";

/// The server under measure, over its standard input and output.
struct Server {
    input: ChildStdin,
    receiver: mpsc::Receiver<Value>,
    pid: u32,
    uri: String,
}

impl Server {
    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len())
            .expect("the server reads");
        self.input.flush().expect("the server reads");
    }

    /// The next message that satisfies `done`, or `None` when none comes within `within`.
    fn wait_for(&self, done: &dyn Fn(&Value) -> bool, within: Duration) -> Option<Value> {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self.receiver.recv_timeout(left).ok()?;
            if done(&message) {
                return Some(message);
            }
        }
    }

    /// The diagnostics of the chapter, when `message` publishes them.
    fn published(&self, message: &Value) -> Option<Value> {
        (message["method"] == "textDocument/publishDiagnostics"
            && message["params"]["uri"] == self.uri.as_str())
        .then(|| message["params"]["diagnostics"].clone())
    }

    /// Sends a request and returns the chapter's last published diagnostics by the time it is
    /// answered (a request is answered once every change before it is checked), or `last`.
    fn settle(&mut self, id: u64, mut last: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": self.uri}}}));
        loop {
            let message = self
                .wait_for(&|_| true, Duration::from_secs(120))
                .expect("the server answers");
            if let Some(list) = self.published(&message) {
                last = list;
            }
            if message["id"] == id {
                return last;
            }
        }
    }

    /// Waits until the server has no child process (its run of the book's preprocessors is
    /// over), seeing one start first if it does within a second.
    fn wait_for_run(&self) {
        let started = Instant::now();
        let mut seen = false;
        while started.elapsed() < Duration::from_secs(600) {
            let running = has_children(self.pid);
            seen |= running;
            if (seen && !running) || (!seen && started.elapsed() > Duration::from_secs(1)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

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
    let original = std::fs::read_to_string(&chapter).expect("the chapter exists");

    let mut child = Command::new(&binary)
        .arg("lsp")
        .current_dir(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let output = BufReader::new(child.stdout.take().expect("piped"));
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || read_messages(output, sender));
    let mut server = Server {
        input: child.stdin.take().expect("piped"),
        receiver,
        pid: child.id(),
        uri: uri.to_string(),
    };
    server.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": root_uri, "capabilities": {}}}));
    server.wait_for(&|m| m["id"] == 1, Duration::from_secs(60));
    server.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));

    let line = if std::env::var("MODE").is_ok_and(|m| m == "typing") {
        typing(&mut server, &original, runs)
    } else {
        moving(&mut server, &original, runs)
    };
    server.send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null}));
    server.wait_for(&|m| m["id"] == 2, Duration::from_secs(60));
    server.send(json!({"jsonrpc": "2.0", "method": "exit", "params": null}));
    let _ = child.wait();
    println!(
        "lsp diagnostics after an edit of {} ({runs} edits): {line}",
        chapter.strip_prefix(&root).unwrap_or(&chapter).display(),
    );
}

fn has_dash(list: &Value) -> bool {
    list.as_array()
        .into_iter()
        .flatten()
        .any(|d| d["code"] == "em-dash")
}

/// Whether `list` has an em-dash finding on line `line` (from 0).
fn dash_on(list: &Value, line: u64) -> bool {
    list.as_array()
        .into_iter()
        .flatten()
        .any(|d| d["code"] == "em-dash" && d["range"]["start"]["line"] == line)
}

/// The default benchmark: each edit moves the em-dash's line (see the module docs).
fn moving(server: &mut Server, original: &str, runs: usize) -> String {
    let text = format!("{original}\n{DASHED}\n");
    server.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": server.uri, "languageId": "markdown", "version": 0, "text": text}}}));
    server.send(json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": server.uri}}}));
    // A book whose own preprocessors are built on their first run (`cargo run`) takes long.
    let first = server
        .wait_for(
            &|m| server.published(m).is_some_and(|l| has_dash(&l)),
            Duration::from_secs(1800),
        )
        .expect("the em-dash is reported");
    let mut last = server.published(&first).unwrap_or_default();
    last = server.settle(3, last);
    // `TYPED` is the line (`## A heading`, say, which changes the chapter's anchors).
    let typed = std::env::var("TYPED").unwrap_or_else(|_| "A line typed at the top.".into());
    let moved = format!("{typed}\n\n{text}");
    let mut times = Vec::with_capacity(runs);
    let mut rss_after_50 = None;
    for run in 0..runs {
        let edited = if run % 2 == 0 { &moved } else { &text };
        let started = Instant::now();
        server.send(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": server.uri, "version": run + 1}, "contentChanges": [{"text": edited}]}}));
        let message = server
            .wait_for(
                &|m| server.published(m).is_some_and(|l| l != last),
                Duration::from_secs(120),
            )
            .expect("the diagnostics change");
        times.push(started.elapsed());
        last = server.published(&message).unwrap_or_default();
        if run + 1 == 50 {
            rss_after_50 = rss(server.pid);
        }
    }
    let mut line = spread(&mut times);
    if let (Some(after_50), Some(at_end)) = (rss_after_50, rss(server.pid)) {
        line.push_str(&format!(
            "; resident memory {:.1} MB after 50 edits, {:.1} MB after {runs} ({:+.1} %)",
            after_50 as f64 / 1024.0,
            at_end as f64 / 1024.0,
            (at_end as f64 / after_50 as f64 - 1.0) * 100.0
        ));
    }
    line
}

/// `MODE=typing` (see the module docs).
fn typing(server: &mut Server, original: &str, runs: usize) -> String {
    let base = if original.ends_with('\n') {
        original.to_owned()
    } else {
        format!("{original}\n")
    };
    let typed = format!("{base}{DASHED}\n");
    let line = base.matches('\n').count() as u64;
    server.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": server.uri, "languageId": "markdown", "version": 0, "text": base}}}));
    server.send(json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": server.uri}}}));
    server.wait_for_run();
    let mut last = server.settle(3, Value::Null);
    let mut times = Vec::with_capacity(runs);
    let (mut never, mut vanished) = (0, 0);
    for run in 0..runs {
        let present = run % 2 == 0;
        let text = if present { &typed } else { &base };
        let started = Instant::now();
        server.send(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": server.uri, "version": run + 1}, "contentChanges": [{"text": text}]}}));
        let reflected = server.wait_for(
            &|m| {
                server
                    .published(m)
                    .is_some_and(|l| dash_on(&l, line) == present)
            },
            Duration::from_secs(5),
        );
        match reflected.and_then(|m| server.published(&m)) {
            Some(list) => {
                times.push(started.elapsed());
                last = list;
            }
            None => never += 1,
        }
        last = server.settle(10 + 2 * run as u64, last);
        let shown = dash_on(&last, line);
        server.send(json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": server.uri}}}));
        server.wait_for_run();
        last = server.settle(11 + 2 * run as u64, last);
        if shown && !dash_on(&last, line) {
            vanished += 1;
        }
        if std::env::var_os("VERBOSE").is_some() {
            eprintln!(
                "edit {run}: typed {present}, shown before the save {shown}, after it {}",
                dash_on(&last, line)
            );
        }
    }
    let mut line = if times.is_empty() {
        "no edit was reflected".to_owned()
    } else {
        spread(&mut times)
    };
    line.push_str(&format!(
        "; never reflected within 5 s: {never}; vanished after the following save: {vanished}"
    ));
    line
}

/// "median M ms, min A ms, max B ms" of `times`.
fn spread(times: &mut [Duration]) -> String {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "median {:.1} ms, min {:.1} ms, max {:.1} ms",
        ms(times[times.len() / 2]),
        ms(times[0]),
        ms(times[times.len() - 1])
    )
}

/// Whether process `pid` has a child process (Linux).
fn has_children(pid: u32) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().any(|task| {
        std::fs::read_to_string(task.path().join("children"))
            .is_ok_and(|children| !children.trim().is_empty())
    })
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
