//! The book's side of provider reports: `provider-reports` in book.toml reads the reports that
//! `mdbook-contract report` made in two providers' git repositories (`alpha`, whose
//! `test_get` failed, on GitHub; `beta`, all passed, on GitLab), and the matrix, `status`,
//! `export` and `check` show them as local evidence; a provider without a report, a reworded
//! rule, an unknown rule, a malformed report and a declared status, each made to appear.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{matrix_cells, run_in};
use crate::provider_reports::{PROVIDERS, Repos, head, write};

/// The three repositories, `files` (repository, path, text) written into them, each
/// provider's report (made with `args`) written into the book's `reports/`, and
/// `provider-reports` set.
fn reported(files: &[(&str, &str, &str)], args: &[&str]) -> Repos {
    let repos = Repos::new();
    for (repo, path, text) in files {
        write(&repos.path(repo), &[(path, text)]);
    }
    for name in ["alpha", "beta"] {
        let report = repos.report(name, args);
        write(
            &repos.path("book"),
            &[(
                &format!("reports/{name}.json"),
                &serde_json::to_string_pretty(&report).unwrap(),
            )],
        );
    }
    read_reports(&repos);
    repos
}

/// Sets `provider-reports` in the book to the reports in its `reports/`.
fn read_reports(repos: &Repos) {
    let toml = repos.path("book/book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        format!("{text}provider-reports = [\"reports/*.json\"]\n"),
    )
    .unwrap();
}

fn book(repos: &Repos) -> PathBuf {
    repos.path("book")
}

/// `check --format json`: the exit code and the findings.
fn findings(root: &Path) -> (i32, Vec<Value>) {
    let (code, stdout, stderr) = run_in(root, &["check", "--format", "json"]);
    assert!(code == 0 || code == 1, "{stderr}");
    (code, serde_json::from_str(&stdout).unwrap())
}

fn of<'a>(findings: &'a [Value], check: &str) -> Vec<&'a str> {
    findings
        .iter()
        .filter(|f| f["check"] == check)
        .map(|f| f["message"].as_str().unwrap())
        .collect()
}

/// The rule matrix of the providers' chapter, as built: (rule, provider) to status.
/// Through the binary, as mdBook runs it: the protocol's book on standard input (with every
/// check a warning, so that the build writes the book whatever the reports say).
fn cells(root: &Path) -> std::collections::BTreeMap<(String, String), crate::common::MatrixCell> {
    let (mut ctx, book) = mdbook_contract::load(root, "html").unwrap();
    for check in mdbook_contract::Check::ALL {
        let key = format!("preprocessor.contract.checks.{}", check.name());
        ctx.config.set(&key, "warning").unwrap();
    }
    let input = serde_json::to_vec(&(&ctx, &book)).unwrap();
    let mut command = std::process::Command::new(crate::common::binary());
    command.current_dir(root);
    let (code, stdout, stderr) = crate::common::run_binary(&mut command, &input);
    assert_eq!(code, 0, "{stderr}");
    let book: Value = serde_json::from_str(&stdout).unwrap();
    let chapter = book["items"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|item| {
            let chapter = &item["Chapter"];
            (chapter["name"] == "Providers").then(|| chapter["content"].as_str().unwrap())
        })
        .unwrap();
    matrix_cells(chapter)
}

fn status_of(
    cells: &std::collections::BTreeMap<(String, String), crate::common::MatrixCell>,
    rule: &str,
    provider: &str,
) -> String {
    cells[&(rule.to_owned(), provider.to_owned())]
        .status
        .clone()
}

#[test]
fn the_books_coverage_is_what_each_report_says_and_a_reported_failure_fails_check() {
    let repos = reported(&[], &[]);
    let root = book(&repos);
    let cells = cells(&root);
    let seen: Vec<String> = ["store.put", "store.get", "store.list"]
        .iter()
        .flat_map(|rule| {
            let cells = &cells;
            ["alpha", "beta"]
                .into_iter()
                .map(move |p| format!("{rule} {p} {}", status_of(cells, rule, p)))
        })
        .collect();
    assert_eq!(
        seen,
        [
            "store.put alpha passed",
            "store.put beta passed",
            "store.get alpha failed",
            "store.get beta passed",
            "store.list alpha uncovered",
            "store.list beta uncovered",
        ]
    );
    // Each cell links to the line in the provider's repository at the report's commit.
    let alpha = head(&repos.path("alpha"));
    let beta = head(&repos.path("beta"));
    assert_eq!(
        cells[&("store.get".to_owned(), "alpha".to_owned())]
            .href
            .as_deref(),
        Some(format!("https://github.com/acme/alpha/blob/{alpha}/tests/test_store.py#L6").as_str())
    );
    assert_eq!(
        cells[&("store.put".to_owned(), "beta".to_owned())]
            .href
            .as_deref(),
        Some(format!("https://gitlab.com/acme/beta/-/blob/{beta}/tests/test_store.py#L1").as_str())
    );
    let (code, found) = findings(&root);
    assert_eq!(code, 1, "{found:#?}");
    assert_eq!(
        of(&found, "failing-rule"),
        [
            "`alpha` fails the rule `store.get`: its test `test_get` failed: AssertionError: got None"
        ]
    );
    let failing = found.iter().find(|f| f["check"] == "failing-rule").unwrap();
    assert!(
        failing["help"]
            .as_str()
            .unwrap()
            .contains("tests/test_store.py:6"),
        "{failing:#}"
    );
    // No finding of a stale or unknown rule, nor a malformed report, in a consistent set.
    for check in [
        "stale-rule",
        "unknown-rule",
        "malformed-results",
        "malformed-config",
    ] {
        assert!(of(&found, check).is_empty(), "{check}: {found:#?}");
    }
    let (_, export, _) = run_in(&root, &["export"]);
    let export: Value = serde_json::from_str(&export).unwrap();
    let coverage: Vec<String> = export["coverage"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| {
            c["rules"].as_array().unwrap().iter().map(move |r| {
                format!(
                    "{} {} {}",
                    c["provider"].as_str().unwrap(),
                    r["rule"].as_str().unwrap(),
                    r["status"].as_str().unwrap()
                )
            })
        })
        .collect();
    assert_eq!(
        coverage,
        [
            "alpha store.put passed",
            "alpha store.get failed",
            "alpha store.list uncovered",
            "beta store.put passed",
            "beta store.get passed",
            "beta store.list uncovered",
        ]
    );
    assert_eq!(
        export["coverage"][0]["rules"][1]["citation"]["url"],
        format!("https://github.com/acme/alpha/blob/{alpha}/tests/test_store.py#L6").as_str()
    );
    let schema: Value = serde_json::from_str(mdbook_contract::CONTRACT_SCHEMA).unwrap();
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .unwrap();
    assert!(validator.is_valid(&export), "{export:#}");
    let (_, status, stderr) = run_in(&root, &["status"]);
    assert!(stderr.is_empty(), "{stderr}");
    assert!(
        status.contains(&format!("note: `alpha`'s report `reports/alpha.json` (of https://github.com/acme/alpha at {alpha}): 3 citations of rules with their tests' results, 0 declared without evidence")),
        "{status}"
    );
}

#[test]
fn a_provider_without_a_report_is_no_report_never_passed_and_status_names_it() {
    let repos = reported(&[], &[]);
    let root = book(&repos);
    let providers = PROVIDERS.to_owned() + "\n## `gamma` {.provider}\n\nThe third store.\n";
    write(&root, &[("src/providers.md", &providers)]);
    let cells = cells(&root);
    for rule in ["store.put", "store.get", "store.list"] {
        assert_eq!(status_of(&cells, rule, "gamma"), "no-report");
    }
    let (_, found) = findings(&root);
    assert_eq!(
        of(&found, "unverified-rule")
            .into_iter()
            .filter(|m| m.contains("gamma"))
            .collect::<Vec<_>>(),
        ["`gamma` has no report among `provider-reports`: no rule is known to be met by it"]
    );
    let (_, status, _) = run_in(&root, &["status"]);
    assert!(
        status.contains("note: `gamma` has no report among `provider-reports`: every rule that binds it is `no report`"),
        "{status}"
    );
    assert!(
        status.contains("`gamma`, 0 of 3 rules passed, 0 failed, 0 skipped, 0 not run, 0 implemented only, 0 uncovered, 3 no report"),
        "{status}"
    );
}

#[test]
fn a_rule_reworded_after_the_reports_is_flagged_naming_the_report_and_what_to_do() {
    let repos = reported(&[], &[]);
    let root = book(&repos);
    let contract = root.join("src/contract.md");
    let text = std::fs::read_to_string(&contract).unwrap();
    std::fs::write(&contract, text.replace("store the value whole", "store it")).unwrap();
    let (_, found) = findings(&root);
    assert_eq!(
        of(&found, "stale-rule"),
        [
            "the provider report `reports/alpha.json` of `alpha` was made against another text or version of the rule `store.put`: what it says of the rule is of that text",
            "the provider report `reports/beta.json` of `beta` was made against another text or version of the rule `store.put`: what it says of the rule is of that text",
        ]
    );
    // The reworded rule's cells say the reports checked another text; the others do not.
    let cells = cells(&root);
    let put = &cells[&("store.put".to_owned(), "alpha".to_owned())];
    assert!(put.text.ends_with("(older text)"), "{put:?}");
    assert!(
        put.title.as_deref().unwrap().contains("run its CI again"),
        "{put:?}"
    );
    let get = &cells[&("store.get".to_owned(), "beta".to_owned())];
    assert!(!get.text.contains("older text"), "{get:?}");
    let stale = found.iter().find(|f| f["check"] == "stale-rule").unwrap();
    assert_eq!(stale["path"], "book.toml", "{stale:#}");
    assert!(
        stale["help"]
            .as_str()
            .unwrap()
            .starts_with("run `alpha`'s CI again"),
        "{stale:#}"
    );
}

#[test]
fn a_malformed_report_is_one_finding_naming_the_file_and_the_others_count() {
    let repos = reported(&[], &[]);
    let root = book(&repos);
    write(
        &root,
        &[(
            "reports/broken.json",
            "{\"schema_version\": \"1.0.0\", \"provider\": ",
        )],
    );
    write(
        &root,
        &[("reports/other.json", "{\"schema_version\": \"2.0.0\"}")],
    );
    let alpha = std::fs::read_to_string(root.join("reports/alpha.json")).unwrap();
    write(&root, &[("reports/alpha2.json", &alpha)]);
    let (_, found) = findings(&root);
    let malformed = of(&found, "malformed-results");
    assert_eq!(malformed.len(), 3, "{malformed:#?}");
    for start in [
        "the provider report `reports/alpha2.json` is a second report of `alpha`; `reports/alpha.json` is read and this one is not",
        "the provider report `reports/broken.json` is not JSON",
        "the provider report `reports/other.json` has `schema_version` 2.0.0",
    ] {
        assert!(
            malformed.iter().any(|m| m.starts_with(start)),
            "{start} in {malformed:#?}"
        );
    }
    // The readable reports still count.
    assert_eq!(status_of(&cells(&root), "store.get", "alpha"), "failed");
}

#[test]
fn declared_statuses_are_declared_never_passed_and_a_citation_overrides_them() {
    let repos = reported(
        &[
            (
                "alpha",
                "declared.toml",
                "[declared]\n\"store.list\" = \"implemented\"\n\"store.put\" = \"not-implemented\"\n",
            ),
            (
                "beta",
                "declared.toml",
                "[declared]\n\"store.list\" = \"not-applicable\"\n",
            ),
        ],
        &["--declared", "declared.toml"],
    );
    let root = book(&repos);
    let cells = cells(&root);
    assert_eq!(status_of(&cells, "store.list", "alpha"), "declared");
    // A citation overrides the declared status.
    assert_eq!(status_of(&cells, "store.put", "alpha"), "passed");
    assert_eq!(status_of(&cells, "store.list", "beta"), "not-bound");
    let (_, export, _) = run_in(&root, &["export"]);
    let export: Value = serde_json::from_str(&export).unwrap();
    assert_eq!(
        export["coverage"][0]["rules"][2]["status"], "declared",
        "{export:#}"
    );
    let (_, found) = findings(&root);
    assert!(
        of(&found, "unverified-rule").contains(
            &"`alpha` is bound by the rule `store.list`, which its report declares implemented, with no citation or test result"
        ),
        "{found:#?}"
    );
    let (_, status, _) = run_in(&root, &["status"]);
    assert!(
        status.contains("`alpha`, 1 of 3 rules passed, 1 failed, 0 skipped, 0 not run, 0 implemented only, 0 uncovered, 1 declared (no evidence)"),
        "{status}"
    );
    let (code, _, _) = run_in(&root, &["status", "--min-verified", "100"]);
    assert_eq!(code, 1, "a declared rule is not verified");
}

#[test]
fn a_report_of_an_unknown_rule_or_provider_is_a_finding() {
    let repos = reported(
        &[(
            "alpha",
            "store/delete.py",
            "# r[impl store.delete]\ndef delete(key):\n    pass\n",
        )],
        &[],
    );
    let root = book(&repos);
    let gamma = repos
        .report("beta", &[])
        .to_string()
        .replace("\"provider\":\"beta\"", "\"provider\":\"betta\"");
    write(&root, &[("reports/gamma.json", &gamma)]);
    let (_, found) = findings(&root);
    assert_eq!(
        of(&found, "unknown-rule"),
        [
            "the provider report `reports/alpha.json` of `alpha` names the rule `store.delete`, which the contract does not have; did you mean `store.get`?"
        ]
    );
    assert_eq!(
        of(&found, "malformed-results"),
        [
            "the provider report `reports/gamma.json` is of `betta`, which is not a built provider of the book: it counts for no one; did you mean `beta`?"
        ]
    );
}

#[test]
fn a_report_without_results_verifies_and_another_hosts_citation_is_plain_text() {
    let repos = Repos::new();
    for name in ["alpha", "beta"] {
        let args = [
            "report",
            "--book",
            "../book",
            "--provider",
            name,
            "--repository",
            "https://git.example.org/acme/store",
        ];
        let (code, report, stderr) = run_in(&repos.path(name), &args);
        assert_eq!(code, 0, "{stderr}");
        write(&book(&repos), &[(&format!("reports/{name}.json"), &report)]);
    }
    read_reports(&repos);
    let cells = cells(&book(&repos));
    let get = &cells[&("store.get".to_owned(), "alpha".to_owned())];
    // No results were read in alpha's repository: its failing test is not known to fail.
    assert_eq!(get.status, "verified", "{get:?}");
    assert_eq!(get.href, None, "no link for a host whose form is not known");
    assert!(
        get.title
            .as_deref()
            .unwrap()
            .contains("tests/test_store.py:6"),
        "{get:?}"
    );
    let (_, found) = findings(&book(&repos));
    assert!(of(&found, "failing-rule").is_empty(), "{found:#?}");
}

#[test]
fn local_results_beside_reports_are_not_said_to_disagree_with_them_nor_stale() {
    let repos = reported(&[], &[]);
    let root = book(&repos);
    write(
        &root,
        &[("results/local.xml", &crate::provider_reports::junit(None))],
    );
    let toml = root.join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let text = text.replace(
        "[preprocessor.contract]\n",
        "[preprocessor.contract]\nsource-root = \".\"\ntest-results = [\"results/*.xml\"]\n",
    );
    std::fs::write(&toml, text).unwrap();
    let (_, status, stderr) = run_in(&root, &["status"]);
    assert!(stderr.is_empty(), "{stderr}");
    assert!(!status.contains("disagree"), "{status}");
    assert!(!status.contains("flaky"), "{status}");
    // The reports under the source tree are not source: their text cites nothing.
    assert!(!status.contains("stands in no test"), "{status}");
    assert!(
        status.contains("`reports/alpha.json (results/pytest.xml of alpha)`"),
        "{status}"
    );
    let (_, found) = findings(&root);
    assert!(of(&found, "stale-results").is_empty(), "{found:#?}");
    assert_eq!(status_of(&cells(&root), "store.get", "alpha"), "failed");
    assert_eq!(status_of(&cells(&root), "store.get", "beta"), "passed");
}

#[test]
fn from_seven_providers_a_cell_is_its_mark_and_its_word_is_its_label() {
    let repos = reported(&[], &[]);
    let root = book(&repos);
    // Two providers: each cell says its word, with no label of its own.
    let two = cells(&root);
    let get = &two[&("store.get".to_owned(), "alpha".to_owned())];
    assert_eq!(
        (get.text.as_str(), get.label.as_deref()),
        ("\u{2717} failed", None)
    );
    // Seven (five without a report): the mark alone, the word its label, the link kept.
    let mut providers = PROVIDERS.to_owned();
    for name in ["gamma", "delta", "epsilon", "zeta", "eta"] {
        providers.push_str(&format!("\n## `{name}` {{.provider}}\n\nNo report yet.\n"));
    }
    write(&root, &[("src/providers.md", &providers)]);
    let seven = cells(&root);
    let get = &seven[&("store.get".to_owned(), "alpha".to_owned())];
    assert_eq!(
        (get.text.as_str(), get.label.as_deref()),
        ("\u{2717}", Some("failed"))
    );
    assert!(
        get.href
            .as_deref()
            .unwrap()
            .ends_with("tests/test_store.py#L6"),
        "{get:?}"
    );
    let put = &seven[&("store.put".to_owned(), "beta".to_owned())];
    assert_eq!(
        (put.text.as_str(), put.label.as_deref()),
        ("\u{2713}", Some("passed"))
    );
    let none = &seven[&("store.put".to_owned(), "eta".to_owned())];
    assert_eq!(
        (none.text.as_str(), none.label.as_deref()),
        ("\u{2205}", Some("no report"))
    );
}
