//! Every check is documented and tested: the registry is the list, and each entry must appear
//! in the guide's reference of checks, in the book's authoring chapter, and in a test that makes it fire at a
//! position (`positions(&report, "name")`, or through the binary `json_positions(&stdout, "name")`).

use std::path::Path;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect("file exists")
}

#[test]
fn every_check_is_documented_and_fires_in_a_test() {
    let reference = read("guide/src/reference/checks.md");
    let authoring = read("book/authoring.md");
    let tests: String = [
        "tests/testsuite/model_checks.rs",
        "tests/testsuite/prose_checks.rs",
        "tests/testsuite/specs.rs",
        "tests/testsuite/no_panic.rs",
        "tests/testsuite/rules.rs",
        "tests/testsuite/broker.rs",
        "tests/testsuite/adoption.rs",
        "tests/testsuite/results.rs",
        "tests/testsuite/reading.rs",
    ]
    .iter()
    .map(|p| read(p))
    .collect();
    let mut missing = Vec::new();
    for check in mdbook_contract::Check::ALL {
        let name = check.name();
        if !reference.contains(&format!("## `{name}`\n")) {
            missing.push(format!(
                "{name}: no section in guide/src/reference/checks.md"
            ));
        }
        if !authoring.contains(&format!("`{name}`")) {
            missing.push(format!("{name}: not in book/authoring.md"));
        }
        let fires = [
            format!("positions(&report, \"{name}\")"),
            format!("json_positions(&stdout, \"{name}\")"),
        ];
        if !fires.iter().any(|f| tests.contains(f.as_str())) {
            missing.push(format!("{name}: no test asserts where it fires"));
        }
    }
    assert!(mdbook_contract::Check::ALL.len() >= 20);
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_default_severity_in_the_guide_matches_the_registry() {
    let reference = read("guide/src/reference/checks.md");
    for check in mdbook_contract::Check::ALL {
        let at = reference
            .find(&format!("## `{}`\n", check.name()))
            .expect("documented");
        let documented = reference[at..]
            .lines()
            .find_map(|l| l.strip_prefix("**Default:** "))
            .expect("a default");
        let default = check.default_severity().as_str();
        assert!(
            documented.starts_with(default),
            "{check}: the guide says `{documented}`, the registry `{default}`"
        );
    }
}
