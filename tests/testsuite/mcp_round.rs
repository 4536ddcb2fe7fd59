//! `mdbook-contract mcp` and `check` told the truth an agent acts on, over stdio: a read writes
//! no file (a chapter SUMMARY.md names that does not exist is told, never created), a
//! mistyped profile leaves its entry open, a refused brief says what blocks it.

use serde_json::json;

use crate::broker::broker;
use crate::common::run_in;
use crate::mcp::Session;

/// The broker book whose SUMMARY.md names a chapter that is not on disk.
fn with_missing_chapter() -> crate::common::Fixture {
    broker(&[("src/SUMMARY.md", &|t: &str| {
        t.to_owned() + "- [Planned](planned/later.md)\n"
    })])
}

#[test]
fn a_missing_chapter_is_told_and_never_created() {
    let book = with_missing_chapter();
    let missing = book.root().join("src/planned/later.md");
    let mut session = Session::start_as_opened(book.root());
    let refusal = session.refusal("contract_check", json!({}));
    assert!(refusal.contains("planned/later.md"), "{refusal}");
    assert!(refusal.contains("SUMMARY.md"), "{refusal}");
    assert!(
        !missing.exists(),
        "contract_check created {}",
        missing.display()
    );
    assert!(!book.root().join("src/planned").exists());
    drop(session);

    let (code, stdout, stderr) = run_in(book.root(), &["check"]);
    assert_ne!(code, 0, "{stdout}{stderr}");
    assert!(stderr.contains("planned/later.md"), "{stderr}");
    assert!(!missing.exists(), "check created {}", missing.display());

    // Once the chapter is written, the same server answers.
    std::fs::create_dir_all(missing.parent().unwrap()).unwrap();
    std::fs::write(&missing, "# Planned\n").unwrap();
    let mut session = Session::start_as_opened(book.root());
    session.answer("contract_check", json!({}));
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
