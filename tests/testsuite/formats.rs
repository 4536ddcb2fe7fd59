//! `check --format sarif` against the published SARIF 2.1.0 schema, and `--format markdown`
//! against `--format json`, both from the binary on a book with errors, warnings, a finding in
//! book.toml and one with a related place.

use std::path::Path;

use serde_json::Value;

use super::common::{Fixture, contract_book};

/// The OASIS schema, vendored: `tests/fixtures/sarif/sarif-schema-2.1.0.json`.
///
/// One pattern of the published schema, on the `language` of a run and of a tool component
/// (which this tool never writes), is not a well-formed regular expression
/// (`...-[a-zA-Z]{2}]?$`, a stray `]`), and the validator refuses to compile a schema with it;
/// it is read as the two-letter language with an optional region it means,
/// `^[a-zA-Z]{2}(-[a-zA-Z]{2})?$`. Everything else is as published.
fn sarif_validator() -> jsonschema::Validator {
    const BROKEN: &str = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sarif/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(text.matches(BROKEN).count(), 2);
    let text = text.replace(BROKEN, r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#);
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

/// The contract book with an unknown axis (an error with a did-you-mean), a second claim on
/// one axis (a note: first claim here), an em-dash, and `links` ordered after this
/// preprocessor (a finding in book.toml).
fn book_with_findings() -> Fixture {
    let mut files = contract_book();
    files.push((
        "book.toml",
        "[book]\ntitle = \"Fixture | formats\"\n\n[preprocessor.contract]\ncontract = [\"contract.md\"]\ntemplate = [\"template.md\"]\n",
    ));
    files.push((
        "src/extra.md",
        "# Extra\n\nReady: {{#axis readines}} \u{2014} see above.\n\n{{#include part.txt}}\n",
    ));
    files.push(("src/part.txt", "Included.\n"));
    let fixture = Fixture::new(&files);
    let appendix = fixture.root().join("src/appendix/existing.md");
    let text = std::fs::read_to_string(&appendix).unwrap();
    std::fs::write(
        &appendix,
        text.replace(
            "Create returns at once:",
            "Twice: {{#profile readiness immediate `newWithClient`}}. Create returns at once:",
        ),
    )
    .unwrap();
    fixture
}

fn run(dir: &Path, format: &str) -> (i32, String) {
    let output = std::process::Command::new(super::common::binary())
        .args(["check", "--format", format])
        .current_dir(dir)
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

#[test]
fn sarif_is_valid_against_the_published_schema_and_says_what_json_says() {
    let book = book_with_findings();
    let (code, sarif) = run(book.root(), "sarif");
    assert_eq!(code, 1);
    let log: Value = serde_json::from_str(&sarif).unwrap();
    let validator = sarif_validator();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");

    let (_, json) = run(book.root(), "json");
    let findings: Vec<Value> = serde_json::from_str(&json).unwrap();
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), mdbook_contract::Check::ALL.len());
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), findings.len());
    assert!(findings.len() >= 4, "{json}");
    for (result, finding) in results.iter().zip(&findings) {
        assert_eq!(result["ruleId"], finding["check"]);
        let rule = &rules[result["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], finding["check"]);
        assert_eq!(result["level"], finding["severity"]);
        assert!(
            result["message"]["text"]
                .as_str()
                .unwrap()
                .starts_with(finding["message"].as_str().unwrap())
        );
        let place = &result["locations"][0]["physicalLocation"];
        assert_eq!(place["artifactLocation"]["uri"], finding["path"]);
        assert_eq!(place["region"]["startLine"], finding["line"]);
        assert_eq!(place["region"]["startColumn"], finding["column"]);
    }
    let checks: Vec<&str> = findings
        .iter()
        .map(|f| f["check"].as_str().unwrap())
        .collect();
    for check in [
        "leftover-directive",
        "unknown-axis",
        "em-dash",
        "duplicate-claim",
    ] {
        assert!(checks.contains(&check), "{checks:?}");
    }
    let duplicate = results
        .iter()
        .find(|r| r["ruleId"] == "duplicate-claim")
        .unwrap();
    assert!(
        duplicate["message"]["text"]
            .as_str()
            .unwrap()
            .contains("\nnote: first claim here: src/appendix/existing.md:"),
        "{duplicate}"
    );
}

#[test]
fn the_schema_test_can_fail() {
    // The validator rejects what SARIF does not allow, so a passing test above means something.
    let book = book_with_findings();
    let (_, sarif) = run(book.root(), "sarif");
    let validator = sarif_validator();
    let mut log: Value = serde_json::from_str(&sarif).unwrap();
    log["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!validator.is_valid(&log));
    let mut log: Value = serde_json::from_str(&sarif).unwrap();
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        Value::from(0);
    assert!(!validator.is_valid(&log));
}

/// The `| Check | Errors | Warnings |` rows of the markdown summary.
fn per_check_table(markdown: &str) -> Vec<(String, usize, usize)> {
    let section = markdown
        .split("### Findings per check")
        .nth(1)
        .expect("a findings section");
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            (
                cells[0].trim_matches('`').to_owned(),
                cells[1].parse().unwrap(),
                cells[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_markdown_summary_counts_what_json_lists() {
    let book = book_with_findings();
    let (code, markdown) = run(book.root(), "markdown");
    assert_eq!(code, 1);
    let (_, json) = run(book.root(), "json");
    let findings: Vec<Value> = serde_json::from_str(&json).unwrap();
    let mut expected: Vec<(String, usize, usize)> = Vec::new();
    for f in &findings {
        let check = f["check"].as_str().unwrap().to_owned();
        let error = f["severity"] == "error";
        match expected.iter_mut().find(|(c, _, _)| *c == check) {
            Some((_, e, w)) => {
                *e += usize::from(error);
                *w += usize::from(!error);
            }
            None => expected.push((check, usize::from(error), usize::from(!error))),
        }
    }
    let mut table = per_check_table(&markdown);
    table.sort();
    expected.sort();
    assert_eq!(table, expected, "{markdown}");
    let errors = findings.iter().filter(|f| f["severity"] == "error").count();
    let warnings = findings.len() - errors;
    assert!(
        markdown.contains(&format!("| **All** | **{errors}** | **{warnings}** |")),
        "{markdown}"
    );
    // The title's `|` is escaped; the axes and the claims per provider as the matrix has them.
    assert!(
        markdown.starts_with("## mdbook-contract: Fixture \\| formats\n"),
        "{markdown}"
    );
    assert!(
        markdown.contains("2 axes: `readiness`, `create-return`."),
        "{markdown}"
    );
    assert!(
        markdown.contains("| `pods` | built | 2 | 0 | 0 |"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| `vms` | proposed | 1 | 1 | 0 |"),
        "{markdown}"
    );
    // Each error listed with its place.
    for f in findings.iter().filter(|f| f["severity"] == "error") {
        let place = format!(
            "- `{}:{}:{}` `{}`",
            f["path"].as_str().unwrap(),
            f["line"],
            f["column"],
            f["check"].as_str().unwrap()
        );
        assert!(markdown.contains(&place), "{place} in {markdown}");
    }
}

#[test]
fn a_clean_book_summary_says_so() {
    let book = Fixture::new(&contract_book());
    let (code, markdown) = run(book.root(), "markdown");
    assert_eq!(code, 0, "{markdown}");
    assert!(markdown.contains("**1 warning.**"), "{markdown}");
    assert_eq!(
        per_check_table(&markdown),
        [("unknown-claim".to_owned(), 0, 1)]
    );
    assert!(!markdown.contains("### Errors"), "{markdown}");
    let (_, sarif) = run(book.root(), "sarif");
    let log: Value = serde_json::from_str(&sarif).unwrap();
    assert!(sarif_validator().is_valid(&log));
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 1);
}

#[test]
fn text_is_the_default_formats_other_name() {
    let book = book_with_findings();
    let (code, human) = run(book.root(), "human");
    let (same, text) = run(book.root(), "text");
    assert_eq!((same, &text), (code, &human));
    for command in [
        &["status", "--format", "text"][..],
        &["diff", "HEAD", "--format", "text"][..],
    ] {
        let (_, _, stderr) = crate::common::run_in(book.root(), command);
        assert!(!stderr.contains("invalid value"), "{command:?}: {stderr}");
    }
}
