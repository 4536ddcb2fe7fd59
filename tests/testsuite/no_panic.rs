//! No input panics, and a bug costs one finding, not the book.
//!
//! - The two reproductions of a space wider than one byte (U+00A0 in a MUST sentence, before a
//!   file reference) give findings through the binary: `check`, the protocol run of a build,
//!   and a build by mdBook's own code.
//! - A property test builds chapters from what each check looks at (sentence ends,
//!   abbreviations, code spans, shortcodes, line references, URLs, headings with attributes,
//!   tables, links, em-dashes, suppressions) with Unicode whitespace and multi-byte letters
//!   between them, and runs them through the whole pipeline, as a contract chapter and as an
//!   ordinary one: nothing panics, no check reports a bug of its own, and every position is on a
//!   character of its line (the resolution asserts in debug builds that each range it locates
//!   starts and ends on a character boundary).
//! - A check or a shortcode's rendering made to fail (`MDBOOK_CONTRACT_FAULT`) gives an
//!   `internal-error` finding that names the check, the chapter and the version, every other
//!   check still reports, and the run ends with exit 1 and no backtrace.

use std::process::Command;

use proptest::prelude::*;

use crate::common::{
    Fixture, binary, contract_book, json_positions, positions, protocol_input, run_binary,
    run_in_with,
};

const BOOK_TOML: &str = r#"[book]
title = "Storage"

[preprocessor.contract]
after = ["links"]
contract = ["contract.md"]
template = ["template.md"]
"#;

/// A contract chapter with one MUST sentence that holds U+00A0 before `No.`, and a chapter
/// with U+00A0 before a file reference.
fn nbsp_book() -> Fixture {
    Fixture::new(&[
        ("book.toml", BOOK_TOML),
        (
            "src/contract.md",
            "# Contract\n\n### `atomic-put` {.axis}\n\nIs `Put` atomic?\n\n| Profile | Meaning |\n|---|---|\n| `atomic` | all or nothing |\n\nA backend MUST make `Put` atomic as in RFC\u{a0}No. 5, because `cache.Fill` reads it.\n",
        ),
        (
            "src/template.md",
            "# Template\n\n## Put\n\n{{#answers atomic-put}}\n",
        ),
        (
            "src/notes.md",
            "# Notes\n\nSee the write path and\u{a0}backend.go:42 for the details.\n",
        ),
    ])
}

#[test]
fn a_wide_space_before_a_cut_gives_findings_through_the_binary() {
    let book = nbsp_book();
    let (code, stdout, stderr) = run_in_with(book.root(), &["check", "--format", "json"], &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(
        json_positions(&stdout, "line-reference"),
        ["src/notes.md:3:24"],
        "{stdout}"
    );
    assert!(
        json_positions(&stdout, "internal-error").is_empty(),
        "{stdout}"
    );

    // The protocol, as `mdbook build` runs it.
    let (code, stdout, stderr) =
        run_binary(&mut Command::new(binary()), &protocol_input(book.root()));
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("src/notes.md:3:24"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    // A build by mdBook's own code, the preprocessor in-process.
    let (result, _) = book.build();
    let error = format!("{:#}", result.unwrap_err());
    assert!(error.contains("error"), "{error}");
}

#[test]
fn the_fuzzed_input_of_the_report_gives_findings() {
    // The input the `chapter` fuzz target found (also in fuzz/corpus/chapter): U+2000 before a
    // sentence end in a chapter that is checked as a contract chapter.
    let chapter = "| Profile | Meaning | To| {{#{{#profile-matrix}} \0 contract: allow unknown-axis em-dash -->\n\n# T\n\n{{#axis nope}} \u{2000}0. It MUST work. The canler MUS[d](../upess}}| a |\n|---|\n";
    let book = Fixture::new(&[
        (
            "book.toml",
            "[book]\ntitle = \"Fuzz\"\n\n[preprocessor.contract]\ncontract = [\"contract.md\", \"fuzzed.md\"]\ntemplate = [\"template.md\"]\n",
        ),
        ("src/contract.md", crate::common::CONTRACT),
        ("src/template.md", crate::common::TEMPLATE),
        ("src/fuzzed.md", chapter),
    ]);
    let report = book.check();
    assert!(
        positions(&report, "internal-error").is_empty(),
        "{report:#?}"
    );
    assert_eq!(positions(&report, "must-cite"), ["src/fuzzed.md:5:23"]);
}

/// Unicode whitespace of one to three bytes, and letters of two to four.
const WIDE: &[&str] = &[
    " ", "\u{a0}", "\u{1680}", "\u{2000}", "\u{2003}", "\u{2009}", "\u{200a}", "\u{202f}",
    "\u{205f}", "\u{3000}", "\u{85}", "\u{2028}", "\t", "é", "ß", "Ω", "日本", "😀", "\u{301}",
];

/// What the checks look at.
const CONSTRUCTS: &[&str] = &[
    "MUST",
    "MUST NOT",
    "SHOULD",
    ".",
    "!",
    "?",
    "e.g.",
    "i.e.",
    "etc.",
    "vs.",
    "(",
    ")",
    "`Put`",
    "`Sweeper.sweep`",
    "`internal/gc/gc.go`",
    "``a ` b``",
    "{{#axis readiness}}",
    "{{#axis nope}}",
    "{{#profile readiness immediate `newWithClient`}}",
    "\\{{#axis readiness}}",
    "{{#include nothing.md}}",
    "gc.go:40-52",
    "provider.go:120",
    ":12-30",
    "src/main.rs:2:5",
    "https://host:8080/a.go:12",
    "[link](other.md#nowhere)",
    "[here](#here)",
    "<https://example.com>",
    "\n\n## A heading {#here .axis}\n\n",
    "\n\n### `wide-axis` {.axis}\n\n",
    "\n\n## `store` {.provider}\n\n",
    "\n\n| Profile | Meaning |\n|---|---|\n| `one` | a é row |\n\n",
    "\n\n| a | b |\n|---|---|\n| `c` | d |\n",
    "\u{2014}",
    "&mdash;",
    "---",
    "<!-- contract: allow em-dash -->",
    "<!-- contract: allow nope -->",
    "squid",
    "RFC 2119",
    "\n- ",
    "\n\n",
    "\n",
    "**Answer:**",
    "[README](README.md)",
    "[label]: gone.md",
];

fn chapter() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(WIDE),
        4 => prop::sample::select(CONSTRUCTS),
    ];
    prop::collection::vec(piece, 1..48).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn no_check_cuts_text_inside_a_character(text in chapter()) {
        let book = Fixture::new(&[
            (
                "book.toml",
                "[book]\ntitle = \"Wide\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\", \"fuzzed.md\"]\ntemplate = [\"template.md\"]\nsource-root = \"tree\"\n\n[preprocessor.contract.forbidden-terms]\n\"fuzzed.md\" = [\"squid\"]\n",
            ),
            ("src/contract.md", crate::common::CONTRACT),
            ("src/template.md", crate::common::TEMPLATE),
            ("src/appendix/existing.md", crate::common::APPENDIX),
            ("src/fuzzed.md", &text),
            ("src/plain.md", &text),
            ("tree/internal/gc/gc.go", "package gc\n\nfunc (s *Sweeper) sweep() {}\n"),
        ]);
        let (ctx, loaded) = mdbook_contract::load(book.root(), "html").expect("the book loads");
        let outcome = mdbook_contract::process(&ctx, loaded, std::path::PathBuf::new())
            .expect("the pipeline runs");
        for finding in &outcome.report.findings {
            prop_assert!(finding.check != "internal-error", "{finding:#?}");
            let at = &finding.location;
            prop_assert!(at.line >= 1 && at.column >= 1, "{finding:#?}");
            // The column is a character of the line, or just past its end.
            prop_assert!(at.column - 1 <= at.line_text.chars().count(), "{finding:#?}");
        }
    }
}

/// The contract book, checked with `MDBOOK_CONTRACT_FAULT=FAULT`, as JSON.
fn check_with_fault(book: &Fixture, fault: &str) -> (i32, String, String) {
    run_in_with(
        book.root(),
        &["check", "--format", "json"],
        &[("MDBOOK_CONTRACT_FAULT", fault)],
    )
}

#[test]
fn a_check_that_fails_is_one_finding_and_the_others_still_run() {
    let book = Fixture::new(&contract_book());
    let (code, stdout, stderr) = check_with_fault(&book, "em-dash");
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The check read the first chapter when it failed.
    assert_eq!(
        json_positions(&stdout, "internal-error"),
        ["src/contract.md:1:1"],
        "{stdout}"
    );
    let findings: Vec<serde_json::Value> = serde_json::from_str(&stdout).unwrap();
    let message = findings[0]["message"].as_str().unwrap();
    assert!(
        message.contains("the check `em-dash` failed while reading the chapter `contract.md`"),
        "{message}"
    );
    assert!(
        message.contains("MDBOOK_CONTRACT_FAULT=em-dash"),
        "{message}"
    );
    let help = findings[0]["help"].as_str().unwrap();
    assert!(
        help.contains(env!("CARGO_PKG_VERSION")) && help.contains("report"),
        "{help}"
    );
    // Every other check still reports: the appendix's `unknown-claim` warning, the book's one
    // finding.
    assert_eq!(
        json_positions(&stdout, "unknown-claim"),
        ["src/appendix/existing.md:16:48"]
    );

    // A check that reads no chapter (it goes through the claims): at book.toml's table.
    let (code, stdout, stderr) = check_with_fault(&book, "unknown-claim");
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_eq!(
        json_positions(&stdout, "internal-error"),
        ["book.toml:4:1"],
        "{stdout}"
    );
    // What it found before it failed is kept.
    assert_eq!(
        json_positions(&stdout, "unknown-claim"),
        ["src/appendix/existing.md:16:48"]
    );

    // The build's protocol run: exit 1, mdBook's error, no backtrace.
    let mut command = Command::new(binary());
    command.env("MDBOOK_CONTRACT_FAULT", "em-dash");
    let (code, stdout, stderr) = run_binary(&mut command, &protocol_input(book.root()));
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("error[internal-error]"), "{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "{stderr}"
    );
}

#[test]
fn a_shortcode_whose_rendering_fails_is_one_finding_at_it() {
    let book = Fixture::new(&contract_book());
    let mut command = Command::new(binary());
    command.env("MDBOOK_CONTRACT_FAULT", "render");
    let (code, stdout, stderr) = run_binary(&mut command, &protocol_input(book.root()));
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    // Every shortcode's rendering fails: each is a finding at it, and left as written.
    assert!(
        stderr.contains("error[internal-error]: internal error: rendering `{{#axis-table}}` in the chapter `contract.md` failed: a fault injected by MDBOOK_CONTRACT_FAULT=render"),
        "{stderr}"
    );
    assert!(stderr.contains("--> src/contract.md:25:1"), "{stderr}");
    assert!(
        stderr.contains("--> src/appendix/existing.md:9:25"),
        "{stderr}"
    );
    assert!(
        stderr.contains("mdbook-contract: 8 errors and 1 warning"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "{stderr}"
    );
}
