//! `mdbook-contract export`: the repository's book against the published schema (validated by
//! the `jsonschema` crate), the same bytes twice, the site after a real build, the guide's
//! `jq` example, and the coverage of a book whose code cites its rules.

use std::path::Path;

use serde_json::Value;

use crate::common::{repository_copy, run_in};

fn validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/contract.schema.json");
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(
        text,
        mdbook_contract::CONTRACT_SCHEMA,
        "the schema the binary prints is the file"
    );
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .expect("the schema compiles")
}

fn assert_valid(json: &Value) {
    let validator = validator();
    let errors: Vec<String> = validator
        .iter_errors(json)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .take(5)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn the_repository_books_export_is_valid_and_the_same_twice() {
    let dir = repository_copy();
    let (code, first, stderr) = run_in(dir.path(), &["export"]);
    assert_eq!(code, 0, "{stderr}");
    let (_, second, _) = run_in(dir.path(), &["export"]);
    assert_eq!(first, second, "the same book gives the same bytes");
    let json: Value = serde_json::from_str(&first).unwrap();
    assert_valid(&json);
    // The schema holds: a document without its axes, or with a level no rule has, fails.
    let mut broken = json.clone();
    broken.as_object_mut().unwrap().remove("axes");
    assert!(!validator().is_valid(&broken));
    let mut broken = json.clone();
    broken["rules"][0]["level"] = Value::from("OUGHT");
    assert!(!validator().is_valid(&broken));
    assert_eq!(json["schema_version"], mdbook_contract::SCHEMA_VERSION);
    assert_eq!(json["axes"].as_array().unwrap().len(), 19);
    assert_eq!(json["rules"].as_array().unwrap().len(), 49);
    let readiness = &json["axes"][0];
    assert_eq!(readiness["code"], "readiness");
    assert_eq!(readiness["place"]["path"], "book/provider-contract.md");
    // Plain text beside the Markdown: no backticks, no link syntax.
    let profile = &readiness["profiles"][1];
    assert!(
        profile["tolerated_by_markdown"]
            .as_str()
            .unwrap()
            .contains("`reconcileManaged`")
    );
    assert!(!profile["tolerated_by"].as_str().unwrap().contains('`'));
    let statuses: Vec<(&str, &str)> = json["providers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["status"].as_str().unwrap()))
        .collect();
    assert!(
        statuses.contains(&("kvm", "built")) && statuses.contains(&("proxmox", "spec")),
        "{statuses:?}"
    );
    assert_eq!(json["coverage"][2]["provider"], "kvm");
    assert_eq!(json["coverage"][2]["known"], false, "no source-root here");
    assert_eq!(
        json["findings"].as_array().unwrap().len(),
        74,
        "the book's expected warnings"
    );
    // `--out` writes the same document.
    let (code, _, _) = run_in(dir.path(), &["export", ".", "--out", "contract.json"]);
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("contract.json")).unwrap(),
        first
    );
}

#[test]
fn the_built_site_gets_the_export_and_its_schema_beside_its_pages() {
    let dir = repository_copy();
    let root = dir.path();
    let out = root.join("site");
    crate::common::build_into(root, &out);
    let (code, _, stderr) = run_in(root, &["export", ".", "--site", "site"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.join("index.html").exists() && out.join("provider-contract.html").exists());
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("contract.json")).unwrap()).unwrap();
    assert_valid(&json);
    assert_eq!(
        std::fs::read_to_string(out.join("contract.schema.json")).unwrap(),
        mdbook_contract::CONTRACT_SCHEMA
    );
}

// The guide's commands are run by `sh`, as a reader's shell would.
#[cfg(unix)]
#[test]
fn the_guides_jq_example_lists_a_providers_profiles_and_the_rules_that_bind_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("guide/src/reference/export.md")).unwrap();
    let section = &page[page.find("## With jq").unwrap()..];
    let block = &section[section.find("```sh\n").unwrap() + 6..];
    let block = &block[..block.find("```").unwrap()];
    let commands: Vec<&str> = block.lines().filter(|l| l.starts_with("jq ")).collect();
    assert_eq!(commands.len(), 2, "{block}");
    // The tutorial's book, as the page says.
    let dir = tempfile::tempdir().unwrap();
    crate::common::copy_tree(
        &root.join("guide/examples/tutorial/results-2.in"),
        dir.path(),
    );
    let (code, _, _) = run_in(dir.path(), &["export", ".", "--out", "contract.json"]);
    assert_eq!(code, 0);
    let run = |command: &str| {
        let output = std::process::Command::new("sh")
            .args(["-c", command])
            .current_dir(dir.path())
            .output()
            .expect("sh runs");
        assert!(
            output.status.success(),
            "`{command}` failed (is jq installed? .ci/run installs it): {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    };
    let profiles = run(commands[0]);
    assert_eq!(
        profiles, "retries\tidempotent\nrate-limit\trejects\nconsistency\tread-after-write\n",
        "one line per axis"
    );
    // Every rule without `applies`, and those of s3's profiles: as `status` counts them.
    let rules = run(commands[1]);
    assert_eq!(rules, "call.errors\ncall.timeout\ncall.details\n");
}

#[test]
fn a_book_whose_code_cites_its_rules_exports_the_coverage() {
    let book = super::rules::rules_book();
    let (_, stdout, _) = run_in(book.root(), &["export"]);
    let json: Value = serde_json::from_str(&stdout).unwrap();
    assert_valid(&json);
    let pods = &json["coverage"][0];
    assert_eq!(pods["provider"], "pods");
    assert_eq!(pods["known"], true);
    assert_eq!(pods["rules"][0]["rule"], "create.idempotent");
    assert_eq!(pods["rules"][0]["status"], "verified");
    assert_eq!(
        pods["rules"][0]["citation"],
        serde_json::json!({"path": "internal/provider/pods/pods_test.go", "line": 3})
    );
    let rule = &json["rules"][2];
    assert_eq!(
        rule["applies"],
        serde_json::json!({"axis": "create-return", "profile": "blocking"})
    );
}

#[test]
fn as_a_renderer_of_its_own_mdbook_build_writes_the_export_in_its_folder() {
    let dir = repository_copy();
    let root = dir.path();
    let toml = std::fs::read_to_string(root.join("book.toml")).unwrap();
    // mdBook splits `command` as a shell would, where `\` escapes: a Windows path is written
    // with `/` (which Windows takes too), in a TOML literal string.
    let binary = crate::common::binary().replace('\\', "/");
    std::fs::write(
        root.join("book.toml"),
        format!("{toml}\n[output.contract]\ncommand = '{binary} export --renderer'\n"),
    )
    .unwrap();
    let out = root.join("site");
    // Both renderers: the HTML and this one.
    crate::common::build_into(root, &out);
    // mdBook gives each renderer a folder of its own.
    assert!(out.join("html/index.html").exists());
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("contract/contract.json")).unwrap())
            .unwrap();
    assert_valid(&json);
    assert!(out.join("contract/contract.schema.json").exists());
}

#[test]
fn the_code_no_citation_maps_is_exported_and_valid() {
    let book = crate::common::Fixture::copy_of("flags", &[]);
    let export = mdbook_contract::export(book.root()).unwrap();
    let json: Value = serde_json::from_str(&export.to_json()).unwrap();
    assert_valid(&json);
    assert_eq!(json["schema_version"], "1.4.0");
    let owners = json["unmapped"]["owners"].as_array().unwrap();
    let names: Vec<&str> = owners
        .iter()
        .map(|o| o["owner"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["launchdarkly", "unleash", "flagsmith", ""]);
    // `UnleashBackend.refresh` has its citation above it; `__init__` has none.
    let unleash = &owners[1]["code"];
    let listed: Vec<&str> = unleash
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap())
        .collect();
    assert!(listed.contains(&"UnleashBackend.__init__"), "{listed:?}");
    assert!(!listed.contains(&"UnleashBackend.refresh"), "{listed:?}");
}
