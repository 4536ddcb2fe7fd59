//! `mdbook-contract mcp` and `check` told the truth an agent acts on, over stdio: a read writes
//! no file (a chapter SUMMARY.md names that does not exist is a finding, never created), a
//! mistyped profile leaves its entry open, a refused brief says what blocks it.

use serde_json::json;

use crate::broker::broker;
use crate::mcp::Session;

/// The broker book whose SUMMARY.md names a chapter that is not on disk.
fn with_missing_chapter() -> crate::common::Fixture {
    broker(&[("src/SUMMARY.md", &|t: &str| {
        t.to_owned() + "- [Planned](planned/later.md)\n"
    })])
}

#[test]
fn a_missing_chapter_is_a_finding_and_never_created() {
    let book = with_missing_chapter();
    let missing = book.root().join("src/planned/later.md");
    let mut session = Session::start_as_opened(book.root());
    let answer = session.answer("contract_check", json!({}));
    let finding = answer["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["check"] == "missing-chapter")
        .cloned()
        .unwrap_or_else(|| panic!("{answer}"));
    assert_eq!(finding["path"], "src/SUMMARY.md", "{finding}");
    assert_eq!(
        (&finding["line"], &finding["column"]),
        (&json!(7), &json!(3))
    );
    assert_eq!(finding["severity"], "error");
    assert!(
        finding["message"]
            .as_str()
            .unwrap()
            .contains("`planned/later.md`"),
        "{finding}"
    );
    assert!(
        !missing.exists(),
        "contract_check created {}",
        missing.display()
    );
    assert!(!book.root().join("src/planned").exists());

    // Once the chapter is written, the same server's next answer has no such finding.
    std::fs::create_dir_all(missing.parent().unwrap()).unwrap();
    std::fs::write(&missing, "# Planned\n").unwrap();
    let answer = session.answer("contract_check", json!({}));
    assert!(
        !answer["findings"].to_string().contains("missing-chapter"),
        "{answer}"
    );
    assert!(
        answer["changed"]
            .to_string()
            .contains("1 fixed (missing-chapter at src/SUMMARY.md:7:3)"),
        "{answer}"
    );
}

#[test]
fn the_editor_is_told_of_a_missing_chapter_on_summary_md() {
    let book = with_missing_chapter();
    let summary = book.root().join("src/SUMMARY.md");
    let mut client = crate::lsp::StdioClient::spawn_as_opened();
    client.initialize(book.root());
    let list = client.wait(&crate::lsp::uri(&summary), |l| !l.is_empty());
    assert_eq!(list.len(), 1, "{list:#?}");
    assert_eq!(list[0]["code"], "missing-chapter");
    assert_eq!(list[0]["severity"], 1);
    assert_eq!(
        list[0]["range"]["start"],
        json!({"line": 6, "character": 2})
    );
    assert!(!book.root().join("src/planned").exists());
    let (status, stderr) = client.stop();
    assert!(status.success(), "{status}: {stderr}");
}

#[test]
fn a_mistyped_profile_leaves_its_entry_open_and_its_rules_unknown() {
    let book = broker(&[("src/redis-streams-adapter-spec.md", &|t: &str| {
        t.replace(
            "{{#profile delivery at-least-once}}",
            "{{#profile delivery at-least-onse}}",
        )
    })]);
    let mut session = Session::start_as_opened(book.root());
    let redis = session.answer("contract_provider", json!({ "name": "redis-streams" }));
    let rule = redis["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rule"] == "delivery.ack-after")
        .cloned()
        .unwrap();
    assert_eq!(rule["status"], "profile-unknown", "{redis}");
    let next = redis["next"].as_str().unwrap();
    assert!(next.contains("\"Delivery\""), "{next}");
    assert!(next.contains("did you mean `at-least-once`"), "{next}");
    // The provider is still the spec's: its brief is refused for the spec's errors, not
    // for a provider the book lacks.
    let brief = session.call("contract_brief", json!({ "provider": "redis-streams" }));
    let text = brief["content"][0]["text"].as_str().unwrap();
    assert!(!text.contains("no provider with a spec"), "{text}");
}

#[test]
fn a_refused_brief_lists_what_blocks_it_and_the_templates_spans_block_nothing() {
    let book = broker(&[("src/redis-streams-adapter-spec.md", &|t: &str| {
        t.replace(
            "{{#profile delivery at-least-once}}",
            "{{#profile delivery at-least-onse}}",
        )
    })]);
    let mut session = Session::start_as_opened(book.root());
    let refusal = session.refusal("contract_brief", json!({ "provider": "redis-streams" }));
    assert!(
        refusal.contains("src/redis-streams-adapter-spec.md:11:"),
        "{refusal}"
    );
    assert!(refusal.contains("error[unknown-profile]"), "{refusal}");
    assert!(
        refusal.contains("did you mean `at-least-once`"),
        "{refusal}"
    );
    // What to do, as the finding's help says it.
    assert!(
        refusal.contains("the profiles of `delivery` are"),
        "{refusal}"
    );
    drop(session);

    // A code span the template writes, copied into the spec, names no code of this book yet:
    // `cited-symbol` on the template, and on the spec's copy, which does not stop the brief.
    let span = "The adapter implements `bus.Connector`.\n\n## Delivery";
    let book = broker(&[
        ("src/adapter-spec-template.md", &|t: &str| {
            t.replacen("## Delivery", span, 1)
        }),
        ("src/redis-streams-adapter-spec.md", &|t: &str| {
            t.replacen("## Delivery", span, 1)
        }),
    ]);
    let mut session = Session::start_as_opened(book.root());
    let findings = session.answer(
        "contract_check",
        json!({ "path": "src/redis-streams-adapter-spec.md" }),
    );
    assert!(findings.to_string().contains("cited-symbol"), "{findings}");
    let brief = session.answer("contract_brief", json!({ "provider": "redis-streams" }));
    assert!(
        brief["markdown"]
            .as_str()
            .unwrap()
            .contains("bus.Connector")
    );
}

/// The lines of `answer`'s `changed`, joined.
fn changed(answer: &serde_json::Value) -> String {
    answer["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn changed_tells_a_specs_coverage_severities_and_chapters() {
    let book = broker(&[("book.toml", &|t: &str| {
        t.to_owned()
            + "\n[preprocessor.contract.provider-paths]\nredis-streams = [\"adapters/redis\"]\n"
    })]);
    let mut session = Session::start_as_opened(book.root());
    session.answer("contract_overview", json!({}));

    // A spec-only provider's first citation.
    let code = book.root().join("code/adapters/redis");
    std::fs::create_dir_all(&code).unwrap();
    std::fs::write(
        code.join("redis_test.go"),
        "package redis\n\nimport \"testing\"\n\n// r[verify publish.ack]\nfunc TestAck(t *testing.T) {}\n",
    )
    .unwrap();
    let answer = session.answer("contract_overview", json!({}));
    let told = changed(&answer);
    assert!(
        told.contains("`redis-streams`: r[publish.ack] uncovered → verified"),
        "{told}"
    );

    // Warnings made errors.
    let toml = book.root().join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.clone() + "\n[preprocessor.contract.checks]\nunanswered-entry = \"error\"\n",
    )
    .unwrap();
    let told = changed(&session.answer("contract_overview", json!({})));
    assert!(told.contains("severities: 5 changed"), "{told}");
    assert!(told.contains("warning → error"), "{told}");

    // A chapter added to SUMMARY.md, then taken out.
    std::fs::write(book.root().join("src/faq.md"), "# FAQ\n").unwrap();
    let summary = book.root().join("src/SUMMARY.md");
    let was = std::fs::read_to_string(&summary).unwrap();
    std::fs::write(&summary, was.clone() + "- [FAQ](faq.md)\n").unwrap();
    let told = changed(&session.answer("contract_overview", json!({})));
    assert!(told.contains("chapters: added src/faq.md"), "{told}");
    std::fs::write(&summary, was).unwrap();
    let told = changed(&session.answer("contract_overview", json!({})));
    assert!(told.contains("chapters: removed src/faq.md"), "{told}");

    // Nothing changed: nothing told.
    let again = session.answer("contract_overview", json!({}));
    assert_eq!(again["changed"], json!([]));
}

/// The citation path `rule`'s answer gives provider `provider`, if any.
fn cited_for(rule: &serde_json::Value, provider: &str) -> serde_json::Value {
    rule["providers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["provider"] == provider)
        .map_or(serde_json::Value::Null, |p| p["citation"]["path"].clone())
}

#[test]
fn a_folder_named_after_a_provider_is_its_own_and_provider_paths_takes_a_spec() {
    let test = "package redis\n\nimport \"testing\"\n\n// r[verify publish.ack]\nfunc TestAck(t *testing.T) {}\n";
    let book = broker(&[("code/adapters/redis-streams/redis_test.go", &|_: &str| {
        test.to_owned()
    })]);
    let mut session = Session::start_as_opened(book.root());
    let rule = session.answer("contract_rule", json!({ "id": "publish.ack" }));
    let file = "code/adapters/redis-streams/redis_test.go";
    assert_eq!(cited_for(&rule, "redis-streams"), file, "{rule}");
    for built in ["kafka", "nats", "rabbitmq"] {
        assert_ne!(cited_for(&rule, built), file, "{built}: {rule}");
    }
    drop(session);

    // `provider-paths` gives a spec-only provider its folder without a finding.
    let book = broker(&[
        ("book.toml", &|t: &str| {
            t.to_owned()
                + "\n[preprocessor.contract.provider-paths]\nredis-streams = [\"internal/redis\"]\n"
        }),
        ("code/internal/redis/redis_test.go", &|_: &str| {
            test.to_owned()
        }),
    ]);
    let mut session = Session::start_as_opened(book.root());
    let findings = session.answer("contract_check", json!({}));
    assert!(
        !findings.to_string().contains("dangling-path"),
        "{findings}"
    );
    let rule = session.answer("contract_rule", json!({ "id": "publish.ack" }));
    assert_eq!(
        cited_for(&rule, "redis-streams"),
        "code/internal/redis/redis_test.go"
    );
    assert_ne!(
        cited_for(&rule, "kafka"),
        "code/internal/redis/redis_test.go"
    );
}

/// Every place under `schema` that a validator warns about: a `format` JSON Schema does not
/// define, a `type` that is an array.
fn unportable(schema: &serde_json::Value, at: &str, out: &mut Vec<String>) {
    const FORMATS: &[&str] = &[
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "idn-email",
        "hostname",
        "idn-hostname",
        "ipv4",
        "ipv6",
        "uri",
        "uri-reference",
        "iri",
        "iri-reference",
        "uuid",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
    ];
    match schema {
        serde_json::Value::Object(map) => {
            for (key, value) in map {
                let here = format!("{at}/{key}");
                if key == "format" && value.as_str().is_some_and(|f| !FORMATS.contains(&f)) {
                    out.push(format!("{here}: {value}"));
                }
                if key == "type" && value.is_array() {
                    out.push(format!("{here}: {value}"));
                }
                // `properties` names fields: a field called `format` or `type` is no keyword.
                if key == "properties" {
                    if let Some(fields) = value.as_object() {
                        for (field, sub) in fields {
                            unportable(sub, &format!("{here}/{field}"), out);
                        }
                    }
                } else {
                    unportable(value, &here, out);
                }
            }
        }
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                unportable(item, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_schema_is_taken_by_every_validator_without_a_warning() {
    let book = broker(&[]);
    let mut session = Session::start_as_opened(book.root());
    let list = session.request("tools/list", json!({}));
    let mut found = Vec::new();
    for tool in list["result"]["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        unportable(&tool["inputSchema"], &format!("{name}/input"), &mut found);
        unportable(&tool["outputSchema"], &format!("{name}/output"), &mut found);
    }
    assert!(
        found.is_empty(),
        "{} places:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// How many bytes of text the result of a call hands a model: its text blocks.
fn text_bytes(result: &serde_json::Value) -> usize {
    result["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["text"].as_str().unwrap().len())
        .sum()
}

#[test]
fn every_page_fits_a_context_and_its_size_is_an_argument() {
    let book = crate::mcp_agent::with_many_rules();
    let mut session = Session::start_as_opened(book.root());
    let page = session.call("contract_check", json!({}));
    assert!(text_bytes(&page) < 40_000, "{} bytes", text_bytes(&page));
    assert!(page["structuredContent"]["next_cursor"].is_string());
    let small = session.call("contract_check", json!({ "page_size": 4000 }));
    let findings = small["structuredContent"]["findings"].to_string();
    assert!(findings.len() <= 4000, "{} bytes", findings.len());
    assert!(
        !small["structuredContent"]["findings"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    let brief = session.call("contract_brief", json!({ "provider": "redis-streams" }));
    assert!(text_bytes(&brief) < 40_000, "{} bytes", text_bytes(&brief));
    // The Markdown once: in the answer, not again in its summary.
    let markdown = brief["structuredContent"]["markdown"].as_str().unwrap();
    let summary = brief["content"][1]["text"].as_str().unwrap();
    assert!(
        summary.len() < 1000 && !summary.contains(&markdown[..200]),
        "{summary}"
    );
    let small = session.call(
        "contract_brief",
        json!({ "provider": "redis-streams", "page_size": 4000 }),
    );
    assert!(
        small["structuredContent"]["markdown"]
            .as_str()
            .unwrap()
            .len()
            <= 4000
    );
}

#[test]
fn a_garbage_cursor_and_a_huge_argument_are_refused_briefly() {
    let book = broker(&[]);
    let mut session = Session::start_as_opened(book.root());
    let reply = session.request("tools/list", json!({ "cursor": "garbage" }));
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    let listed = session.request("tools/list", json!({}));
    assert!(listed["result"]["tools"].is_array(), "{listed}");

    let huge = "x".repeat(10 << 20);
    let refusal = session.refusal("contract_provider", json!({ "name": huge }));
    assert!(refusal.len() < 2000, "{} bytes", refusal.len());
    assert!(refusal.contains("10485760 bytes"), "{refusal}");
    let refusal = session.refusal("contract_check", json!({ "path": 7, "cursor": huge }));
    assert!(refusal.len() < 2000, "{} bytes", refusal.len());
}
