//! Filled specs, end to end: `new-spec` on a copy of this repository's book, the checks of a
//! spec (`unanswered-entry`, `spec-drift`, `spec-mismatch`) made to fire and kept silent, the
//! status box and the matrix column, `status`, and whole books built by real mdBook code with
//! a draft spec, an accepted spec, and a spec whose provider is also built.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::run_in as run;
use crate::common::*;

const TOML: &str = r#"[book]
title = "Specs"

[preprocessor.contract]
after = ["links"]
contract = ["contract.md"]
template = ["template.md"]
specs = ["*-provider-spec.md"]
"#;

/// A template of three entries: two ask an axis each, one is free text.
const TEMPLATE: &str = "# Template

Copy it and answer every entry.

## Header

| Field | Value |
|---|---|
| Type | |

## Entries

### Readiness

**Question.** When is it ready?

{{#answers readiness}}

**Answer:**

**Evidence:**

### Create

{{#answers create-return}}

**Answer:**

**Evidence:**

### Notes

**Question.** Anything else?

**Answer:**

**Evidence:**
";

/// A spec of `rack` with every entry answered.
const ACCEPTED: &str = "# `rack` provider spec {.provider .proposed}

**Status:** accepted

{{#spec-status}}

## Header

| Field | Value |
|---|---|
| Type | `rack` |

## Entries

### Readiness

{{#answers readiness}}

**Answer:** A rack server boots for minutes: {{#profile readiness provisioning-window}}.

**Evidence:** The vendor's boot documentation.

### Create

{{#answers create-return}}

**Answer:** {{#profile create-return submit}}

**Evidence:** An experiment against the lab rack.

### Notes

**Answer:** None.

**Evidence:** Nothing to add.
";

fn book(extra: &[(&'static str, String)]) -> Fixture {
    let mut files: Vec<(&str, &str)> = vec![
        ("book.toml", TOML),
        ("src/contract.md", CONTRACT),
        ("src/template.md", TEMPLATE),
        ("src/appendix/existing.md", APPENDIX),
    ];
    for (path, text) in extra {
        files.retain(|(p, _)| p != path);
        files.push((path, Box::leak(text.clone().into_boxed_str())));
    }
    Fixture::new(&files)
}

fn accepted_with(from: &str, to: &str) -> String {
    assert!(ACCEPTED.contains(from), "{from}");
    ACCEPTED.replacen(from, to, 1)
}

// The checks of a spec, made to fire and kept silent.

#[test]
fn an_answered_accepted_spec_is_silent() {
    let report = book(&[("src/rack-provider-spec.md", ACCEPTED.to_owned())]).check();
    for check in [
        "unanswered-entry",
        "spec-drift",
        "spec-mismatch",
        "missing-claim",
        "unknown-claim",
        "missing-answer",
        "malformed-shortcode",
        "malformed-section",
    ] {
        let found: Vec<_> = report
            .findings
            .iter()
            .filter(|f| f.check == check && f.location.path.ends_with("rack-provider-spec.md"))
            .collect();
        assert!(found.is_empty(), "{check}: {found:?}");
    }
}

#[test]
fn unanswered_entry_fires_per_entry_as_a_warning_in_a_draft() {
    let spec = accepted_with("**Status:** accepted", "**Status:** draft")
        .replacen(
            "**Answer:** A rack server boots for minutes: {{#profile readiness provisioning-window}}.",
            "**Answer:**",
            1,
        )
        .replacen("{{#profile create-return submit}}", "{{#profile create-return unknown}}", 1)
        .replacen("**Evidence:** Nothing to add.", "**Evidence:**", 1);
    let report = book(&[("src/rack-provider-spec.md", spec)]).check();
    assert_eq!(
        positions(&report, "unanswered-entry"),
        [
            "src/rack-provider-spec.md:19:1",
            "src/rack-provider-spec.md:27:13",
            "src/rack-provider-spec.md:35:1",
        ]
    );
    let messages = messages(&report, "unanswered-entry");
    assert_eq!(messages[0], "entry `Readiness`: no answer yet");
    assert_eq!(
        messages[1],
        "entry `Create`: `create-return` left `unknown`"
    );
    assert_eq!(messages[2], "entry `Notes`: answered without evidence");
    assert!(
        of(&report, "unanswered-entry")
            .iter()
            .all(|f| f.severity == mdbook_contract::Severity::Warning)
    );
    // An `unknown` answer is the spec's unanswered entry, not an unverified claim.
    assert!(
        of(&report, "unknown-claim")
            .iter()
            .all(|f| !f.location.path.ends_with("rack-provider-spec.md"))
    );
}

#[test]
fn unanswered_entries_of_an_accepted_spec_are_errors() {
    let spec = accepted_with("**Evidence:** Nothing to add.", "**Evidence:**");
    let report = book(&[("src/rack-provider-spec.md", spec)]).check();
    assert_eq!(
        positions(&report, "unanswered-entry"),
        ["src/rack-provider-spec.md:35:1"]
    );
    let finding = of(&report, "unanswered-entry")[0];
    assert_eq!(finding.severity, mdbook_contract::Severity::Error);
    assert!(
        finding
            .message
            .contains("unanswered entries block implementation")
    );
}

#[test]
fn a_profile_the_axis_does_not_list_is_named_with_the_allowed_ones() {
    let spec = accepted_with(
        "{{#profile create-return submit}}",
        "{{#profile create-return eventually}}",
    );
    let report = book(&[("src/rack-provider-spec.md", spec)]).check();
    assert_eq!(
        positions(&report, "unknown-profile"),
        ["src/rack-provider-spec.md:27:38"]
    );
    let help = of(&report, "unknown-profile")[0].help.clone().unwrap();
    assert!(help.contains("`blocking`, `submit`"), "{help}");
}

#[test]
fn spec_drift_fires_on_a_lost_renamed_doubled_or_moved_entry() {
    // `Notes` renamed, so the template's `Notes` is lacking and `Remarks` is not in it.
    let renamed = accepted_with("### Notes", "### Remarks");
    let report = book(&[("src/rack-provider-spec.md", renamed)]).check();
    assert_eq!(
        positions(&report, "spec-drift"),
        [
            "src/rack-provider-spec.md:1:1",
            "src/rack-provider-spec.md:31:1"
        ]
    );
    let drift = messages(&report, "spec-drift");
    assert!(
        drift[0].contains("lacks the template's entry `Notes`"),
        "{drift:?}"
    );
    assert!(
        drift[1].contains("entry `Remarks` is not in the template"),
        "{drift:?}"
    );

    // `Create` before `Readiness`, and `Notes` twice.
    let readiness =
        &ACCEPTED[ACCEPTED.find("### Readiness").unwrap()..ACCEPTED.find("### Create").unwrap()];
    let notes = &ACCEPTED[ACCEPTED.find("### Notes").unwrap()..];
    let moved = ACCEPTED.replacen(readiness, "", 1).replacen(
        "### Notes",
        &format!("{readiness}### Notes"),
        1,
    ) + "\n"
        + notes;
    let report = book(&[("src/rack-provider-spec.md", moved)]).check();
    let drift = messages(&report, "spec-drift");
    assert_eq!(drift.len(), 2, "{drift:?}");
    assert!(
        drift[0].contains("entry `Readiness` comes after `Create` here"),
        "{drift:?}"
    );
    assert!(
        drift[1].contains("entry `Notes` is in the spec twice"),
        "{drift:?}"
    );
}

#[test]
fn spec_drift_fires_on_a_claim_in_the_entry_of_another_axis() {
    let spec = accepted_with(
        "**Answer:** None.",
        "**Answer:** None. {{#profile readiness immediate}}",
    );
    let report = book(&[("src/rack-provider-spec.md", spec)]).check();
    assert_eq!(
        positions(&report, "spec-drift"),
        ["src/rack-provider-spec.md:33:19"]
    );
    assert!(messages(&report, "spec-drift")[0].contains(
        "answers `readiness`, which the template asks in entry `Readiness`, not in `Notes`"
    ));
}

#[test]
fn when_the_contract_gains_an_axis_every_spec_says_what_it_lacks() {
    let contract = format!(
        "{}\n### `quota` {{.axis}}\n\nWhat does a quota refusal give?\n\n| Profile | Meaning |\n|---|---|\n| `transient` | retried |\n| `permanent` | given up |\n",
        CONTRACT.replace("## Closing table\n\n{{#axis-table}}\n", "")
    );
    let template = TEMPLATE.replacen(
        "{{#answers create-return}}",
        "{{#answers create-return}}\n\n{{#answers quota}}",
        1,
    );
    let draft = ACCEPTED
        .replace("`rack`", "`other`")
        .replace("**Status:** accepted", "**Status:** draft");
    let report = book(&[
        ("src/contract.md", contract),
        ("src/template.md", template),
        ("src/rack-provider-spec.md", ACCEPTED.to_owned()),
        ("src/other-provider-spec.md", draft),
    ])
    .check();
    let drift: Vec<String> = of(&report, "spec-drift")
        .iter()
        .map(|f| format!("{}: {}", f.location.path.display(), f.message))
        .collect();
    assert_eq!(drift.len(), 2, "{drift:?}");
    for line in &drift {
        assert!(
            line.contains(
                "entry `Create` lacks `{{#answers quota}}`, which the template's entry has"
            ),
            "{line}"
        );
    }
}

#[test]
fn spec_mismatch_fires_where_the_built_provider_differs_from_its_accepted_spec() {
    let appendix = format!(
        "{APPENDIX}\n## `rack` {{.provider}}\n\n{{{{#profile readiness provisioning-window internal/provider/rack Get}}}}\n{{{{#profile create-return blocking internal/provider/rack Create}}}}\n"
    );
    let fixture = book(&[
        ("src/rack-provider-spec.md", ACCEPTED.to_owned()),
        ("src/appendix/existing.md", appendix.clone()),
    ]);
    let report = fixture.check();
    assert_eq!(
        positions(&report, "spec-mismatch"),
        ["src/appendix/existing.md:21:26"]
    );
    let finding = of(&report, "spec-mismatch")[0];
    assert_eq!(finding.severity, mdbook_contract::Severity::Warning);
    assert!(
        finding.message.contains(
            "is `blocking` on `create-return` here, but its accepted spec answers `submit`"
        )
    );
    assert!(
        finding.notes[0].contains("src/rack-provider-spec.md:27:"),
        "{:?}",
        finding.notes
    );
    // One column for `rack`, from the appendix.
    let matrix = fixture.chapter("appendix/existing.md");
    assert_eq!(matrix.matches("[`rack`]").count(), 1, "{matrix}");
    assert!(matrix.contains("|[`rack`](#rack)|"), "{matrix}");
    // Agreeing, it is silent.
    let agreeing = appendix.replace("create-return blocking", "create-return submit");
    let report = book(&[
        ("src/rack-provider-spec.md", ACCEPTED.to_owned()),
        ("src/appendix/existing.md", agreeing),
    ])
    .check();
    assert!(of(&report, "spec-mismatch").is_empty());
}

#[test]
fn answers_outside_a_template_or_spec_say_how_to_make_a_spec() {
    let report = book(&[("src/copy.md", TEMPLATE.replace("# Template", "# Copy"))]).check();
    let messages = messages(&report, "malformed-shortcode");
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].contains("add it to `specs`"), "{}", messages[0]);
    assert!(
        messages[0].contains("mdbook-contract new-spec"),
        "{}",
        messages[0]
    );
    let status = book(&[("src/other.md", "# Other\n\n{{#spec-status}}\n".to_owned())]).check();
    assert_eq!(
        positions(&status, "malformed-shortcode"),
        ["src/other.md:3:1"]
    );
}

#[test]
fn a_status_of_neither_draft_nor_accepted_is_malformed() {
    let spec = accepted_with("**Status:** accepted", "**Status:** approved");
    let report = book(&[("src/rack-provider-spec.md", spec)]).check();
    assert_eq!(
        positions(&report, "malformed-section"),
        ["src/rack-provider-spec.md:3:1"]
    );
    assert!(
        messages(&report, "malformed-section")[0].contains("`draft` or `accepted`, not `approved`")
    );
}

// What the reader sees.

#[test]
fn the_status_box_and_the_matrix_column_of_a_draft() {
    let spec = accepted_with("**Status:** accepted", "**Status:** draft").replacen(
        "**Answer:** {{#profile create-return submit}}",
        "**Answer:**",
        1,
    );
    let fixture = book(&[("src/rack-provider-spec.md", spec)]);
    let page = fixture.chapter("rack-provider-spec.md");
    assert!(
        page.contains(
            "This spec is a <strong>draft</strong>: 2 of 3 entries answered; still open:\n\n- [Create](#create): no answer yet"
        ),
        "{page}"
    );
    let appendix = fixture.chapter("appendix/existing.md");
    assert!(
        appendix
            .contains("[`rack`](../rack-provider-spec.md#rack-provider-spec)<br><em>proposed</em>"),
        "{appendix}"
    );
    assert!(
        appendix.contains("[`provisioning-window`](../rack-provider-spec.md#readiness)"),
        "the answered cell links to its entry: {appendix}"
    );
    assert!(
        appendix.contains("[<em>unanswered</em>](../rack-provider-spec.md#create)"),
        "the unanswered cell says so and links to its entry: {appendix}"
    );
}

#[test]
fn a_book_with_a_draft_an_accepted_spec_and_a_built_one_builds() {
    let draft = TEMPLATE.replace(
        "# Template\n\nCopy it and answer every entry.\n",
        "# `draftee` provider spec {.provider .proposed}\n\n**Status:** draft\n\n{{#spec-status}}\n",
    );
    let appendix = format!(
        "{APPENDIX}\n## `built` {{.provider}}\n\n{{{{#profile readiness immediate internal/provider/built Get}}}}\n{{{{#profile create-return submit internal/provider/built Create}}}}\n"
    );
    let fixture = book(&[
        ("src/draftee-provider-spec.md", draft),
        ("src/rack-provider-spec.md", ACCEPTED.to_owned()),
        (
            "src/built-provider-spec.md",
            ACCEPTED.replace("`rack`", "`built`").replace(
                "{{#profile readiness provisioning-window}}",
                "{{#profile readiness immediate}}",
            ),
        ),
        ("src/appendix/existing.md", appendix),
    ]);
    let report = fixture.check();
    assert!(
        !report.has_errors(),
        "{}",
        report.render(mdbook_contract::Format::Short, false)
    );
    assert_eq!(
        of(&report, "unanswered-entry").len(),
        3,
        "the draft's three entries"
    );
    let (result, out) = fixture.build();
    result.expect("the book builds");
    let matrix = fixture.html(&out, "appendix/existing.html");
    let header = &matrix[matrix.find("<thead>").unwrap()..matrix.find("</thead>").unwrap()];
    for name in ["pods", "built", "vms", "draftee", "rack"] {
        assert_eq!(
            header.matches(&format!("<code>{name}</code>")).count(),
            1,
            "{name}: {header}"
        );
    }
    let spec = fixture.html(&out, "rack-provider-spec.html");
    assert!(
        spec.contains("This spec is <strong>accepted</strong>: 3 of 3 entries answered."),
        "{spec}"
    );
    assert!(!spec.contains("{{#"), "{spec}");
}

// `new-spec` and `status` on a copy of this repository's book.

/// Every file under `dir`, by path, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let key = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.insert(key, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

#[test]
fn new_spec_scaffolds_a_spec_that_builds_with_warnings_only() {
    let dir = super::common::repository_copy();
    let root = dir.path();
    // A copy of the repository without a spec of its own, whatever the book carries.
    let toml_before = std::fs::read_to_string(root.join("book.toml")).unwrap();
    let summary_before = std::fs::read_to_string(root.join("book/SUMMARY.md")).unwrap();
    assert!(!root.join("book/testvendor-provider-spec.md").exists());

    let (code, stdout, stderr) = run(root, &["new-spec", "testvendor"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("wrote book/testvendor-provider-spec.md"),
        "{stdout}"
    );

    // book.toml: the `specs` key added (or the path added to it), every other byte (comments
    // included) as it was.
    let toml_after = std::fs::read_to_string(root.join("book.toml")).unwrap();
    let specs = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("specs = "))
            .map(str::to_owned)
    };
    let after = specs(&toml_after).expect("a `specs` key");
    assert!(after.contains("\"testvendor-provider-spec.md\""), "{after}");
    let others = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("specs = "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        others(&toml_after),
        others(&toml_before),
        "book.toml otherwise line for line"
    );
    match specs(&toml_before) {
        Some(before) => assert_eq!(toml_after, toml_before.replace(&before, &after)),
        None => assert_eq!(toml_after.len(), toml_before.len() + after.len() + 1),
    }

    // SUMMARY.md: the spec right after the template, at its depth.
    let summary = std::fs::read_to_string(root.join("book/SUMMARY.md")).unwrap();
    let template_line = summary_before
        .lines()
        .find(|l| l.contains("(provider-spec-template.md)"))
        .unwrap();
    assert!(
        summary.contains(&format!(
            "{template_line}\n- [Provider spec: testvendor](testvendor-provider-spec.md)\n"
        )),
        "{summary}"
    );

    // The spec: the title replaced, the template's text before its first entry kept, the type
    // filled, every entry kept and empty.
    let spec = std::fs::read_to_string(root.join("book/testvendor-provider-spec.md")).unwrap();
    assert!(spec.starts_with("# `testvendor` provider spec {.provider .proposed}\n\n**Status:** draft\n\n{{#spec-status}}\n\nThis is the questionnaire for a new provider."), "{spec}");
    assert!(spec.contains("\n## Header\n"), "{spec}");
    assert!(
        spec.contains("| Type (the `type` of the config block) | `testvendor` |"),
        "{spec}"
    );
    let template = std::fs::read_to_string(root.join("book/provider-spec-template.md")).unwrap();
    let entries = template.matches("\n**Answer:**\n").count();
    assert!(entries >= 20, "{entries} entries");
    assert_eq!(spec.matches("\n**Answer:**\n").count(), entries);

    // Checked: warnings only, one unanswered entry each.
    let (ctx, book) = mdbook_contract::load(root, "html").unwrap();
    let report = mdbook_contract::check(&ctx, &book, Default::default()).unwrap();
    assert!(
        !report.has_errors(),
        "{}",
        report.render(mdbook_contract::Format::Short, false)
    );
    let in_the_spec =
        |f: &&&mdbook_contract::Finding| f.location.path.ends_with("testvendor-provider-spec.md");
    assert_eq!(
        of(&report, "unanswered-entry")
            .iter()
            .filter(in_the_spec)
            .count(),
        entries
    );
    // Built by mdBook: the status box and a column in the matrix.
    let mut md = mdbook_driver::MDBook::load(root).unwrap();
    md.with_preprocessor(mdbook_contract::ContractPreprocessor::new());
    let out = root.join("out");
    md.config.build.build_dir = out.clone();
    md.build().expect("the book builds");
    let page = std::fs::read_to_string(out.join("testvendor-provider-spec.html")).unwrap();
    assert!(
        page.contains(&format!("0 of {entries} entries answered")),
        "the status box"
    );
    let appendix = std::fs::read_to_string(out.join("providers-existing.html")).unwrap();
    assert!(
        appendix.contains("<code>testvendor</code>"),
        "the matrix column"
    );

    // `status` says the same, for people and as JSON.
    let (code, human, _) = run(root, &["status"]);
    assert_eq!(code, 0);
    assert!(
        human.contains(&format!(
            "book/testvendor-provider-spec.md: `testvendor`, draft, 0 of {entries} entries answered"
        )),
        "{human}"
    );
    let (_, json, _) = run(root, &["status", "--format", "json"]);
    let status: serde_json::Value = serde_json::from_str(&json).unwrap();
    let state = status["specs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["provider"] == "testvendor")
        .unwrap();
    assert_eq!(state["status"], "draft");
    assert_eq!(state["open"].as_array().unwrap().len(), entries);
    assert!(state["open"][0]["line"].as_u64().unwrap() > 1);
}

#[test]
fn new_spec_refuses_without_changing_anything() {
    let dir = super::common::repository_copy();
    let root = dir.path();
    let before = snapshot(root);
    let refusals: [(&[&str], &str); 4] = [
        (
            &["new-spec", "Prox_Mox"],
            "is not a provider type: a type is a DNS-1123 label",
        ),
        (&["new-spec", "-starts-with-dash"], "error"),
        // The whole sentence: where the path would put the spec, where the template is, and
        // a path that works.
        (
            &["new-spec", "x", "--path", "elsewhere/x-provider-spec.md"],
            "mdbook-contract: `elsewhere/x-provider-spec.md` would put the spec in \
             `elsewhere/` of the book's `src` folder (`book/elsewhere/`), but its template \
             `provider-spec-template.md` is in the book's `src` folder (`book/`): a spec goes \
             beside its template, so that the template's relative links hold in it; try \
             `--path x-provider-spec.md`\n",
        ),
        (
            &["new-spec", "x", "--path", "x-provider-spec.txt"],
            "mdbook-contract: `x-provider-spec.txt` is not a `.md` file: a spec is a chapter of \
             the book; try `--path x-provider-spec.md`\n",
        ),
    ];
    for (args, expected) in refusals {
        let (code, _, stderr) = run(root, args);
        assert_ne!(code, 0, "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("``"), "{args:?}: {stderr}");
        assert_eq!(snapshot(root), before, "{args:?} changed the tree");
    }
    // An existing file.
    std::fs::write(root.join("book/taken-provider-spec.md"), "# Mine\n").unwrap();
    let before = snapshot(root);
    let (code, _, stderr) = run(root, &["new-spec", "taken"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("exists; new-spec writes a new spec and never overwrites one"),
        "{stderr}"
    );
    assert_eq!(snapshot(root), before);
    // A book without a template.
    let toml = std::fs::read_to_string(root.join("book.toml")).unwrap();
    std::fs::write(
        root.join("book.toml"),
        toml.replace("template = [\"provider-spec-template.md\"]\n", ""),
    )
    .unwrap();
    let before = snapshot(root);
    let (code, _, stderr) = run(root, &["new-spec", "proxmox2"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("book.toml names no template chapter"),
        "{stderr}"
    );
    assert_eq!(snapshot(root), before);
}

#[test]
fn a_proposed_section_beside_a_spec_is_reported_and_makes_no_second_column() {
    let appendix = format!(
        "{APPENDIX}\n## `rack` {{.provider .proposed}}\n\n{{{{#profile readiness immediate}}}}\n{{{{#profile create-return submit}}}}\n"
    );
    let fixture = book(&[
        ("src/rack-provider-spec.md", ACCEPTED.to_owned()),
        ("src/appendix/existing.md", appendix),
    ]);
    let report = fixture.check();
    assert_eq!(
        positions(&report, "malformed-section"),
        ["src/appendix/existing.md:18:1"]
    );
    let matrix = fixture.chapter("appendix/existing.md");
    assert_eq!(matrix.matches("[`rack`]").count(), 1, "{matrix}");
    assert!(
        matrix.contains("[`rack`](../rack-provider-spec.md#rack-provider-spec)"),
        "{matrix}"
    );
}
