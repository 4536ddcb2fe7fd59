//! Rules: markers in the contract, citations in a Go tree, coverage per provider, and the
//! checks that keep them honest; through real mdBook code and the binary.

use crate::common::{Fixture, binary, json_positions, messages, of, positions, run_in};

const TOML: &str = r#"[book]
title = "Rules"

[output.html]
git-repository-url = "https://example.com/team/operator"

[preprocessor.contract]
after = ["links"]
contract = ["contract.md"]
template = ["template.md"]
source-root = "repo"
"#;

/// Line numbers matter below: keep the lines as they are.
const CONTRACT: &str = r#"# Contract

The keywords MUST and MAY are used as in RFC 2119.

## Calls

r[create.idempotent]
Create MUST be idempotent by name, because `reconcileManaged` retries it.

r[get.not-found+2]
- Get MUST answer NotFound only when the instance is gone, because `Sweeper.sweep` forgets it.

A provider MUST log nothing secret, because `logs.Write` is public.

r[Bad..Id]
Something.

r[create.idempotent]
The same ID again.

## Axes

### `create-return` {.axis}

When does Create return?

| Profile | Meaning | Tolerated by |
|---|---|---|
| `blocking` | once the instance runs | every caller |
| `submit` | once the request is accepted | `reconcileManaged` polls |

r[create-return.blocking-cancel applies=blocking]
A blocking Create MUST stop when its context ends, because `reconcileManaged` waits.

r[create-return.poll applies=submitt]
A submitting Create MAY return early.

See {{#rule create.idempotent}} and {{#rule create.idempotnt}}.

r[dangling.marker]
"#;

const TEMPLATE: &str = "# Template\n\n## Create\n\n{{#answers create-return}}\n";

const APPENDIX: &str = r#"# Providers

{{#rule-matrix}}

## `pods` {.provider}

Create blocks: {{#profile create-return blocking internal/provider/pods/pods.go}}.

## `vms` {.provider}

Create submits: {{#profile create-return submit internal/provider/vms}}.

r[not.here]
A marker outside the contract.
"#;

fn go_tree(root: &std::path::Path) {
    let files = [
        (
            "internal/provider/pods/pods_test.go",
            "package pods\n\n// r[verify create.idempotent]\nfunc TestCreate(t *testing.T) {}\n\n// r[verify create-return.blocking-cancel]\n// r[verify get.not-found]\n// r[verify create.idempotnt]\nfunc TestMore(t *testing.T) {}\n",
        ),
        (
            "internal/provider/pods/pods.go",
            "package pods\n\n// A string is not a comment:\nvar s = \"r[impl nothing.here]\"\n",
        ),
        (
            "internal/provider/vms/vms.go",
            "package vms\n\n// r[impl create.idempotent]\nfunc Create() {}\n",
        ),
        (
            "internal/controller/controller.go",
            "package controller\n\nfunc reconcileManaged() {}\n\ntype Sweeper struct{}\n\nfunc (Sweeper) sweep() {}\n\nvar logs int\n\n// Write is what logs.Write stands for.\nfunc Write() {}\n",
        ),
        (
            "test/conformance/get_test.go",
            "package conformance\n\n/*\n * r[verify get.not-found+2]\n */\nfunc TestGet(t *testing.T) {}\n",
        ),
    ];
    for (path, text) in files {
        let path = root.join("repo").join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

pub(crate) fn rules_book() -> Fixture {
    let fixture = Fixture::new(&[
        ("book.toml", TOML),
        ("src/contract.md", CONTRACT),
        ("src/template.md", TEMPLATE),
        ("src/appendix.md", APPENDIX),
    ]);
    go_tree(fixture.root());
    fixture
}

const RULE_CHECKS: &[&str] = &[
    "duplicate-rule",
    "malformed-rule",
    "unknown-rule",
    "stale-rule",
    "unverified-rule",
    "missing-rule",
];

#[test]
fn every_rule_check_fires_at_its_cause() {
    let report = rules_book().check();
    assert_eq!(
        positions(&report, "duplicate-rule"),
        ["src/contract.md:18:3"]
    );
    assert!(
        of(&report, "duplicate-rule")[0].notes[0]
            .contains("first defined here: src/contract.md:7:3"),
        "{:?}",
        of(&report, "duplicate-rule")[0].notes
    );
    // A bad ID, an `applies=` that names no profile, a marker that labels nothing, and a
    // marker outside the contract chapters (a warning).
    assert_eq!(
        positions(&report, "malformed-rule"),
        [
            "src/contract.md:15:3",
            "src/contract.md:35:30",
            "src/contract.md:40:1",
            "src/appendix.md:13:1"
        ]
    );
    let malformed = of(&report, "malformed-rule");
    assert_eq!(malformed[0].severity, mdbook_contract::Severity::Error);
    assert!(
        malformed[1].message.contains("did you mean `submit`"),
        "{}",
        malformed[1].message
    );
    assert!(malformed[2].message.contains("labels nothing"));
    assert_eq!(malformed[3].severity, mdbook_contract::Severity::Warning);
    // `{{#rule}}` with a typo, and a citation in a test with the same typo.
    assert_eq!(
        positions(&report, "unknown-rule"),
        [
            "src/contract.md:38:45",
            "repo/internal/provider/pods/pods_test.go:8:13"
        ]
    );
    for message in messages(&report, "unknown-rule") {
        assert!(
            message.contains("did you mean `create.idempotent`"),
            "{message}"
        );
    }
    assert_eq!(
        positions(&report, "stale-rule"),
        ["repo/internal/provider/pods/pods_test.go:7:13"]
    );
    assert!(
        messages(&report, "stale-rule")[0]
            .contains("version 1 of the rule `get.not-found`, which is at version 2")
    );
    // `vms` implements `create.idempotent` without a test; `blocking-cancel` does not bind it.
    assert_eq!(
        positions(&report, "unverified-rule"),
        ["src/appendix.md:9:1"]
    );
    assert!(
        messages(&report, "unverified-rule")[0]
            .contains("`create.idempotent`, which is implemented but no test verifies it")
    );
    // The MUST of line 13 has no marker; the RFC sentence defines the keywords.
    assert_eq!(
        positions(&report, "missing-rule"),
        ["src/contract.md:13:12"]
    );
}

/// The rules book with every mistake mended and every binding rule verified.
fn clean_book() -> (Fixture, String, String) {
    let contract = CONTRACT
        .replace("r[Bad..Id]\n", "")
        .replace(
            "r[create.idempotent]\nThe same ID again.",
            "The same ID again.",
        )
        .replace("applies=submitt", "applies=submit")
        .replace(" and {{#rule create.idempotnt}}", "")
        .replace("\nr[dangling.marker]\n", "\n")
        .replace("A provider MUST log", "r[logs.secret]\nA provider MUST log");
    let appendix = APPENDIX.replace("r[not.here]\n", "");
    let fixture = Fixture::new(&[
        ("book.toml", TOML),
        ("src/contract.md", &contract),
        ("src/template.md", TEMPLATE),
        ("src/appendix.md", &appendix),
    ]);
    go_tree(fixture.root());
    // Every rule that binds a provider is verified: `blocking-cancel` in `pods`' own tests,
    // the others in a shared conformance suite.
    std::fs::write(
        fixture.root().join("repo/internal/provider/pods/pods_test.go"),
        "package pods\n\n// r[verify create-return.blocking-cancel]\nfunc TestCancel(t *testing.T) {}\n",
    )
    .unwrap();
    std::fs::write(
        fixture.root().join("repo/test/conformance/get_test.go"),
        "package conformance\n\n// r[verify get.not-found+2]\n// r[verify create.idempotent]\n// r[verify logs.secret]\nfunc TestAll(t *testing.T) {}\n",
    )
    .unwrap();
    (fixture, contract, appendix)
}

#[test]
fn a_clean_book_with_rules_has_no_rule_finding() {
    let (fixture, contract, appendix) = clean_book();
    let report = fixture.check();
    for check in RULE_CHECKS {
        assert!(
            of(&report, check).is_empty(),
            "{check}: {:?}",
            of(&report, check)
        );
    }
    // Without the tree nothing is known, and nothing is reported.
    let no_tree = Fixture::new(&[
        ("book.toml", &TOML.replace("source-root = \"repo\"\n", "")),
        ("src/contract.md", &contract),
        ("src/template.md", TEMPLATE),
        ("src/appendix.md", &appendix),
    ]);
    let report = no_tree.check();
    for check in RULE_CHECKS {
        assert!(
            of(&report, check).is_empty(),
            "{check}: {:?}",
            of(&report, check)
        );
    }
}

#[test]
fn markers_belong_to_another_preprocessor_without_contract_chapters() {
    // The Rust Reference's way: `r[...]` lines for mdbook-spec, no `contract` key.
    let text =
        "# Expressions\n\nr[expr.intro]\nAn expression MUST have a type.\n\nr[Not An Id]\nText.\n";
    let fixture = Fixture::new(&[
        (
            "book.toml",
            "[book]\ntitle = \"Reference\"\n\n[preprocessor.contract]\n",
        ),
        ("src/expressions.md", text),
    ]);
    let report = fixture.check();
    for check in RULE_CHECKS {
        assert!(of(&report, check).is_empty(), "{check}");
    }
    assert_eq!(fixture.chapter("expressions.md"), text, "byte for byte");
}

#[test]
fn the_rendered_book_has_anchors_links_and_the_matrix() {
    let contract = CONTRACT.replace("r[Bad..Id]\n", "");
    let fixture = Fixture::new(&[
        ("book.toml", TOML),
        ("src/contract.md", &contract),
        ("src/template.md", TEMPLATE),
        ("src/appendix.md", APPENDIX),
        (
            "src/links.md",
            "# Links\n\n[the rule](contract.md#r-create.idempotent) and [none](contract.md#r-nope).\n",
        ),
    ]);
    go_tree(fixture.root());
    // `source-root` is the top of a repository.
    std::fs::create_dir_all(fixture.root().join("repo/.git")).unwrap();
    // A link to a rule's anchor is not dangling; one to no rule is.
    assert_eq!(
        positions(&fixture.check(), "dangling-link"),
        ["src/links.md:3:49"]
    );
    let chapter = fixture.chapter("contract.md");
    assert!(chapter.contains(
        "<div class=\"rule\" id=\"r-create.idempotent\"><a class=\"rule-link\" href=\"#r-create.idempotent\" title=\"create.idempotent\">[create.idempotent]</a></div>\n\nCreate MUST be idempotent"
    ), "{chapter}");
    assert!(
        chapter.contains("See [`create.idempotent`](#r-create.idempotent)"),
        "{chapter}"
    );
    // The duplicate and the dangling marker stay as written.
    assert!(chapter.contains("r[create.idempotent]\nThe same ID again."));
    let appendix = fixture.chapter("appendix.md");
    let cells = crate::common::matrix_cells(&appendix);
    let cell = |id: &str, provider: &str| {
        cells
            .get(&(id.to_owned(), provider.to_owned()))
            .unwrap_or_else(|| panic!("no cell {id} {provider} in {appendix}"))
            .clone()
    };
    let pods = cell("create.idempotent", "pods");
    assert_eq!(
        (pods.status.as_str(), pods.text.as_str()),
        ("verified", "\u{2713} verified")
    );
    assert_eq!(
        pods.href.as_deref(),
        Some("https://example.com/team/operator/blob/HEAD/internal/provider/pods/pods_test.go#L3")
    );
    assert_eq!(
        pods.title.as_deref(),
        Some("verified: TestCreate (internal/provider/pods/pods_test.go:3)")
    );
    assert_eq!(cell("create.idempotent", "vms").status, "implemented");
    assert_eq!(
        cell("get.not-found", "vms").href.as_deref(),
        Some("https://example.com/team/operator/blob/HEAD/test/conformance/get_test.go#L4")
    );
    assert_eq!(
        cell("create-return.blocking-cancel", "vms").status,
        "not-bound"
    );
    assert_eq!(
        crate::common::matrix_foot(&appendix),
        ["verified of bound", "", "3 of 3", "1 of 2"]
    );
    // `source-root` a folder of the repository: the link's path is the file's in the repository.
    std::fs::remove_dir(fixture.root().join("repo/.git")).unwrap();
    std::fs::create_dir(fixture.root().join(".git")).unwrap();
    let appendix = fixture.chapter("appendix.md");
    let pods = crate::common::matrix_cells(&appendix)
        [&("create.idempotent".to_owned(), "pods".to_owned())]
        .clone();
    assert_eq!(
        pods.href.as_deref(),
        Some(
            "https://example.com/team/operator/blob/HEAD/repo/internal/provider/pods/pods_test.go#L3"
        )
    );
    // In no repository, where the test is, as the cell's title: a link would be a guess.
    std::fs::remove_dir(fixture.root().join(".git")).unwrap();
    let appendix = fixture.chapter("appendix.md");
    assert!(!appendix.contains("/blob/HEAD/"), "{appendix}");
    let pods = crate::common::matrix_cells(&appendix)
        [&("create.idempotent".to_owned(), "pods".to_owned())]
        .clone();
    assert_eq!(pods.href, None);
    assert_eq!(
        pods.title.as_deref(),
        Some("verified: TestCreate (internal/provider/pods/pods_test.go:3)")
    );

    let (fixture, _, _) = clean_book();
    let (result, out) = fixture.build();
    result.expect("the clean book builds");
    let html = fixture.html(&out, "contract.html");
    assert!(html.contains("<div class=\"rule\" id=\"r-create.idempotent\">"));
    assert!(
        html.contains("<p>Create MUST be idempotent by name"),
        "the labelled paragraph stays Markdown"
    );
}

#[test]
fn the_binary_reports_citations_in_code_at_their_place() {
    let fixture = rules_book();
    let (code, stdout, _) = run_in(fixture.root(), &["check", "--format", "json"]);
    assert_eq!(code, 1);
    assert_eq!(
        json_positions(&stdout, "stale-rule"),
        ["repo/internal/provider/pods/pods_test.go:7:13"]
    );
    let _ = binary();
}

#[test]
fn status_prints_each_built_providers_coverage() {
    let fixture = rules_book();
    let (code, human, _) = run_in(fixture.root(), &["status"]);
    assert_eq!(code, 0);
    assert!(
        human.contains(
            "src/appendix.md:5: `pods`, 3 of 3 rules verified, 0 implemented only, 0 uncovered"
        ),
        "{human}"
    );
    assert!(
        human.contains(
            "src/appendix.md:9: `vms`, 1 of 2 rules verified, 1 implemented only, 0 uncovered"
        ),
        "{human}"
    );
    let (_, json, _) = run_in(fixture.root(), &["status", "--format", "json"]);
    let status: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(status["providers"][1]["provider"], "vms");
    assert_eq!(status["providers"][1]["implemented"], 1);
    // Without the tree: what binds, and that nothing more is known.
    std::fs::write(
        fixture.root().join("book.toml"),
        TOML.replace("source-root = \"repo\"\n", ""),
    )
    .unwrap();
    let (_, human, _) = run_in(fixture.root(), &["status"]);
    assert!(human.contains("src/appendix.md:9: `vms`, bound by 2 rules; coverage unknown (book.toml sets no `source-root`)"), "{human}");
}

/// The operator fixture with its code: `after/`, then `code/` laid over it.
fn operator_with_code() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/operator");
    for state in ["after", "code"] {
        super::beyond::copy_tree(&fixtures.join(state), dir.path());
    }
    dir
}

#[test]
fn the_operator_fixtures_tests_give_the_matrix_real_findings() {
    let dir = operator_with_code();
    let (_, stdout, _) = run_in(dir.path(), &["check", "--format", "json"]);
    // `vms` implements `create.idempotent` and no test of it verifies it.
    assert_eq!(
        json_positions(&stdout, "unverified-rule"),
        ["docs/providers-existing.md:12:1"]
    );
    for check in RULE_CHECKS.iter().filter(|c| **c != "unverified-rule") {
        assert!(
            json_positions(&stdout, check).is_empty(),
            "{check}: {stdout}"
        );
    }
    let fixture_findings: Vec<serde_json::Value> = serde_json::from_str(&stdout).unwrap();
    assert!(
        fixture_findings
            .iter()
            .all(|f| f["path"] == "README.md" || f["check"] == "unverified-rule"),
        "only the README's em-dash, kept for other tests, and the gap: {stdout}"
    );
    let (code, human, _) = run_in(dir.path(), &["status"]);
    assert_eq!(code, 0);
    assert!(
        human.contains("docs/providers-existing.md:7: `pods`, 3 of 3 rules verified"),
        "{human}"
    );
    assert!(
        human.contains(
            "docs/providers-existing.md:12: `vms`, 1 of 2 rules verified, 1 implemented only"
        ),
        "{human}"
    );
    // The matrix as a build renders it: no repository address, so the test's name, file and
    // line are the cell's title.
    let (ctx, book) = mdbook_contract::load(dir.path(), "html").unwrap();
    let outcome = mdbook_contract::process(&ctx, book, std::path::PathBuf::new()).unwrap();
    let appendix = outcome
        .book
        .chapters()
        .find(|c| c.name == "Existing providers")
        .unwrap()
        .content
        .clone();
    let cells = crate::common::matrix_cells(&appendix);
    let cell = |id: &str, provider: &str| cells[&(id.to_owned(), provider.to_owned())].clone();
    let pods = cell("create.idempotent", "pods");
    assert_eq!(pods.status, "verified");
    assert_eq!(pods.href, None);
    assert!(
        pods.title
            .as_deref()
            .is_some_and(|t| t.starts_with("verified: ") && t.contains("pods_test.go:5)")),
        "{pods:?}"
    );
    assert_eq!(cell("create.idempotent", "vms").status, "implemented");
    assert_eq!(
        cell("create-return.submit-reports", "vms").status,
        "not-bound"
    );
    assert!(
        cell("list.marked-only", "vms")
            .title
            .is_some_and(|t| t.contains("list_test.go:6)"))
    );
    assert_eq!(
        crate::common::matrix_foot(&appendix),
        ["verified of bound", "", "3 of 3", "1 of 2"]
    );
}

#[test]
fn provider_paths_give_a_folder_to_one_provider() {
    let fixture = rules_book();
    // An end-to-end test of `pods` outside its package, in a folder not named after it:
    // shared until book.toml says whose.
    let e2e = fixture.root().join("repo/test/e2e/create");
    std::fs::create_dir_all(&e2e).unwrap();
    std::fs::write(
        e2e.join("create_test.go"),
        "package e2e\n\n// r[verify create.idempotent]\nfunc TestCreate(t *testing.T) {}\n",
    )
    .unwrap();
    let report = fixture.check();
    assert!(
        positions(&report, "unverified-rule").is_empty(),
        "shared, it verifies `vms` too"
    );
    let toml = format!(
        "{TOML}\n[preprocessor.contract.provider-paths]\npods = [\"test/e2e/create\"]\npod = [\"test/e2e\"]\n"
    );
    std::fs::write(fixture.root().join("book.toml"), toml).unwrap();
    let report = fixture.check();
    assert_eq!(
        positions(&report, "unverified-rule"),
        ["src/appendix.md:9:1"]
    );
    assert_eq!(positions(&report, "dangling-path"), ["book.toml:15:1"]);
    assert!(
        messages(&report, "dangling-path")[0]
            .contains("`pod`, which is not a provider of the book; did you mean `pods`?"),
        "{:?}",
        messages(&report, "dangling-path")
    );

    // A folder named after a provider is its own without a word of book.toml.
    std::fs::write(fixture.root().join("book.toml"), TOML).unwrap();
    let named = fixture.root().join("repo/test/e2e/pods");
    std::fs::create_dir_all(&named).unwrap();
    std::fs::rename(e2e.join("create_test.go"), named.join("create_test.go")).unwrap();
    let report = fixture.check();
    assert_eq!(
        positions(&report, "unverified-rule"),
        ["src/appendix.md:9:1"]
    );
}

#[test]
fn provider_paths_take_files_and_globs_and_say_a_path_that_names_nothing() {
    let fixture = rules_book();
    let e2e = fixture.root().join("repo/test/e2e");
    std::fs::create_dir_all(&e2e).unwrap();
    let verify = |file: &str| {
        std::fs::write(
            e2e.join(file),
            "package e2e\n\n// r[verify create.idempotent]\nfunc TestCreate(t *testing.T) {}\n",
        )
        .unwrap();
    };
    let vms_verified = |paths: &str| {
        let toml = format!("{TOML}\n[preprocessor.contract.provider-paths]\n{paths}");
        std::fs::write(fixture.root().join("book.toml"), toml).unwrap();
        let (_, status, _) = run_in(fixture.root(), &["status", "--format", "json"]);
        let status: serde_json::Value = serde_json::from_str(&status).unwrap();
        status["providers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["provider"] == "vms")
            .map(|p| p["verified"].as_u64().unwrap())
            .unwrap()
    };
    // `vms` only implements `create.idempotent`: a shared test verifying it counts for it.
    verify("pods_test.go");
    assert_eq!(vms_verified(""), 2);
    // A file named in `provider-paths` is that provider's alone.
    assert_eq!(vms_verified("pods = [\"test/e2e/pods_test.go\"]\n"), 1);
    // A glob too.
    verify("vms_create_test.go");
    let both = "pods = [\"test/e2e/pods_test.go\"]\nvms = [\"test/e2e/vms_*_test.go\", \"test/nothing/*.go\"]\n";
    assert_eq!(vms_verified(both), 2);
    let report = fixture.check();
    assert_eq!(positions(&report, "dangling-path"), ["book.toml:15:34"]);
    assert!(
        messages(&report, "dangling-path")[0].contains(
            "`provider-paths` gives `vms` the path `test/nothing/*.go`, a glob that matches no file or folder under `source-root`"
        ),
        "{:?}",
        messages(&report, "dangling-path")
    );
}

#[test]
fn a_marker_without_a_keyword_is_a_requirement() {
    // mdbook-spec's and tracey's rules have no RFC 2119 keyword: each is counted, bound and
    // reported uncovered like a MUST, and shown as `required`.
    let contract = CONTRACT.replace("r[Bad..Id]\n", "").replace(
        "## Axes",
        "r[list.sorted]\nList returns the names in order.\n\nr[list.paged]\nList MAY page.\n\n## Axes",
    );
    let fixture = Fixture::new(&[
        ("book.toml", TOML),
        ("src/contract.md", &contract),
        ("src/template.md", TEMPLATE),
        ("src/appendix.md", APPENDIX),
    ]);
    go_tree(fixture.root());
    let report = fixture.check();
    let unverified = messages(&report, "unverified-rule");
    assert!(
        unverified.iter().any(|m| m.contains("list.sorted")),
        "{unverified:?}"
    );
    assert!(
        !unverified.iter().any(|m| m.contains("list.paged")),
        "a MAY is optional: {unverified:?}"
    );
    let (_, status, _) = run_in(fixture.root(), &["status", "--format", "json"]);
    let status: serde_json::Value = serde_json::from_str(&status).unwrap();
    let pods = &status["providers"][0];
    assert_eq!(pods["provider"], "pods");
    assert!(
        pods["must_short"]
            .as_array()
            .unwrap()
            .iter()
            .any(|id| id == "list.sorted"),
        "{pods:#}"
    );
    let appendix = fixture.chapter("appendix.md");
    assert!(
        appendix.contains("<tr data-rule=\"list.sorted\" data-level=\"required\">"),
        "{appendix}"
    );
    let cells = crate::common::matrix_cells(&appendix);
    assert_eq!(
        cells[&("list.sorted".to_owned(), "pods".to_owned())].status,
        "uncovered"
    );
}

#[test]
fn a_rule_of_a_profile_not_stated_yet_may_bind() {
    // `vms` has not verified which profile it has on `create-return`: whether the rule of
    // `blocking` binds it is not known, and it is neither counted nor reported as a gap.
    let fixture = rules_book();
    let appendix = APPENDIX.replace(
        "{{#profile create-return submit internal/provider/vms}}",
        "{{#profile create-return unknown}}",
    );
    std::fs::write(fixture.root().join("src/appendix.md"), appendix).unwrap();
    let rendered = fixture.chapter("appendix.md");
    let cells = crate::common::matrix_cells(&rendered);
    let vms = &cells[&("create-return.blocking-cancel".to_owned(), "vms".to_owned())];
    assert_eq!(
        (vms.status.as_str(), vms.text.as_str()),
        ("profile-unknown", "? profile unknown")
    );
    let report = fixture.check();
    assert_eq!(
        positions(&report, "unverified-rule"),
        ["src/appendix.md:9:1"],
        "only `create.idempotent`"
    );
}

#[test]
fn a_shortcode_in_a_marker_is_malformed_not_a_crash() {
    let contract = CONTRACT.replace(
        "r[create.idempotent]\nCreate MUST",
        "r[create.idempotent tags={{#rule`get.not-found`}}]\nCreate MUST",
    );
    let fixture = Fixture::new(&[
        ("book.toml", TOML),
        ("src/contract.md", &contract),
        ("src/template.md", TEMPLATE),
        ("src/appendix.md", APPENDIX),
    ]);
    go_tree(fixture.root());
    let report = fixture.check();
    assert!(
        messages(&report, "malformed-rule")
            .iter()
            .any(|m| m.contains("holds no shortcode"))
    );
    // Rendering does not cut through the marker line.
    let chapter = fixture.chapter("contract.md");
    assert!(chapter.contains("r[create.idempotent tags="), "{chapter}");
}

#[test]
fn a_proposed_providers_tests_count_for_no_built_provider() {
    let fixture = rules_book();
    let appendix = format!(
        "{APPENDIX}\n## `nova` {{.provider .proposed}}\n\nCreate blocks: {{{{#profile create-return blocking internal/provider/nova/nova.go}}}}.\n"
    );
    std::fs::write(fixture.root().join("src/appendix.md"), appendix).unwrap();
    let nova = fixture.root().join("repo/internal/provider/nova");
    std::fs::create_dir_all(&nova).unwrap();
    // `create.idempotent` verified only in the proposed provider's folder.
    std::fs::write(
        nova.join("nova_test.go"),
        "package nova\n\n// r[verify create.idempotent]\nfunc TestCreate(t *testing.T) {}\n",
    )
    .unwrap();
    let report = fixture.check();
    assert_eq!(
        positions(&report, "unverified-rule"),
        ["src/appendix.md:9:1"],
        "vms stays unverified"
    );
}

#[test]
fn a_citation_of_a_version_the_rule_never_had_is_stale() {
    let fixture = rules_book();
    let e2e = fixture.root().join("repo/test/e2e");
    std::fs::create_dir_all(&e2e).unwrap();
    std::fs::write(
        e2e.join("get_test.go"),
        "package e2e\n\n// r[verify get.not-found+3]\n",
    )
    .unwrap();
    let report = fixture.check();
    assert_eq!(
        positions(&report, "stale-rule"),
        [
            "repo/internal/provider/pods/pods_test.go:7:13",
            "repo/test/e2e/get_test.go:3:13"
        ]
    );
    assert!(
        messages(&report, "stale-rule")[1]
            .ends_with("which is at version 2: the rule never had that version")
    );
}
