//! The MCP server's latency, for `scripts/bench-mcp.sh`: how long a tool call takes once the
//! book is loaded, how long the first call (the load) and a call after an edit (a reload)
//! take, and whether memory stays flat over many calls.
//!
//! The server is the `mdbook-contract` binary (`MDBOOK_CONTRACT`, default `mdbook-contract` on
//! the PATH) started as an MCP client starts it, `mcp BOOK_DIR` over its standard input and
//! output. A call is timed from writing its `tools/call` to reading its reply.
//!
//! 1. `initialize`, then `contract_overview`: the first load.
//! 2. `RUNS` rounds (default 20) of each tool in turn (`contract_overview`, `contract_check`,
//!    `contract_uncovered`, `contract_rules`, `contract_provider` and `contract_uncovered` of
//!    the first provider only a spec describes (else the first provider), `contract_brief`'s
//!    `rules` section of that spec, `contract_rule` of the book's first rule, `contract_axis` of its
//!    first axis when it has one): the median, minimum and maximum per tool and over all.
//! 3. `EDITS` times (default 5): CHAPTER gets a line at its end (or loses it again), then
//!    `contract_overview` is timed: the reload.
//! 4. `CALLS` more calls (default 1000) of `contract_rule`, with the server's resident memory
//!    (VmRSS) read before and after.
//!
//! Usage: `mcp_latency BOOK_DIR CHAPTER` (CHAPTER relative to BOOK_DIR; it is restored).

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Server {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next: u64,
}

impl Server {
    fn start(book: &Path) -> Server {
        let program = std::env::var("MDBOOK_CONTRACT").unwrap_or_else(|_| "mdbook-contract".into());
        let mut child = Command::new(program)
            .arg("mcp")
            .arg(book)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        let mut server = Server {
            child,
            input,
            output,
            next: 0,
        };
        server.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "mcp_latency", "version": "1"}}),
        );
        writeln!(
            server.input,
            "{}",
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        )
        .expect("the server reads");
        server
    }

    fn request(&mut self, method: &str, params: Value) -> (Value, Duration) {
        self.next += 1;
        let message =
            json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params});
        let start = Instant::now();
        writeln!(self.input, "{message}").expect("the server reads");
        self.input.flush().expect("the server reads");
        let mut line = String::new();
        self.output.read_line(&mut line).expect("the server writes");
        let took = start.elapsed();
        let reply: Value = serde_json::from_str(&line).expect("a JSON reply");
        assert_eq!(reply["id"], self.next, "{reply}");
        (reply, took)
    }

    fn call(&mut self, tool: &str, arguments: &Value) -> (Value, Duration) {
        let (reply, took) =
            self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let result = reply["result"].clone();
        assert_eq!(result["isError"], false, "{tool}: {reply}");
        (result["structuredContent"].clone(), took)
    }

    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `median min max` in milliseconds.
fn summary(times: &mut [Duration]) -> String {
    times.sort();
    format!(
        "median {:.1} ms, min {:.1}, max {:.1} ({} calls)",
        ms(times[times.len() / 2]),
        ms(times[0]),
        ms(times[times.len() - 1]),
        times.len()
    )
}

/// The book's first rule, as `export` gives it.
fn first_rule(book: &Path) -> Option<String> {
    let program = std::env::var("MDBOOK_CONTRACT").unwrap_or_else(|_| "mdbook-contract".into());
    let output = Command::new(program)
        .arg("export")
        .arg(book)
        .output()
        .ok()?;
    let export: Value = serde_json::from_slice(&output.stdout).ok()?;
    export["rules"][0]["id"].as_str().map(str::to_owned)
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, book, chapter] = &args[..] else {
        eprintln!("usage: mcp_latency BOOK_DIR CHAPTER");
        std::process::exit(2);
    };
    let book = PathBuf::from(book);
    let chapter = book.join(chapter);
    let original = std::fs::read_to_string(&chapter).expect("the chapter is read");
    let mut server = Server::start(&book);
    let (overview, first) = server.call("contract_overview", &json!({}));
    println!("first call (the load): {:.1} ms", ms(first));
    let mut tools: Vec<(&str, Value)> = vec![
        ("contract_overview", json!({})),
        ("contract_check", json!({})),
        ("contract_uncovered", json!({})),
    ];
    if let Some(code) = overview["axes"][0]["code"].as_str() {
        tools.push(("contract_axis", json!({"code": code})));
    }
    let rule_id = first_rule(&book);
    if let Some(id) = &rule_id {
        tools.push(("contract_rule", json!({"id": id})));
    }
    tools.push(("contract_rules", json!({})));
    // The provider an agent starts: the first one only a spec describes, else the first one.
    let spec = overview["specs"][0]["provider"].as_str();
    let provider = spec.or(overview["providers"][0]["name"].as_str());
    if let Some(name) = provider {
        tools.push(("contract_provider", json!({"name": name})));
        tools.push(("contract_uncovered", json!({"provider": name})));
    }
    if let Some(name) = spec {
        tools.push((
            "contract_brief",
            json!({"provider": name, "section": "rules"}),
        ));
    }
    let runs = env_number("RUNS", 20);
    let mut all = Vec::new();
    for (tool, arguments) in &tools {
        let mut times: Vec<Duration> = (0..runs).map(|_| server.call(tool, arguments).1).collect();
        all.extend_from_slice(&times);
        println!("{tool}: {}", summary(&mut times));
    }
    println!("every tool: {}", summary(&mut all));

    let mut reloads = Vec::new();
    for edit in 0..env_number("EDITS", 5) {
        let text = if edit % 2 == 0 {
            format!("{original}\nA line added by mcp_latency.\n")
        } else {
            original.clone()
        };
        std::fs::write(&chapter, text).expect("the chapter is written");
        reloads.push(server.call("contract_overview", &json!({})).1);
    }
    std::fs::write(&chapter, &original).expect("the chapter is restored");
    if !reloads.is_empty() {
        println!(
            "a call after an edit (the reload): {}",
            summary(&mut reloads)
        );
    }

    let calls = env_number("CALLS", 1000);
    let (tool, arguments) = tools
        .iter()
        .find(|(t, _)| *t == "contract_rule")
        .or(tools.last())
        .expect("a tool")
        .clone();
    server.call(tool, &arguments);
    let before = server.rss_kib();
    for _ in 0..calls {
        server.call(tool, &arguments);
    }
    let after = server.rss_kib();
    println!("memory (VmRSS) before {calls} calls of {tool}: {before} KiB, after: {after} KiB");
}
