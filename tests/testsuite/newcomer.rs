//! A second team's contract, in another domain than the operator's: storage backends (axes
//! `consistency`, `list-order`, `atomic-rename`; backends `local-fs`, `s3`, `memory`; a
//! template titled "Backend spec template"). Each test makes a newcomer's mistake or runs a
//! command through the binary, and checks that the tool points at the cause, once, in this
//! book's own words.

use serde_json::Value;

use crate::common::{Fixture, json_positions, run_in};

pub(crate) const BOOK_TOML: &str = r#"[book]
title = "Storage backends"

[preprocessor.contract]
after = ["links"]
contract = ["contract.md"]
template = ["backend-spec-template.md"]
"#;

pub(crate) const CONTRACT: &str = r#"# The storage contract

Every backend keeps objects by key.

### `consistency` {.axis}

When does a read see a write?

| Profile | Meaning | Obliges | Tolerated by |
|---|---|---|---|
| `strong` | a read after a write sees it | reads go to the leader | every caller |
| `eventual` | a read may miss a recent write | writes carry a version | the cache refills |

### `list-order` {.axis}

In which order does a listing come?

| Profile | Meaning |
|---|---|
| `sorted` | by key, ascending |
| `any` | no order promised |

### `atomic-rename` {.axis}

Is a rename all or nothing?

| Profile | Meaning |
|---|---|
| `atomic` | all or nothing |
| `copy-delete` | a copy, then a delete |

## Closing table

{{#axis-table}}
"#;

pub(crate) const TEMPLATE: &str = r#"# Backend spec template

## Reads

{{#answers consistency}}

**Answer:**

**Evidence:**

## Listings

{{#answers list-order}}

**Answer:**

**Evidence:**

## Renames

{{#answers atomic-rename}}

**Answer:**

**Evidence:**
"#;

pub(crate) const BACKENDS: &str = r#"# Existing backends

{{#profile-matrix}}

## `local-fs` {.provider}

Reads see writes: {{#profile consistency strong src/localfs.rs}}.
Listings are sorted: {{#profile list-order sorted src/localfs.rs}}.
Renames are atomic: {{#profile atomic-rename atomic src/localfs.rs}}.

## `s3` {.provider}

{{#profile consistency strong src/s3.rs}}, {{#profile list-order sorted src/s3.rs}},
{{#profile atomic-rename copy-delete src/s3.rs}}.

## `memory` {.provider}

{{#profile consistency strong src/memory.rs}}, {{#profile list-order any src/memory.rs}},
{{#profile atomic-rename atomic src/memory.rs}}.
"#;

/// The storage book, with `edit` applied to its contract.
pub(crate) fn storage_book(edit: impl Fn(&str) -> String) -> Fixture {
    Fixture::new(&[
        ("book.toml", BOOK_TOML),
        ("src/contract.md", &edit(CONTRACT)),
        ("src/backend-spec-template.md", TEMPLATE),
        ("src/backends.md", BACKENDS),
    ])
}

/// `check --format json` of `book`: the exit code and the findings.
fn check(book: &Fixture) -> (i32, String, Vec<Value>) {
    let (code, stdout, stderr) = run_in(book.root(), &["check", "--format", "json"]);
    assert!(code == 0 || code == 1, "{stdout}{stderr}");
    let findings = serde_json::from_str(&stdout).expect("a JSON array");
    (code, stdout, findings)
}

#[test]
fn the_storage_book_is_clean() {
    let (code, stdout, _) = check(&storage_book(str::to_owned));
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(stdout.trim(), "[]");
}

#[test]
fn a_forgotten_axis_class_is_one_finding_at_the_heading_with_the_uses_as_notes() {
    let book = storage_book(|c| c.replace("### `consistency` {.axis}", "### `consistency`"));
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 1);
    assert_eq!(
        json_positions(&stdout, "malformed-section"),
        ["src/contract.md:5:1"],
        "{stdout}"
    );
    assert!(
        json_positions(&stdout, "unknown-axis").is_empty(),
        "{stdout}"
    );
    let finding = &findings[0];
    assert_eq!(
        finding["message"],
        "this heading has the code `consistency` and a `Profile` table but not the class `axis`, so it defines no axis"
    );
    assert_eq!(
        finding["help"],
        "add `{.axis}` at its end: ``### `consistency` {.axis}``"
    );
    // The uses, as notes: the template's answer site and the three claims.
    let notes: Vec<&str> = finding["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(
        notes,
        [
            "names it: src/backend-spec-template.md:5:1",
            "names it: src/backends.md:7:19",
            "names it: src/backends.md:13:1",
            "names it: src/backends.md:18:1",
        ],
        "{stdout}"
    );
    assert_eq!(findings.len(), 1, "{stdout}");
}

#[test]
fn a_misspelt_axis_class_says_which_class_it_is() {
    let book =
        storage_book(|c| c.replace("### `consistency` {.axis}", "### `consistency` {.axes}"));
    let (_, stdout, findings) = check(&book);
    assert_eq!(
        json_positions(&stdout, "malformed-section"),
        ["src/contract.md:5:1"]
    );
    assert_eq!(
        findings[0]["help"],
        "its class is `axes`; write `{.axis}` instead: ``### `consistency` {.axis}``"
    );
    assert_eq!(findings.len(), 1, "{stdout}");
}

#[test]
fn a_profiles_header_is_one_finding_with_the_fix_and_its_claims_as_notes() {
    let book = storage_book(|c| {
        c.replace(
            "| Profile | Meaning |\n|---|---|\n| `sorted`",
            "| Profiles | Meaning |\n|---|---|\n| `sorted`",
        )
    });
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 1);
    assert_eq!(
        json_positions(&stdout, "malformed-section"),
        ["src/contract.md:18:3"],
        "{stdout}"
    );
    assert!(
        json_positions(&stdout, "unknown-profile").is_empty(),
        "{stdout}"
    );
    let finding = &findings[0];
    assert_eq!(
        finding["message"],
        "axis `list-order` has no `Profile` table: the table in its section starts with `Profiles`; did you mean `Profile`?"
    );
    assert_eq!(finding["notes"].as_array().unwrap().len(), 3, "{stdout}");
    assert_eq!(findings.len(), 1, "{stdout}");
}

#[test]
fn a_heading_without_a_profile_table_stays_silent() {
    // A heading with a code but no table is prose, not a forgotten axis.
    let book = storage_book(|c| {
        c.replace(
            "## Closing table",
            "### `Put` and `Get`\n\nThey keep objects.\n\n## Closing table",
        )
    });
    let (code, stdout, _) = check(&book);
    assert_eq!(code, 0, "{stdout}");
}

#[test]
fn new_spec_names_the_spec_as_the_books_template_does() {
    let book = storage_book(str::to_owned);
    std::fs::write(
        book.root().join("src/SUMMARY.md"),
        "# Summary\n\n- [Contract](contract.md)\n- [Backend spec template](backend-spec-template.md)\n- [Backends](backends.md)\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run_in(book.root(), &["new-spec", "gcs"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let summary = std::fs::read_to_string(book.root().join("src/SUMMARY.md")).unwrap();
    assert!(
        summary.contains("- [Backend spec: gcs](gcs-backend-spec.md)"),
        "{summary}"
    );
    let spec = std::fs::read_to_string(book.root().join("src/gcs-backend-spec.md")).unwrap();
    assert!(
        spec.starts_with("# `gcs` backend spec {.provider .proposed}\n"),
        "{spec}"
    );
    // A build right after it: one open entry per template entry, nothing else.
    let (code, stdout, _) = run_in(book.root(), &["check", "--format", "json"]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(
        json_positions(&stdout, "unanswered-entry").len(),
        3,
        "{stdout}"
    );
}

#[test]
fn no_help_text_speaks_of_another_books_words() {
    // Mistakes whose help used to cite the egress-proxy book: a line reference, a MUST
    // without a caller, a missing contract role, an unknown axis in a book with axes.
    let book = Fixture::new(&[
        (
            "book.toml",
            "[book]\ntitle = \"Storage backends\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ntemplate = [\"backend-spec-template.md\"]\n",
        ),
        (
            "src/contract.md",
            &CONTRACT.replace(
                "Every backend keeps objects by key.",
                "Every backend MUST keep objects by key, as store.rs:40 does. See {{#axis consistncy}}.",
            ),
        ),
        ("src/backend-spec-template.md", TEMPLATE),
        ("src/backends.md", BACKENDS),
    ]);
    let (_, stdout, _) = run_in(book.root(), &["check", "--format", "json"]);
    let findings: Vec<Value> = serde_json::from_str(&stdout).unwrap();
    for word in [
        "readiness",
        "reconcileManaged",
        "internal/gc",
        "Sweeper",
        "instance",
        "provider-contract.md",
        "provider-spec-template.md",
        "proxmox",
        "shared layer",
    ] {
        assert!(!stdout.contains(word), "`{word}` in {stdout}");
    }
    let help = |check: &str| {
        findings
            .iter()
            .find(|f| f["check"] == check)
            .map(|f| f["help"].as_str().unwrap().to_owned())
            .unwrap_or_else(|| panic!("no {check} in {stdout}"))
    };
    assert!(help("line-reference").contains("`store.rs`"));
    assert!(help("missing-role").contains("`contract = [\"contract.md\"]`"));
    assert!(help("unknown-axis").contains("``### `consistency` {.axis}``"));
    assert!(stdout.contains("did you mean `consistency`?"));
}

#[test]
fn evidence_is_a_citation_and_an_address_is_a_link() {
    let with = |from: &str, to: &str| {
        Fixture::new(&[
            ("book.toml", BOOK_TOML),
            ("src/contract.md", CONTRACT),
            ("src/backend-spec-template.md", TEMPLATE),
            ("src/backends.md", &BACKENDS.replace(from, to)),
        ])
    };
    let book = with(
        "{{#profile consistency strong src/s3.rs}}",
        "{{#profile consistency strong the AWS docs say so}}",
    );
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 1);
    assert_eq!(
        json_positions(&stdout, "missing-evidence"),
        ["src/backends.md:13:1"],
        "{stdout}"
    );
    assert_eq!(
        findings[0]["message"],
        "the claim of `s3` on axis `consistency` gives `the`, `docs`, `say`, `so` as evidence: words, not citations"
    );
    // An address renders as a link, not as code (the protocol, as a build runs it).
    let address = "https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html";
    let book = with(
        "{{#profile list-order sorted src/s3.rs}}",
        &format!("{{{{#profile list-order sorted {address}}}}}"),
    );
    let (code, out, err) = crate::common::run_binary(
        &mut std::process::Command::new(crate::common::binary()),
        &crate::common::protocol_input(book.root()),
    );
    assert_eq!(code, 0, "{err}");
    let rendered: Value = serde_json::from_str(&out).unwrap();
    let text = rendered.to_string();
    assert!(text.contains(&format!("[{address}]({address})")), "{text}");
    assert!(!text.contains(&format!("`{address}`")), "{text}");
}

#[test]
fn the_brief_says_what_it_looked_for_and_did_not_find_and_book_toml_names_it() {
    let book = storage_book(str::to_owned);
    std::fs::write(
        book.root().join("src/SUMMARY.md"),
        "# Summary\n\n- [Contract](contract.md)\n- [Backend spec template](backend-spec-template.md)\n- [Backends](backends.md)\n",
    )
    .unwrap();
    let (code, _, stderr) = run_in(book.root(), &["new-spec", "gcs"]);
    assert_eq!(code, 0, "{stderr}");
    let spec_path = book.root().join("src/gcs-backend-spec.md");
    let spec = std::fs::read_to_string(&spec_path).unwrap().replacen(
        "**Answer:**\n",
        "**Answer:** Reads see writes: {{#profile consistency strong}}.\n",
        1,
    );
    std::fs::write(&spec_path, spec).unwrap();
    let (code, brief, stderr) = run_in(book.root(), &["brief", "gcs"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        brief.contains("The contract has no checklist: none of its headings has \u{201c}checklist\u{201d} in it (`brief-checklist` in book.toml names other words)."),
        "{brief}"
    );
    assert!(
        brief.contains("No known gaps are copied for `local-fs`, `s3`, `memory`: no sub-heading of their sections is titled \u{201c}Known gaps\u{201d}"),
        "{brief}"
    );
    assert!(!brief.contains("adding a provider"), "{brief}");
    // The book's noun, from its template's title: a backend, not a provider.
    assert!(
        brief.contains("Implementer's brief: the `gcs` backend"),
        "{brief}"
    );
    assert!(brief.contains("for whoever builds this backend"), "{brief}");

    // The book's own words for both, in book.toml.
    let toml = BOOK_TOML.replace(
        "after = [\"links\"]",
        "after = [\"links\"]\nbrief-checklist = \"before you start\"\nbrief-known-gaps = \"Limits\"\nspecs = [\"gcs-backend-spec.md\"]",
    );
    std::fs::write(book.root().join("book.toml"), toml).unwrap();
    let contract = CONTRACT.replace(
        "## Closing table",
        "## Before you start\n\nRead every axis.\n\n## Closing table",
    );
    std::fs::write(book.root().join("src/contract.md"), contract).unwrap();
    let backends = BACKENDS.replace(
        "{{#profile atomic-rename copy-delete src/s3.rs}}.\n",
        "{{#profile atomic-rename copy-delete src/s3.rs}}.\n\n### Limits\n\nNo rename of a prefix.\n",
    );
    std::fs::write(book.root().join("src/backends.md"), backends).unwrap();
    let (code, brief, stderr) = run_in(book.root(), &["brief", "gcs"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!brief.contains("has no checklist"), "{brief}");
    assert!(brief.contains("Read every axis."), "{brief}");
    assert!(brief.contains("No rename of a prefix."), "{brief}");
    assert!(
        brief.contains("No known gaps are copied for `local-fs`, `memory`: no sub-heading of their sections is titled \u{201c}Limits\u{201d}"),
        "{brief}"
    );
}
