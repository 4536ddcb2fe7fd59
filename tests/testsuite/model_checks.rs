//! The model checks, each made to fire (with its exact position) and kept silent.
//!
//! Every case starts from the small contract book of `common` and changes one file. The silent
//! case is the unchanged book, where only the one `unknown-claim` warning is expected. To add a
//! check: a `fires` test here naming its position, and its name in `silent_on_the_clean_book`.

use crate::common::*;

fn with(path: &'static str, text: &'static str) -> Fixture {
    let mut files = contract_book();
    files.retain(|(p, _)| *p != path);
    files.push((path, text));
    Fixture::new(&files)
}

#[test]
fn silent_on_the_clean_book() {
    let report = Fixture::new(&contract_book()).check();
    for check in [
        "unknown-axis",
        "duplicate-axis",
        "malformed-section",
        "unknown-profile",
        "missing-claim",
        "duplicate-claim",
        "missing-evidence",
        "missing-answer",
        "malformed-shortcode",
        "missing-role",
        "malformed-config",
        "dangling-path",
    ] {
        assert!(
            of(&report, check).is_empty(),
            "{check}: {:?}",
            of(&report, check)
        );
    }
    assert_eq!(
        positions(&report, "unknown-claim"),
        ["src/appendix/existing.md:16:48"]
    );
}

#[test]
fn unknown_axis_fires_with_a_suggestion() {
    let fixture = with(
        "src/template.md",
        "# Template\n\n## R\n\nSee {{#axis readines}}.\n\n{{#answers readiness}}\n\n{{#answers create-return}}\n",
    );
    let report = fixture.check();
    assert_eq!(positions(&report, "unknown-axis"), ["src/template.md:5:13"]);
    assert!(
        of(&report, "unknown-axis")[0]
            .message
            .contains("did you mean `readiness`?")
    );
}

#[test]
fn duplicate_axis_fires_on_the_second_definition() {
    let contract = CONTRACT.replace("### `create-return` {.axis}", "### `readiness` {.axis}");
    let fixture = with("src/contract.md", Box::leak(contract.into_boxed_str()));
    let report = fixture.check();
    assert_eq!(
        positions(&report, "duplicate-axis"),
        ["src/contract.md:14:1"]
    );
    assert!(of(&report, "duplicate-axis")[0].notes[0].contains("src/contract.md:5:1"));
}

#[test]
fn malformed_section_fires_on_an_axis_without_code_or_table() {
    let contract = "# Contract\n\n### Readiness {.axis}\n\nNo code.\n\n### `readiness` {.axis}\n\nNo table.\n\n### `create-return` {.axis}\n\n| Profile | Meaning |\n|---|---|\n| blocking | no code span |\n| `submit` | ok |\n| `unknown` | reserved |\n";
    let fixture = with("src/contract.md", contract);
    let report = fixture.check();
    assert_eq!(
        positions(&report, "malformed-section"),
        [
            "src/contract.md:3:1",
            "src/contract.md:7:1",
            "src/contract.md:15:3",
            "src/contract.md:17:3"
        ]
    );
}

#[test]
fn malformed_section_fires_on_an_axis_outside_the_contract() {
    let template = "# Template\n\n### `extra` {.axis}\n\n| Profile | Meaning |\n|---|---|\n| `a` | b |\n\n{{#answers readiness}}\n\n{{#answers create-return}}\n";
    let report = with("src/template.md", template).check();
    assert_eq!(
        positions(&report, "malformed-section"),
        ["src/template.md:3:1"]
    );
    assert!(
        of(&report, "malformed-section")[0]
            .message
            .contains("contract chapters only")
    );
}

#[test]
fn unknown_profile_lists_the_allowed_ones() {
    let appendix = APPENDIX.replace("readiness immediate", "readiness instant");
    let report = with(
        "src/appendix/existing.md",
        Box::leak(appendix.into_boxed_str()),
    )
    .check();
    assert_eq!(
        positions(&report, "unknown-profile"),
        ["src/appendix/existing.md:9:46"]
    );
    let finding = of(&report, "unknown-profile")[0];
    assert!(
        finding
            .help
            .as_deref()
            .unwrap()
            .contains("`immediate`, `provisioning-window`"),
        "{finding:?}"
    );
}

#[test]
fn missing_claim_fires_at_the_provider_heading() {
    let appendix = APPENDIX.replace(" and {{#profile create-return unknown}}", "");
    let report = with(
        "src/appendix/existing.md",
        Box::leak(appendix.into_boxed_str()),
    )
    .check();
    assert_eq!(
        positions(&report, "missing-claim"),
        ["src/appendix/existing.md:12:1"]
    );
    assert!(
        of(&report, "missing-claim")[0]
            .message
            .contains("`vms` has no claim for axis `create-return`")
    );
}

#[test]
fn duplicate_claim_fires_on_the_second_claim() {
    let appendix = format!("{APPENDIX}\nAgain {{{{#profile readiness immediate x}}}}.\n");
    let report = with(
        "src/appendix/existing.md",
        Box::leak(appendix.into_boxed_str()),
    )
    .check();
    assert_eq!(
        positions(&report, "duplicate-claim"),
        ["src/appendix/existing.md:18:7"]
    );
}

#[test]
fn missing_evidence_fires_for_built_providers_only() {
    let appendix = APPENDIX.replace(
        "{{#profile readiness immediate `newWithClient`}}",
        "{{#profile readiness immediate}}",
    );
    let report = with(
        "src/appendix/existing.md",
        Box::leak(appendix.into_boxed_str()),
    )
    .check();
    assert_eq!(
        positions(&report, "missing-evidence"),
        ["src/appendix/existing.md:9:25"]
    );
    // The proposed provider's claim without evidence (line 16) stays silent.
}

#[test]
fn missing_answer_fires_for_no_site_and_for_two() {
    let template = "# Template\n\n## Readiness\n\n{{#answers readiness}}\n\n## Again\n\n{{#answers readiness}}\n";
    let report = with("src/template.md", template).check();
    assert_eq!(
        positions(&report, "missing-answer"),
        ["src/contract.md:14:1", "src/template.md:9:1"]
    );
}

#[test]
fn missing_answer_is_silent_without_a_template_role() {
    let toml = "[book]\ntitle = \"x\"\n\n[preprocessor.contract]\ncontract = [\"contract.md\"]\n";
    let mut files = contract_book();
    files.retain(|(p, _)| *p != "src/template.md");
    files.push(("book.toml", toml));
    let report = Fixture::new(&files).check();
    assert!(of(&report, "missing-answer").is_empty());
}

#[test]
fn malformed_shortcode_fires_on_arguments_place_and_names() {
    let appendix = format!(
        "{APPENDIX}\n{{{{#axis}}}}\n\n{{{{#axes readiness}}}}\n\nText {{{{#axis-table}}}} inline.\n\n{{{{#answers readiness}}}}\n"
    );
    let mut files = contract_book();
    files.retain(|(p, _)| *p != "src/appendix/existing.md");
    files.push((
        "src/appendix/existing.md",
        Box::leak(appendix.into_boxed_str()),
    ));
    files.push((
        "src/loose.md",
        "# Loose\n\nA claim {{#profile readiness immediate x}} outside providers.\n",
    ));
    let report = Fixture::new(&files).check();
    assert_eq!(
        positions(&report, "malformed-shortcode"),
        [
            "src/appendix/existing.md:18:1",
            "src/appendix/existing.md:20:1",
            "src/appendix/existing.md:22:6",
            "src/appendix/existing.md:24:1",
            "src/loose.md:3:9",
        ]
    );
}

#[test]
fn unknown_claim_can_be_turned_off_or_made_an_error() {
    let off = "[book]\ntitle = \"x\"\n\n[preprocessor.contract]\ncontract = [\"contract.md\"]\ntemplate = [\"template.md\"]\n\n[preprocessor.contract.checks]\nunknown-claim = \"off\"\n";
    let mut files = contract_book();
    files.push(("book.toml", off));
    assert!(of(&Fixture::new(&files).check(), "unknown-claim").is_empty());
    let error = off.replace("\"off\"", "\"error\"");
    files.pop();
    files.push(("book.toml", Box::leak(error.into_boxed_str())));
    let report = Fixture::new(&files).check();
    assert!(report.has_errors());
    assert_eq!(
        positions(&report, "unknown-claim"),
        ["src/appendix/existing.md:16:48"]
    );
}

#[test]
fn missing_role_warns_naming_the_key_book_toml_lacks() {
    let toml = "[book]\ntitle = \"Fixture\"\n\n[preprocessor.contract]\nafter = [\"links\"]\n";
    let mut files = contract_book();
    files.push(("book.toml", toml));
    let report = Fixture::new(&files).check();
    // Both at the `[preprocessor.contract]` header: neither key is written.
    assert_eq!(
        positions(&report, "missing-role"),
        ["book.toml:4:1", "book.toml:4:1"]
    );
    let messages = messages(&report, "missing-role");
    assert!(
        messages[0].contains("no chapter has the `contract` role"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("no chapter has the `template` role"),
        "{messages:?}"
    );
    assert_eq!(
        of(&report, "missing-role")[0].severity,
        mdbook_contract::Severity::Warning
    );
    // With only the template named, only the contract role is missing.
    let toml = "[book]\ntitle = \"Fixture\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ntemplate = [\"template.md\"]\n";
    let mut files = contract_book();
    files.push(("book.toml", toml));
    let report = Fixture::new(&files).check();
    assert_eq!(messages_of(&report).len(), 1, "{:?}", messages_of(&report));
}

/// The contract book with `extra` written at the end of book.toml (from its line 8 on).
fn with_toml(extra: &str) -> Fixture {
    let toml = format!("{}{extra}", BOOK_TOML);
    let mut files = contract_book();
    files.push(("book.toml", Box::leak(toml.into_boxed_str())));
    Fixture::new(&files)
}

#[test]
fn malformed_config_fires_at_the_key_and_the_rest_is_still_checked() {
    let report = with_toml(
        "contracts = [\"contract.md\"]\nsymbol-files = [\"*.go\", 7, \"[\"]\n\
         \n[preprocessor.contract.checks]\nem-dash = \"loud\"\n",
    )
    .check();
    assert_eq!(
        positions(&report, "malformed-config"),
        [
            "book.toml:8:1",
            "book.toml:9:25",
            "book.toml:9:28",
            "book.toml:12:11"
        ]
    );
    let messages = messages(&report, "malformed-config");
    assert!(messages[0].contains("`preprocessor.contract.contracts` is not a key of this preprocessor; did you mean `contract`?"), "{messages:?}");
    assert!(
        messages[1].contains("`preprocessor.contract.symbol-files[1]`"),
        "{messages:?}"
    );
    assert!(
        messages[2].contains("`preprocessor.contract.symbol-files[2]`"),
        "{messages:?}"
    );
    assert!(
        messages[3].contains("`preprocessor.contract.checks.em-dash`"),
        "{messages:?}"
    );
    assert!(report.has_errors());
    // The values left out, the chapters are checked as before.
    assert_eq!(
        positions(&report, "unknown-claim"),
        ["src/appendix/existing.md:16:48"]
    );
}

#[test]
fn dangling_path_fires_on_chapters_the_book_lacks() {
    let report = with_toml(
        "specs = [\"nope-provider-spec.md\", \"*-provider-spec.md\"]\n\
         \n[preprocessor.contract.forbidden-terms]\n\"contrat.md\" = [\"squid\"]\n",
    )
    .check();
    assert_eq!(
        positions(&report, "dangling-path"),
        ["book.toml:8:10", "book.toml:11:1"]
    );
    let said = messages(&report, "dangling-path");
    assert!(
        said[0].contains("`preprocessor.contract.specs[0]` names `nope-provider-spec.md`, which is not a chapter of the book"),
        "{said:?}"
    );
    assert!(said[1].contains("did you mean `contract.md`?"), "{said:?}");
    // The glob with wildcards matches no chapter: a warning, since a book may have no spec yet.
    assert_eq!(positions(&report, "missing-role"), ["book.toml:8:35"]);
    // A glob that matches a chapter is silent.
    let report = with_toml("specs = [\"*plate.md\"]\n").check();
    assert!(
        positions(&report, "missing-role").is_empty(),
        "{:?}",
        report.findings
    );

    // A role naming a chapter the book lacks: taken out, so the contract is read as if no
    // chapter had the role (axes from every chapter), with no second finding about it.
    let report = with_toml("").check();
    assert!(positions(&report, "dangling-path").is_empty());
    let toml = BOOK_TOML.replace("[\"contract.md\"]", "[\"contrat.md\"]");
    let mut files = contract_book();
    files.push(("book.toml", Box::leak(toml.into_boxed_str())));
    let report = Fixture::new(&files).check();
    assert_eq!(positions(&report, "dangling-path"), ["book.toml:6:13"]);
    assert!(messages(&report, "dangling-path")[0].contains("did you mean `contract.md`?"));
    assert!(positions(&report, "missing-role").is_empty());
    assert!(
        positions(&report, "unknown-axis").is_empty(),
        "{:?}",
        report.findings
    );
}

fn messages_of(report: &mdbook_contract::Report) -> Vec<&str> {
    messages(report, "missing-role")
}

#[test]
fn a_missing_claim_comes_after_the_typo_that_causes_it() {
    let appendix = APPENDIX.replace(
        "{{#profile readiness immediate `newWithClient`}}",
        "{{#profile readines immediate `newWithClient`}}",
    );
    let fixture = with(
        "src/appendix/existing.md",
        Box::leak(appendix.into_boxed_str()),
    );
    let report = fixture.check();
    let order: Vec<&str> = report
        .findings
        .iter()
        .map(|f| f.check.name())
        .filter(|c| *c == "unknown-axis" || *c == "missing-claim")
        .collect();
    assert_eq!(
        order,
        ["unknown-axis", "missing-claim"],
        "{:?}",
        report.findings
    );
    // The missing claim sits at the provider's heading, above the typo in the file, and says
    // where the claim meant for it is.
    assert_eq!(
        positions(&report, "missing-claim"),
        ["src/appendix/existing.md:5:1"]
    );
    let notes = &of(&report, "missing-claim")[0].notes;
    assert!(
        notes
            .iter()
            .any(|n| n.contains("src/appendix/existing.md:9:")),
        "{notes:?}"
    );
}

#[test]
fn an_axis_without_profiles_says_so() {
    let contract = CONTRACT.replace(
        "| `blocking` | once the instance runs | every caller |\n| `submit` | once the request is accepted | `reconcileManaged` polls |\n",
        "",
    );
    let fixture = with("src/contract.md", Box::leak(contract.into_boxed_str()));
    let report = fixture.check();
    let help = of(&report, "unknown-profile")[0].help.clone().unwrap();
    assert!(help.contains("lists no profiles yet"), "{help}");
    assert!(!help.contains("are none"), "{help}");
}
