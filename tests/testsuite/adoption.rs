//! Adopting the checks on a specification that already exists (`tests/fixtures/adoption`): a
//! spec of 160 rules in tracey's syntax (IDs with `_`, multi-paragraph rules in blockquotes),
//! cited from a Rust crate and a TypeScript dashboard, a book of three lines of book.toml, and
//! some 265 findings on the first run. Through the binary.

use std::path::Path;

use serde_json::Value;

use crate::common::{Fixture, json_positions, run_in};

fn adoption() -> Fixture {
    Fixture::copy_of("adoption", &[])
}

fn book(fixture: &Fixture) -> std::path::PathBuf {
    fixture.root().join("book")
}

fn findings(dir: &Path, args: &[&str]) -> (i32, String, Vec<Value>) {
    let args = [&["check", "--format", "json"], args].concat();
    let (code, stdout, stderr) = run_in(dir, &args);
    assert!(code == 0 || code == 1, "{stdout}{stderr}");
    (
        code,
        stdout.clone(),
        serde_json::from_str(&stdout).expect("JSON"),
    )
}

#[test]
fn every_citation_is_read_whatever_the_language_and_status_says_how_many() {
    let fixture = adoption();
    let (code, status, stderr) = run_in(&book(&fixture), &["status"]);
    assert_eq!(code, 0, "{stderr}");
    // 160 rules: `config.item_4` and the like with `_`, the blockquote ones too; the marker in
    // a code block is an example.
    assert!(
        status.contains("`main`, 23 of 160 rules verified, 91 implemented only, 46 uncovered"),
        "{status}"
    );
    // Rust and TypeScript (and TSX) are read; the README's fenced example is not.
    assert!(
        status
            .contains("the source tree (`../crates`): 4 files read, 131 citations of rules found"),
        "{status}"
    );
    assert!(!status.contains("no filled specs"), "{status}");
    let export = run_in(&book(&fixture), &["export"]).1;
    let export: Value = serde_json::from_str(&export).unwrap();
    let ids: Vec<&str> = export["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"config.item_4") && ids.contains(&"serve.rule-5"));
    assert!(!ids.contains(&"example.not_a_rule"));
    // A blockquote rule's text is the rest of its quote, both paragraphs.
    let rule = export["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "cache.rule-5")
        .unwrap();
    assert_eq!(
        rule["text"],
        "The cache layer MUST keep step 5 in order. Its second paragraph says why step 5 matters."
    );
}

#[test]
fn a_zero_is_never_silent() {
    let fixture = adoption();
    std::fs::remove_dir_all(fixture.root().join("crates/engine")).unwrap();
    std::fs::remove_dir_all(fixture.root().join("crates/dashboard/src")).unwrap();
    let (_, status, _) = run_in(&book(&fixture), &["status"]);
    assert!(
        status.contains("the source tree (`../crates`): 0 files read, 0 citations of rules found; a test cites a rule in a comment, `// r[verify ID]`"),
        "{status}"
    );
}

#[test]
fn the_first_run_says_how_to_adopt() {
    let fixture = adoption();
    let (code, stdout, _) = run_in(&book(&fixture), &["check", "--format", "short"]);
    assert_eq!(code, 1);
    let last = stdout.lines().last().unwrap();
    assert_eq!(
        last,
        "mdbook-contract: 120 `must-cite` errors: to adopt the checks on an existing book, record today's findings so that only new ones fail, with `mdbook-contract check --write-baseline contract-baseline.txt` and `baseline = \"contract-baseline.txt\"` under `[preprocessor.contract]` in book.toml; or lower a check, with `must-cite = \"warning\"` (or `\"off\"`) under `[preprocessor.contract.checks]`"
    );
}

#[test]
fn a_baseline_keeps_the_known_findings_and_fails_on_new_ones() {
    let fixture = adoption();
    let book = book(&fixture);
    let (code, stdout, stderr) = run_in(
        &book,
        &["check", "--write-baseline", "contract-baseline.txt"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("wrote 265 findings to contract-baseline.txt"),
        "{stdout}"
    );
    let baseline = std::fs::read_to_string(book.join("contract-baseline.txt")).unwrap();
    // Sorted and stable: written again, the same bytes.
    run_in(
        &book,
        &["check", "--write-baseline", "contract-baseline.txt"],
    );
    assert_eq!(
        std::fs::read_to_string(book.join("contract-baseline.txt")).unwrap(),
        baseline
    );
    let lines: Vec<&str> = baseline.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 265);
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    assert_eq!(lines, sorted);
    assert!(
        lines.contains(&"em-dash\tsrc/spec.md\tThe config layer MUST handle case 7 \u{2014} as the code does.\tem-dash (U+2014) in prose"),
        "{baseline}"
    );

    // With the key in book.toml, the build passes and says what it knows.
    let toml = book.join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        format!("{text}baseline = \"contract-baseline.txt\"\n"),
    )
    .unwrap();
    let (code, short, _) = run_in(&book, &["check", "--format", "short"]);
    assert_eq!(code, 0, "{short}");
    assert_eq!(
        short,
        "mdbook-contract: no findings; 265 known findings from contract-baseline.txt\n"
    );
    let (built, _) = Fixture::build_at(&book);
    built.unwrap();
    // A build through mdBook's protocol says the count in one line, though nothing is new.
    let input = crate::common::protocol_input(&book);
    let (code, _, stderr) = crate::common::run_binary(
        std::process::Command::new(crate::common::binary()).current_dir(&book),
        &input,
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(
            "mdbook-contract: no findings; 265 known findings from contract-baseline.txt"
        ),
        "{stderr}"
    );
    // JSON lists them, marked.
    let (_, _, all) = findings(&book, &[]);
    assert_eq!(all.len(), 265);
    assert!(all.iter().all(|f| f["baselined"] == true));

    // Three lines at the top of the spec move every finding down: still known.
    let spec = book.join("src/spec.md");
    let original = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(&spec, format!("<!-- Draft. -->\n\nNotes.\n{original}")).unwrap();
    let (code, short, _) = run_in(&book, &["check", "--format", "short"]);
    assert_eq!(code, 0, "{short}");

    // A new em-dash fails the build, with that finding alone.
    let new = original.replace(
        "The engine reads a project,",
        "The engine reads a project \u{2014} all of it,",
    );
    std::fs::write(&spec, &new).unwrap();
    let (code, stdout, all) = findings(&book, &[]);
    assert_eq!(code, 1);
    let fresh: Vec<&Value> = all
        .iter()
        .filter(|f| f.get("baselined").is_none())
        .collect();
    assert_eq!(fresh.len(), 1, "{stdout}");
    assert_eq!(
        json_positions(&serde_json::to_string(&fresh).unwrap(), "em-dash"),
        ["src/spec.md:3:28"]
    );

    // A finding fixed (a SHOULD no code cites, taken out): the baseline can shrink, said at
    // its line of the baseline, as a warning.
    let fixed = original.replace(
        "r[config.rule-3]\nThe config layer SHOULD handle case 3.\n\n",
        "",
    );
    assert_ne!(fixed, original);
    std::fs::write(&spec, fixed).unwrap();
    let (code, stdout, all) = findings(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    let line = baseline
        .lines()
        .position(|l| l.starts_with("unverified-rule\t") && l.contains("`config.rule-3`"))
        .unwrap()
        + 1;
    assert_eq!(
        json_positions(&stdout, "outdated-baseline"),
        [format!("contract-baseline.txt:{line}:1")]
    );
    let outdated = all
        .iter()
        .find(|f| f["check"] == "outdated-baseline")
        .unwrap();
    assert_eq!(outdated["severity"], "warning");
    let message = outdated["message"].as_str().unwrap();
    assert!(
        message.starts_with("the `unverified-rule` finding in `src/main.md` (\"")
            && message.contains("`config.rule-3`")
            && message.ends_with("\") no longer occurs: the baseline can shrink"),
        "{message}"
    );
    // At the check's name of the recorded line, not under the whole line.
    let line_text = all
        .iter()
        .find(|f| f["check"] == "outdated-baseline")
        .map(|f| f["width"].as_u64().unwrap())
        .unwrap();
    assert_eq!(line_text, "unverified-rule".len() as u64);
    // Rewriting a line makes its findings new: the baseline is not a blanket.
    let reworded = original.replace(
        "The config layer MUST handle case 1.",
        "The config layer MUST handle case one.",
    );
    std::fs::write(&spec, reworded).unwrap();
    let (code, stdout, all) = findings(&book, &[]);
    assert_eq!(code, 1);
    let fresh: Vec<&Value> = all
        .iter()
        .filter(|f| f.get("baselined").is_none())
        .collect();
    let checks: Vec<&str> = fresh.iter().map(|f| f["check"].as_str().unwrap()).collect();
    assert_eq!(checks, ["must-cite", "outdated-baseline"], "{stdout}");
}

#[test]
fn a_baseline_given_on_the_command_line_or_missing() {
    let fixture = adoption();
    let book = book(&fixture);
    run_in(&book, &["check", "--write-baseline", "../known.txt"]);
    let (code, short, _) = run_in(
        &book,
        &["check", "--baseline", "../known.txt", "--format", "short"],
    );
    assert_eq!(code, 0, "{short}");
    assert!(
        short.ends_with("265 known findings from ../known.txt\n"),
        "{short}"
    );
    // A baseline that is not there is one error at its key, and nothing is taken as known.
    let toml = book.join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{text}baseline = \"nowhere.txt\"\n")).unwrap();
    let (code, stdout, _) = findings(&book, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        json_positions(&stdout, "dangling-path"),
        ["book.toml:4:12"],
        "{stdout}"
    );
}
