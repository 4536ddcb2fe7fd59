//! Fixture books for the integration tests: written to a temporary folder, then checked or built
//! with real mdBook code (mdbook-driver in-process, or the `mdbook-contract` binary through the
//! JSON protocol).

#![allow(dead_code, unreachable_pub)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mdbook_contract::{Finding, Report};
use mdbook_driver::MDBook;

/// The book.toml of a fixture when the files do not give one: a contract chapter and a template
/// chapter, as the design's defaults expect.
pub const BOOK_TOML: &str = r#"[book]
title = "Fixture"

[preprocessor.contract]
after = ["links"]
contract = ["contract.md"]
template = ["template.md"]
"#;

/// An edit of a fixture's file: its path, and what to make of its text.
pub type Edit<'e> = (&'e str, &'e dyn Fn(&str) -> String);

/// A book in a temporary folder.
pub struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    /// Writes `files` (paths relative to the book root; `src/...` for chapters). A book.toml is
    /// added when none is given, and a SUMMARY.md listing every `src/*.md` when none is given.
    pub fn new(files: &[(&str, &str)]) -> Fixture {
        let dir = tempfile::tempdir().expect("temporary folder");
        write_files(dir.path(), files);
        if !files.iter().any(|(p, _)| *p == "book.toml") {
            std::fs::write(dir.path().join("book.toml"), BOOK_TOML).unwrap();
        }
        if !files.iter().any(|(p, _)| p.ends_with("SUMMARY.md")) {
            let mut summary = String::from("# Summary\n\n");
            for (path, _) in files {
                if let Some(chapter) = path.strip_prefix("src/").filter(|c| c.ends_with(".md")) {
                    summary.push_str(&format!("- [{chapter}]({chapter})\n"));
                }
            }
            std::fs::write(dir.path().join("src/SUMMARY.md"), summary).unwrap();
        }
        Fixture { dir }
    }

    /// A copy of the fixture folder `tests/fixtures/<name>`, with `edits` applied: each a path
    /// relative to it and what to do with that file's text.
    pub fn copy_of(name: &str, edits: &[Edit<'_>]) -> Fixture {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name);
        let dir = tempfile::tempdir().expect("temporary folder");
        copy_tree(&from, dir.path());
        for (path, edit) in edits {
            let path = dir.path().join(path);
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, edit(&text)).unwrap();
        }
        Fixture { dir }
    }

    /// The book root.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// Runs every check as `mdbook-contract check` does; paths are relative to the book root.
    pub fn check(&self) -> Report {
        let (ctx, book) = mdbook_contract::load(self.root(), "html").expect("book loads");
        mdbook_contract::check(&ctx, &book, PathBuf::new()).expect("pipeline runs")
    }

    /// The preprocessed content of every chapter, by source path, as `check` produces it.
    pub fn preprocess(&self) -> Vec<(String, String)> {
        let (ctx, book) = mdbook_contract::load(self.root(), "html").expect("book loads");
        let outcome = mdbook_contract::process(&ctx, book, PathBuf::new()).expect("pipeline runs");
        outcome
            .book
            .chapters()
            .map(|c| {
                let path = c
                    .source_path
                    .as_ref()
                    .map_or(c.name.clone(), |p| p.to_string_lossy().replace('\\', "/"));
                (path, c.content.clone())
            })
            .collect()
    }

    /// The preprocessed content of the chapter read from `src/<path>`.
    pub fn chapter(&self, path: &str) -> String {
        self.preprocess()
            .into_iter()
            .find(|(p, _)| p == path)
            .map(|(_, c)| c)
            .expect("chapter exists")
    }

    /// Builds the book with mdbook-driver and this crate's preprocessor in-process; returns the
    /// build's result and the output folder.
    pub fn build(&self) -> (anyhow::Result<()>, PathBuf) {
        Fixture::build_at(self.root())
    }

    /// Builds the book at `root` as [`Fixture::build`] does.
    pub fn build_at(root: &Path) -> (anyhow::Result<()>, PathBuf) {
        let mut md = MDBook::load(root).expect("book loads");
        md.with_preprocessor(mdbook_contract::ContractPreprocessor::new());
        let out = root.join("out");
        md.config.build.build_dir = out.clone();
        (md.build(), out)
    }

    /// The rendered HTML of a chapter (`name.html`) after [`Fixture::build`].
    pub fn html(&self, out: &Path, page: &str) -> String {
        std::fs::read_to_string(out.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
    }
}

/// Every file under `root`, relative to it, `/`-separated, sorted.
pub fn files(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(root).unwrap();
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// Writes `files` (paths relative to `root`, with their text) under `root`, making folders.
pub fn write_files<T: AsRef<[u8]>>(root: &Path, files: &[(&str, T)]) {
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// Copies the folder `from` into `to`, recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Builds the book at `root` into `out` with mdbook-driver and this crate's preprocessor
/// in-process (whatever renderers its book.toml names).
pub fn build_into(root: &Path, out: &Path) {
    let mut md = MDBook::load(root).expect("the book loads");
    md.with_preprocessor(mdbook_contract::ContractPreprocessor::new());
    md.config.build.build_dir = out.to_path_buf();
    md.build().expect("the book builds");
}

/// This repository's book (book.toml, the stylesheet, `book/`) in a temporary folder, without
/// its companions: the repository's README and the like link to files that are not copied.
pub fn repository_copy() -> tempfile::TempDir {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    for file in [mdbook_contract::CSS_FILE, mdbook_contract::JS_FILE] {
        std::fs::copy(root.join(file), dir.path().join(file)).unwrap();
    }
    let toml = std::fs::read_to_string(root.join("book.toml")).unwrap();
    let without: Vec<&str> = toml
        .lines()
        .filter(|line| !line.starts_with("companions ="))
        .collect();
    assert!(
        without.len() < toml.lines().count(),
        "book.toml names companions"
    );
    std::fs::write(dir.path().join("book.toml"), without.join("\n") + "\n").unwrap();
    std::fs::create_dir(dir.path().join("book")).unwrap();
    for entry in std::fs::read_dir(root.join("book")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(
            &path,
            dir.path().join("book").join(path.file_name().unwrap()),
        )
        .unwrap();
    }
    dir
}

/// The findings of `check`, as `check:line:col`.
pub fn positions(report: &Report, check: &str) -> Vec<String> {
    report
        .findings
        .iter()
        .filter(|f| f.check == check)
        .map(|f| {
            format!(
                "{}:{}:{}",
                f.location.path.display(),
                f.location.line,
                f.location.column
            )
        })
        .collect()
}

/// The findings of `check` in the output of `check --format json`, as `check:line:col`.
pub fn json_positions(json: &str, check: &str) -> Vec<String> {
    let findings: Vec<serde_json::Value> = serde_json::from_str(json).expect("a JSON array");
    findings
        .iter()
        .filter(|f| f["check"] == check)
        .map(|f| {
            format!(
                "{}:{}:{}",
                f["path"].as_str().unwrap(),
                f["line"],
                f["column"]
            )
        })
        .collect()
}

/// The findings of `check`.
pub fn of<'a>(report: &'a Report, check: &str) -> Vec<&'a Finding> {
    report
        .findings
        .iter()
        .filter(|f| f.check == check)
        .collect()
}

/// The messages of the findings of `check`, in order.
pub fn messages<'a>(report: &'a Report, check: &str) -> Vec<&'a str> {
    of(report, check)
        .iter()
        .map(|f| f.message.as_str())
        .collect()
}

/// The path of the built binary.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_mdbook-contract")
}

/// A small but complete contract book: two axes, a template, two providers (one proposed).
pub fn contract_book() -> Vec<(&'static str, &'static str)> {
    vec![
        ("src/contract.md", CONTRACT),
        ("src/template.md", TEMPLATE),
        ("src/appendix/existing.md", APPENDIX),
    ]
}

pub const CONTRACT: &str = r#"# Contract

## Axes

### `readiness` {.axis}

When may a fresh instance serve traffic?

| Profile | Meaning | Obliges | Tolerated by |
|---|---|---|---|
| `immediate` | Running with an IP when Create returns | Get answers Running at once | every caller |
| `provisioning-window` | Provisioning for a while, then Running | Get answers Provisioning | `reconcileManaged` requeues |

### `create-return` {.axis}

When does Create return?

| Profile | Meaning | Tolerated by |
|---|---|---|
| `blocking` | once the instance runs | every caller |
| `submit` | once the request is accepted | `reconcileManaged` polls |

## Closing table

{{#axis-table}}
"#;

pub const TEMPLATE: &str = r#"# Template

## Readiness

**Allowed answers.**

{{#answers readiness}}

## Create

{{#answers create-return}}
"#;

pub const APPENDIX: &str = r#"# Existing providers

{{#profile-matrix}}

## `pods` {.provider}

### Create

A pod is ready at once: {{#profile readiness immediate `newWithClient`}}.
Create returns at once: {{#profile create-return submit internal/provider/pods Create}}.

## `vms` {.provider .proposed}

### Create

{{#profile readiness provisioning-window}} and {{#profile create-return unknown}}.
"#;

/// What mdBook writes on the preprocessor's standard input for the book at `root` and the
/// `html` renderer.
pub fn protocol_input(root: &Path) -> Vec<u8> {
    let (ctx, book) = mdbook_contract::load(root, "html").expect("the fixture loads as a book");
    serde_json::to_vec(&(&ctx, &book)).expect("the context and the book serialise")
}

/// `mdbook-contract ARGS` run in `dir` (without colour): the exit code, standard output and
/// standard error.
pub fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    run_in_with(dir, args, &[])
}

/// [`run_in`] with the extra environment variables `env`.
pub fn run_in_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let output = Command::new(binary())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs `command` to the end with `stdin` as its standard input; returns the exit code, standard
/// output and standard error.
pub fn run_binary(command: &mut Command, stdin: &[u8]) -> (i32, String, String) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the mdbook-contract binary starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.to_vec();
    // Written from a thread so that a child that answers before it has read everything cannot
    // deadlock the test; a child that hangs up early is judged by its exit code and messages.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child
        .wait_with_output()
        .expect("the mdbook-contract binary runs to the end");
    writer.join().expect("the stdin writer thread finishes");
    let code = output
        .status
        .code()
        .expect("the binary exits with a code, not by a signal");
    (
        code,
        String::from_utf8(output.stdout).expect("standard output is UTF-8"),
        String::from_utf8(output.stderr).expect("standard error is UTF-8"),
    )
}

/// Runs git in `dir`, with an identity, no signing and no line-end conversion whatever the
/// machine's configuration (Windows runners set `core.autocrlf`, which would commit and check
/// out other bytes than the test wrote).
pub fn git(dir: &Path, args: &[&str]) {
    let output = Command::new("git")
        .args([
            "-c",
            "core.autocrlf=false",
            "-c",
            "user.name=fixture",
            "-c",
            "user.email=fixture@example.com",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A cell of a rendered `{{#rule-matrix}}`: its status (`data-status`), what it shows, its
/// title and its link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatrixCell {
    pub status: String,
    pub text: String,
    pub title: Option<String>,
    pub href: Option<String>,
    /// Its `aria-label`, which a compact table (from seven providers) gives a cell or its link.
    pub label: Option<String>,
}

/// The cells of the rule matrices in a preprocessed chapter, by rule ID and provider.
pub fn matrix_cells(chapter: &str) -> std::collections::BTreeMap<(String, String), MatrixCell> {
    let row = regex::Regex::new(r#"(?s)<tr data-rule="([^"]+)"[^>]*>(.*?)</tr>"#).unwrap();
    let cell = regex::Regex::new(
        r#"(?s)<td class="contract-cell [^"]*" data-provider="([^"]+)" data-status="([^"]+)"(?: title="([^"]*)")?(?: aria-label="([^"]*)")?>(.*?)</td>"#,
    )
    .unwrap();
    let link = regex::Regex::new(r#"<a href="([^"]*)" title="([^"]*)"(?: aria-label="([^"]*)")?>"#)
        .unwrap();
    let tags = regex::Regex::new(r"<[^>]+>").unwrap();
    let mut out = std::collections::BTreeMap::new();
    for r in row.captures_iter(chapter) {
        for c in cell.captures_iter(&r[2]) {
            let inner = &c[5];
            let linked = link.captures(inner);
            out.insert(
                (r[1].to_owned(), c[1].to_owned()),
                MatrixCell {
                    status: c[2].to_owned(),
                    text: tags.replace_all(inner, "").into_owned(),
                    title: c
                        .get(3)
                        .map(|t| t.as_str().to_owned())
                        .or_else(|| linked.as_ref().map(|l| l[2].to_owned())),
                    href: linked.as_ref().map(|l| l[1].to_owned()),
                    label: c
                        .get(4)
                        .or_else(|| linked.as_ref().and_then(|l| l.get(3)))
                        .map(|l| l.as_str().to_owned()),
                },
            );
        }
    }
    out
}

/// The foot row of a rendered rule matrix: its label and each provider's count.
pub fn matrix_foot(chapter: &str) -> Vec<String> {
    let foot = regex::Regex::new(r"(?s)<tfoot><tr>(.*?)</tr></tfoot>").unwrap();
    let cell = regex::Regex::new(r"<t[hd][^>]*>(.*?)</t[hd]>").unwrap();
    foot.captures(chapter)
        .map(|f| cell.captures_iter(&f[1]).map(|c| c[1].to_owned()).collect())
        .unwrap_or_default()
}
