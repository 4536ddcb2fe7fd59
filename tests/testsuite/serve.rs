//! Serve safety: what `mdbook serve` relies on.
//!
//! `mdbook serve` rebuilds on every change under `src`, so a preprocessor that wrote there would
//! rebuild forever, and one whose output varied between identical builds would reload pages
//! for nothing. A failed rebuild keeps the last good HTML and sends no reload, so under serve an
//! error must not fail the run. The file proves that
//!
//! - two in-process builds (mdbook-driver with this preprocessor) leave every file of the book
//!   byte for byte as it was, write nothing beside them, and write identical output;
//! - under serve (the context carries `output.html.live-reload-endpoint`, as `mdbook serve`
//!   sets it), a book with an error finding exits 0 through the protocol, standard error still
//!   shows the finding, the affected chapter starts with the findings panel, and an unaffected
//!   chapter is unchanged; an in-process serve build succeeds and renders the panel in HTML.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Fixture, binary, contract_book};
use mdbook_driver::MDBook;
use mdbook_preprocessor::book::Book;
use serde_json::Value;

/// A chapter with an error finding: `nope` is not an axis (line 3, column 13).
const BAD_CHAPTER: &str = "# Extra\n\nSee {{#axis nope}} for more.\n";

/// Where its finding is.
const BAD_AT: &str = "src/extra.md:3:13";

/// A chapter with nothing to render and nothing to report.
const PLAIN_CHAPTER: &str =
    "# Plain\r\n\r\nNo shortcodes, CRLF, a tab\there, `{{#axis x}}` in code.\r\n";

/// The first bytes of the findings panel (`src/serve.rs`).
const PANEL: &str = "<div class=\"mdbook-contract-findings\"";

/// Every file under `dir` (recursively, not following symlinks) with its bytes, keyed by path
/// relative to `dir`; folders named in `skip` (at the top) are left out.
fn snapshot(dir: &Path, skip: &[&str]) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, skip: &[&str], out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let entry = entry.expect("a folder entry");
            let path = entry.path();
            let relative = path.strip_prefix(root).expect("under the root").to_owned();
            if skip.iter().any(|s| relative == Path::new(s)) {
                continue;
            }
            let kind = entry.file_type().expect("a file type");
            if kind.is_dir() {
                walk(root, &path, skip, out);
            } else {
                out.insert(relative, std::fs::read(&path).expect("a readable file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, skip, &mut out);
    out
}

/// Builds the book at `root` in-process with this preprocessor into `root/<out>`; `serving`
/// sets the live-reload endpoint as `mdbook serve` does.
fn build(root: &Path, out: &str, serving: bool) -> anyhow::Result<PathBuf> {
    let mut md = MDBook::load(root).expect("the book loads");
    md.with_preprocessor(mdbook_contract::ContractPreprocessor::new());
    let dir = root.join(out);
    md.config.build.build_dir = dir.clone();
    if serving {
        md.config
            .set("output.html.live-reload-endpoint", "__livereload")
            .expect("the key is set");
    }
    md.build().map(|()| dir)
}

/// The contract book with an include, escapes, a plain chapter and, if `bad`, an error finding.
fn serve_book(bad: bool) -> Fixture {
    let mut files = contract_book();
    files.push((
        "src/includes.md",
        "# Includes\n\n{{#include parts/part.md}}\n\nEscaped: \\{{#axis readiness}} and \\{{#axis x}}.\n",
    ));
    files.push((
        "src/parts/part.md",
        "Included text that links {{#axis create-return}}.\n",
    ));
    files.push(("src/plain.md", PLAIN_CHAPTER));
    if bad {
        files.push(("src/extra.md", BAD_CHAPTER));
    }
    // `parts/part.md` is only included, not a chapter of its own.
    let summary = "# Summary\n\n- [Contract](contract.md)\n- [Template](template.md)\n\
                   - [Existing](appendix/existing.md)\n- [Includes](includes.md)\n\
                   - [Plain](plain.md)\n";
    let summary = if bad {
        format!("{summary}- [Extra](extra.md)\n")
    } else {
        summary.to_owned()
    };
    files.push(("src/SUMMARY.md", &summary));
    Fixture::new(&files)
}

#[test]
fn two_builds_write_nothing_under_src_and_the_same_output() {
    let fixture = serve_book(false);
    let root = fixture.root();
    let before = snapshot(root, &[]);
    assert!(before.contains_key(Path::new("src/parts/part.md")));

    let first = build(root, "out1", false).expect("the first build succeeds");
    let after_first = snapshot(root, &["out1"]);
    let second = build(root, "out2", false).expect("the second build succeeds");
    let after_second = snapshot(root, &["out1", "out2"]);
    assert!(
        before == after_first && before == after_second,
        "the builds changed or added files beside the output: {:?}",
        after_second.keys().collect::<Vec<_>>()
    );

    let (one, two) = (snapshot(&first, &[]), snapshot(&second, &[]));
    assert!(
        one.contains_key(Path::new("includes.html")),
        "{:?}",
        one.keys()
    );
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        two.keys().collect::<Vec<_>>(),
        "the same output files"
    );
    let differing: Vec<&PathBuf> = one
        .iter()
        .filter(|(path, bytes)| two.get(*path) != Some(bytes))
        .map(|(path, _)| path)
        .collect();
    assert!(differing.is_empty(), "output files differ: {differing:?}");

    // The output is the preprocessed book: the include's shortcode rendered, the escapes shown.
    let html = String::from_utf8(one[Path::new("includes.html")].clone()).expect("UTF-8 HTML");
    assert!(html.contains("contract.html#create-return"), "{html}");
    assert!(
        html.contains("{{#axis readiness}}"),
        "the escape is shown as written"
    );
}

#[test]
fn a_serve_build_succeeds_with_errors_and_writes_nothing_under_src() {
    let fixture = serve_book(true);
    let root = fixture.root();
    let before = snapshot(root, &[]);
    // Without serve, the error fails the build.
    let error = build(root, "failed", false).expect_err("an error finding fails `mdbook build`");
    assert!(format!("{error:#}").contains("contract"), "{error:#}");

    let out = build(root, "served", true).expect("under serve, the build succeeds");
    assert_eq!(before, snapshot(root, &["failed", "served"]));
    let extra = std::fs::read_to_string(out.join("extra.html")).expect("the page is rendered");
    assert!(extra.contains("mdbook-contract-findings"), "{extra}");
    assert!(extra.contains(BAD_AT), "the panel names the place: {extra}");
    let plain = std::fs::read_to_string(out.join("plain.html")).expect("the page is rendered");
    assert!(!plain.contains("mdbook-contract-findings"), "{plain}");
}

/// Runs the binary through the protocol on `input`; returns the exit code, stdout and stderr.
fn run_protocol(input: &[u8]) -> (i32, String, String) {
    crate::common::run_binary(Command::new(binary()).env("NO_COLOR", "1"), input)
}

/// The content of the chapter read from `src/<path>`.
fn content_of(book: &Book, path: &str) -> String {
    book.chapters()
        .find(|c| {
            c.source_path
                .as_ref()
                .is_some_and(|p| p.to_string_lossy() == path)
        })
        .map(|c| c.content.clone())
        .unwrap_or_else(|| panic!("the book has a chapter `{path}`"))
}

#[test]
fn under_serve_an_error_is_shown_on_the_page_and_the_run_succeeds() {
    let fixture = serve_book(true);
    let (ctx, input_book) =
        mdbook_contract::load(fixture.root(), "html").expect("the fixture loads");
    let mut input = serde_json::to_value((&ctx, &input_book)).expect("the input serialises");

    // Without serve: the error fails the run (the control for what follows).
    let (code, stdout, stderr) = run_protocol(&serde_json::to_vec(&input).expect("JSON"));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout, "");

    input[0]["config"]["output"]["html"]["live-reload-endpoint"] = Value::from("__livereload");
    let (code, stdout, stderr) = run_protocol(&serde_json::to_vec(&input).expect("JSON"));
    assert_eq!(code, 0, "serve does not fail on errors: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("error[unknown-axis]"), "{stderr}");
    assert!(
        stderr.contains(BAD_AT),
        "the terminal still shows it: {stderr}"
    );
    assert!(
        stderr.ends_with("mdbook-contract: 1 error and 1 warning\n"),
        "{stderr}"
    );
    let output: Book = serde_json::from_str(&stdout).expect("stdout is a book");

    // The affected chapter: the panel first, then the chapter as written.
    let extra = content_of(&output, "extra.md");
    assert!(extra.starts_with(PANEL), "{extra}");
    let end = extra.find("</div>\n\n").expect("the panel closes") + "</div>\n\n".len();
    let panel = &extra[..end];
    assert!(panel.contains(&format!("<code>{BAD_AT}</code>")), "{panel}");
    assert!(panel.contains("error[unknown-axis]"), "{panel}");
    assert!(panel.contains("1 error"), "{panel}");
    // An error in full: code in its message as code, and what to do about it.
    assert!(
        panel.contains("no axis <code>nope</code> is defined"),
        "code, not backticks: {panel}"
    );
    assert!(panel.contains("<em>help:</em>"), "{panel}");
    assert!(!panel.contains("<details>"), "no warnings here: {panel}");
    assert!(
        extra[end..].starts_with("# Extra\n\nSee "),
        "the chapter follows the panel: {extra}"
    );
    // The warning's chapter gets a panel too, of warnings only.
    let appendix = content_of(&output, "appendix/existing.md");
    assert!(appendix.starts_with(PANEL), "{appendix}");
    assert!(appendix.contains("1 warning"), "{appendix}");
    // Warnings are folded away, so that a page with many of them is not pushed down.
    assert!(
        appendix.contains("<details>\n<summary>1 warning</summary>\n<ul>\n<li>"),
        "{appendix}"
    );

    // Unaffected chapters: unchanged, or changed only where their shortcodes were.
    assert_eq!(content_of(&output, "plain.md"), PLAIN_CHAPTER);
    assert_eq!(
        content_of(&output, "plain.md"),
        content_of(&input_book, "plain.md")
    );
    for path in ["contract.md", "template.md", "includes.md"] {
        let content = content_of(&output, path);
        assert!(!content.contains(PANEL), "{path}: {content}");
        assert!(!content.contains("{{#axis create-return}}"), "{path}");
    }
    let contract = content_of(&output, "contract.md");
    assert!(
        contract.starts_with("# Contract\n\n## Axes\n"),
        "{contract}"
    );
}

#[test]
fn under_serve_the_baseline_counts_as_it_does_for_a_build() {
    // Every finding recorded: a build says "no findings", and so must the served pages.
    let fixture = serve_book(true);
    let (code, _, stderr) = crate::common::run_in(
        fixture.root(),
        &["check", "--write-baseline", "contract-baseline.txt"],
    );
    assert_eq!(code, 0, "{stderr}");
    let toml = std::fs::read_to_string(fixture.root().join("book.toml")).unwrap();
    std::fs::write(
        fixture.root().join("book.toml"),
        toml.replace(
            "[preprocessor.contract]\n",
            "[preprocessor.contract]\nbaseline = \"contract-baseline.txt\"\n",
        ),
    )
    .unwrap();
    let (ctx, input_book) =
        mdbook_contract::load(fixture.root(), "html").expect("the fixture loads");
    let mut input = serde_json::to_value((&ctx, &input_book)).expect("the input serialises");
    input[0]["config"]["output"]["html"]["live-reload-endpoint"] = Value::from("__livereload");
    let (code, stdout, stderr) = run_protocol(&serde_json::to_vec(&input).expect("JSON"));
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
    let output: Book = serde_json::from_str(&stdout).expect("stdout is a book");
    for path in ["extra.md", "appendix/existing.md"] {
        assert!(
            !content_of(&output, path).contains("mdbook-contract-findings"),
            "{path}: no panel for known findings"
        );
    }
}
