//! Reading other people's code: tracey's ignore directives, placeholders in prose, the book's
//! own files, syntax errors, the walk; through the binary on a small Rust tree.

use crate::common::{Fixture, json_positions, run_in};

const TOML: &str = r#"[book]
title = "Reading"

[preprocessor.contract]
after = ["links"]
contract = ["contract.md"]
source-root = "repo"
"#;

const CONTRACT: &str = "# Contract

The keywords MUST and MAY are used as in RFC 2119.

r[auth.login]
Login MUST work, because `login` is public.

r[auth.logout]
Logout MUST work, because `login` ends.
";

const PROVIDERS: &str = "# Providers\n\n## `web` {.provider}\n\nIt runs.\n";

/// A book whose source tree is `repo/` with `files` in it (a chapter among them replaces the
/// default one).
fn book(files: &[(&str, &str)]) -> Fixture {
    let mut all: Vec<(&str, &str)> = [
        ("book.toml", TOML),
        ("src/contract.md", CONTRACT),
        ("src/providers.md", PROVIDERS),
    ]
    .into_iter()
    .filter(|(path, _)| !files.iter().any(|(p, _)| p == path))
    .collect();
    all.extend_from_slice(files);
    Fixture::new(&all)
}

fn check_json(fixture: &Fixture) -> String {
    run_in(fixture.root(), &["check", "--format", "json"]).1
}

#[test]
fn an_ignore_directive_in_a_string_or_in_prose_is_no_directive() {
    let code = r#"/// Logs in; a region opens with `// @tracey:ignore-start`.
/// Write @tracey:ignore-next-line above a citation to skip it.
// r[impl auth.login]
pub fn login() {}

pub fn helper() {
    let s = "// @tracey:ignore-start";
    let _ = s;
}

// r[impl auth.logout]
pub fn logout() {}

// @tracey:ignore-start
// r[impl auth.example]
const END: &str = r"// @tracey:ignore-end";
// r[impl auth.another-example]
// @tracey:ignore-end

#[test]
// r[verify auth.login]
fn test_login() {}
"#;
    let fixture = book(&[("repo/auth.rs", code)]);
    let (code, status, _) = run_in(fixture.root(), &["status"]);
    assert_eq!(code, 0);
    assert!(
        status.contains("`web`, 1 of 2 rules verified, 1 implemented only, 0 uncovered"),
        "{status}"
    );
    let json = check_json(&fixture);
    assert!(json_positions(&json, "unknown-rule").is_empty(), "{json}");
    assert!(
        json_positions(&json, "unclosed-ignore").is_empty(),
        "{json}"
    );
}

#[test]
fn an_ignore_region_never_closed_is_a_warning_at_its_opening() {
    let code = "// r[impl auth.login]\npub fn login() {}\n\n  // @tracey:ignore-start\n// r[impl auth.logout]\npub fn logout() {}\n";
    let fixture = book(&[("repo/auth.rs", code)]);
    let (_, human, _) = run_in(fixture.root(), &["check"]);
    assert!(
        human.contains("warning[unclosed-ignore]: `@tracey:ignore-start` opens a region no `@tracey:ignore-end` closes: every citation to the end of the file is ignored"),
        "{human}"
    );
    let stdout = check_json(&fixture);
    assert_eq!(
        json_positions(&stdout, "unclosed-ignore"),
        ["repo/auth.rs:4:6"]
    );
    let closed = book(&[("repo/auth.rs", &format!("{code}// @tracey:ignore-end\n"))]);
    assert!(json_positions(&check_json(&closed), "unclosed-ignore").is_empty());
}

#[test]
fn a_placeholder_is_prose_and_only_a_known_rule_maps_a_unit() {
    let code = "/// The raw source, without its r[...] marker, or r[1.2].\npub fn raw() {}\n\n// r[impl auth.nothing] is on line 5\npub fn other() {}\n\n// r[impl auth.login]\npub fn login() {}\n";
    let fixture = book(&[("repo/auth.rs", code)]);
    let stdout = check_json(&fixture);
    assert_eq!(
        json_positions(&stdout, "unknown-rule"),
        ["repo/auth.rs:4:11"],
        "{stdout}"
    );
    let (code, status, _) = run_in(fixture.root(), &["status", "--unmapped"]);
    assert_eq!(code, 0);
    assert!(
        status.contains("1 of 3 code units mapped (33%)"),
        "{status}"
    );
    assert!(
        status.contains("auth.rs:2") && status.contains("auth.rs:5"),
        "{status}"
    );
    assert!(!status.contains("auth.rs:8"), "{status}");
}

/// A repository with its book in `docs/` and `source-root = ".."`; the book folder holds
/// files that cite rules and are not source: its built pages, the page script, a file in `src`.
fn book_in_docs() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let toml = TOML.replace("source-root = \"repo\"", "source-root = \"..\"");
    let files = [
        ("docs/book.toml", toml.as_str()),
        (
            "docs/src/SUMMARY.md",
            "# Summary\n\n- [Contract](contract.md)\n- [Providers](providers.md)\n",
        ),
        ("docs/src/contract.md", CONTRACT),
        ("docs/src/providers.md", PROVIDERS),
        (
            "docs/src/example.rs",
            "// r[verify auth.login]\nfn example() {}\n",
        ),
        (
            "docs/book/contract.html",
            "<pre><code>// r[verify auth.logout]\n</code></pre>\n",
        ),
        (
            "docs/mdbook-contract.js",
            "// r[verify auth.logout]\nfunction shown() {}\n",
        ),
        ("docs/mdbook-contract.css", "/* r[verify auth.logout] */\n"),
        ("code/auth.rs", "// r[impl auth.login]\npub fn login() {}\n"),
    ];
    crate::common::write_files(dir.path(), &files);
    dir
}

#[test]
fn the_books_own_files_are_never_source_from_any_folder() {
    let dir = book_in_docs();
    let expected = ["docs/src/providers.md:3:1", "docs/src/providers.md:3:1"];
    let (_, stdout, _) = run_in(dir.path(), &["check", "docs", "--format", "json"]);
    assert_eq!(
        json_positions(&stdout, "unverified-rule"),
        expected,
        "{stdout}"
    );
    let (_, stdout, _) = run_in(&dir.path().join("docs"), &["check", "--format", "json"]);
    assert_eq!(
        json_positions(&stdout, "unverified-rule"),
        ["src/providers.md:3:1", "src/providers.md:3:1"],
        "{stdout}"
    );
    let (_, status, _) = run_in(dir.path(), &["status", "docs", "--unmapped"]);
    assert!(
        status.contains("1 files read, 1 citations of rules found"),
        "{status}"
    );
    assert!(!status.contains("shown"), "{status}");
}

#[test]
fn a_syntax_error_where_something_is_read_is_a_warning_at_the_first_error() {
    let broken = "// r[impl auth.login]\nexport function login() {}\n\nexport function broken( {\n  return 1;\n}\n";
    let clean = "// r[impl auth.logout]\nexport function logout() {}\n";
    // Parsed for the `r[` in its string, with nothing read from it.
    let nothing_read = "const s = \"r[impl auth.login]\";\nexport function other( {\n";
    let fixture = book(&[
        ("repo/auth.ts", broken),
        ("repo/logout.ts", clean),
        ("repo/other.ts", nothing_read),
    ]);
    let (_, human, _) = run_in(fixture.root(), &["check"]);
    assert!(
        human.contains("warning[syntax-error]: 2 syntax errors in this file, the first here, which the parser read past"),
        "{human}"
    );
    let stdout = check_json(&fixture);
    assert_eq!(
        json_positions(&stdout, "syntax-error"),
        ["repo/auth.ts:4:1"],
        "{stdout}"
    );
    let (_, status, _) = run_in(fixture.root(), &["status"]);
    assert!(
        status.contains("other.ts"),
        "status still counts every file: {status}"
    );
}

#[test]
fn status_adds_up_to_the_contracts_rules_with_the_optional_ones_apart() {
    let contract = format!("{CONTRACT}\nr[auth.remember]\nA login MAY be remembered.\n");
    let code = "// r[impl auth.login]\npub fn login() {}\n\n// r[verify auth.logout]\nfn test_logout() {}\n";
    let fixture = book(&[("repo/auth.rs", code), ("src/contract.md", &contract)]);
    let (_, status, _) = run_in(fixture.root(), &["status"]);
    assert!(
        status.contains("`web`, 1 of 2 rules verified, 1 implemented only, 0 uncovered, and 1 optional (MAY) not counted, of the contract's 3 rules\n"),
        "{status}"
    );
    let (_, json, _) = run_in(fixture.root(), &["status", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["rules"], 3);
    let web = &json["providers"][0];
    assert_eq!(
        (
            &web["bound"],
            &web["optional"],
            &web["not_bound"],
            &web["undecided"]
        ),
        (&2.into(), &1.into(), &0.into(), &0.into())
    );
}

#[test]
fn a_shared_layer_glob_of_any_language_keeps_its_folder_shared() {
    let toml = format!("{TOML}shared-layer = [\"lib/*.py\"]\n");
    let contract = format!(
        "{CONTRACT}\n## Axes\n\n### `store` {{.axis}}\n\nWhere is state kept?\n\n| Profile | Meaning | Tolerated by |\n|---|---|---|\n| `memory` | in memory | tests |\n"
    );
    let providers = "# Providers\n\n## `web` {.provider}\n\nStore: {{#profile store memory web/app.py}}.\n\n## `api` {.provider}\n\nStore: {{#profile store memory lib/shared.py}}.\n";
    let fixture = book(&[
        ("book.toml", &toml),
        ("src/contract.md", &contract),
        ("src/providers.md", providers),
        ("repo/web/app.py", "def app():\n    pass\n"),
        ("repo/lib/shared.py", "def shared():\n    pass\n"),
        (
            "repo/lib/test_shared.py",
            "# r[verify auth.login]\ndef test_login():\n    pass\n",
        ),
    ]);
    let (_, status, _) = run_in(fixture.root(), &["status"]);
    for provider in ["web", "api"] {
        assert!(
            status.contains(&format!("`{provider}`, 1 of 2 rules verified")),
            "the shared test counts for `{provider}`: {status}"
        );
    }
}

#[test]
fn stale_results_see_a_changed_test_file_with_a_non_ascii_name() {
    let book = Fixture::copy_of(
        "broker",
        &[("book.toml", &|t: &str| {
            format!("{t}test-results = [\"results/adapters.json\"]\n")
        })],
    );
    let root = book.root();
    let nats = root.join("code/adapters/nats");
    std::fs::rename(nats.join("nats_test.go"), nats.join("nats_café_test.go")).unwrap();
    crate::common::git(root, &["init", "-q"]);
    crate::common::git(root, &["add", "-A"]);
    let output = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-qm",
            "before the run",
        ])
        .env("GIT_AUTHOR_DATE", "2026-12-05T09:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-12-05T09:00:00Z")
        .current_dir(root)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stale = || {
        let stdout = run_in(root, &["check", "--format", "json"]).1;
        let findings: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        findings
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["check"] == "stale-results")
            .map(|f| f["message"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(stale(), Vec::<String>::new(), "as committed before the run");
    let test = nats.join("nats_café_test.go");
    let text = std::fs::read_to_string(&test).unwrap();
    std::fs::write(&test, format!("{text}\n// a change\n")).unwrap();
    let said = stale();
    assert!(
        said.iter()
            .any(|m| m.contains("adapters/nats/nats_café_test.go")),
        "{said:?}"
    );
}

#[test]
fn an_invalid_glob_of_provider_paths_is_a_finding_at_its_item() {
    let toml =
        format!("{TOML}\n[preprocessor.contract.provider-paths]\nweb = [\"web\", \"web/{{a\"]\n");
    let fixture = book(&[
        ("book.toml", &toml),
        ("repo/web/app.rs", "pub fn app() {}\n"),
    ]);
    let stdout = check_json(&fixture);
    assert_eq!(
        json_positions(&stdout, "malformed-config"),
        ["book.toml:10:15"],
        "{stdout}"
    );
    assert!(
        json_positions(&stdout, "dangling-path").is_empty(),
        "{stdout}"
    );
    let valid = book(&[
        ("book.toml", &toml.replace("web/{a", "web/*.rs")),
        ("repo/web/app.rs", "pub fn app() {}\n"),
    ]);
    let stdout = check_json(&valid);
    assert!(
        json_positions(&stdout, "malformed-config").is_empty(),
        "{stdout}"
    );
}

/// Runs the binary in `dir` as a user who cannot read what mode 000 closes (as root, through
/// `setpriv` as `nobody`; root reads everything).
#[cfg(unix)]
fn run_unprivileged(dir: &std::path::Path, args: &[&str]) -> String {
    let root = std::process::Command::new("id").arg("-u").output().unwrap();
    let mut command = if String::from_utf8_lossy(&root.stdout).trim() == "0" {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(crate::common::binary());
        c
    } else {
        std::process::Command::new(crate::common::binary())
    };
    let output = command.args(args).current_dir(dir).output().unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[cfg(unix)]
#[test]
fn a_file_or_folder_that_cannot_be_read_is_said_in_status_and_by_check() {
    use std::os::unix::fs::PermissionsExt;
    let fixture = book(&[
        ("repo/auth.rs", "// r[impl auth.login]\npub fn login() {}\n"),
        ("repo/locked.rs", "// r[verify auth.login]\nfn t() {}\n"),
        ("repo/secret/t.rs", "// r[verify auth.logout]\nfn u() {}\n"),
    ]);
    let root = fixture.root();
    let mode = |path: &str, mode: u32| {
        std::fs::set_permissions(root.join(path), std::fs::Permissions::from_mode(mode)).unwrap();
    };
    mode(".", 0o755);
    let status = run_unprivileged(root, &["status"]);
    assert!(!status.contains("could not be read"), "{status}");
    let readable = run_unprivileged(root, &["check", "--format", "json"]);
    assert!(
        json_positions(&readable, "unreadable-source").is_empty(),
        "{readable}"
    );
    mode("repo/locked.rs", 0o000);
    mode("repo/secret", 0o000);
    let status = run_unprivileged(root, &["status"]);
    let stdout = run_unprivileged(root, &["check", "--format", "json"]);
    mode("repo/secret", 0o755);
    assert_eq!(
        json_positions(&stdout, "unreadable-source"),
        ["book.toml:7:15", "book.toml:7:15"],
        "{stdout}"
    );
    assert!(
        stdout.contains("`locked.rs` under `source-root` could not be read (permission denied): its citations and symbols are not known"),
        "{stdout}"
    );
    for line in [
        "  secret: could not be read, so its citations and symbols are not known: permission denied\n",
        "  locked.rs: could not be read, so its citations and symbols are not known: permission denied\n",
    ] {
        assert!(status.contains(line), "{status}");
    }
}

#[test]
fn unmapped_counts_top_level_declarations_only() {
    let rust = "pub fn outer() {\n    fn inner() {}\n    inner();\n}\n\npub struct Store;\n\nimpl Store {\n    pub fn put(&self) {}\n}\n";
    let ts = "export function handler() {\n  const helper = () => 1;\n  return helper();\n}\n\nexport const top = () => 2;\n";
    let fixture = book(&[("repo/store.rs", rust), ("repo/handler.ts", ts)]);
    let (code, status, _) = run_in(fixture.root(), &["status", "--unmapped"]);
    assert_eq!(code, 0);
    assert!(status.contains("0 of 5 code units mapped (0%)"), "{status}");
    for unit in [
        "function outer",
        "type Store",
        "method Store.put",
        "function handler",
        "function top",
    ] {
        assert!(status.contains(unit), "{unit}: {status}");
    }
    assert!(
        !status.contains("inner") && !status.contains("helper"),
        "{status}"
    );
}

#[test]
fn a_playwright_describe_groups_and_is_no_test_unit() {
    let spec = "import { test } from \"@playwright/test\";\n\ntest.describe(\"group\", () => {\n  test(\"case one\", async () => {});\n});\n\ntest.describe.parallel(\"more\", () => {\n  test(\"case two\", async () => {});\n});\n";
    let fixture = book(&[("repo/a.spec.ts", spec)]);
    let (_, status, _) = run_in(fixture.root(), &["status", "--unmapped"]);
    assert!(status.contains("0 of 2 test units mapped (0%)"), "{status}");
    assert!(
        status.contains("a.spec.ts:4: test case one (test code)"),
        "{status}"
    );
    assert!(
        !status.contains("test group") && !status.contains("test more"),
        "{status}"
    );
}
