//! `mdbook-contract mcp`: the binary driven over stdio with real Model Context Protocol
//! messages, as an agent's client sends them (initialize, `tools/list`, `tools/call`), on the
//! broker fixture; the book edited on disk between two calls; mistakes of every kind.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use crate::broker::broker;
use crate::common::{Fixture, binary};

/// One session with the server, started and initialised.
pub(crate) struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Session {
    /// The server with `--allow-commands`: the book's own preprocessors run, as in a build.
    pub(crate) fn start(root: &Path) -> Session {
        Session::start_with(root, &[])
    }

    pub(crate) fn start_with(root: &Path, env: &[(&str, &str)]) -> Session {
        Session::start_args(&["mcp", "--allow-commands"], root, env)
    }

    /// The server as an agent's configuration starts it by default: no command of the book run.
    pub(crate) fn start_as_opened(root: &Path) -> Session {
        Session::start_args(&["mcp"], root, &[])
    }

    fn start_args(args: &[&str], root: &Path, env: &[(&str, &str)]) -> Session {
        let mut child = Command::new(binary())
            .args(args)
            .arg(root)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut session = Session {
            child,
            stdin,
            stdout,
            next: 0,
        };
        let reply = session.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": { "name": "testsuite", "version": "1" },
            }),
        );
        assert_eq!(
            reply["result"]["serverInfo"]["name"], "mdbook-contract",
            "{reply}"
        );
        assert!(
            reply["result"]["capabilities"]["tools"].is_object(),
            "{reply}"
        );
        session
            .line(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }).to_string());
        session
    }

    /// Writes `line` as it is.
    pub(crate) fn line(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next message the server writes.
    pub(crate) fn reply(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("`{line}` is no JSON: {e}"))
    }

    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.line(
            &json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string(),
        );
        let reply = self.reply();
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    /// The result of the tool `name` called with `arguments`.
    pub(crate) fn call(&mut self, name: &str, arguments: Value) -> Value {
        let reply = self.request(
            "tools/call",
            json!({ "name": name, "arguments": arguments }),
        );
        let result = reply["result"].clone();
        assert!(result.is_object(), "{reply}");
        result
    }

    /// The structured content of a successful call.
    pub(crate) fn answer(&mut self, name: &str, arguments: Value) -> Value {
        let result = self.call(name, arguments);
        assert_eq!(result["isError"], false, "{result}");
        result["structuredContent"].clone()
    }

    /// The text of a call that is a tool error.
    pub(crate) fn refusal(&mut self, name: &str, arguments: Value) -> String {
        let result = self.call(name, arguments);
        assert_eq!(result["isError"], true, "{result}");
        result["content"][0]["text"].as_str().unwrap().to_owned()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The broker book with the test results of its last run.
pub(crate) fn with_results() -> Fixture {
    broker(&[("book.toml", &|t: &str| {
        t.to_owned() + "test-results = [\"results/conformance.xml\", \"results/adapters.json\"]\n"
    })])
}

#[test]
fn every_tool_is_listed_with_a_schema_of_its_arguments() {
    let book = broker(&[]);
    let mut session = Session::start(book.root());
    let reply = session.request("tools/list", json!({}));
    let tools = reply["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "contract_overview",
            "contract_axis",
            "contract_rule",
            "contract_rules",
            "contract_provider",
            "contract_brief",
            "contract_check",
            "contract_uncovered",
            "contract_new_spec",
        ]
    );
    for tool in tools {
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert_eq!(tool["inputSchema"]["additionalProperties"], false, "{tool}");
        assert!(
            tool["title"].as_str().is_some_and(|t| !t.is_empty()),
            "{tool}"
        );
        // The schema describes the arguments, not the Rust type behind them.
        let description = tool["inputSchema"]["description"].as_str().unwrap_or("");
        assert!(!description.contains('`'), "{tool}");
        let output = &tool["outputSchema"];
        assert_eq!(output["type"], "object", "{tool}");
        assert_eq!(output["properties"]["changed"]["type"], "array", "{tool}");
        let writes = tool["name"] == "contract_new_spec";
        assert_eq!(tool["annotations"]["readOnlyHint"], !writes, "{tool}");
    }
    let axis = &tools[1]["inputSchema"];
    assert_eq!(axis["required"], json!(["code"]), "{axis}");
    assert_eq!(axis["properties"]["code"]["type"], "string", "{axis}");
    let check = &tools[6]["inputSchema"];
    assert!(
        check.get("required").is_none_or(|r| r == &json!([])),
        "{check}"
    );
}

#[test]
fn the_overview_an_axis_and_a_rule_are_the_books() {
    let book = with_results();
    let mut session = Session::start(book.root());
    let overview = session.answer("contract_overview", json!({}));
    assert_eq!(overview["axes"].as_array().unwrap().len(), 6, "{overview}");
    assert_eq!(overview["axes"][0]["code"], "delivery");
    assert_eq!(overview["rules"]["count"], 8);
    assert_eq!(
        overview["rules"]["by_level"],
        json!({ "MUST": 5, "SHOULD": 2, "MAY": 1, "required": 0 })
    );
    assert_eq!(overview["specs"][0]["provider"], "redis-streams");
    assert_eq!(overview["specs"][0]["open"].as_array().unwrap().len(), 5);
    assert_eq!(overview["changed"], json!([]));

    let axis = session.answer("contract_axis", json!({ "code": "delivery" }));
    assert_eq!(axis["profiles"][0]["name"], "at-least-once");
    assert_eq!(axis["profiles"][0]["rules"], json!(["delivery.ack-after"]));
    let kafka = axis["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["provider"] == "kafka")
        .expect("kafka claims delivery");
    assert!(kafka["place"]["line"].as_u64().unwrap() > 0, "{kafka}");

    let rule = session.answer(
        "contract_rule",
        json!({ "id": "r[verify publish.reject-oversized]" }),
    );
    assert_eq!(rule["rule"]["level"], "MUST", "{rule}");
    let cell = |provider: &str| {
        rule["providers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["provider"] == provider)
            .unwrap_or_else(|| panic!("{provider} in {rule}"))
            .clone()
    };
    assert_eq!(cell("kafka")["status"], "passed");
    assert_eq!(cell("kafka")["bound"], true);
    let failed = cell("nats-jetstream");
    assert_eq!(failed["status"], "failed");
    assert_eq!(
        failed["result"]["case"],
        "TestPublishOversized/nats-jetstream"
    );
    let citations = rule["citations"].as_array().unwrap();
    assert!(
        citations
            .iter()
            .any(|c| c["verb"] == "verify" && c["path"] == "code/conformance/conformance_test.go"),
        "{rule}"
    );
    assert!(citations.iter().all(|c| c["line"].as_u64().unwrap() > 0));
}

#[test]
fn a_provider_its_brief_its_uncovered_rules_and_the_findings() {
    let book = with_results();
    let mut session = Session::start(book.root());
    let spec = session.answer("contract_provider", json!({ "name": "redis-streams" }));
    assert_eq!(spec["sections"][0]["status"], "spec");
    let next = spec["next"].as_str().unwrap();
    assert!(
        next.starts_with("answer the spec's 5 open entries, first \"Ordering\""),
        "{next}"
    );

    let built = session.answer("contract_provider", json!({ "name": "nats-jetstream" }));
    assert_eq!(built["coverage"]["failed"], 1, "{built}");
    // A small contract is one page, every MUST rule left named; a local provider has no report.
    assert_eq!(built["next_cursor"], Value::Null, "{built}");
    assert_eq!(built["must_short_more"], 0, "{built}");
    assert!(built["coverage"].get("report").is_none(), "{built}");
    assert!(
        built["next"]
            .as_str()
            .unwrap()
            .starts_with("make the failing tests pass"),
        "{built}"
    );

    let uncovered = session.answer("contract_uncovered", json!({ "provider": "rabbitmq" }));
    let rules: Vec<(&str, &str)> = uncovered["providers"][0]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["rule"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(rules.len(), 2, "{uncovered}");
    assert!(
        rules.contains(&("publish.trace-header", "failed")),
        "{uncovered}"
    );
    let all = session.answer("contract_uncovered", json!({}));
    assert_eq!(all["providers"].as_array().unwrap().len(), 3);

    let findings = session.answer("contract_check", json!({}));
    let whole = findings["findings"].as_array().unwrap().len();
    assert!(whole > 0);
    let checks: Vec<&str> = findings["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["check"].as_str().unwrap())
        .collect();
    assert!(checks.contains(&"failing-rule"), "{findings}");
    let spec_only = session.answer(
        "contract_check",
        json!({ "path": "redis-streams-adapter-spec.md" }),
    );
    let in_spec = spec_only["findings"].as_array().unwrap();
    assert!(!in_spec.is_empty() && in_spec.len() < whole, "{spec_only}");
    assert!(
        in_spec
            .iter()
            .all(|f| f["path"] == "src/redis-streams-adapter-spec.md")
    );
    let clean = session.answer(
        "contract_check",
        json!({ "path": "src/adapter-spec-template.md" }),
    );
    assert_eq!(clean["findings"], json!([]));

    // The book has an error with these results (another provider's MUST fails): the brief is
    // written all the same, and lists it.
    let brief = session.answer("contract_brief", json!({ "provider": "redis-streams" }));
    assert_eq!(brief["errors_elsewhere"], 1, "{brief}");
    let errors = session.answer(
        "contract_brief",
        json!({ "provider": "redis-streams", "section": "errors" }),
    );
    let markdown = errors["markdown"].as_str().unwrap();
    assert!(
        markdown.starts_with("## Errors elsewhere in the book")
            && markdown.contains("failing-rule: `nats-jetstream` fails the rule"),
        "{markdown}"
    );
}

#[test]
fn the_brief_is_the_one_brief_writes() {
    let book = broker(&[]);
    let mut session = Session::start(book.root());
    let brief = session.answer("contract_brief", json!({ "provider": "redis-streams" }));
    let (code, written, stderr) = crate::common::run_in(book.root(), &["brief", "redis-streams"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(brief["markdown"], written.as_str());
}

#[test]
fn a_name_not_in_the_book_is_an_error_naming_the_nearest() {
    let book = broker(&[]);
    let mut session = Session::start(book.root());
    for (tool, arguments, nearest) in [
        (
            "contract_axis",
            json!({ "code": "delivry" }),
            "did you mean `delivery`?",
        ),
        (
            "contract_rule",
            json!({ "id": "publish.akc" }),
            "did you mean `publish.ack`?",
        ),
        (
            "contract_provider",
            json!({ "name": "kafk" }),
            "did you mean `kafka`?",
        ),
        (
            "contract_brief",
            json!({ "provider": "redis" }),
            "it has `redis-streams`",
        ),
        (
            "contract_uncovered",
            json!({ "provider": "rabitmq" }),
            "did you mean `rabbitmq`?",
        ),
        (
            "contract_check",
            json!({ "path": "contracts.md" }),
            "did you mean `src/contract.md`?",
        ),
    ] {
        let refusal = session.refusal(tool, arguments);
        assert!(refusal.contains(nearest), "{tool}: {refusal}");
    }
    let refusal = session.refusal("contract_axis", json!({ "axis": "delivery" }));
    assert!(refusal.contains("do not fit its input schema"), "{refusal}");
}

#[test]
fn a_malformed_message_is_answered_and_the_server_reads_on() {
    let book = broker(&[]);
    let mut session = Session::start(book.root());
    session.line("{\"jsonrpc\": \"2.0\", \"id\": 41, \"method\": \"tools/ca");
    let reply = session.reply();
    assert_eq!(reply["error"]["code"], -32700, "{reply}");
    assert_eq!(reply["id"], Value::Null);
    session.line(r#"{"jsonrpc": "2.0", "id": 42, "method": 7}"#);
    let reply = session.reply();
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    assert_eq!(reply["id"], 42);
    let reply = session.request(
        "tools/call",
        json!({ "name": "contract_overveiw", "arguments": {} }),
    );
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("did you mean `contract_overview`?"),
        "{message}"
    );
    let overview = session.answer("contract_overview", json!({}));
    assert_eq!(overview["rules"]["count"], 8);
}

#[test]
fn an_edit_on_disk_is_in_the_next_answer_and_said_once() {
    let book = broker(&[]);
    let mut session = Session::start(book.root());
    let before = session.answer("contract_rule", json!({ "id": "publish.ack" }));
    assert_eq!(before["changed"], json!([]));
    let contract = book.root().join("src/contract.md");
    let text = std::fs::read_to_string(&contract).unwrap();
    let edited = text.replacen("\nr[publish.batch]", "\nr[publish.order]\nPublish MUST keep the order of one producer's messages \u{2014} always.\n\nr[publish.batch]", 1);
    assert_ne!(edited, text);
    std::fs::write(&contract, edited).unwrap();

    let after = session.answer("contract_overview", json!({}));
    assert_eq!(after["rules"]["count"], 9, "{after}");
    let changed: Vec<&str> = after["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(changed.len(), 2, "{changed:?}");
    assert!(
        changed[0].starts_with("contract: ") && changed[0].contains("publish.order"),
        "{changed:?}"
    );
    // The new rule's em-dash, and the rule untested by each built provider.
    assert!(changed[1].starts_with("findings: 5 new ("), "{changed:?}");
    assert!(
        changed[1].contains("em-dash at src/contract.md:"),
        "{changed:?}"
    );
    let result = session.call("contract_overview", json!({}));
    assert_eq!(result["structuredContent"]["changed"], json!([]));

    // The test of the new rule is written: its coverage changes, and the text says so first.
    let go = book.root().join("code/adapters/kafka/kafka_test.go");
    let test = std::fs::read_to_string(&go).unwrap();
    std::fs::write(
        &go,
        test + "\n// r[verify publish.order]\nfunc TestOrder(t *testing.T) {}\n",
    )
    .unwrap();
    let result = session.call("contract_rule", json!({ "id": "publish.order" }));
    let text = result["content"][1]["text"].as_str().unwrap();
    assert!(
        text.starts_with(
            "changed since the last call: contract: `kafka`: r[publish.order] uncovered → verified"
        ),
        "{text}"
    );
}

#[test]
fn a_book_that_cannot_load_is_an_answer_and_loads_again_once_fixed() {
    let book = broker(&[]);
    let mut session = Session::start(book.root());
    session.answer("contract_overview", json!({}));
    let toml = book.root().join("book.toml");
    let good = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, good.replace("[book]", "[book")).unwrap();
    let refusal = session.refusal("contract_overview", json!({}));
    assert!(refusal.contains("cannot be loaded"), "{refusal}");
    assert!(refusal.contains("book.toml"), "{refusal}");
    std::fs::write(&toml, good).unwrap();
    let again = session.answer("contract_overview", json!({}));
    assert_eq!(again["changed"], json!(["the book loads again"]));
}

#[test]
fn a_panic_in_a_tool_is_an_error_result_and_the_server_goes_on() {
    let book = broker(&[]);
    let mut session = Session::start_with(book.root(), &[("MDBOOK_CONTRACT_FAULT", "mcp-tool")]);
    let refusal = session.refusal("contract_overview", json!({}));
    assert!(refusal.starts_with("internal error: "), "{refusal}");
    assert!(
        refusal.contains("MDBOOK_CONTRACT_FAULT=mcp-tool"),
        "{refusal}"
    );
    let reply = session.request("tools/list", json!({}));
    assert_eq!(reply["result"]["tools"].as_array().unwrap().len(), 9);
}

#[test]
fn print_config_registers_the_server_for_the_book() {
    let book = broker(&[]);
    let (code, stdout, stderr) = crate::common::run_in(book.root(), &["mcp", "--print-config"]);
    assert_eq!(code, 0, "{stderr}");
    let config: Value = serde_json::from_str(&stdout).unwrap();
    let server = &config["mcpServers"]["mdbook-contract"];
    // By name, as a committed file must: a note says when this `PATH` would not find it.
    assert_eq!(server["command"], "mdbook-contract");
    let found = Path::new(binary()).parent().unwrap().to_owned();
    let path = std::env::join_paths(std::iter::once(found).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let (_, _, quiet) = crate::common::run_in_with(
        book.root(),
        &["mcp", "--print-config"],
        &[("PATH", path.to_str().unwrap())],
    );
    assert!(!quiet.contains("note:"), "{quiet}");
    let (_, _, told) = crate::common::run_in_with(
        book.root(),
        &["mcp", "--print-config"],
        &[("PATH", "/nonexistent")],
    );
    assert!(told.contains("finds no `mdbook-contract`"), "{told}");
    // Outside a repository, the folder from where the command ran.
    let args = server["args"].as_array().unwrap();
    assert_eq!(args[0], "mcp");
    assert_eq!(args[1], ".");
}

#[test]
fn print_config_writes_each_host_its_own_form() {
    let book = broker(&[]);
    let root = std::fs::canonicalize(book.root()).unwrap();
    let config = |host: &str| {
        let (code, stdout, stderr) =
            crate::common::run_in(book.root(), &["mcp", &format!("--print-config={host}")]);
        assert_eq!(code, 0, "{host}: {stderr}");
        stdout
    };
    let vscode: Value = serde_json::from_str(&config("vscode")).unwrap();
    let server = &vscode["servers"]["mdbook-contract"];
    assert_eq!(server["type"], "stdio");
    assert_eq!(server["args"][1], "${workspaceFolder}");
    // Codex's file is the user's own: the folder absolute.
    let codex: toml_edit::DocumentMut = config("codex").parse().unwrap();
    let args = codex["mcp_servers"]["mdbook-contract"]["args"]
        .as_array()
        .unwrap();
    assert_eq!(args.get(0).and_then(|a| a.as_str()), Some("mcp"));
    assert_eq!(
        std::fs::canonicalize(args.get(1).and_then(|a| a.as_str()).unwrap()).unwrap(),
        root
    );
    let claude = config("claude");
    assert!(
        claude.starts_with("claude mcp add mdbook-contract -- ") && claude.contains(" mcp "),
        "{claude}"
    );
    let (code, _, stderr) = crate::common::run_in(book.root(), &["mcp", "--print-config=emacs"]);
    assert_eq!(code, 2, "{stderr}");
}
