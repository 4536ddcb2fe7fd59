//! The protocol's details an agent's client meets over stdio: a line too long for the server
//! is refused with its request's id, a method it does not serve is named with those it does,
//! `contract_new_spec` speaks of its own arguments and of paths as the answers write them, a
//! provider that claims nothing is told what binds it and what waits on its claims, "did you
//! mean" offers the name a rename extended, and `mcp --print-config` writes what a repository
//! can commit.

use serde_json::{Value, json};

use crate::broker::broker;
use crate::common::{git, run_in};
use crate::mcp::Session;

#[test]
fn a_line_over_16_mib_is_refused_with_its_requests_id() {
    let book = broker(&[]);
    let mut session = Session::start_as_opened(book.root());
    let huge = "x".repeat(17 << 20);
    session.line(&format!(
        r#"{{"jsonrpc": "2.0", "id": 41, "method": "tools/call", "params": {{"name": "contract_rule", "arguments": {{"id": "{huge}"}}}}}}"#
    ));
    let reply = session.reply();
    assert_eq!(reply["error"]["code"], -32700, "{reply}");
    assert_eq!(reply["id"], 41, "{reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("16 MiB"),
        "{reply}"
    );
    // An id written after the cut cannot be known: `null`, as JSON-RPC says.
    session.line(&format!(
        r#"{{"jsonrpc": "2.0", "method": "tools/call", "params": {{"name": "{huge}"}}, "id": 42}}"#
    ));
    assert_eq!(session.reply()["id"], Value::Null);
    // The session goes on.
    assert!(session.request("tools/list", json!({}))["result"]["tools"].is_array());
}

#[test]
fn a_method_the_server_does_not_serve_is_named_with_those_it_does() {
    let book = broker(&[]);
    let mut session = Session::start_as_opened(book.root());
    for method in ["prompts/list", "resources/list", "completion/complete"] {
        let reply = session.request(method, json!({}));
        assert_eq!(reply["error"]["code"], -32601, "{reply}");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains(&format!("`{method}`")), "{message}");
        for served in ["`initialize`", "`ping`", "`tools/list`", "`tools/call`"] {
            assert!(message.contains(served), "{message}");
        }
    }
}

#[test]
fn new_spec_speaks_of_its_arguments_and_paths_from_the_book() {
    let book = broker(&[]);
    let mut session = Session::start_as_opened(book.root());
    let refusal = session.refusal(
        "contract_new_spec",
        json!({ "name": "hetzner", "path": "/elsewhere/hetzner.md" }),
    );
    assert!(!refusal.contains("--path"), "{refusal}");
    assert!(refusal.contains(r#"`"path": "#), "{refusal}");
    assert!(refusal.contains("absolute path outside"), "{refusal}");
    assert!(!refusal.contains("src//"), "{refusal}");
    let refusal = session.refusal(
        "contract_new_spec",
        json!({ "name": "hetzner", "path": "../hetzner.md" }),
    );
    assert!(refusal.contains("leads out of"), "{refusal}");
    assert!(!refusal.contains("--path"), "{refusal}");
    let refusal = session.refusal(
        "contract_new_spec",
        json!({ "name": "hetzner", "path": "hetzner.txt" }),
    );
    assert!(
        refusal.contains(r#"`"path": "hetzner-adapter-spec.md"`"#),
        "{refusal}"
    );
    // An absolute path inside `src` is the chapter it names; every path written is relative.
    let inside = book.root().join("src/hetzner-adapter-spec.md");
    let made = session.answer(
        "contract_new_spec",
        json!({ "name": "hetzner", "path": inside.to_str().unwrap() }),
    );
    assert_eq!(made["chapter"], "src/hetzner-adapter-spec.md", "{made}");
    for written in made["written"].as_array().unwrap() {
        let written = written.as_str().unwrap();
        assert!(
            !written.starts_with('/') && !written.contains("//"),
            "{made}"
        );
    }
    // The command line keeps its own words.
    let (code, _, stderr) = run_in(
        book.root(),
        &["new-spec", "kafka2", ".", "--path", "/elsewhere/k.md"],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("try `--path kafka2-adapter-spec.md`"),
        "{stderr}"
    );
}

#[test]
fn new_spec_shows_paths_as_its_answers_do_in_a_book_below_the_repositorys_top() {
    let top = tempfile::tempdir().unwrap();
    let book = broker(&[]);
    crate::common::copy_tree(book.root(), &top.path().join("docs"));
    git(top.path(), &["init", "-q"]);
    let mut session = Session::start_as_opened(&top.path().join("docs"));
    let made = session.answer("contract_new_spec", json!({ "name": "hetzner" }));
    assert_eq!(
        made["chapter"], "docs/src/hetzner-adapter-spec.md",
        "{made}"
    );
    let refusal = session.refusal("contract_new_spec", json!({ "name": "hetzner" }));
    assert!(
        refusal.contains("\n`docs/src/hetzner-adapter-spec.md` exists; "),
        "{refusal}"
    );
    let refusal = session.refusal(
        "contract_new_spec",
        json!({ "name": "nats2", "path": "sub/nats2.md" }),
    );
    assert!(refusal.contains("(`docs/src/sub/`)"), "{refusal}");
    assert!(refusal.contains(r#"try `"path": "nats2.md"`"#), "{refusal}");
}

#[test]
fn a_provider_that_claims_nothing_is_told_what_binds_it_and_what_waits() {
    let book = broker(&[]);
    let mut session = Session::start_as_opened(book.root());
    session.answer("contract_new_spec", json!({ "name": "hetzner" }));
    let result = session.call("contract_provider", json!({ "name": "hetzner" }));
    let text = result["content"][1]["text"].as_str().unwrap();
    assert!(!text.contains("bound by"), "{text}");
    assert!(
        text.contains(
            "so far only the 3 rules that bind every provider, whatever it claims, bind it"
        ),
        "{text}"
    );
    assert!(
        text.contains("whether 4 more rules bind it waits on the profile it claims on `delivery` (1 rule), `ordering` (1 rule)"),
        "{text}"
    );
    // A provider with a claim: the rules its claims bind apart from every provider's.
    let result = session.call("contract_provider", json!({ "name": "redis-streams" }));
    let text = result["content"][1]["text"].as_str().unwrap();
    assert!(
        text.contains("bound by 4 rules (3 every provider's, 1 by the profiles its spec claims)"),
        "{text}"
    );
}

#[test]
fn did_you_mean_offers_the_name_a_rename_extended() {
    let book = broker(&[("src/contract.md", &|t: &str| {
        t.replace(
            "r[publish.batch]",
            "r[create.idempotent-by-name]\nAn adapter MAY create a topic twice.\n\nr[delete.idempotent]\nAn adapter MAY delete a topic twice.\n\nr[publish.batch]",
        )
    })]);
    let mut session = Session::start_as_opened(book.root());
    let refusal = session.refusal("contract_rule", json!({ "id": "create.idempotent" }));
    assert!(
        refusal.contains("did you mean `create.idempotent-by-name`?"),
        "{refusal}"
    );
    // Silent where nothing is near.
    let refusal = session.refusal("contract_rule", json!({ "id": "quota.limits" }));
    assert!(!refusal.contains("did you mean"), "{refusal}");
}

#[test]
fn print_config_writes_what_a_repository_can_commit() {
    let top = tempfile::tempdir().unwrap();
    let book = broker(&[]);
    crate::common::copy_tree(book.root(), &top.path().join("docs"));
    git(top.path(), &["init", "-q"]);
    let config = |host: &str| {
        let (code, stdout, stderr) = run_in(
            top.path(),
            &["mcp", &format!("--print-config={host}"), "docs"],
        );
        assert_eq!(code, 0, "{host}: {stderr}");
        stdout
    };
    let json: Value = serde_json::from_str(&config("json")).unwrap();
    let server = &json["mcpServers"]["mdbook-contract"];
    assert_eq!(server["command"], "mdbook-contract");
    assert_eq!(server["args"], json!(["mcp", "docs"]));
    let vscode: Value = serde_json::from_str(&config("vscode")).unwrap();
    assert_eq!(
        vscode["servers"]["mdbook-contract"]["args"],
        json!(["mcp", "${workspaceFolder}/docs"])
    );
    assert_eq!(
        config("claude"),
        "claude mcp add mdbook-contract -- mdbook-contract mcp docs\n"
    );
    // Run from inside the book, the folder is still from the repository's top.
    let (_, stdout, _) = run_in(&top.path().join("docs"), &["mcp", "--print-config"]);
    let json: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["mcpServers"]["mdbook-contract"]["args"][1], "docs");

    // A folder with no book.toml: refused, naming it and what was expected.
    let (code, stdout, stderr) = run_in(top.path(), &["mcp", "--print-config"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("`.` has no book.toml"), "{stderr}");
}

/// How many bytes of text the result of a call hands a model: its text blocks.
fn text_bytes(result: &Value) -> usize {
    result["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["text"].as_str().unwrap().len())
        .sum()
}

/// Every `(provider, rule)` of `contract_uncovered` with `arguments`, page by page, and how
/// many pages it took.
fn uncovered_pages(session: &mut Session, arguments: Value) -> (Vec<(String, String)>, usize) {
    let mut seen = Vec::new();
    let mut pages = 0;
    let mut arguments = arguments;
    loop {
        let page = session.call("contract_uncovered", arguments.clone());
        assert!(text_bytes(&page) < 40_000, "{} bytes", text_bytes(&page));
        pages += 1;
        let answer = &page["structuredContent"];
        for of in answer["providers"].as_array().unwrap() {
            for rule in of["rules"].as_array().unwrap() {
                seen.push((
                    of["provider"].as_str().unwrap().to_owned(),
                    rule["rule"].as_str().unwrap().to_owned(),
                ));
            }
        }
        match answer["next_cursor"].as_str() {
            Some(next) => arguments["cursor"] = json!(next),
            None => return (seen, pages),
        }
    }
}

#[test]
fn uncovered_comes_in_pages_that_fit_a_context() {
    let book = crate::mcp_agent::with_many_rules();
    let mut session = Session::start_as_opened(book.root());
    let first = session.answer("contract_uncovered", json!({}));
    let waiting = first["waiting"].as_u64().unwrap() as usize;
    assert!(
        first["next_cursor"].is_string(),
        "one page: {waiting} rules"
    );
    let (seen, pages) = uncovered_pages(&mut session, json!({}));
    assert!(pages > 1);
    assert_eq!(seen.len(), waiting);
    let mut unique = seen.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), waiting, "a rule twice");
    // The page size is an argument; a provider's count is the same on each of its pages.
    let small = session.answer("contract_uncovered", json!({ "page_size": 3000 }));
    for of in small["providers"].as_array().unwrap() {
        assert!(of["rules"].to_string().len() <= 3000, "{of}");
    }
    let (again, _) = uncovered_pages(&mut session, json!({ "page_size": 3000 }));
    assert_eq!(again, seen);
    let refusal = session.refusal("contract_uncovered", json!({ "cursor": "garbage" }));
    assert!(refusal.contains("is not a cursor"), "{refusal}");

    // A small answer is one page.
    let book = broker(&[]);
    let mut session = Session::start_as_opened(book.root());
    let whole = session.answer("contract_uncovered", json!({}));
    assert_eq!(whole["next_cursor"], Value::Null, "{whole}");
}

#[test]
fn contract_provider_names_the_files_that_count_for_all_and_for_none() {
    let book = crate::seams::with_an_unnamed_adapters_test(&|t: &str| t.to_owned());
    let mut session = Session::start_as_opened(book.root());
    let answer = session.answer("contract_provider", json!({ "name": "kafka" }));
    assert_eq!(
        answer["shared_files"],
        json!([{ "path": "conformance/conformance_test.go", "citations": 3 }]),
        "{answer}"
    );
    assert_eq!(
        answer["unplaced"],
        json!([{ "path": "adapters/sqs", "citations": 1 }]),
        "{answer}"
    );
    let result = session.call("contract_provider", json!({ "name": "kafka" }));
    let text = result["content"][1]["text"].as_str().unwrap();
    assert!(
        text.contains("counted for no provider (folders beside the providers' folders that no provider is named after): adapters/sqs (1 citation)"),
        "{text}"
    );
    // Only a built provider is counted the shared suite's tests.
    session.answer("contract_new_spec", json!({ "name": "hetzner" }));
    let answer = session.answer("contract_provider", json!({ "name": "hetzner" }));
    assert_eq!(answer["shared_files"], json!([]), "{answer}");
}
