//! The `mdbook-contract` binary as mdBook runs it.
//!
//! Every test here starts the real binary as a subprocess. The protocol input is never written
//! by hand: a fixture book is loaded the way mdBook loads it ([`mdbook_contract::check::load`]
//! runs mdBook's own `index` and `links` preprocessors) and serialised as mdBook serialises it,
//! `[context, book]`; the bad-input cases edit that JSON. The file proves that
//!
//! - `supports` accepts every renderer and prints nothing;
//! - a book with nothing to render comes back byte for byte, whatever its line endings, BOM,
//!   tabs, escaped shortcodes and shortcodes in code;
//! - shortcodes render to the expected relative links, and findings reach standard error with
//!   `file:line:col` and a count, the exit code following their severity;
//! - an mdBook of another minor version, malformed JSON and a bad `[preprocessor.contract]` each
//!   get one clear message and a non-zero exit, never a panic;
//! - mdBook's `MDBOOK_PREPROCESSOR__CONTRACT__*` environment overrides reach `check`;
//! - `check` has the documented exit codes and output formats;
//! - in a real mdBook build with two renderers, the preprocessor runs twice but prints its
//!   findings once, and an error finding fails the build.

use std::path::Path;
use std::process::Command;

use crate::common::{
    APPENDIX, CONTRACT, Fixture, TEMPLATE, binary, contract_book, protocol_input, run_binary,
};
use mdbook_preprocessor::book::{Book, BookItem};
use serde_json::Value;

/// The supported range as the binary states it.
const RANGE: &str = ">=0.5.0, <0.6.0";

/// A chapter with an error finding: an axis that no chapter defines, `nope` at line 3, column 13.
const BAD_CHAPTER: &str = "# Extra\n\nSee {{#axis nope}} for more.\n";

/// Where [`BAD_CHAPTER`]'s finding is, relative to the book root.
const BAD_AT: &str = "src/extra.md:3:13";

/// Where the contract book's `unknown-claim` warning is, relative to the book root.
const WARNING_AT: &str = "src/appendix/existing.md:16:48";
/// The file of that warning, as a build's summary names it.
const WARNING_FILE: &str = "src/appendix/existing.md";
/// The count line a build of the contract book ends with (its one warning is shown in full).
const WARNING_COUNT: &str = "mdbook-contract: 1 warning";

/// Runs the binary with no arguments (the preprocessor protocol) on `input`.
fn run_protocol(input: &[u8]) -> (i32, String, String) {
    run_binary(&mut Command::new(binary()), input)
}

/// Runs `mdbook-contract ARGS...` in `dir` with the extra environment variables `env`.
fn run_cli(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut command = Command::new(binary());
    command.args(args).current_dir(dir).env("NO_COLOR", "1");
    for (key, value) in env {
        command.env(key, value);
    }
    run_binary(&mut command, b"")
}

/// `mdbook-contract check . --format FORMAT` in the book at `dir`.
fn run_check(dir: &Path, format: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    run_cli(dir, &["check", ".", "--format", format], env)
}

/// What mdBook writes on the preprocessor's standard input for the book at `root` and the
/// `html` renderer, as a JSON value to edit.
fn protocol_value(root: &Path) -> Value {
    let (ctx, book) = mdbook_contract::load(root, "html").expect("the fixture loads as a book");
    serde_json::to_value((&ctx, &book)).expect("the context and the book serialise")
}

/// The JSON bytes of `value`.
fn bytes(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).expect("a JSON value serialises")
}

/// The book the preprocessor wrote on standard output.
fn output_book(stdout: &str) -> Book {
    serde_json::from_str(stdout).expect("standard output is a book")
}

/// The content of every chapter of `book`, keyed by source path, in document order.
fn contents(book: &Book) -> Vec<(String, String)> {
    book.chapters()
        .map(|c| {
            let path = c.source_path.as_ref().map_or_else(
                || c.name.clone(),
                |p| p.to_string_lossy().replace('\\', "/"),
            );
            (path, c.content.clone())
        })
        .collect()
}

/// The content of the chapter read from `src/<path>`.
fn content_of(book: &Book, path: &str) -> String {
    contents(book)
        .into_iter()
        .find(|(p, _)| p == path)
        .map(|(_, content)| content)
        .unwrap_or_else(|| panic!("the book has a chapter `{path}`"))
}

/// How many times `needle` occurs in `haystack`.
fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// Asserts the marks of a controlled failure: a message from the program, not a panic.
fn assert_no_panic(stderr: &str) {
    assert!(!stderr.contains("panicked"), "a panic: {stderr}");
    assert!(!stderr.contains("RUST_BACKTRACE"), "a panic: {stderr}");
}

/// The contract book plus [`BAD_CHAPTER`] at `src/extra.md`.
fn bad_book() -> Fixture {
    let mut files = contract_book();
    files.push(("src/extra.md", BAD_CHAPTER));
    Fixture::new(&files)
}

// 1. supports

#[test]
fn supports_every_renderer_silently() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for renderer in ["html", "markdown", "anything-else"] {
        let (code, stdout, stderr) = run_cli(dir.path(), &["supports", renderer], &[]);
        assert_eq!(code, 0, "supports {renderer}: {stderr}");
        assert_eq!(stdout, "", "supports {renderer} prints nothing on stdout");
        assert_no_panic(&stderr);
    }
}

// 2. byte-exact

/// A chapter in CRLF with a BOM, tabs, trailing spaces, escaped shortcodes (one and two on a
/// line: mdBook's `links` removes the backslash of the first only), shortcodes in code spans,
/// fenced and indented code, and no newline at the end.
const CRLF_CHAPTER: &str = concat!(
    "\u{feff}# Plain CRLF\r\n",
    "\r\n",
    "Tabs\there\tand trailing spaces   \r\n",
    "Escaped: \\{{#axis x}}\r\n",
    "Two escapes: \\{{#axis x}} and \\{{#profile x y z}} on one line.\r\n",
    "\r\n",
    "In a code span: `{{#axis readiness}}` and ``{{#axis-table}}``.\r\n",
    "\r\n",
    "```text\r\n",
    "{{#profile readiness immediate X}}\r\n",
    "\t{{#profile-matrix}}\r\n",
    "```\r\n",
    "\r\n",
    "    {{#answers readiness}}\r\n",
    "\r\n",
    "~~~\r\n",
    "{{#axis-table}}\r\n",
    "~~~\r\n",
    "Last line without a newline, trailing tab\t",
);

/// A chapter in LF with the same kinds of text, a line of only spaces and a table.
const LF_CHAPTER: &str = concat!(
    "# Plain LF\n",
    "\n",
    "\\{{#axis-table}}\n",
    "   \n",
    "- item with `{{#axis nope}}`\n",
    "\t- nested\ttabbed   \n",
    "\n",
    "| a | b |\n",
    "|---|---|\n",
    "| `{{#profile a b c}}` | \\{{#profile-matrix}} |\n",
    "\n",
    "```\n",
    "{{#axis nope}}\n",
    "```\n",
    "\n",
    "\t{{#axis nope}} in a code block indented by a tab\n",
);

#[test]
fn chapters_without_shortcodes_come_back_byte_for_byte() {
    let fixture = Fixture::new(&[
        (
            "book.toml",
            "[book]\ntitle = \"Plain\"\n\n[preprocessor.contract]\nafter = [\"links\"]\n",
        ),
        ("src/crlf.md", CRLF_CHAPTER),
        ("src/lf.md", LF_CHAPTER),
        ("src/empty.md", ""),
    ]);
    let input_value = protocol_value(fixture.root());
    let input_book: Book =
        serde_json::from_value(input_value[1].clone()).expect("the input book deserialises");
    // The input is what mdBook hands over: BOM stripped, CRLF kept, the first escape on a line
    // without its backslash.
    let crlf_in = content_of(&input_book, "crlf.md");
    assert!(!crlf_in.starts_with('\u{feff}'), "{crlf_in:?}");
    assert!(crlf_in.contains("Escaped: {{#axis x}}\r\n"), "{crlf_in:?}");

    let (code, stdout, stderr) = run_protocol(&bytes(&input_value));
    assert_eq!(code, 0, "{stderr}");
    assert_no_panic(&stderr);
    assert!(
        !stderr.contains("error") && !stderr.contains("warning"),
        "no findings expected: {stderr}"
    );
    let output = output_book(&stdout);
    let (before, after) = (contents(&input_book), contents(&output));
    assert_eq!(before.len(), 3, "three chapters in: {before:?}");
    assert_eq!(
        before.iter().map(|(p, _)| p).collect::<Vec<_>>(),
        after.iter().map(|(p, _)| p).collect::<Vec<_>>(),
        "the same chapters, in the same order"
    );
    for ((path, content_in), (_, content_out)) in before.iter().zip(&after) {
        assert_eq!(
            content_in.as_bytes(),
            content_out.as_bytes(),
            "chapter {path} changed"
        );
    }
    // Nothing else about the book changed either.
    let output_value: Value = serde_json::from_str(&stdout).expect("standard output is JSON");
    assert_eq!(output_value, input_value[1], "the book changed");
}

// 3. the contract book

#[test]
fn the_contract_book_renders_links_and_warns_once() {
    let fixture = Fixture::new(&contract_book());
    let input = protocol_input(fixture.root());
    let (code, stdout, stderr) = run_protocol(&input);
    assert_eq!(code, 0, "{stderr}");
    assert_no_panic(&stderr);
    let book = output_book(&stdout);

    let appendix = content_of(&book, "appendix/existing.md");
    assert!(
        appendix.contains("[`readiness`](../contract.md#readiness)"),
        "the claim links its axis: {appendix}"
    );
    assert!(
        appendix.contains("(../contract.md#create-return)"),
        "{appendix}"
    );
    assert!(appendix.contains("`newWithClient`"), "{appendix}");
    assert!(appendix.contains("`internal/provider/pods`"), "{appendix}");
    assert!(
        appendix.contains('|'),
        "the profile matrix is a table: {appendix}"
    );
    let template = content_of(&book, "template.md");
    assert!(
        template.contains("(contract.md#readiness)"),
        "the answers link the contract from the same folder: {template}"
    );
    assert!(template.contains("`provisioning-window`"), "{template}");
    let contract = content_of(&book, "contract.md");
    assert!(
        contract.contains("(template.md#"),
        "the closing table links the template entries: {contract}"
    );
    for (path, content) in contents(&book) {
        assert!(
            !content.contains("{{#"),
            "{path} still holds a shortcode: {content}"
        );
    }
    // Text around the shortcodes is untouched.
    assert!(
        appendix.starts_with("# Existing providers\n\n"),
        "{appendix}"
    );
    assert!(
        appendix.contains("\n## `vms` {.provider .proposed}\n"),
        "{appendix}"
    );
    assert!(contract.starts_with(&CONTRACT[..CONTRACT.find("{{#").expect("a shortcode")]));
    assert!(template.starts_with(&TEMPLATE[..TEMPLATE.find("{{#").expect("a shortcode")]));
    assert!(appendix.ends_with(&APPENDIX[APPENDIX.rfind("}}").expect("a shortcode") + 2..]));

    // A check's few warnings are shown in full, then the count.
    assert!(
        stderr.starts_with("warning[unknown-claim]: the profile of `vms` on axis `create-return` is not verified yet\n"),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("--> {WARNING_AT}")), "{stderr}");
    assert!(
        stderr.ends_with(&format!("\n{WARNING_COUNT}\n")),
        "{stderr}"
    );
}

/// Two more providers, with four `unknown` claims between them.
const FOUR_UNKNOWN: &str = "# More\n\n## `alpha-cloud` {.provider .proposed}\n\n{{#profile readiness unknown}} and {{#profile create-return unknown}}.\n\n## `beta-cloud` {.provider .proposed}\n\n{{#profile readiness unknown}} and {{#profile create-return unknown}}.\n";

#[test]
fn a_build_shows_what_book_toml_lacks_and_few_warnings_in_full_and_counts_the_many() {
    // No `contract` key, and five warnings of one check.
    let toml = crate::common::BOOK_TOML.replace("contract = [\"contract.md\"]\n", "");
    let mut files = contract_book();
    files.push(("src/more.md", FOUR_UNKNOWN));
    files.push(("book.toml", &toml));
    let fixture = Fixture::new(&files);
    let (code, stdout, stderr) = run_protocol(&protocol_input(fixture.root()));
    assert_eq!(code, 0, "{stderr}");
    assert_no_panic(&stderr);
    assert!(!stdout.is_empty());
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[0],
        format!("warning[unknown-claim]: 5 in {WARNING_FILE} and src/more.md"),
        "{stderr}"
    );
    // The sentence that says what book.toml lacks, where to write it, and what to write.
    assert!(
        stderr.contains("warning[missing-role]: no chapter has the `contract` role: axes are read from every chapter"),
        "{stderr}"
    );
    assert!(stderr.contains("--> book.toml:4:1"), "{stderr}");
    assert!(
        stderr.contains("help: name the chapter that defines the axes"),
        "{stderr}"
    );
    assert!(
        !stderr.contains(WARNING_AT),
        "the many are counted: {stderr}"
    );
    assert_eq!(
        lines.last().copied(),
        Some(
            "mdbook-contract: 6 warnings; `mdbook-contract check` lists each warning with its place"
        ),
        "{stderr}"
    );

    // Three of a check are shown in full, each with its place; so is every error.
    let three = FOUR_UNKNOWN.replacen(
        "{{#profile create-return unknown}}",
        "{{#profile create-return blocking}}",
        2,
    );
    let mut files = contract_book();
    files.push(("src/more.md", &three));
    files.push(("src/extra.md", BAD_CHAPTER));
    let fixture = Fixture::new(&files);
    let (code, _, stderr) = run_protocol(&protocol_input(fixture.root()));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        count(&stderr, "warning[unknown-claim]: the profile of"),
        3,
        "{stderr}"
    );
    assert!(stderr.contains(WARNING_AT), "{stderr}");
    assert!(stderr.contains("--> src/more.md:5:1"), "{stderr}");
    assert!(stderr.contains("--> src/more.md:9:1"), "{stderr}");
    assert!(
        stderr.find("src/more.md:9:1").unwrap() < stderr.find(BAD_AT).unwrap(),
        "errors last: {stderr}"
    );
    assert!(
        stderr.ends_with("\nmdbook-contract: 1 error and 3 warnings\n"),
        "{stderr}"
    );
}

/// The binary writes the rendered book without building it in memory (the patches are spliced
/// as the JSON is written): its output must be, byte for byte, what serde_json writes for the
/// book the in-process pipeline renders, drafts and nested chapters included, and under
/// `mdbook serve` with the findings panel too.
#[test]
fn the_book_on_stdout_is_the_rendered_book_as_serde_json_writes_it() {
    let mut files = contract_book();
    files.push(("src/extra.md", BAD_CHAPTER));
    files.push((
        "src/nested/deep.md",
        "# Deep\n\n\"{{#axis readiness}}\"\tand\u{1}\n",
    ));
    files.push((
        "src/SUMMARY.md",
        "# Summary\n\n- [Contract](contract.md)\n  - [Draft]()\n  - [Deep](nested/deep.md)\n\
         - [Template](template.md)\n- [Later]()\n- [Existing](appendix/existing.md)\n\
         - [Extra](extra.md)\n",
    ));
    let fixture = Fixture::new(&files);
    let (ctx, book) = mdbook_contract::load(fixture.root(), "html").expect("book loads");
    let drafts = book
        .iter()
        .filter(|item| matches!(item, BookItem::Chapter(c) if c.path.is_none()))
        .count();
    assert_eq!(drafts, 2, "two drafts");
    let mut input = serde_json::to_value((&ctx, &book)).expect("the input serialises");
    // An error finding fails a build, but not under serve, where the page shows it.
    input[0]["config"]["output"]["html"]["live-reload-endpoint"] = Value::from("__livereload");
    let (code, stdout, stderr) = run_protocol(&bytes(&input));
    assert_eq!(code, 0, "{stderr}");

    let (ctx, book) =
        serde_json::from_value::<(mdbook_preprocessor::PreprocessorContext, Book)>(input)
            .expect("the input reads back");
    let rendered =
        mdbook_contract::process(&ctx, book, Default::default()).expect("the pipeline runs");
    let expected = serde_json::to_string(&rendered.book).expect("the book serialises");
    assert!(
        expected.contains("mdbook-contract-findings"),
        "the panel is in: {expected}"
    );
    assert!(
        expected.contains("\\\"[`readiness`](../contract.md#readiness)\\\"\\t"),
        "{expected}"
    );
    assert_eq!(stdout, expected);
}

// 4. an error finding

#[test]
fn an_error_finding_fails_the_run_with_nothing_on_stdout() {
    let fixture = bad_book();
    let (code, stdout, stderr) = run_protocol(&protocol_input(fixture.root()));
    assert_ne!(code, 0, "{stderr}");
    assert_no_panic(&stderr);
    assert_eq!(stdout, "", "no book on stdout after an error");
    assert!(stderr.contains("error[unknown-axis]"), "{stderr}");
    assert!(stderr.contains("nope"), "{stderr}");
    assert!(stderr.contains(BAD_AT), "the error in full: {stderr}");
    // The one warning in full too, before the error, which comes last, next to the count.
    let warning = stderr.find(WARNING_AT).expect("the warning in full");
    let error = stderr.find(BAD_AT).expect("the error in full");
    assert!(warning < error, "{stderr}");
    assert!(
        stderr.ends_with("mdbook-contract: 1 error and 1 warning\n"),
        "the error, then one count line, last: {stderr}"
    );
    assert_eq!(
        count(&stderr, "mdbook-contract:"),
        1,
        "the count once: {stderr}"
    );
}

// 5. versions

/// Asserts that `stderr` is one sentence naming the supported range and `found`.
fn assert_version_message(stderr: &str, found: &str) {
    assert_no_panic(stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("mdbook-contract:"), "{stderr}");
    assert!(stderr.contains(RANGE), "names the range: {stderr}");
    assert!(stderr.contains(found), "names the version found: {stderr}");
    for serde_word in ["missing field", "sections", "items", "line 1 column"] {
        assert!(
            !stderr.contains(serde_word),
            "a serde error leaked: {stderr}"
        );
    }
}

#[test]
fn an_mdbook_0_4_host_gets_one_sentence() {
    let fixture = Fixture::new(&contract_book());
    let mut input = protocol_value(fixture.root());
    input[0]["mdbook_version"] = Value::from("0.4.52");
    let book = input[1].as_object_mut().expect("the book is an object");
    let items = book.remove("items").expect("an 0.5 book has `items`");
    book.insert("sections".to_owned(), items);
    let (code, stdout, stderr) = run_protocol(&bytes(&input));
    assert_ne!(code, 0, "{stderr}");
    assert_eq!(stdout, "");
    assert_version_message(&stderr, "0.4.52");
}

#[test]
fn an_mdbook_0_6_host_gets_one_sentence() {
    let fixture = Fixture::new(&contract_book());
    let mut input = protocol_value(fixture.root());
    input[0]["mdbook_version"] = Value::from("0.6.0");
    let (code, stdout, stderr) = run_protocol(&bytes(&input));
    assert_ne!(code, 0, "{stderr}");
    assert_eq!(stdout, "");
    assert_version_message(&stderr, "0.6.0");
}

#[test]
fn a_supported_patch_and_prerelease_are_accepted() {
    let fixture = Fixture::new(&contract_book());
    for version in ["0.5.0", "0.5.99", "0.5.0-alpha.1"] {
        let mut input = protocol_value(fixture.root());
        input[0]["mdbook_version"] = Value::from(version);
        let (code, stdout, stderr) = run_protocol(&bytes(&input));
        assert_eq!(code, 0, "{version}: {stderr}");
        output_book(&stdout);
    }
}

// 6. malformed input

#[test]
fn malformed_input_is_explained_not_panicked_on() {
    let fixture = Fixture::new(&contract_book());
    let valid = protocol_input(fixture.root());
    let half = valid[..valid.len() / 2].to_vec();
    // A chapter whose content holds bytes that are not UTF-8.
    let invalid_in_string = {
        let text = String::from_utf8(valid.clone()).expect("JSON is UTF-8");
        let at = text
            .find("# Existing providers")
            .expect("the appendix heading");
        let mut bytes = valid.clone();
        bytes.splice(at..at, [0xff, 0xfe, 0xc3]);
        bytes
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty stdin", Vec::new(), "standard input"),
        ("`{`", b"{".to_vec(), "standard input"),
        ("`[1, 2]`", b"[1, 2]".to_vec(), "mdbook_version"),
        ("`null`", b"null".to_vec(), "standard input"),
        ("`[{}, {}]`", b"[{}, {}]".to_vec(), "mdbook_version"),
        ("half of a valid input", half, "standard input"),
        (
            "bare invalid UTF-8",
            vec![0xff, 0xfe, 0x80, 0x00],
            "standard input",
        ),
        (
            "invalid UTF-8 in a chapter",
            invalid_in_string,
            "standard input",
        ),
    ];
    for (what, input, mention) in cases {
        let (code, stdout, stderr) = run_protocol(&input);
        assert_ne!(code, 0, "{what}: exit 0 with {stderr}");
        assert_no_panic(&stderr);
        assert_eq!(stdout, "", "{what}: nothing on stdout");
        assert!(
            stderr.starts_with("mdbook-contract:"),
            "{what}: the message says who speaks: {stderr}"
        );
        assert!(
            stderr.contains(mention),
            "{what}: the message mentions {mention}: {stderr}"
        );
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "{what}: one line: {stderr}"
        );
    }
}

#[test]
fn a_version_that_is_not_semver_is_explained() {
    let fixture = Fixture::new(&contract_book());
    let mut input = protocol_value(fixture.root());
    input[0]["mdbook_version"] = Value::from("banana");
    let (code, stdout, stderr) = run_protocol(&bytes(&input));
    assert_ne!(code, 0, "{stderr}");
    assert_no_panic(&stderr);
    assert_eq!(stdout, "");
    assert!(stderr.starts_with("mdbook-contract:"), "{stderr}");
    assert!(stderr.contains("`banana`"), "{stderr}");
    assert!(stderr.contains("not a semantic version"), "{stderr}");
}

// 7. configuration errors

/// The contract book with a book.toml of `toml`.
fn book_with_toml(toml: &str) -> Fixture {
    let mut files = contract_book();
    files.push(("book.toml", toml));
    Fixture::new(&files)
}

/// A mistake in the preprocessor's table is a finding at its key: the build fails with it among
/// the rest, and the book is still checked as if the value were not written.
#[test]
fn configuration_errors_name_the_key() {
    let base = crate::common::BOOK_TOML;
    let cases = [
        (
            format!("{base}contracts = [\"contract.md\"]\n"),
            "book.toml:8:1",
            &[
                "`preprocessor.contract.contracts` is not a key",
                "did you mean `contract`?",
            ][..],
        ),
        (
            base.replace("contract = [\"contract.md\"]", "contract = 3"),
            "book.toml:6:12",
            &["`preprocessor.contract.contract` must be", "found a number"][..],
        ),
        (
            format!("{base}\n[preprocessor.contract.checks]\nunknown-axes = \"error\"\n"),
            "book.toml:10:1",
            &[
                "`preprocessor.contract.checks.unknown-axes` is not a check",
                "did you mean `unknown-axis`?",
            ][..],
        ),
        (
            format!("{base}\n[preprocessor.contract.checks]\nunknown-axis = \"fatal\"\n"),
            "book.toml:10:16",
            &["`preprocessor.contract.checks.unknown-axis`", "\"fatal\""][..],
        ),
    ];
    for (toml, at, expected) in cases {
        let fixture = book_with_toml(&toml);
        let (code, stdout, stderr) = run_protocol(&protocol_input(fixture.root()));
        assert_eq!(code, 1, "{toml}: {stderr}");
        assert_no_panic(&stderr);
        assert_eq!(stdout, "", "{toml}");
        assert!(
            stderr.contains("error[malformed-config]: "),
            "{toml}: {stderr}"
        );
        assert!(
            stderr.contains(&format!("--> {at}\n")),
            "{toml}: expected {at} in {stderr}"
        );
        for part in expected {
            assert!(
                stderr.contains(part),
                "{toml}: expected {part:?} in {stderr}"
            );
        }
        // The chapters are still checked.
        assert!(
            stderr.contains("warning[unknown-claim]"),
            "{toml}: {stderr}"
        );
        assert!(
            stderr.ends_with("mdbook-contract: 1 error and 1 warning\n"),
            "{toml}: {stderr}"
        );
    }
}

#[test]
fn a_configuration_that_is_not_a_table_is_explained() {
    let fixture = Fixture::new(&contract_book());
    let mut input = protocol_value(fixture.root());
    input[0]["config"]["preprocessor"]["contract"] = Value::from("yes");
    let (code, stdout, stderr) = run_protocol(&bytes(&input));
    assert_ne!(code, 0, "{stderr}");
    assert_no_panic(&stderr);
    assert_eq!(stdout, "");
    assert!(stderr.contains("`preprocessor.contract`"), "{stderr}");
    assert!(stderr.contains("must be a table"), "{stderr}");
}

// 8. environment overrides

#[test]
fn environment_overrides_turn_a_check_off() {
    let fixture = Fixture::new(&contract_book());
    let (code, stdout, stderr) = run_check(fixture.root(), "short", &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("{WARNING_AT}: warning[unknown-claim]")),
        "{stdout}"
    );

    let off = [(
        "MDBOOK_PREPROCESSOR__CONTRACT__CHECKS",
        r#"{"unknown-claim": "off"}"#,
    )];
    let (code, stdout, stderr) = run_check(fixture.root(), "short", &off);
    assert_eq!(code, 0, "{stderr}");
    assert_no_panic(&stderr);
    assert!(!stdout.contains("unknown-claim"), "turned off: {stdout}");
}

#[test]
fn environment_overrides_raise_a_check_to_an_error() {
    let fixture = Fixture::new(&contract_book());
    // `__` separates keys and `_` stands for `-`: this is `checks.unknown-claim`.
    let error = [(
        "MDBOOK_PREPROCESSOR__CONTRACT__CHECKS__UNKNOWN_CLAIM",
        "error",
    )];
    let (code, stdout, stderr) = run_check(fixture.root(), "short", &error);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("{WARNING_AT}: error[unknown-claim]")),
        "{stdout}"
    );
}

#[test]
fn environment_overrides_move_the_contract_role() {
    let fixture = Fixture::new(&contract_book());
    let moved = [(
        "MDBOOK_PREPROCESSOR__CONTRACT__CONTRACT",
        r#"["template.md"]"#,
    )];
    let (code, stdout, stderr) = run_check(fixture.root(), "short", &moved);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_no_panic(&stderr);
    // `contract.md` lost its role: its axis headings are out of place, and no axis exists.
    assert!(
        stdout.contains("src/contract.md:5:1: error[malformed-section]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("src/template.md:7:12: error[unknown-axis]"),
        "{stdout}"
    );

    // A role naming a chapter the book does not have is a finding at the table book.toml
    // would hold it in, which says where the value came from; the rest is still checked.
    let missing = [("MDBOOK_PREPROCESSOR__CONTRACT__CONTRACT", r#"["nope.md"]"#)];
    let (code, stdout, stderr) = run_check(fixture.root(), "short", &missing);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_no_panic(&stderr);
    assert!(
        stdout.contains("book.toml:4:1: error[dangling-path]: `preprocessor.contract.contract[0]` names `nope.md`, which is not a chapter"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{WARNING_AT}: warning[unknown-claim]")),
        "{stdout}"
    );
    let (_, stdout, _) = run_check(fixture.root(), "human", &missing);
    assert!(
        stdout.contains("note: the value is set by the environment variable `MDBOOK_PREPROCESSOR__CONTRACT__CONTRACT`, in place of book.toml's"),
        "{stdout}"
    );

    let wrong = [("MDBOOK_PREPROCESSOR__CONTRACT__CONTRACT", "3")];
    let (code, stdout, stderr) = run_check(fixture.root(), "short", &wrong);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_no_panic(&stderr);
    assert!(
        stdout.contains(
            "book.toml:4:1: error[malformed-config]: `preprocessor.contract.contract` must be"
        ),
        "{stdout}"
    );
}

// 9. check

#[test]
fn check_exit_codes() {
    let clean = Fixture::new(&contract_book());
    let (code, stdout, stderr) = run_check(clean.root(), "human", &[]);
    assert_eq!(code, 0, "warnings only: {stdout}{stderr}");
    assert!(stdout.contains("warning[unknown-claim]"), "{stdout}");
    assert!(stdout.contains(WARNING_AT), "{stdout}");
    assert!(stdout.ends_with("mdbook-contract: 1 warning\n"), "{stdout}");

    let bad = bad_book();
    let (code, stdout, stderr) = run_check(bad.root(), "human", &[]);
    assert_eq!(code, 1, "an error finding: {stdout}{stderr}");
    assert!(stdout.contains(BAD_AT), "{stdout}");
    assert!(
        stdout.ends_with("mdbook-contract: 1 error and 1 warning\n"),
        "{stdout}"
    );

    let empty = tempfile::tempdir().expect("a temporary folder");
    let (code, stdout, stderr) = run_check(empty.path(), "human", &[]);
    assert_eq!(code, 2, "not a book: {stdout}{stderr}");
    assert_no_panic(&stderr);
    assert!(stderr.starts_with("mdbook-contract:"), "{stderr}");
    assert!(stderr.contains("could not load the book"), "{stderr}");
    assert_eq!(stdout, "");

    let (code, _, stderr) = run_cli(
        empty.path(),
        &["check", "does-not-exist", "--format", "short"],
        &[],
    );
    assert_eq!(code, 2, "a folder that does not exist: {stderr}");
    assert_no_panic(&stderr);
    assert!(stderr.contains("does-not-exist"), "{stderr}");
}

#[test]
fn check_paths_follow_the_book_dir_argument() {
    let bad = bad_book();
    // Shown as given, with `/` between its components on every system.
    let root = &mdbook_contract::slashed(bad.root());
    let parent = bad
        .root()
        .parent()
        .expect("the temporary folder has a parent");
    let name = bad
        .root()
        .file_name()
        .expect("a folder name")
        .to_str()
        .expect("UTF-8");
    let (code, stdout, _) = run_cli(parent, &["check", name, "--format", "short"], &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(&format!("{name}/{BAD_AT}: error[unknown-axis]")),
        "{stdout}"
    );
    let (code, stdout, _) = run_cli(parent, &["check", root, "--format", "short"], &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(&format!("{root}/{BAD_AT}: error[unknown-axis]")),
        "{stdout}"
    );
}

#[test]
fn check_formats_show_the_same_finding() {
    let bad = bad_book();

    let (code, short, _) = run_check(bad.root(), "short", &[]);
    assert_eq!(code, 1, "{short}");
    let line = short
        .lines()
        .find(|l| l.contains("unknown-axis"))
        .expect("a short line for the finding");
    assert!(
        line.starts_with(&format!("{BAD_AT}: error[unknown-axis]: ")),
        "{short}"
    );
    assert!(line.contains("nope"), "{line}");
    assert_eq!(
        short.lines().count(),
        3,
        "one line per finding, then the count: {short}"
    );
    assert_eq!(
        short.lines().last(),
        Some("mdbook-contract: 1 error and 1 warning"),
        "{short}"
    );

    let (code, json, _) = run_check(bad.root(), "json", &[]);
    assert_eq!(code, 1, "{json}");
    let findings: Value = serde_json::from_str(&json).expect("--format json prints JSON");
    let findings = findings.as_array().expect("an array of findings");
    assert_eq!(findings.len(), 2, "{json}");
    for finding in findings {
        for key in ["check", "severity", "message", "path", "line", "column"] {
            assert!(finding.get(key).is_some(), "no `{key}` in {finding}");
        }
    }
    let finding = findings
        .iter()
        .find(|f| f["check"] == "unknown-axis")
        .expect("the unknown-axis finding");
    assert_eq!(finding["severity"], "error");
    assert_eq!(finding["path"], "src/extra.md");
    assert_eq!(finding["line"], 3);
    assert_eq!(finding["column"], 13);
    let message = finding["message"].as_str().expect("a message string");
    assert!(
        line.ends_with(message),
        "short and json agree: {line} / {message}"
    );
    let warning = findings
        .iter()
        .find(|f| f["check"] == "unknown-claim")
        .expect("the unknown-claim finding");
    assert_eq!(warning["severity"], "warning");
    assert_eq!(warning["path"], "src/appendix/existing.md");
    assert_eq!(
        (&warning["line"], &warning["column"]),
        (&16.into(), &48.into())
    );

    let (code, github, _) = run_check(bad.root(), "github", &[]);
    assert_eq!(code, 1, "{github}");
    assert_eq!(github.lines().count(), 2, "{github}");
    for line in github.lines() {
        assert!(
            line.starts_with("::error file=") || line.starts_with("::warning file="),
            "{line}"
        );
    }
    assert!(
        github.contains("::error file=src/extra.md,line=3,col=13,"),
        "{github}"
    );
    assert!(
        github.contains("::warning file=src/appendix/existing.md,line=16,col=48,"),
        "{github}"
    );
    assert!(
        github.contains("title=mdbook-contract unknown-axis::"),
        "{github}"
    );
}

// 10. a real build with two renderers

/// A book.toml with the html and markdown renderers and this preprocessor run through `sh`, its
/// standard error appended to `log`.
///
/// mdBook appends `supports RENDERER` to the command for the supports check, so the script
/// passes its arguments on with `"$@"` (`sh` is its `$0`); without them the binary would read an
/// empty stdin, fail, and mdBook would skip it silently.
fn two_renderer_toml(log: &Path) -> String {
    format!(
        "[book]\ntitle = \"Two renderers\"\n\n\
         [output.html]\n\n\
         [output.markdown]\n\n\
         [preprocessor.contract]\n\
         command = \"sh -c 'exec {} \\\"$@\\\" 2>>{}' sh\"\n\
         after = [\"links\"]\n\
         contract = [\"contract.md\"]\n\
         template = [\"template.md\"]\n",
        binary(),
        log.display()
    )
}

#[cfg(unix)]
#[test]
fn a_build_with_two_renderers_prints_findings_once() {
    let logs = tempfile::tempdir().expect("a temporary folder");
    let log = logs.path().join("stderr.log");
    let toml = two_renderer_toml(&log);
    let mut files = contract_book();
    files.push(("book.toml", &toml));
    let fixture = Fixture::new(&files);

    let md = mdbook_driver::MDBook::load(fixture.root()).expect("the book loads");
    md.build().expect("a book with warnings only builds");

    let out = fixture.root().join("book");
    let markdown = std::fs::read_to_string(out.join("markdown/appendix/existing.md"))
        .expect("the markdown renderer wrote the appendix");
    assert!(
        markdown.contains("[`readiness`](../contract.md#readiness)"),
        "the preprocessor ran for markdown: {markdown}"
    );
    assert!(!markdown.contains("{{#"), "{markdown}");
    let html = std::fs::read_to_string(out.join("html/appendix/existing.html"))
        .expect("the html renderer wrote the appendix");
    assert!(
        html.contains("../contract.html#readiness"),
        "the preprocessor ran for html"
    );
    assert!(!html.contains("{{#"));

    let log = std::fs::read_to_string(&log).expect("the preprocessor wrote its stderr log");
    assert_eq!(count(&log, "warning[unknown-claim]"), 1, "{log}");
    assert_eq!(count(&log, WARNING_AT), 1, "{log}");
    assert_eq!(count(&log, WARNING_COUNT), 1, "{log}");
    assert_no_panic(&log);
}

#[cfg(unix)]
#[test]
fn a_build_with_an_error_finding_fails() {
    let logs = tempfile::tempdir().expect("a temporary folder");
    let log = logs.path().join("stderr.log");
    let toml = two_renderer_toml(&log);
    let mut files = contract_book();
    files.push(("src/extra.md", BAD_CHAPTER));
    files.push(("book.toml", &toml));
    let fixture = Fixture::new(&files);

    let md = mdbook_driver::MDBook::load(fixture.root()).expect("the book loads");
    let error = md.build().expect_err("an error finding fails the build");
    let error = format!("{error:#}");
    assert!(error.contains("\"contract\" preprocessor"), "{error}");

    let log = std::fs::read_to_string(&log).expect("the preprocessor wrote its stderr log");
    assert_eq!(count(&log, "error[unknown-axis]"), 1, "{log}");
    assert!(log.contains(BAD_AT), "{log}");
    assert!(
        log.contains("mdbook-contract: 1 error and 1 warning"),
        "{log}"
    );
    assert_no_panic(&log);
}

/// Run by hand on a terminal, the bare command says what it is for instead of waiting for
/// input that never comes. `script` (util-linux) gives it a terminal for standard input; the
/// BSD `script` of macOS takes other arguments.
#[cfg(target_os = "linux")]
#[test]
fn the_bare_command_on_a_terminal_says_what_it_expects() {
    let output = std::process::Command::new("script")
        .args(["-qec", binary(), "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("`script` from util-linux runs the binary on a terminal");
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(
        text.contains("reads the book as JSON from mdBook"),
        "{text}"
    );
    assert!(text.contains("mdbook-contract check"), "{text}");
}
