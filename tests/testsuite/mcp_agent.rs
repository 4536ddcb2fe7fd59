//! `mdbook-contract mcp` for the agent that starts a provider before its code exists, over
//! stdio with real messages: a provider only a spec describes, rules listed and filtered, the
//! brief by section and page, a spec written by the server, every file the book is read from
//! watched, another preprocessor's output kept off the stream, paths from the repository's
//! root, and the protocol's details (batches, Invalid params, a long id).

use std::path::Path;

use serde_json::{Value, json};

use crate::broker::broker;
use crate::common::Fixture;
use crate::mcp::{Session, with_results};

/// The statuses of `answer`'s `rules` (a provider's), by rule.
fn statuses(answer: &Value) -> Vec<(String, String)> {
    answer["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rule"].as_str().unwrap().to_owned(),
                r["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn status_of<'s>(statuses: &'s [(String, String)], rule: &str) -> &'s str {
    &statuses.iter().find(|(r, _)| r == rule).unwrap().1
}

/// The broker book with the redis-streams adapter's code begun in its own folder: one test
/// citing `publish.ack`.
fn with_redis_code() -> Fixture {
    broker(&[
        ("book.toml", &|t: &str| {
            t.to_owned()
                + "\n[preprocessor.contract.provider-paths]\nredis-streams = [\"adapters/redis\"]\n"
        }),
        ("code/adapters/redis/redis_test.go", &|_: &str| {
            "package redis\n\nimport \"testing\"\n\n// r[verify publish.ack]\nfunc TestAck(t *testing.T) {}\n".to_owned()
        }),
    ])
}

#[test]
fn a_provider_only_a_spec_describes_is_answered_from_its_claimed_profiles() {
    let book = with_redis_code();
    let mut session = Session::start(book.root());
    let redis = session.answer("contract_provider", json!({ "name": "redis-streams" }));
    assert_eq!(redis["status"], "spec", "{redis}");
    let cells = statuses(&redis);
    // Its own test cites the rule; the shared conformance suite counts for it only once built.
    assert_eq!(status_of(&cells, "publish.ack"), "verified");
    assert_eq!(status_of(&cells, "publish.reject-oversized"), "uncovered");
    // The spec claims `at-least-once`, so the rule on it binds; `ordering` is not answered.
    assert_eq!(status_of(&cells, "delivery.ack-after"), "uncovered");
    assert_eq!(status_of(&cells, "ordering.per-key"), "profile-unknown");
    assert_eq!(status_of(&cells, "publish.batch"), "optional");
    let ack = redis["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rule"] == "publish.ack");
    assert_eq!(
        ack.unwrap()["citation"]["path"],
        "code/adapters/redis/redis_test.go"
    );
    assert_eq!(ack.unwrap()["level"], "MUST");

    let uncovered = session.answer("contract_uncovered", json!({ "provider": "redis-streams" }));
    let of = &uncovered["providers"][0];
    assert_eq!(of["provider_status"], "spec", "{uncovered}");
    let open: Vec<&str> = of["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        open,
        [
            "publish.reject-oversized",
            "publish.trace-header",
            "delivery.ack-after"
        ]
    );
    assert_eq!(of["undecided"].as_array().unwrap().len(), 3, "{uncovered}");

    let rule = session.answer("contract_rule", json!({ "id": "delivery.ack-after" }));
    let cell = rule["providers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["provider"] == "redis-streams")
        .cloned()
        .unwrap();
    assert_eq!(cell["provider_status"], "spec");
    assert_eq!(cell["bound"], true);
    let rule = session.answer("contract_rule", json!({ "id": "ordering.per-key" }));
    let cell = rule["providers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["provider"] == "redis-streams")
        .cloned()
        .unwrap();
    assert_eq!(cell["bound"], Value::Null, "{rule}");
}

#[test]
fn rules_are_listed_by_prefix_level_provider_and_status() {
    let book = with_results();
    let mut session = Session::start(book.root());
    let ids = |answer: &Value| -> Vec<String> {
        answer["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let all = session.answer("contract_rules", json!({}));
    assert_eq!(all["matched"], 8);
    assert_eq!(all["next_cursor"], Value::Null);
    let publish = session.answer("contract_rules", json!({ "prefix": "publish." }));
    assert_eq!(
        ids(&publish),
        [
            "publish.ack",
            "publish.reject-oversized",
            "publish.trace-header",
            "publish.batch"
        ]
    );
    assert_eq!(
        session.answer("contract_rules", json!({ "level": "must" }))["matched"],
        5
    );
    assert_eq!(
        session.answer("contract_rules", json!({ "level": "required" }))["matched"],
        0
    );
    let failed = session.answer(
        "contract_rules",
        json!({ "provider": "rabbitmq", "status": "failed" }),
    );
    assert_eq!(ids(&failed), ["publish.trace-header"]);
    assert_eq!(failed["rules"][0]["status"], "failed");
    let anywhere = session.answer("contract_rules", json!({ "status": "failed" }));
    assert_eq!(
        ids(&anywhere),
        ["publish.reject-oversized", "publish.trace-header"]
    );
    assert_eq!(anywhere["rules"][0]["providers"], json!(["nats-jetstream"]));
    let undecided = session.answer(
        "contract_rules",
        json!({ "provider": "redis-streams", "status": "profile-unknown" }),
    );
    assert_eq!(undecided["matched"], 3, "{undecided}");
    let refusal = session.refusal("contract_rules", json!({ "status": "faild" }));
    assert!(refusal.contains("did you mean `failed`?"), "{refusal}");
    let refusal = session.refusal("contract_rules", json!({ "level": "SHALL" }));
    assert!(refusal.contains("no level `SHALL`"), "{refusal}");
}

/// The broker book with 150 more rules, each of a long sentence.
pub(crate) fn with_many_rules() -> Fixture {
    broker(&[("src/contract.md", &|t: &str| {
        let mut text = t.to_owned();
        text.push_str("\n## Bulk\n");
        for i in 0..150 {
            text.push_str(&format!(
                "\nr[bulk.rule-{i}]\nAn adapter MUST keep promise number {i} of the bulk section, because `bus.Publisher` callers rely on every one of them, whatever the broker does underneath.\n"
            ));
        }
        text
    })])
}

#[test]
fn long_answers_come_in_pages_and_a_brief_by_section() {
    let book = with_many_rules();
    let mut session = Session::start(book.root());
    let first = session.answer("contract_rules", json!({ "prefix": "bulk." }));
    assert_eq!(first["matched"], 150);
    assert_eq!(first["rules"].as_array().unwrap().len(), 100);
    assert_eq!(first["next_cursor"], "100");
    let second = session.answer(
        "contract_rules",
        json!({ "prefix": "bulk.", "cursor": "100" }),
    );
    assert_eq!(second["rules"].as_array().unwrap().len(), 50);
    assert_eq!(second["rules"][0]["id"], "bulk.rule-100");
    assert_eq!(second["next_cursor"], Value::Null);
    let refusal = session.refusal("contract_rules", json!({ "cursor": "900" }));
    assert!(refusal.contains("not a cursor"), "{refusal}");
    // 150 rules no test cites, for each of three built providers: findings in pages, errors
    // first.
    let findings = session.answer("contract_check", json!({}));
    let total = findings["errors"].as_u64().unwrap() + findings["warnings"].as_u64().unwrap();
    assert!(total > 200, "{total}");
    // As many as fit 24 KiB of JSON, 200 at most.
    let first = findings["findings"].as_array().unwrap().len();
    assert!((1..=200).contains(&first), "{first}");
    assert!(findings["findings"].to_string().len() <= 24 * 1024);
    assert_eq!(findings["next_cursor"], first.to_string());
    let severities: Vec<&str> = findings["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["severity"].as_str().unwrap())
        .collect();
    assert!(
        severities
            .windows(2)
            .all(|w| w[0] == "error" || w[1] == "warning"),
        "{severities:?}"
    );
    let mut seen = first as u64;
    let mut cursor = findings["next_cursor"].clone();
    while let Some(c) = cursor.as_str() {
        let page = session.answer("contract_check", json!({ "cursor": c }));
        seen += page["findings"].as_array().unwrap().len() as u64;
        cursor = page["next_cursor"].clone();
    }
    assert_eq!(seen, total);

    let (code, whole, stderr) = crate::common::run_in(book.root(), &["brief", "redis-streams"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(whole.len() > 32 * 1024, "{} bytes", whole.len());
    let mut pages = String::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10 {
        let mut arguments = json!({ "provider": "redis-streams" });
        if let Some(c) = &cursor {
            arguments["cursor"] = json!(c);
        }
        let page = session.answer("contract_brief", arguments);
        let markdown = page["markdown"].as_str().unwrap();
        assert!(markdown.len() <= 24 * 1024 && markdown.ends_with('\n'));
        pages.push_str(markdown);
        cursor = page["next_cursor"].as_str().map(str::to_owned);
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(pages, whole, "the pages make the brief");

    let rules = session.answer(
        "contract_brief",
        json!({ "provider": "redis-streams", "section": "rules" }),
    );
    let markdown = rules["markdown"].as_str().unwrap();
    assert!(
        markdown.starts_with("## The rules that bind this adapter"),
        "{markdown}"
    );
    assert!(!markdown.contains("## The broker contract"));
    let sections: Vec<&str> = rules["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert!(
        sections.starts_with(&["brief", "open-entries", "profiles", "rules"]),
        "{sections:?}"
    );
    let refusal = session.refusal(
        "contract_brief",
        json!({ "provider": "redis-streams", "section": "rule" }),
    );
    assert!(refusal.contains("did you mean `rules`?"), "{refusal}");
}

#[test]
fn a_spec_is_written_by_the_one_tool_that_writes() {
    let book = broker(&[]);
    let mut session = Session::start(book.root());
    let written = session.answer("contract_new_spec", json!({ "name": "gcp-pubsub" }));
    assert_eq!(
        written["chapter"], "src/gcp-pubsub-adapter-spec.md",
        "{written}"
    );
    // book.toml's `specs` glob already names it: book.toml is left as it is.
    assert_eq!(
        written["written"],
        json!(["src/gcp-pubsub-adapter-spec.md", "src/SUMMARY.md"])
    );
    assert!(book.root().join("src/gcp-pubsub-adapter-spec.md").is_file());
    let provider = session.answer("contract_provider", json!({ "name": "gcp-pubsub" }));
    assert_eq!(provider["status"], "spec", "{provider}");
    assert!(
        provider["next"]
            .as_str()
            .unwrap()
            .starts_with("answer the spec's 6 open entries"),
        "{provider}"
    );
    assert!(
        provider["changed"][0]
            .as_str()
            .unwrap()
            .contains("gcp-pubsub"),
        "{provider}"
    );
    let toml = std::fs::read_to_string(book.root().join("book.toml")).unwrap();
    for (arguments, why) in [
        (json!({ "name": "gcp-pubsub" }), "never overwrites"),
        (json!({ "name": "GCP" }), "not a provider type"),
    ] {
        let refusal = session.refusal("contract_new_spec", arguments);
        assert!(refusal.contains(why), "{refusal}");
    }
    assert_eq!(
        std::fs::read_to_string(book.root().join("book.toml")).unwrap(),
        toml
    );
}

#[test]
fn a_companion_and_a_preprocessor_script_are_watched() {
    let book = broker(&[
        ("book.toml", &|t: &str| {
            t.replace(
                "source-root = \"code\"",
                "source-root = \"code\"\ncompanions = [\"README.md\"]",
            )
        }),
        ("README.md", &|_: &str| {
            "# Adapters\n\nSee the book.\n".to_owned()
        }),
    ]);
    let mut session = Session::start(book.root());
    session.answer("contract_overview", json!({}));
    std::fs::write(
        book.root().join("README.md"),
        "# Adapters\n\nSee the book \u{2014} it is [here](nowhere.md).\n",
    )
    .unwrap();
    let after = session.answer("contract_overview", json!({}));
    let changed = after["changed"].as_array().unwrap();
    let findings = changed
        .iter()
        .find_map(|l| l.as_str().filter(|l| l.starts_with("findings:")))
        .unwrap_or_default();
    assert!(findings.contains("em-dash at README.md:3:"), "{after}");

    let script = book.root().join("mermaid.py");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(
        &script,
        text.replace(
            "context, book = json.load(sys.stdin)",
            "sys.exit('mermaid: broken on purpose')",
        ),
    )
    .unwrap();
    let refusal = session.refusal("contract_overview", json!({}));
    assert!(refusal.contains("cannot be loaded"), "{refusal}");
}

#[test]
fn what_changed_while_the_book_could_not_load_is_told_once_it_loads() {
    let book = broker(&[]);
    let mut session = Session::start(book.root());
    session.answer("contract_overview", json!({}));
    let toml = book.root().join("book.toml");
    let good = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, good.replace("[book]", "[book")).unwrap();
    session.refusal("contract_overview", json!({}));
    let contract = book.root().join("src/contract.md");
    let text = std::fs::read_to_string(&contract).unwrap();
    let edited = text
        .replacen(
            "\nr[publish.batch]\nAn adapter MAY batch publishes.\n",
            "\n",
            1,
        )
        .replacen(
            "\n## Axes",
            "\nr[publish.idempotent]\nAn adapter MUST publish a message once per call.\n\n## Axes",
            1,
        );
    assert_ne!(edited, text);
    std::fs::write(&contract, edited).unwrap();
    session.refusal("contract_overview", json!({}));
    std::fs::write(&toml, good).unwrap();
    let again = session.answer("contract_overview", json!({}));
    let changed: Vec<&str> = again["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(changed[0], "the book loads again", "{changed:?}");
    let contract = changed
        .iter()
        .find(|l| l.starts_with("contract: "))
        .unwrap_or_else(|| panic!("{changed:?}"));
    assert!(
        contract.contains("publish.idempotent") && contract.contains("publish.batch"),
        "{contract}"
    );
}

#[test]
fn a_preprocessor_that_prints_on_stdout_leaves_the_stream_alone() {
    // It prints a word on stdout when mdBook asks whether it supports the renderer (mdBook
    // lets that through), and on stderr while it runs (its stdout then is the book).
    let book = broker(&[("mermaid.py", &|t: &str| {
        t.replace(
            "if len(sys.argv) > 1 and sys.argv[1] == \"supports\":\n    sys.exit(0)\n",
            "if len(sys.argv) > 1 and sys.argv[1] == \"supports\":\n    print(\"PP-STDOUT\", flush=True)\n    sys.exit(0)\nprint(\"PP-STDERR\", file=sys.stderr)\n",
        )
    })]);
    let script = std::fs::read_to_string(book.root().join("mermaid.py")).unwrap();
    assert!(script.contains("PP-STDOUT"));
    let mut session = Session::start(book.root());
    for _ in 0..2 {
        // Each reply is read as JSON: a stray line would fail the read.
        let overview = session.answer("contract_overview", json!({}));
        assert_eq!(overview["rules"]["count"], 8);
    }
}

#[test]
fn paths_are_from_the_repository_root_and_any_form_is_taken() {
    let book = broker(&[]);
    let root = book.root();
    let docs = root.join("docs");
    std::fs::create_dir(&docs).unwrap();
    for entry in std::fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        if path != docs {
            std::fs::rename(&path, docs.join(path.file_name().unwrap())).unwrap();
        }
    }
    crate::common::git(root, &["init", "--quiet"]);
    let mut session = Session::start(&docs);
    let rule = session.answer("contract_rule", json!({ "id": "publish.ack" }));
    assert_eq!(
        rule["rule"]["place"]["path"], "docs/src/contract.md",
        "{rule}"
    );
    let citations = rule["citations"].as_array().unwrap();
    assert!(
        citations
            .iter()
            .all(|c| c["path"].as_str().unwrap().starts_with("docs/code/")),
        "{rule}"
    );
    let spec = "docs/src/redis-streams-adapter-spec.md";
    for path in [
        spec,
        "src/redis-streams-adapter-spec.md",
        "redis-streams-adapter-spec.md",
    ] {
        let findings = session.answer("contract_check", json!({ "path": path }));
        let all = findings["findings"].as_array().unwrap();
        assert!(
            !all.is_empty() && all.iter().all(|f| f["path"] == spec),
            "{path}: {findings}"
        );
    }
    let provider = session.answer("contract_provider", json!({ "name": "redis-streams" }));
    assert_eq!(provider["spec"]["path"], spec, "{provider}");
}

#[test]
fn protocol_details_batches_invalid_params_and_a_long_id() {
    let book = broker(&[]);
    let mut session = Session::start(book.root());
    let call = |params: Value| {
        json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params }).to_string()
    };
    session.line(&call(json!({ "arguments": {} })));
    let reply = session.reply();
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("needs `name`"),
        "{reply}"
    );
    session.line(&call(
        json!({ "name": "contract_rule", "arguments": "publish.ack" }),
    ));
    assert_eq!(session.reply()["error"]["code"], -32602);
    session.line(r#"{"jsonrpc": "2.0", "id": 8, "method": "resources/lists"}"#);
    let reply = session.reply();
    assert_eq!(reply["error"]["code"], -32601, "{reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`resources/lists`"),
        "{reply}"
    );

    // A batch: its replies come together, in one array; a notification in it gets none.
    session.line(r#"[{"jsonrpc": "2.0", "id": 10, "method": "ping"}, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}, {"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "contract_rules", "arguments": {"prefix": "publish."}}}, {"jsonrpc": "2.0", "id": 12, "method": "tools/call"}]"#);
    let batch = session.reply();
    let replies = batch.as_array().unwrap_or_else(|| panic!("{batch}"));
    let mut ids: Vec<i64> = replies.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    ids.sort_unstable();
    assert_eq!(ids, [10, 11, 12], "{batch}");
    let rules = replies.iter().find(|r| r["id"] == 11).unwrap();
    assert_eq!(
        rules["result"]["structuredContent"]["matched"], 4,
        "{rules}"
    );
    session.line("[]");
    assert_eq!(session.reply()["error"]["code"], -32600);
    // A batch of notifications only is answered by nothing: the next reply is the next call's.
    session.line(
        r#"[{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 98}}]"#,
    );

    let long = "a".repeat(1 << 20);
    session.line(&json!({ "jsonrpc": "2.0", "id": long, "method": "tools/call", "params": { "name": "contract_overview", "arguments": [] } }).to_string());
    let reply = session.reply();
    assert_eq!(reply["id"], long.as_str());
    assert!(
        reply.to_string().len() < long.len() + 1024,
        "the id is echoed once"
    );
}

#[test]
fn every_answer_is_json_in_its_first_text_block_and_fits_its_schema() {
    let book = with_results();
    let mut session = Session::start(book.root());
    let tools = session.request("tools/list", json!({}))["result"]["tools"].clone();
    let tools = tools.as_array().unwrap();
    let calls = [
        ("contract_overview", json!({})),
        ("contract_axis", json!({ "code": "delivery" })),
        ("contract_rule", json!({ "id": "publish.ack" })),
        ("contract_rules", json!({ "provider": "kafka" })),
        ("contract_provider", json!({ "name": "redis-streams" })),
        (
            "contract_brief",
            json!({ "provider": "redis-streams", "section": "rules" }),
        ),
        ("contract_check", json!({})),
        ("contract_uncovered", json!({})),
    ];
    for (name, arguments) in calls {
        let result = session.call(name, arguments);
        assert_eq!(result["isError"], false, "{name}: {result}");
        let first: Value =
            serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(first, result["structuredContent"], "{name}");
        let summary = result["content"][1]["text"].as_str().unwrap();
        assert!(!summary.is_empty() && !summary.starts_with('{'), "{name}");
        let schema = &tools.iter().find(|t| t["name"] == name).unwrap()["outputSchema"];
        let properties = schema["properties"].as_object().unwrap();
        for key in first.as_object().unwrap().keys() {
            assert!(
                properties.contains_key(key),
                "{name}: `{key}` is not in its output schema"
            );
        }
    }
    assert!(Path::new(book.root()).join("book.toml").is_file());
}
