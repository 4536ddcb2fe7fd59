//! A third team's contract, in another domain than the operator's and the storage book's:
//! message-broker adapters (`tests/fixtures/broker`: six axes, four rules with `applies=`, Go
//! code with a shared conformance suite, a draft spec, a stand-in for mdbook-mermaid and
//! mdBook 0.5's own admonitions). Each test makes a newcomer's mistake or runs a command
//! through the binary, and checks that the tool points at the cause, in this book's own words.

use serde_json::Value;

use crate::common::{Fixture, json_positions, run_in};

/// The broker book, with each `(file, edit)` applied.
pub(crate) fn broker(edits: &[(&str, &dyn Fn(&str) -> String)]) -> Fixture {
    Fixture::copy_of("broker", edits)
}

/// `check --format json` in `book`: the exit code, the output and the findings.
pub(crate) fn check(book: &Fixture) -> (i32, String, Vec<Value>) {
    let (code, stdout, stderr) = run_in(book.root(), &["check", "--format", "json"]);
    assert!(code == 0 || code == 1, "{stdout}{stderr}");
    let findings = serde_json::from_str(&stdout).expect("a JSON array");
    (code, stdout, findings)
}

/// The checks of `findings` other than the spec's open entries, which the fixture has on
/// purpose.
fn checks_of(findings: &[Value]) -> Vec<&str> {
    findings
        .iter()
        .map(|f| f["check"].as_str().unwrap())
        .filter(|c| *c != "unanswered-entry")
        .collect()
}

#[test]
fn the_broker_book_has_only_its_draft_specs_open_entries() {
    let (code, stdout, findings) = check(&broker(&[]));
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(checks_of(&findings), Vec::<&str>::new(), "{stdout}");
    assert_eq!(findings.len(), 5, "{stdout}");
}

#[test]
fn a_function_name_is_evidence_and_prose_is_not() {
    let claim = |to: &'static str| {
        move |t: &str| t.replace("{{#profile retention time adapters/kafka/kafka.go}}", to)
    };
    // One lowercase word is a symbol: a Go function the source tree has.
    let book = broker(&[(
        "src/adapters.md",
        &claim("{{#profile retention time produce}}"),
    )]);
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(checks_of(&findings), Vec::<&str>::new(), "{stdout}");
    // One the source tree lacks: `cited-symbol` says so, not `missing-evidence`.
    let book = broker(&[(
        "src/adapters.md",
        &claim("{{#profile retention time classify}}"),
    )]);
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 1);
    assert_eq!(checks_of(&findings), ["cited-symbol"], "{stdout}");
    // Without a source tree, nothing can look it up: it is taken as written.
    let book = broker(&[
        (
            "src/adapters.md",
            &claim("{{#profile retention time classify}}"),
        ),
        ("book.toml", &|t: &str| t.replace("source-root = \"code\"\n", "")),
    ]);
    let (_, stdout, findings) = check(&book);
    assert!(!checks_of(&findings).contains(&"missing-evidence"), "{stdout}");
    // Several plain words are prose, reported once, with no symbol looked up.
    let book = broker(&[(
        "src/adapters.md",
        &claim("{{#profile retention time the Kafka docs say so}}"),
    )]);
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 1);
    assert_eq!(checks_of(&findings), ["missing-evidence"], "{stdout}");
    assert_eq!(
        json_positions(&stdout, "missing-evidence"),
        ["src/adapters.md:14:1"]
    );
}
