//! Someone else's data, someone else's book. Test names, failure messages and file names from
//! a report or a tree never become markup in a page, a job summary or an annotation; opening a
//! book in an editor, an agent or `diff` runs none of its commands without `--allow-commands`;
//! no write follows a symlink or a crafted git tree out of the book; no configured file is read
//! outside the repository; a report of any size costs a bounded page, output and memory.
//!
//! The pages are built by real mdBook code (mdbook-driver); what a browser makes of them is
//! checked in headless Chromium by `in_chromium_no_script_of_the_data_runs` (ignored by a plain
//! `cargo test`: `.ci/run` installs Chromium and runs it).

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::common::{Fixture, git, run_in};
use crate::runners::storage;
use mdbook_contract::fuzzing::pulldown_cmark;

/// What a report and a file name bring: a heading with attributes after two line breaks (the
/// end of an HTML block), a live link, an image with a handler, a directive.
const HEADING: &str = "\n\n# x {#x tabindex=0 autofocus onfocus=alert(1)}\n";
const MESSAGE: &str = "half-written \u{1b}[2J\u{1b}[31m <img src=x onerror=alert(3)> [click me](javascript:alert(2)) ![](https://example.com/x.png) {{#include /etc/hostname}}";

/// The pytest storage book with a second report whose failed case's name and message carry
/// markup, a `go test -json`-style name in it too, and a test file whose name holds it.
fn hostile_book() -> Fixture {
    let book = storage("pytest", "providers", "azure_blob", &["pytest-junit.xml"]);
    let name = format!("test_put_atomic[gcs-{}]", attribute(HEADING));
    let report = format!(
        "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"pytest\" timestamp=\"2026-12-07T10:00:00Z\">\n<testcase classname=\"conformance.test_conformance\" name=\"{name}\"><failure message=\"{}\">trace</failure></testcase>\n<testcase classname=\"conformance.test_conformance\" name=\"test_get_missing[{}]\"><failure message=\"x\">y</failure></testcase>\n</testsuite></testsuites>\n",
        attribute(MESSAGE),
        attribute(&format!("beta{HEADING}")),
    );
    std::fs::write(book.root().join("results/hostile.xml"), report).unwrap();
    reading_also(&book, Some("hostile.xml"));
    #[cfg(unix)]
    {
        let evil = book
            .root()
            .join(format!("code/conformance/evil{HEADING}_test.py"));
        std::fs::write(evil, "# r[verify put.atomic]\ndef test_evil():\n    pass\n").unwrap();
    }
    book
}

/// `text` as an XML attribute value.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\n', "&#10;")
}

/// What in the `<main>` of `html` is markup no data may make: an element with an `on*` or
/// `autofocus` attribute, a `javascript:` or remote link or image, an `<img>`, a heading with
/// the data's id. Attributes are read as a browser reads them (quoted values are values).
fn markup_from_data(html: &str) -> Vec<String> {
    let mut bad = Vec::new();
    for (name, attributes) in tags_of_main(html) {
        let heading_of_data = name.len() == 2
            && name.starts_with('h')
            && attributes
                .iter()
                .any(|(k, v)| k == "id" && ["x", "y", "z"].contains(&v.as_str()));
        let handler = attributes
            .iter()
            .any(|(k, _)| k.starts_with("on") || k == "autofocus");
        let link = attributes.iter().any(|(k, v)| {
            (k == "href" || k == "src")
                && (v
                    .trim_start()
                    .to_ascii_lowercase()
                    .starts_with("javascript:")
                    || v.contains("example.com"))
        });
        if name == "img" || heading_of_data || handler || link {
            bad.push(format!("<{name} {attributes:?}>"));
        }
    }
    bad
}

/// Every element of the `<main>` of `html` (all of it without one), as its lower-case name and
/// attributes, read as a browser reads them (quoted values are values).
fn tags_of_main(html: &str) -> Vec<(String, Vec<(String, String)>)> {
    let main = html
        .split_once("<main>")
        .and_then(|(_, rest)| rest.split_once("</main>"))
        .map_or(html, |(main, _)| main);
    let mut out = Vec::new();
    let mut rest = main;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if name.is_empty() {
            continue;
        }
        let (attributes, after) = attributes(&rest[name.len()..]);
        rest = after;
        out.push((name.to_ascii_lowercase(), attributes));
    }
    out
}

/// The attributes of a tag whose name was read, as `(name, value)`, and the text after it.
fn attributes(mut text: &str) -> (Vec<(String, String)>, &str) {
    let mut out = Vec::new();
    loop {
        text = text.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        if text.is_empty() || text.starts_with('>') {
            return (out, text.get(1..).unwrap_or(""));
        }
        let end = text
            .find(|c: char| c.is_whitespace() || c == '=' || c == '>' || c == '/')
            .unwrap_or(text.len());
        let key = text[..end].to_ascii_lowercase();
        text = text[end..].trim_start();
        let mut value = String::new();
        if let Some(after) = text.strip_prefix('=') {
            let after = after.trim_start();
            let (v, rest) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let body = &after[1..];
                    let close = body.find(q).unwrap_or(body.len());
                    (&body[..close], body.get(close + 1..).unwrap_or(""))
                }
                _ => {
                    let close = after
                        .find(|c: char| c.is_whitespace() || c == '>')
                        .unwrap_or(after.len());
                    (&after[..close], &after[close..])
                }
            };
            value = v.to_owned();
            text = rest;
        }
        out.push((key, value));
    }
}

/// Adds the report `extra` (under `results/`) to the book's `test-results`, and makes a failed
/// rule a warning, so that the pages are built.
fn reading_also(book: &Fixture, extra: Option<&str>) {
    let toml = book.root().join("book.toml");
    let mut text = std::fs::read_to_string(&toml).unwrap().replace(
        "must-cite = \"off\"",
        "must-cite = \"off\"\nfailing-rule = \"warning\"",
    );
    if let Some(extra) = extra {
        // After the reports already named, in their order.
        let list = text.find("test-results = [").unwrap();
        let close = list + text[list..].find(']').unwrap();
        text.insert_str(close, &format!(", \"results/{extra}\""));
    }
    std::fs::write(&toml, text).unwrap();
}

/// Asserts that no page under `out` holds markup from data, and that one shows `shown` as
/// text (the test is not vacuous).
fn assert_data_is_text(out: &Path, shown: &str) {
    let mut seen = false;
    for page in pages(out) {
        let html = std::fs::read_to_string(&page).unwrap();
        let bad = markup_from_data(&html);
        assert!(bad.is_empty(), "{}: {bad:?}", page.display());
        seen |= html.contains(shown);
    }
    assert!(seen, "`{shown}` is shown nowhere");
}

/// Every HTML page under `out`.
fn pages(out: &Path) -> Vec<PathBuf> {
    crate::common::files(out)
        .into_iter()
        .filter(|f| f.ends_with(".html"))
        .map(|f| out.join(f))
        .collect()
}

#[test]
fn data_from_reports_and_file_names_never_becomes_markup_in_a_page() {
    let book = hostile_book();
    let (_, out) = book.build();
    assert_data_is_text(&out, "tabindex=0 autofocus onfocus=alert(1)");
    let appendix = std::fs::read_to_string(out.join("providers.html")).unwrap();
    assert!(
        appendix.contains("&#10;&#10;# x &#123;#x") || appendix.contains("\n\n# x {#x"),
        "the name's line breaks are kept as text"
    );
}

#[test]
fn the_serve_panel_keeps_data_as_text() {
    let book = hostile_book();
    let mut md = mdbook_driver::MDBook::load(book.root()).unwrap();
    md.with_preprocessor(mdbook_contract::ContractPreprocessor::new());
    let out = book.root().join("served");
    md.config.build.build_dir = out.clone();
    md.config
        .set("output.html.live-reload-endpoint", "__livereload")
        .unwrap();
    md.build().expect("serving builds with findings");
    let mut panels = 0;
    for page in pages(&out) {
        let html = std::fs::read_to_string(&page).unwrap();
        panels += html.matches("mdbook-contract-findings").count();
        let bad = markup_from_data(&html);
        assert!(bad.is_empty(), "{}: {bad:?}", page.display());
    }
    assert!(panels > 0, "no page shows its findings");
}

#[test]
fn markdown_and_github_output_carry_data_as_text() {
    let book = hostile_book();
    let (_, markdown, _) = run_in(book.root(), &["check", "--format", "markdown"]);
    assert!(markdown.contains("onerror"), "not vacuous: {markdown}");
    let mut html = String::new();
    let parser = pulldown_cmark::Parser::new_ext(&markdown, pulldown_cmark::Options::all());
    pulldown_cmark::html::push_html(&mut html, parser);
    let bad = markup_from_data(&html);
    assert!(bad.is_empty(), "{bad:?} in the rendered summary:\n{html}");
    assert!(!markdown.contains('\u{1b}'));
    let (_, github, _) = run_in(book.root(), &["check", "--format", "github"]);
    assert!(!github.contains('\u{1b}'));
    for line in github.lines() {
        assert!(
            line.starts_with("::") || line.starts_with("mdbook-contract"),
            "{line:?}"
        );
    }
}

#[test]
fn a_companion_outside_the_repository_is_not_read_and_never_printed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("secret.env"), "TOKEN=hunter2-secret\n").unwrap();
    let root = dir.path().join("book");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/SUMMARY.md"), "# Summary\n\n- [A](a.md)\n").unwrap();
    std::fs::write(root.join("src/a.md"), "# A\n\nText.\n").unwrap();
    std::fs::write(root.join("NOTES.md"), "# Notes\n\nA note.\n").unwrap();
    std::fs::write(
        root.join("book.toml"),
        "[book]\ntitle = \"A\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncompanions = [\"../secret.env\", \"/etc/hostname\", \"NOTES.md\"]\nline-reference-patterns = [\".+\"]\n",
    )
    .unwrap();
    git(&root, &["init", "-q"]);
    let (code, out, err) = run_in(&root, &["check", "--format", "short"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        !out.contains("hunter2") && !err.contains("hunter2"),
        "{out}{err}"
    );
    let outside: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("dangling-path") && l.contains("outside"))
        .collect();
    assert_eq!(outside.len(), 2, "{out}");
    // The companion inside is read: the pattern finds its text.
    assert!(
        out.lines()
            .any(|l| l.starts_with("NOTES.md:") && l.contains("line-reference")),
        "{out}"
    );
    // The agent's answer says the same, without the secret.
    let mut session = crate::mcp::Session::start_as_opened(&root);
    let answer = session.call("contract_check", json!({}));
    let text = answer.to_string();
    assert!(!text.contains("hunter2"), "{text}");
    assert!(text.contains("outside"), "{text}");
}

/// A book whose book.toml runs a command (a preprocessor ordered before this one) that leaves
/// `MARKER` in the book's folder, in a git repository with one commit.
fn book_with_a_command() -> Fixture {
    let mut files = crate::common::contract_book();
    files.push(("src/SUMMARY.md", "# Summary\n\n- [Contract](contract.md)\n- [Template](template.md)\n- [Existing](appendix/existing.md)\n"));
    let book = Fixture::new(&files);
    let toml = "[book]\ntitle = \"Trust\"\n\n[preprocessor.aaa]\ncommand = \"sh -c 'touch MARKER; cat >/dev/null; exit 1'\"\nbefore = [\"contract\"]\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\ntemplate = [\"template.md\"]\n";
    std::fs::write(book.root().join("book.toml"), toml).unwrap();
    git(book.root(), &["init", "-q"]);
    git(book.root(), &["add", "-A"]);
    git(book.root(), &["commit", "-qm", "base"]);
    book
}

#[cfg(unix)]
#[test]
fn opening_a_book_runs_none_of_its_commands_without_allow_commands() {
    let marker = |book: &Fixture| book.root().join("MARKER").exists();
    // The language server: told in a message and on book.toml, nothing run.
    let book = book_with_a_command();
    let mut client = crate::lsp::StdioClient::spawn_as_opened();
    client.initialize(book.root());
    let toml = crate::lsp::uri(&book.root().join("book.toml"));
    let list = client.wait(&toml, |l| !l.is_empty());
    assert_eq!(list[0]["code"], "commands-not-run", "{list:?}");
    let message = list[0]["message"].as_str().unwrap();
    assert!(
        message.contains("`aaa` (`sh -c") && message.contains("--allow-commands"),
        "{message}"
    );
    client.stop();
    assert!(!marker(&book), "lsp ran the book's command");
    // The agent's server: the first answer says so.
    let mut session = crate::mcp::Session::start_as_opened(book.root());
    let answer = session.answer("contract_overview", json!({}));
    let changed = answer["changed"].to_string();
    assert!(
        changed.contains("not run here") && changed.contains("`aaa`"),
        "{changed}"
    );
    let again = session.answer("contract_overview", json!({}));
    assert_eq!(again["changed"], json!([]), "told once");
    drop(session);
    assert!(!marker(&book), "mcp ran the book's command");
    // diff: each side as written, the note on standard error.
    let (code, _, err) = run_in(book.root(), &["diff", "HEAD"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("not run here"), "{err}");
    assert!(!marker(&book), "diff ran the book's command");
    // With the flag, each runs it.
    let (_, _, _) = run_in(book.root(), &["diff", "HEAD", "--allow-commands"]);
    assert!(marker(&book), "diff --allow-commands did not run it");
    std::fs::remove_file(book.root().join("MARKER")).unwrap();
    let mut session = crate::mcp::Session::start(book.root());
    session.call("contract_overview", json!({}));
    drop(session);
    assert!(marker(&book), "mcp --allow-commands did not run it");
    // `check`, which the user runs on purpose, runs it as mdbook build does.
    std::fs::remove_file(book.root().join("MARKER")).unwrap();
    run_in(book.root(), &["check"]);
    assert!(marker(&book), "check did not run it");
}

#[cfg(unix)]
#[test]
fn no_write_follows_a_symlink_out_of_the_book() {
    use std::os::unix::fs::symlink;
    let elsewhere = tempfile::tempdir().unwrap();
    let outside = |name: &str| elsewhere.path().join(name);
    // `new-spec` into a dangling symlink where the spec would go.
    let made = tempfile::tempdir().unwrap();
    let (code, _, err) = run_in(made.path(), &["init", "docs"]);
    assert_eq!(code, 0, "{err}");
    let book = made.path().join("docs");
    let before = crate::common::files(&book);
    symlink(
        outside("spec.md"),
        book.as_path().join("src/azure-backend-spec.md"),
    )
    .unwrap();
    let (code, _, err) = run_in(book.as_path(), &["new-spec", "azure"]);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("exists") || err.contains("outside"), "{err}");
    assert!(!outside("spec.md").exists());
    std::fs::remove_file(book.as_path().join("src/azure-backend-spec.md")).unwrap();
    // SUMMARY.md and book.toml through symlinks that lead out.
    for file in ["src/SUMMARY.md", "book.toml"] {
        let target = outside(file.replace('/', "-").as_str());
        std::fs::rename(book.as_path().join(file), &target).unwrap();
        symlink(&target, book.as_path().join(file)).unwrap();
        let was = std::fs::read(&target).unwrap();
        let (code, _, err) = run_in(book.as_path(), &["new-spec", "azure"]);
        assert_ne!(code, 0, "{file}: {err}");
        assert!(err.contains("outside"), "{file}: {err}");
        assert_eq!(std::fs::read(&target).unwrap(), was, "{file} changed");
        std::fs::remove_file(book.as_path().join(file)).unwrap();
        std::fs::rename(&target, book.as_path().join(file)).unwrap();
    }
    assert_eq!(
        crate::common::files(book.as_path()),
        before,
        "nothing written"
    );
    // `init` into a folder whose `code` leads elsewhere.
    let fresh = tempfile::tempdir().unwrap();
    let root = fresh.path().join("docs");
    std::fs::create_dir_all(&root).unwrap();
    symlink(elsewhere.path(), root.join("code")).unwrap();
    let (code, _, err) = run_in(fresh.path(), &["init", "docs"]);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("outside"), "{err}");
    assert_eq!(
        std::fs::read_dir(elsewhere.path()).unwrap().count(),
        0,
        "written outside"
    );
    assert!(!root.join("book.toml").exists(), "a refusal writes nothing");
}

#[cfg(unix)]
#[test]
fn diff_refuses_a_tree_that_leads_outside_its_folder() {
    let book = book_with_a_command();
    let root = book.root();
    // `evil/../../pwned-by-tree` from the revision's folder: trees with `..` entries, as only
    // `git hash-object --literally` makes them.
    let blob = git_out(root, &["hash-object", "-w", "--stdin"], b"pwned\n");
    let inner = raw_tree(root, &[("100644", "pwned-by-tree", &blob)]);
    let up = raw_tree(root, &[("40000", "..", &inner)]);
    let upper = raw_tree(root, &[("40000", "..", &up)]);
    let mut entries = String::from_utf8(git_out_bytes(root, &["ls-tree", "HEAD"], b"")).unwrap();
    entries.push_str(&format!("040000 tree {upper}\tevil\n"));
    let tree = git_out(root, &["mktree", "--missing"], entries.as_bytes());
    let commit = git_out(root, &["commit-tree", &tree, "-m", "crafted"], b"");
    let (code, _, err) = run_in(root, &["diff", &commit]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("leads outside the folder"), "{err}");
    assert!(
        !std::env::temp_dir().join("pwned-by-tree").exists(),
        "a file was written outside the revision's folder"
    );
}

/// A tree object of `entries` (mode, name, object id), written as git writes trees, names not
/// checked.
fn raw_tree(dir: &Path, entries: &[(&str, &str, &str)]) -> String {
    let mut bytes = Vec::new();
    for (mode, name, id) in entries {
        bytes.extend(format!("{mode} {name}\0").as_bytes());
        bytes.extend(hex(id));
    }
    git_out(
        dir,
        &["hash-object", "-t", "tree", "-w", "--literally", "--stdin"],
        &bytes,
    )
}

/// `git ARGS` in `dir` with `input` on standard input: its output, trimmed.
fn git_out(dir: &Path, args: &[&str], input: &[u8]) -> String {
    String::from_utf8(git_out_bytes(dir, args, input))
        .unwrap()
        .trim()
        .to_owned()
}

/// `git ARGS` in `dir` with `input` on standard input: its output.
fn git_out_bytes(dir: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut child = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The 20 bytes of a hexadecimal object id.
fn hex(id: &str) -> Vec<u8> {
    (0..id.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&id[i..i + 2], 16).unwrap())
        .collect()
}

/// Runs the binary with `args` in `dir`: its exit code, output and peak resident memory in
/// bytes (`wait4`'s `ru_maxrss`).
#[cfg(target_os = "linux")]
// Waited for with `wait4`, for its resource usage, which `Child::wait` does not give.
#[allow(clippy::zombie_processes)]
fn run_measured(dir: &Path, args: &[&str]) -> (i32, String, u64) {
    let child = std::process::Command::new(crate::common::binary())
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut stdout = child.stdout.unwrap();
    let mut stderr = child.stderr.unwrap();
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    });
    let mut out = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut out).unwrap();
    let mut status = 0;
    // SAFETY: `usage` is a plain C struct that wait4 fills; the child is ours and not waited
    // for elsewhere.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    out.push_str(&err.join().unwrap());
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    // Linux gives kilobytes.
    (code, out, u64::try_from(usage.ru_maxrss).unwrap() * 1024)
}

#[cfg(target_os = "linux")]
#[test]
fn a_100_mb_failure_message_costs_a_bounded_page_output_and_memory() {
    let book = storage("pytest", "providers", "azure_blob", &["pytest-junit.xml"]);
    // What the program itself takes (a debug binary's pages count in its resident memory).
    let (_, _, base) = run_measured(book.root(), &["check"]);
    let mut report = String::from(
        "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"pytest\"><testcase classname=\"conformance.test_conformance\" name=\"test_put_atomic[gcs]\"><failure message=\"",
    );
    report.push_str(&"A".repeat(100 << 20));
    report.push_str("\">body</failure></testcase></testsuite></testsuites>\n");
    std::fs::write(book.root().join("results/pytest-junit.xml"), report).unwrap();
    let (code, out, peak) = run_measured(book.root(), &["check"]);
    assert_eq!(code, 1, "{}", &out[..out.len().min(2000)]);
    assert!(out.contains("(cut: "), "said as cut");
    assert!(out.len() < 1 << 20, "{} bytes printed", out.len());
    // The report costs a copy of itself, not one per place it is shown (massif: a heap peak of
    // 105 MB, the file as read).
    let cost = peak.saturating_sub(base);
    assert!(
        cost < 300 << 20 && peak < 1 << 30,
        "{} MB of memory over {} MB",
        cost >> 20,
        base >> 20
    );
    // The page that shows it.
    reading_also(&book, None);
    let (built, out) = book.build();
    built.unwrap();
    let page = std::fs::metadata(out.join("providers.html")).unwrap().len();
    assert!(page < 2 << 20, "the page is {page} bytes");
}

/// What the script counts in a page, written into its title: elements of `<main>` with an
/// `on*` or `autofocus` attribute, `javascript:` links, images, and whether a handler ran.
const COUNT: &str = r#"
<script>
window.addEventListener('load', () => {
  const main = document.querySelector('main') || document.body;
  const all = [...main.querySelectorAll('*')];
  const handlers = all.filter(e => [...e.attributes].some(a => a.name.startsWith('on') || a.name === 'autofocus')).length;
  const links = all.filter(e => /^\s*javascript:/i.test(e.getAttribute('href') || '')).length;
  const images = main.querySelectorAll('img').length;
  document.title = ['handlers=' + handlers, 'links=' + links, 'images=' + images,
    'ran=' + (window.__ran === true)].join(';');
});
window.alert = () => { window.__ran = true; };
</script>
"#;

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn in_chromium_no_script_of_the_data_runs() {
    let book = hostile_book();
    let (built, out) = book.build();
    built.unwrap();
    for page in ["providers.html", "print.html"] {
        let html = std::fs::read_to_string(out.join(page)).unwrap();
        // The counting script first, so that it replaces `alert` before the page's own.
        let measured = out.join("measured.html");
        std::fs::write(
            &measured,
            html.replacen("<head>", &format!("<head>{COUNT}"), 1),
        )
        .unwrap();
        let profile = tempfile::tempdir().unwrap();
        let output = crate::browser::headless(profile.path())
            .args([
                "--window-size=1280,900",
                "--virtual-time-budget=5000",
                "--dump-dom",
            ])
            .arg(format!("file://{}", measured.display()))
            .output()
            .expect("Chromium runs");
        let dom = String::from_utf8_lossy(&output.stdout);
        let title = dom
            .split_once("<title>")
            .and_then(|(_, t)| t.split_once("</title>"))
            .map(|(t, _)| t.to_owned())
            .unwrap_or_default();
        assert_eq!(
            title,
            "handlers=0;links=0;images=0;ran=false",
            "{page}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn every_action_of_the_workflows_is_pinned_to_a_commit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let uses = regex::Regex::new(r"uses:\s*([^\s#]+)").unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(".github/workflows"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.push(root.join("guide/src/how-to/ci.md"));
    let mut seen = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for caps in uses.captures_iter(&text) {
            let action = &caps[1];
            if action.starts_with("./") {
                continue;
            }
            seen += 1;
            let pinned = action.rsplit_once('@').is_some_and(|(_, rev)| {
                rev.len() == 40 && rev.bytes().all(|b| b.is_ascii_hexdigit())
            });
            assert!(
                pinned,
                "{}: `{action}` is not pinned to a commit",
                file.display()
            );
        }
        if text.contains("mdbook-v0.5") {
            assert!(
                text.contains("sha256sum --check"),
                "{}: mdBook's download is not checked",
                file.display()
            );
        }
    }
    assert!(seen > 5);
}

/// Every element and attribute name in the `<main>` of the page `html`.
fn vocabulary(html: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for (name, attributes) in tags_of_main(html) {
        for (key, _) in attributes {
            out.insert(format!("{name}[{key}]"));
        }
        out.insert(name);
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

    /// A failed case's name and message of any characters markup gives a meaning to: the
    /// appendix holds no element or attribute a benign name does not give it.
    #[test]
    fn fuzzed_names_and_messages_add_no_element_or_attribute(
        name in "[a-z<>\"'&{}#\\[\\]()!*_`=:/\\\\ \n\r\t\u{1}\u{1b}\u{85}\u{2028}-]{0,40}",
        message in "[a-z<>\"'&{}#\\[\\]()!*_`=:/\\\\ \n\r\t\u{1b}-]{0,60}",
    ) {
        let benign = vocabulary(&appendix_with("gcs", "boom"));
        let fuzzed = vocabulary(&appendix_with(&name, &message));
        let added: Vec<&String> = fuzzed.difference(&benign).collect();
        proptest::prop_assert!(added.is_empty(), "{added:?} for {name:?} / {message:?}");
    }
}

/// The built appendix of the pytest storage book with one more failed case, of `put.atomic`'s
/// test, with the id `name` and the message `message`.
fn appendix_with(name: &str, message: &str) -> String {
    let book = storage("pytest", "providers", "azure_blob", &["pytest-junit.xml"]);
    let report = format!(
        "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"p\"><testcase classname=\"conformance.test_conformance\" name=\"test_put_atomic[{}]\"><failure message=\"{}\">x</failure></testcase></testsuite></testsuites>\n",
        attribute(name),
        attribute(message)
    );
    std::fs::write(book.root().join("results/more.xml"), report).unwrap();
    reading_also(&book, Some("more.xml"));
    let (built, out) = book.build();
    built.unwrap();
    std::fs::read_to_string(out.join("providers.html")).unwrap()
}

#[test]
fn a_go_test_json_name_never_becomes_markup_in_a_page() {
    let book = storage("go", "providers", "azure-blob", &["go-test-json.jsonl"]);
    let name = format!("TestPutAtomic/gcs{HEADING}");
    let line = |action: &str, extra: &str| {
        format!(
            "{{\"Time\":\"2026-12-07T10:00:00Z\",\"Action\":\"{action}\",\"Package\":\"example.com/store/conformance\",\"Test\":{}{extra}}}\n",
            serde_json::to_string(&name).unwrap()
        )
    };
    let report = line("run", "")
        + &line(
            "output",
            &format!(
                ",\"Output\":{}",
                serde_json::to_string(&format!("{MESSAGE}\n")).unwrap()
            ),
        )
        + &line("fail", ",\"Elapsed\":0");
    std::fs::write(book.root().join("results/go-test-json.jsonl"), report).unwrap();
    reading_also(&book, None);
    let (built, out) = book.build();
    built.unwrap();
    assert_data_is_text(&out, "onerror=alert(3)");
}
