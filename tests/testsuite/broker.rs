//! A third team's contract, in another domain than the operator's and the storage book's:
//! message-broker adapters (`tests/fixtures/broker`: six axes, four rules with `applies=`, Go
//! code with a shared conformance suite, a draft spec, a stand-in for mdbook-mermaid and
//! mdBook 0.5's own admonitions). Each test makes a newcomer's mistake or runs a command
//! through the binary, and checks that the tool points at the cause, in this book's own words.

use serde_json::Value;

use crate::common::{Edit, Fixture, git, json_positions, run_in};

/// The broker book, with each `(file, edit)` applied.
pub(crate) fn broker(edits: &[Edit<'_>]) -> Fixture {
    Fixture::copy_of("broker", edits)
}

/// `check --format json` in `book`: the exit code, the output and the findings.
pub(crate) fn check(book: &Fixture) -> (i32, String, Vec<Value>) {
    let (code, stdout, stderr) = run_in(book.root(), &["check", "--format", "json"]);
    assert!(code == 0 || code == 1, "{stdout}{stderr}");
    let findings = serde_json::from_str(&stdout).expect("a JSON array");
    (code, stdout, findings)
}

/// The findings of `check`.
fn of<'f>(findings: &'f [Value], check: &str) -> Vec<&'f Value> {
    findings.iter().filter(|f| f["check"] == check).collect()
}

/// The checks of `findings` other than the spec's open entries, which the fixture has on
/// purpose.
fn checks_of(findings: &[Value]) -> Vec<&str> {
    findings
        .iter()
        .map(|f| f["check"].as_str().unwrap())
        .filter(|c| *c != "unanswered-entry")
        .collect()
}

#[test]
fn the_broker_book_has_only_its_draft_specs_open_entries() {
    let (code, stdout, findings) = check(&broker(&[]));
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(checks_of(&findings), Vec::<&str>::new(), "{stdout}");
    assert_eq!(findings.len(), 5, "{stdout}");
}

#[test]
fn a_function_name_is_evidence_and_prose_is_not() {
    let claim = |to: &'static str| {
        move |t: &str| t.replace("{{#profile retention time adapters/kafka/kafka.go}}", to)
    };
    // One lowercase word is a symbol: a Go function the source tree has.
    let book = broker(&[(
        "src/adapters.md",
        &claim("{{#profile retention time produce}}"),
    )]);
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(checks_of(&findings), Vec::<&str>::new(), "{stdout}");
    // One the source tree lacks: `cited-symbol` says so, not `missing-evidence`.
    let book = broker(&[(
        "src/adapters.md",
        &claim("{{#profile retention time classify}}"),
    )]);
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 1);
    assert_eq!(checks_of(&findings), ["cited-symbol"], "{stdout}");
    // Without a source tree, nothing can look it up: it is taken as written.
    let book = broker(&[
        (
            "src/adapters.md",
            &claim("{{#profile retention time classify}}"),
        ),
        ("book.toml", &|t: &str| {
            t.replace("source-root = \"code\"\n", "")
        }),
    ]);
    let (_, stdout, findings) = check(&book);
    assert!(
        !checks_of(&findings).contains(&"missing-evidence"),
        "{stdout}"
    );
    // Several plain words are prose, reported once, with no symbol looked up.
    let book = broker(&[(
        "src/adapters.md",
        &claim("{{#profile retention time the Kafka docs say so}}"),
    )]);
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 1);
    assert_eq!(checks_of(&findings), ["missing-evidence"], "{stdout}");
    assert_eq!(
        json_positions(&stdout, "missing-evidence"),
        ["src/adapters.md:14:1"]
    );
}

/// The broker book at `docs/contract` of a git repository, committed.
fn in_repository() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let book = broker(&[]);
    crate::common::copy_tree(book.root(), &repo.path().join("docs/contract"));
    git(repo.path(), &["init", "-q"]);
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-qm", "base"]);
    repo
}

#[test]
fn annotations_name_files_from_the_repositorys_top_wherever_the_command_runs() {
    let repo = in_repository();
    let book = repo.path().join("docs/contract");
    let spec = book.join("src/adapters.md");
    let text = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(&spec, text.replace("Messages are", "Messages \u{2014} are")).unwrap();
    let test = book.join("code/adapters/kafka/kafka_test.go");
    let text = std::fs::read_to_string(&test).unwrap();
    std::fs::write(
        &test,
        text + "\n// r[verify dead-letter.cont]\nfunc TestCount(t *testing.T) {}\n",
    )
    .unwrap();
    let expected = [
        "docs/contract/src/adapters.md:9:10",
        "docs/contract/code/adapters/kafka/kafka_test.go:15:13",
    ];
    for (dir, args) in [
        (book.clone(), vec!["check", "--format", "github"]),
        (
            repo.path().to_owned(),
            vec!["check", "docs/contract", "--format", "github"],
        ),
        (book.join("src"), vec!["check", "..", "--format", "github"]),
    ] {
        let (code, stdout, stderr) = run_in(&dir, &args);
        assert_eq!(code, 1, "{stdout}{stderr}");
        for place in expected {
            let (file, rest) = place.split_once(':').unwrap();
            let (line, col) = rest.split_once(':').unwrap();
            let annotation = format!("file={file},line={line},col={col}");
            assert!(
                stdout.contains(&annotation),
                "{args:?}: {annotation} in\n{stdout}"
            );
        }
        let (_, sarif, _) = run_in(&dir, &[&args[..args.len() - 1], &["sarif"]].concat());
        let sarif: Value = serde_json::from_str(&sarif).unwrap();
        let uris: Vec<&str> = sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
            })
            .filter(|u| !u.ends_with("-adapter-spec.md"))
            .collect();
        assert_eq!(
            uris,
            [
                "docs/contract/src/adapters.md",
                "docs/contract/code/adapters/kafka/kafka_test.go"
            ],
            "{args:?}"
        );
    }
    // People still read paths from where they are.
    let (_, short, _) = run_in(&book.join("src"), &["check", "..", "--format", "short"]);
    assert!(short.contains("../src/adapters.md:9:10:"), "{short}");
    // Outside a repository: from the working folder, as for people.
    let outside = broker(&[]);
    let (_, github, _) = run_in(
        &outside.root().join("src"),
        &["check", "..", "--format", "github"],
    );
    assert!(
        github.contains("file=../src/redis-streams-adapter-spec.md,"),
        "{github}"
    );
}

#[test]
fn every_change_is_annotated_even_one_whose_place_is_gone() {
    let repo = in_repository();
    let book = repo.path().join("docs/contract");
    let contract = book.join("src/contract.md");
    let text = std::fs::read_to_string(&contract).unwrap();
    // A rule removed (its section stays), a section removed with its rule, and a page removed.
    let text = text
        .replace("r[publish.batch]\nAn adapter MAY batch publishes.\n", "")
        .replace(
            "r[rebalancing.drain applies=stop-the-world]\nAn adapter SHOULD let running handlers finish before it gives up a key, because `bus.Subscriber` acknowledges after them.\n",
            "",
        );
    std::fs::write(&contract, text).unwrap();
    let (code, stdout, stderr) = run_in(&book, &["diff", "HEAD", "--format", "github"]);
    assert_eq!(code, 0, "{stderr}");
    let annotations: Vec<&str> = stdout.lines().collect();
    let (_, json, _) = run_in(&book, &["diff", "HEAD", "--format", "json"]);
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        annotations.len(),
        json["changes"].as_array().unwrap().len(),
        "{stdout}"
    );
    let contract_now = std::fs::read_to_string(&contract).unwrap();
    let line_of = |heading: &str| contract_now.lines().position(|l| l == heading).unwrap() + 1;
    assert!(
        annotations.iter().any(|a| a.starts_with(&format!(
            "::error file=docs/contract/src/contract.md,line={},title=contract major::rule-removed (major): rule `publish.batch` was removed (was at HEAD:docs/contract/src/contract.md:",
            line_of("## Publishing")
        ))),
        "{stdout}"
    );
    assert!(
        annotations.iter().any(|a| a.starts_with(&format!(
            "::error file=docs/contract/src/contract.md,line={},title=contract major::rule-removed (major): rule `rebalancing.drain`",
            line_of("### `rebalancing` {.axis}")
        ))),
        "{stdout}"
    );
    // A page gone with its file: an annotation on no file, never dropped.
    std::fs::remove_file(book.join("src/adapters.md")).unwrap();
    let summary = book.join("src/SUMMARY.md");
    let text = std::fs::read_to_string(&summary).unwrap();
    std::fs::write(
        &summary,
        text.replace("- [Existing adapters](adapters.md)\n", ""),
    )
    .unwrap();
    let (_, stdout, _) = run_in(&book, &["diff", "HEAD", "--format", "github"]);
    assert!(
        stdout.lines().any(|a| a.starts_with(
            "::error title=contract major::page-removed (major): page `adapters.html` is gone"
        )),
        "{stdout}"
    );
    let (_, json, _) = run_in(&book, &["diff", "HEAD", "--format", "json"]);
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        stdout.lines().count(),
        json["changes"].as_array().unwrap().len(),
        "{stdout}"
    );
}

#[test]
fn the_brief_is_made_from_the_chapters_as_written_not_another_preprocessors_html() {
    let book = broker(&[]);
    let (code, brief, stderr) = run_in(book.root(), &["brief", "redis-streams"]);
    assert_eq!(code, 0, "{stderr}");
    // The mermaid stand-in ran for the build (its `<pre>` is in what mdBook renders) ...
    let (built, out) = book.build();
    built.unwrap();
    let page = book.html(&out, "contract.html");
    assert!(page.contains("<pre class=\"mermaid\">"), "{page}");
    // ... and the brief holds the diagram as written, in a fenced block.
    assert!(!brief.contains("<pre class=\"mermaid\">"), "{brief}");
    assert!(!brief.contains("--&gt;"), "{brief}");
    assert!(
        brief.contains("mermaid\ngraph LR\n    service --> Publisher --> broker\n"),
        "{brief}"
    );
    // mdBook 0.5's own admonition stays Markdown.
    assert!(brief.contains("> [!NOTE]\n"), "{brief}");
    // Each example provider has one heading, one level under the examples.
    assert_eq!(brief.matches("`kafka` {").count(), 1, "{brief}");
    assert!(
        brief.contains("\n### `kafka` { #examples-kafka }\n"),
        "{brief}"
    );
    // A claim after the author's colon has no second colon.
    assert!(
        brief.contains("**Answer:** Entries stay pending until acknowledged: `at-least-once` on [`delivery`](#contract-delivery)."),
        "{brief}"
    );
    assert!(
        !brief.contains(": [`delivery`](#contract-delivery):"),
        "{brief}"
    );
    // What the build reports outside the spec, other preprocessors' text included, is listed
    // in the brief, which is written all the same.
    let broken = broker(&[("mermaid.py", &|t: &str| {
        t.replace(
            "out.append('<pre class=\"mermaid\">')",
            "out.append('Drawn \\u2014 by mermaid.\\n\\n<pre class=\"mermaid\">')",
        )
    })]);
    let (code, brief, stderr) = run_in(broken.root(), &["brief", "redis-streams"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("the book has 1 error outside the spec"),
        "{stderr}"
    );
    let errors = brief
        .split("## Errors elsewhere in the book")
        .nth(1)
        .unwrap_or_else(|| panic!("{brief}"));
    assert!(errors.contains("`src/contract.md:"), "{errors}");
    assert!(errors.contains(" em-dash: "), "{errors}");
    // The spec's own errors stop it: it copies the spec's answers.
    let spec = broker(&[("src/redis-streams-adapter-spec.md", &|t: &str| {
        t.to_owned() + "\nA dash \u{2014} here.\n"
    })]);
    let (code, brief, stderr) = run_in(spec.root(), &["brief", "redis-streams"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(brief.is_empty());
    assert!(stderr.contains("error[em-dash]"), "{stderr}");
    assert!(stderr.contains("no brief written"), "{stderr}");
}

/// The notes of `finding`, as strings.
fn notes(finding: &Value) -> Vec<&str> {
    finding["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect()
}

#[test]
fn a_provider_heading_without_its_class_is_one_finding_at_the_heading() {
    let book = broker(&[("src/adapters.md", &|t: &str| {
        t.replace("## `kafka` {.provider}", "## `kafka`")
    })]);
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 1);
    assert_eq!(checks_of(&findings), ["malformed-section"], "{stdout}");
    let finding = of(&findings, "malformed-section")[0];
    assert_eq!(finding["line"], 7, "{stdout}");
    assert_eq!(
        finding["message"],
        "the section of this heading holds 6 claims (`{{#profile}}`), but the heading does not have the class `provider`, so no provider makes them"
    );
    assert_eq!(
        finding["help"],
        "add `{.provider}` at its end: ``## `kafka` {.provider}``"
    );
    assert_eq!(notes(finding).len(), 6, "{stdout}");
    assert_eq!(notes(finding)[0], "a claim: src/adapters.md:9:46");

    // A misspelt class says which, and a provider heading whose claims sit in sub-sections is
    // still the one blamed.
    let book = broker(&[("src/adapters.md", &|t: &str| {
        t.replace(
            "## `rabbitmq` {.provider}",
            "## `rabbitmq` {.providers}\n\n### Claims",
        )
    })]);
    let (_, stdout, findings) = check(&book);
    assert_eq!(checks_of(&findings), ["malformed-section"], "{stdout}");
    let finding = of(&findings, "malformed-section")[0];
    assert_eq!(finding["line"], 24, "{stdout}");
    assert_eq!(
        finding["help"],
        "its class is `providers`; write `{.provider}` instead: ``## `rabbitmq` {.provider}``"
    );

    // A spec whose heading lost its classes: one finding, its claim a note.
    let book = broker(&[("src/redis-streams-adapter-spec.md", &|t: &str| {
        t.replace(" {.provider .proposed}", "")
    })]);
    let (_, stdout, findings) = check(&book);
    let section = of(&findings, "malformed-section");
    assert_eq!(section.len(), 1, "{stdout}");
    assert_eq!(section[0]["line"], 1);
    assert_eq!(
        notes(section[0]),
        ["a claim: src/redis-streams-adapter-spec.md:11:54"],
        "{stdout}"
    );
    assert!(!stdout.contains("malformed-shortcode"), "{stdout}");

    // A proposed provider whose `proposed` is misspelt is told so, once.
    let book = broker(&[("src/adapters.md", &|t: &str| {
        t.to_owned() + "\n## `pulsar` {.provider .propsed}\n\n{{#profile delivery at-least-once}}\n"
    })]);
    let (_, stdout, findings) = check(&book);
    let section = of(&findings, "malformed-section");
    assert_eq!(section.len(), 1, "{stdout}");
    assert_eq!(
        section[0]["message"],
        "provider `pulsar` has the class `propsed`, which this preprocessor does not know, so it counts as built"
    );
    // A claim in a section no heading of which reads as a provider's stays where it is.
    let book = broker(&[("src/contract.md", &|t: &str| {
        t.replace(
            "An adapter MAY batch publishes.",
            "An adapter MAY batch publishes: {{#profile delivery at-least-once x}}.",
        )
    })]);
    let (_, stdout, _) = check(&book);
    assert_eq!(
        json_positions(&stdout, "malformed-shortcode"),
        ["src/contract.md:27:33"],
        "{stdout}"
    );
}

#[test]
fn a_marker_with_wrong_metadata_still_defines_its_rule() {
    for (from, to) in [
        (
            "r[delivery.ack-after applies=at-least-once]",
            "r[delivery.ack-after applies=at-leastonce]",
        ),
        (
            "r[delivery.ack-after applies=at-least-once]",
            "r[delivery.ack-after aplies=at-least-once]",
        ),
        ("r[publish.ack]", "r[publish.ack status=stable stray]"),
    ] {
        let book = broker(&[("src/contract.md", &|t: &str| t.replace(from, to))]);
        let (code, stdout, findings) = check(&book);
        assert_eq!(code, 1);
        // The cause alone: no citation of it is orphaned, no MUST is left unlabelled.
        assert_eq!(checks_of(&findings), ["malformed-rule"], "{to}: {stdout}");
    }
    let book = broker(&[("src/contract.md", &|t: &str| {
        t.replace(
            "r[delivery.ack-after applies=at-least-once]",
            "r[delivery.ack-after applies=at-leastonce]",
        )
    })]);
    let (_, stdout, _) = check(&book);
    assert!(stdout.contains("did you mean `at-least-once`?"), "{stdout}");
    // Whom it binds is unknown until it is fixed: the matrix counts it for nobody.
    let (_, status, _) = run_in(book.root(), &["status"]);
    assert!(
        status.contains("`kafka`, 5 of 5 rules verified"),
        "{status}"
    );
}

#[test]
fn a_no_break_space_in_a_shortcode_is_named_where_it_stands() {
    let book = broker(&[("src/adapters.md", &|t: &str| {
        t.replace(
            "{{#profile ordering per-key adapters/nats/nats.go}}",
            "{{#profile ordering\u{00A0}per-key adapters/nats/nats.go}}",
        )
    })]);
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 1);
    // The cause, at the character; its consequence (no claim on `ordering`) after it.
    assert_eq!(
        json_positions(&stdout, "malformed-shortcode"),
        ["src/adapters.md:18:71"],
        "{stdout}"
    );
    let finding = of(&findings, "malformed-shortcode")[0];
    assert_eq!(
        finding["message"],
        "`{{#profile}}` has a U+00A0 NO-BREAK SPACE between `ordering` and `per-key`, which looks like a space but separates no arguments"
    );
    assert_eq!(finding["help"], "write a plain space (U+0020) in its place");
    assert_eq!(
        checks_of(&findings),
        ["malformed-shortcode", "missing-claim"],
        "{stdout}"
    );
}

#[test]
fn a_right_to_left_override_in_a_rule_is_an_error_and_a_zero_width_space_a_warning() {
    let book = broker(&[("src/contract.md", &|t: &str| {
        t.replace("MUST return from", "MUST \u{202E}return from")
            .replace("with `bus.ErrTooLarge`", "with `bus.ErrToo\u{200B}Large`")
    })]);
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 1);
    assert_eq!(
        json_positions(&stdout, "invisible-character"),
        ["src/contract.md:18:17", "src/contract.md:21:70"],
        "{stdout}"
    );
    let found = of(&findings, "invisible-character");
    assert_eq!(found[0]["severity"], "error");
    assert_eq!(found[1]["severity"], "warning");
    assert!(
        found[1]["message"]
            .as_str()
            .unwrap()
            .starts_with("U+200B ZERO WIDTH SPACE in a rule's text")
    );
}

#[test]
fn a_mistyped_anchor_is_suggested_by_its_words_as_well_as_its_letters() {
    let book = broker(&[("src/adapters.md", &|t: &str| {
        t.to_owned()
            + "\nSee [retention](contract.md#retention-policy) and [dead letters](contract.md#dead-letters).\n"
    })]);
    let (_, stdout, _) = check(&book);
    let messages: Vec<String> = serde_json::from_str::<Vec<Value>>(&stdout)
        .unwrap()
        .into_iter()
        .filter(|f| f["check"] == "dangling-link")
        .map(|f| f["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(messages.len(), 2, "{stdout}");
    assert!(
        messages[0].ends_with("did you mean `retention`?"),
        "{messages:?}"
    );
    assert!(
        messages[1].ends_with("did you mean `dead-letter`?"),
        "{messages:?}"
    );
}

#[test]
fn status_and_check_name_one_place_for_an_open_entry() {
    let book = broker(&[]);
    let (_, stdout, _) = check(&book);
    let (_, status, _) = run_in(book.root(), &["status"]);
    for place in json_positions(&stdout, "unanswered-entry") {
        let (file_line, _) = place.rsplit_once(':').unwrap();
        assert!(
            status.contains(&format!("  {file_line}: ")),
            "{file_line} in\n{status}"
        );
    }
}

#[test]
fn a_may_rule_permits_and_every_output_says_the_same() {
    let book = broker(&[]);
    // `status`: the MAY is not counted.
    let (_, status, _) = run_in(book.root(), &["status"]);
    assert!(
        status.contains("`kafka`, 6 of 6 rules verified, 0 implemented only, 0 uncovered"),
        "{status}"
    );
    // The matrix: optional, not uncovered.
    let adapters = book.chapter("adapters.md");
    let cells = crate::common::matrix_cells(&adapters);
    let batch: Vec<&str> = cells
        .iter()
        .filter(|((rule, _), _)| rule == "publish.batch")
        .map(|(_, c)| c.status.as_str())
        .collect();
    assert_eq!(batch, ["optional"; 3], "{adapters}");
    // `export`: optional in every cell.
    let (_, export, _) = run_in(book.root(), &["export"]);
    let export: Value = serde_json::from_str(&export).unwrap();
    let cells: Vec<&str> = export["coverage"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["rules"].as_array().unwrap())
        .filter(|c| c["rule"] == "publish.batch")
        .map(|c| c["status"].as_str().unwrap())
        .collect();
    assert_eq!(cells, ["optional"; 3], "{export}");
    // The brief: nothing to verify.
    let (_, brief, _) = run_in(book.root(), &["brief", "redis-streams"]);
    assert!(!brief.contains("r[verify publish.batch]"), "{brief}");
    assert!(
        brief.contains("Permitted, with nothing to verify (a MAY): `publish.batch`."),
        "{brief}"
    );
    // `unverified-rule` stays silent on it (the book has no finding but its open entries).
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 0);
    assert_eq!(checks_of(&findings), Vec::<&str>::new(), "{stdout}");
}

#[test]
fn messages_speak_this_books_words_not_another_projects() {
    // An unlabelled MUST, a marker without an ID, a MUST that cites no code.
    let book = broker(&[("src/contract.md", &|t: &str| {
        t.replace(
            "An adapter MAY batch publishes.",
            "An adapter MAY batch publishes.\n\nAn adapter MUST close its connection on shutdown.\n\nr[]\nAn adapter SHOULD log.",
        )
    })]);
    let (_, stdout, findings) = check(&book);
    for word in [
        "idempotent-by-name",
        "create.",
        "reconcileManaged",
        "names no caller",
    ] {
        assert!(!stdout.contains(word), "`{word}` in {stdout}");
    }
    let help = |check: &str| of(&findings, check)[0]["help"].as_str().unwrap().to_owned();
    assert!(
        help("missing-rule").ends_with(", as `r[publish.batch]` labels its own"),
        "{stdout}"
    );
    assert!(
        help("must-cite").contains("the interface or type it constrains"),
        "{stdout}"
    );
    assert!(stdout.contains("as in `r[section.rule-name]`"), "{stdout}");

    // new-spec names the file in the book's word.
    let book = broker(&[]);
    let (code, _, stderr) = run_in(book.root(), &["new-spec", "pulsar"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(book.root().join("src/pulsar-adapter-spec.md").exists());
    let summary = std::fs::read_to_string(book.root().join("src/SUMMARY.md")).unwrap();
    assert!(
        summary.contains("[Adapter spec: pulsar](pulsar-adapter-spec.md)"),
        "{summary}"
    );
    // It matches the book's `specs` glob, so book.toml is left as it was.
    let toml = std::fs::read_to_string(book.root().join("book.toml")).unwrap();
    assert!(!toml.contains("pulsar"), "{toml}");
}

#[test]
fn mdbooks_own_admonitions_are_checked_as_the_text_they_are() {
    let book = broker(&[("src/contract.md", &|t: &str| {
        t.replace(
            "> An adapter is built when its package is in `bus.Adapters`; until then it is a spec.",
            "> An adapter is built when its package is in `bus.Adapters` \u{2014} until then a spec.\n> An adapter MUST register itself.",
        )
    })]);
    let (_, stdout, _) = check(&book);
    // Places in the file as written, inside the quote.
    assert_eq!(
        json_positions(&stdout, "em-dash"),
        ["src/contract.md:13:61"],
        "{stdout}"
    );
    assert_eq!(
        json_positions(&stdout, "must-cite"),
        ["src/contract.md:14:14"],
        "{stdout}"
    );
    assert_eq!(
        json_positions(&stdout, "missing-rule"),
        ["src/contract.md:14:14"],
        "{stdout}"
    );
    // mdBook renders it as its admonition, and the page keeps it.
    let book = broker(&[]);
    let (built, out) = book.build();
    built.unwrap();
    let page = book.html(&out, "contract.html");
    assert!(page.contains("blockquote-tag-note"), "{page}");

    // A rule marker in one defines a rule, rendered inside the admonition, which stays one.
    let book = broker(&[("src/contract.md", &|t: &str| {
        t.replace(
            "## Publishing\n",
            "## Publishing\n\n> [!WARNING]\n> r[publish.no_silent_drop]\n> An adapter MUST NOT drop a message silently, because `bus.Publisher` callers count on it.\n",
        )
    })]);
    let (code, stdout, findings) = check(&book);
    assert_eq!(code, 0, "{stdout}");
    // Bound, and no test verifies it: the one new finding names it.
    assert_eq!(checks_of(&findings), ["unverified-rule"; 3], "{stdout}");
    assert!(
        stdout.contains("the rule `publish.no_silent_drop`"),
        "{stdout}"
    );
    let (built, out) = book.build();
    built.unwrap();
    let page = book.html(&out, "contract.html");
    let warning = page.find("blockquote-tag-warning").expect("the admonition");
    let end = warning + page[warning..].find("</blockquote>").unwrap();
    let admonition = &page[warning..end];
    assert!(
        admonition.contains("id=\"r-publish.no_silent_drop\""),
        "{admonition}"
    );
    assert!(
        admonition.contains("MUST NOT drop a message silently"),
        "{admonition}"
    );
}

#[test]
fn a_chapter_summary_md_names_that_does_not_exist_is_a_finding_not_a_file() {
    let book = broker(&[("src/SUMMARY.md", &|t: &str| {
        t.to_owned() + "- [Planned](planned/later.md)\n  - [Sub](later%20two.md)\n"
    })]);
    let (code, stdout, _) = check(&book);
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(
        json_positions(&stdout, "missing-chapter"),
        ["src/SUMMARY.md:7:3", "src/SUMMARY.md:8:5"]
    );
    assert!(stdout.contains("`later two.md`"), "{stdout}");
    assert!(!book.root().join("src/planned").exists());
    assert!(!book.root().join("src/later two.md").exists());
    // The rest of the book is read and checked: its spec's open entries still are.
    assert!(stdout.contains("unanswered-entry"), "{stdout}");
    // Silent once the files exist, and off as any check is.
    std::fs::create_dir_all(book.root().join("src/planned")).unwrap();
    std::fs::write(book.root().join("src/planned/later.md"), "# Planned\n").unwrap();
    std::fs::write(book.root().join("src/later two.md"), "# Sub\n").unwrap();
    let (_, stdout, _) = check(&book);
    assert!(
        json_positions(&stdout, "missing-chapter").is_empty(),
        "{stdout}"
    );
}
