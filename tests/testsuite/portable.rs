//! One book, the same answers on every system: every path the tool prints or records is
//! written with `/` (a chapter in a folder is `src/guide/a.md` in JSON, the export, `status`,
//! the MCP server and GitHub annotations), CRLF line ends and a byte order mark (as Windows
//! editors write them) change nothing, a name with a space or letters beyond ASCII is read and
//! encoded where a URI needs it, and a path printed for book.toml is quoted as TOML. These run
//! on Linux too; the CI's Windows and macOS jobs run them where the differences are.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::{CONTRACT, Fixture, git, run_in};

const TOML: &str = r#"[book]
title = "Portable"

[preprocessor.contract]
after = ["links"]
contract = ["contract.md"]
template = ["template.md"]
specs = ["guide/a.md"]
"#;

const SUMMARY: &str =
    "# Summary\n\n- [Contract](contract.md)\n- [Template](template.md)\n- [Nova](guide/a.md)\n";

const TEMPLATE: &str = "# Adapter spec template\n\n## Readiness\n\n{{#answers readiness}}\n\n**Answer:**\n\n**Evidence:**\n\n## Create\n\n{{#answers create-return}}\n\n**Answer:**\n\n**Evidence:**\n";

/// The spec, in a folder, with an em-dash (an error) on its line 11.
const SPEC: &str = "# `nova` adapter spec {.provider .proposed}\n\n**Status:** draft\n\n## Readiness\n\n{{#answers readiness}}\n\n**Answer:** Ready at once: {{#profile readiness immediate}}.\n\n**Evidence:** `nova.Boot` returns once it runs \u{2014} it says so.\n\n## Create\n\n{{#answers create-return}}\n\n**Answer:**\n\n**Evidence:**\n";

/// Rules whose text runs over two lines, where a line end is inside the text a diff compares.
const RULES: &str = "\n## Rules\n\nr[create.idempotent]\nCreate MUST be idempotent,\nbecause `reconcileManaged` retries it.\n\nr[list.order]\nListByTag MAY sort its answer\nfor the sweeper.\n";

fn files() -> Vec<(&'static str, String)> {
    vec![
        ("book.toml", TOML.to_owned()),
        ("src/SUMMARY.md", SUMMARY.to_owned()),
        ("src/contract.md", format!("{CONTRACT}{RULES}")),
        ("src/template.md", TEMPLATE.to_owned()),
        ("src/guide/a.md", SPEC.to_owned()),
    ]
}

/// The book written under `dir`.
fn write_book(dir: &Path) {
    crate::common::write_files(dir, &files());
}

fn book() -> Fixture {
    let files = files();
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    Fixture::new(&borrowed)
}

/// Every Markdown file under `dir` rewritten with CRLF line ends, as a Windows checkout has
/// them.
fn to_crlf(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            to_crlf(&path);
        } else if path.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&path).unwrap();
            std::fs::write(&path, text.replace('\n', "\r\n")).unwrap();
        }
    }
}

fn em_dash_paths(json: &Value) -> Vec<&str> {
    json.as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "em-dash")
        .map(|f| f["path"].as_str().unwrap())
        .collect()
}

#[test]
fn a_chapter_in_a_folder_is_the_same_path_in_every_output() {
    let book = book();
    let root = book.root();
    let (code, stdout, stderr) = run_in(root, &["check", "--format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    let json: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(em_dash_paths(&json), ["src/guide/a.md"], "{stdout}");
    let (_, short, _) = run_in(root, &["check", "--format", "short"]);
    assert!(short.contains("src/guide/a.md:11:"), "{short}");

    let (code, export, _) = run_in(root, &["export"]);
    assert_eq!(code, 0);
    let export: Value = serde_json::from_str(&export).unwrap();
    assert_eq!(em_dash_paths(&export["findings"]), ["src/guide/a.md"]);
    assert_eq!(export["specs"][0]["place"]["path"], "src/guide/a.md");

    let (code, status, _) = run_in(root, &["status", "--format", "json"]);
    assert_eq!(code, 0);
    let status: Value = serde_json::from_str(&status).unwrap();
    assert_eq!(status["specs"][0]["path"], "src/guide/a.md", "{status}");
    assert_eq!(status["specs"][0]["open"][0]["path"], "src/guide/a.md");

    let mut session = super::mcp::Session::start(root);
    let checked = session.answer("contract_check", json!({ "path": "guide/a.md" }));
    let found = checked["findings"].as_array().unwrap();
    assert!(!found.is_empty(), "{checked}");
    assert!(
        found.iter().all(|f| f["path"] == "src/guide/a.md"),
        "{checked}"
    );

    // A claim changed in the working tree: the annotation is at the spec's file.
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "base"]);
    let spec = root.join("src/guide/a.md");
    std::fs::write(
        &spec,
        SPEC.replace("readiness immediate", "readiness provisioning-window"),
    )
    .unwrap();
    let (_, github, stderr) = run_in(root, &["diff", "HEAD", "--format", "github"]);
    assert!(
        github.contains("file=src/guide/a.md,line="),
        "{github}{stderr}"
    );
    let (_, diff, _) = run_in(root, &["diff", "HEAD", "--format", "json"]);
    // No backslash as a separator, nor one escaped in JSON.
    for output in [&short, &github] {
        assert!(!output.contains('\\'), "{output}");
    }
    for json in [&stdout, &diff] {
        assert!(!json.contains("\\\\"), "{json}");
    }
}

#[test]
fn a_windows_checkout_with_crlf_line_ends_changes_no_rule() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_book(root);
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "base"]);
    to_crlf(root);
    let (code, stdout, stderr) = run_in(root, &["diff", "HEAD", "--fail-on", "patch"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("no changes to the contract between `HEAD` and the working tree"),
        "{stdout}"
    );
}

#[test]
fn the_export_of_a_crlf_copy_equals_the_export_of_the_book() {
    let lf = book();
    let crlf = book();
    to_crlf(crlf.root());
    let (code, with_lf, stderr) = run_in(lf.root(), &["export"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, with_crlf, stderr) = run_in(crlf.root(), &["export"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!with_crlf.contains("\\r"), "{with_crlf}");
    assert_eq!(with_lf, with_crlf);
}

#[test]
fn a_book_under_a_folder_with_a_space_and_an_accent_is_checked_and_served() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("a b").join("café");
    write_book(&root);
    let (code, stdout, stderr) = run_in(dir.path(), &["check", "a b/café", "--format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    let json: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(em_dash_paths(&json), ["a b/café/src/guide/a.md"]);

    // The editor's server publishes at the very URI the editor opened the document with,
    // here with its percent-encoding in lower case (a client may compare URIs as text).
    let spec = root.join("src/guide/a.md");
    let uri = super::lsp::uri(&spec);
    assert!(uri.contains("/a%20b/caf%C3%A9/src/guide/a.md"), "{uri}");
    let sent = uri.replace("%C3%A9", "%c3%a9");
    let mut client = super::lsp::Client::start(&root, None);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": sent, "languageId": "markdown", "version": 1, "text": SPEC}}),
    );
    let list = client.wait(&sent, |l| l.iter().any(|d| d["code"] == "em-dash"));
    assert_eq!(list.iter().filter(|d| d["code"] == "em-dash").count(), 1);
    // What was published before the document was opened, at the URI `url` writes, is taken
    // back there (in the same batch, published first).
    assert!(
        client.diagnostics.get(&uri).is_none_or(|l| l.is_empty()),
        "{:?}",
        client.diagnostics.keys()
    );
    client.stop();
}

#[test]
fn sarif_names_an_absolute_path_with_a_file_url() {
    // Outside a git work tree, with the book given absolute, paths are absolute.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("a b").join("café");
    write_book(&root);
    let (code, stdout, stderr) = crate::common::run_in_with(
        dir.path(),
        &["check", root.to_str().unwrap(), "--format", "sarif"],
        &[("GIT_CEILING_DIRECTORIES", dir.path().to_str().unwrap())],
    );
    assert_eq!(code, 1, "{stderr}");
    let sarif: Value = serde_json::from_str(&stdout).unwrap();
    let uris: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    let spec = lsp_types::Url::from_file_path(root.join("src/guide/a.md")).unwrap();
    assert!(uris.contains(&spec.as_str()), "{uris:?}");
    assert!(
        uris.iter()
            .all(|u| u.starts_with("file:///") && u.contains("/a%20b/caf%C3%A9/")),
        "{uris:?}"
    );
}

/// The `baseline = ...` line `--write-baseline` tells the user to write, read as TOML.
fn advised_baseline(stdout: &str) -> String {
    let line = stdout
        .split('`')
        .find(|part| part.starts_with("baseline = "))
        .unwrap_or_else(|| panic!("no setting in {stdout}"));
    let toml: toml_edit::DocumentMut = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
    toml["baseline"].as_str().unwrap().to_owned()
}

#[test]
fn the_baseline_setting_printed_is_toml_that_names_the_file() {
    let book = book();
    std::fs::create_dir(book.root().join("notes")).unwrap();
    let (code, stdout, stderr) = run_in(
        book.root(),
        &["check", "--write-baseline", "notes/known.txt"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(advised_baseline(&stdout), "notes/known.txt");
    // From a folder beside the book: relative to the book, climbing out of it.
    let (code, stdout, stderr) = run_in(
        book.root().join("notes").as_path(),
        &["check", "..", "--write-baseline", "../known.txt"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(advised_baseline(&stdout), "known.txt");
}

/// A backslash is a character of a file name on Unix (on Windows it is a separator).
#[cfg(unix)]
#[test]
fn a_backslash_in_the_baseline_name_is_quoted() {
    let book = book();
    let (code, stdout, stderr) =
        run_in(book.root(), &["check", "--write-baseline", "odd\\name.txt"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(book.root().join("odd\\name.txt").is_file());
    assert_eq!(advised_baseline(&stdout), "odd\\name.txt");
}

#[test]
fn a_baseline_saved_with_a_byte_order_mark_is_read() {
    let book = book();
    let (code, _, stderr) = run_in(book.root(), &["check", "--write-baseline", "known.txt"]);
    assert_eq!(code, 0, "{stderr}");
    let file = book.root().join("known.txt");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("\u{feff}{}", text.replace('\n', "\r\n"))).unwrap();
    let (code, short, _) = run_in(
        book.root(),
        &["check", "--baseline", "known.txt", "--format", "short"],
    );
    assert_eq!(code, 0, "{short}");
    assert!(short.contains("known findings from known.txt"), "{short}");
}

#[test]
fn a_template_with_a_byte_order_mark_names_the_new_spec_in_its_words() {
    let book = book();
    let template = book.root().join("src/template.md");
    std::fs::write(&template, format!("\u{feff}{TEMPLATE}")).unwrap();
    let (code, stdout, stderr) = run_in(book.root(), &["new-spec", "orbit"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("orbit-adapter-spec.md"), "{stdout}");
    let written = std::fs::read_to_string(book.root().join("src/orbit-adapter-spec.md")).unwrap();
    assert!(!written.contains('\u{feff}'), "{written}");
}

#[test]
fn a_file_outside_the_book_with_a_byte_order_mark_keeps_its_first_heading() {
    let book = book();
    let root = book.root();
    let toml = std::fs::read_to_string(root.join("book.toml")).unwrap();
    std::fs::write(
        root.join("book.toml"),
        format!("{toml}companions = [\"NOTES.md\"]\n"),
    )
    .unwrap();
    std::fs::write(
        root.join("NOTES.md"),
        "# Notes\n\nSee [the title](README.md#title).\n",
    )
    .unwrap();
    std::fs::write(root.join("README.md"), "\u{feff}# Title\n\nText.\n").unwrap();
    let (_, stdout, _) = run_in(root, &["check", "--format", "json"]);
    let json: Value = serde_json::from_str(&stdout).unwrap();
    let links: Vec<&Value> = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "dangling-link")
        .collect();
    assert!(links.is_empty(), "{links:?}");
}

#[test]
fn an_old_document_with_a_byte_order_mark_keeps_its_first_section() {
    let book = book();
    std::fs::write(
        book.root().join("old.md"),
        "\u{feff}# Gaps\n\n- A call to `orbit.Launch` nobody wrote.\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run_in(
        book.root(),
        &["carried-over", "old.md", "--section", "Gaps"],
    );
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.starts_with("old.md:3: not in the book: `orbit.Launch`"),
        "{stdout}"
    );
}

#[test]
fn a_link_that_leaves_the_book_is_shown_from_the_book_root() {
    let book = book();
    let root = book.root();
    let toml = std::fs::read_to_string(root.join("book.toml")).unwrap();
    std::fs::write(
        root.join("book.toml"),
        format!("{toml}source-root = \".\"\n"),
    )
    .unwrap();
    let spec = SPEC.replace("it says so.", "it says so, [there](../../../gone/x.md).");
    std::fs::write(root.join("src/guide/a.md"), spec).unwrap();
    let (_, short, _) = run_in(root, &["check", "--format", "short"]);
    let line = short
        .lines()
        .find(|l| l.contains("dangling-link"))
        .unwrap_or_else(|| panic!("{short}"));
    assert!(
        line.ends_with("leaves the book and does not exist (`../gone/x.md`)"),
        "{line}"
    );
}

#[test]
fn test_results_named_from_another_folder_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("book");
    write_book(&root);
    // Results are read for the rules' coverage, which needs the source tree.
    let toml = std::fs::read_to_string(root.join("book.toml")).unwrap();
    std::fs::write(
        root.join("book.toml"),
        format!("{toml}source-root = \".\"\n"),
    )
    .unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(
        out.join("junit.xml"),
        "<testsuite name=\"s\" tests=\"1\"><testcase name=\"t\" classname=\"c\"/></testsuite>\n",
    )
    .unwrap();
    // Run from the folder beside the book, the pattern absolute and relative.
    let absolute = out.join("*.xml");
    for pattern in [absolute.to_str().unwrap(), "out/*.xml"] {
        let (code, stdout, stderr) = run_in(
            dir.path(),
            &[
                "status",
                "book",
                "--format",
                "json",
                "--test-results",
                pattern,
            ],
        );
        assert_eq!(code, 0, "{stderr}");
        let status: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(status["results_problems"], json!([]), "{pattern}: {stdout}");
        assert_eq!(
            status["results"].as_array().map(Vec::len),
            Some(1),
            "{stdout}"
        );
    }
}

/// On Windows the program is `mdbook-contract.exe`; its help says the name a user types.
#[cfg(unix)]
#[test]
fn the_help_names_the_command_whatever_the_file_is_called() {
    let dir = tempfile::tempdir().unwrap();
    let renamed = dir.path().join("mdbook-contract.exe");
    std::os::unix::fs::symlink(crate::common::binary(), &renamed).unwrap();
    let output = std::process::Command::new(&renamed)
        .args(["check", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(
        help.contains("Usage: mdbook-contract check [OPTIONS] [BOOK_DIR]"),
        "{help}"
    );
}
