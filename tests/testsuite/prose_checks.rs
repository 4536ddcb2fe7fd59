//! The prose, link and source checks, each made to fire at its exact position and kept silent.
//!
//! Cases add a chapter (`src/extra.md`, listed in SUMMARY.md by the fixture) or replace one to
//! the small contract book of `common`, whose own findings are one `unknown-claim` warning.

use crate::common::*;

fn book_with(extra: &[(&'static str, &'static str)]) -> Fixture {
    let mut files = contract_book();
    for (path, text) in extra {
        files.retain(|(p, _)| p != path);
        files.push((path, text));
    }
    Fixture::new(&files)
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

const TOML_WITH: fn(&str) -> &'static str = |extra| {
    leak(format!(
        "[book]\ntitle = \"x\"\n\n[preprocessor.contract]\ncontract = [\"contract.md\"]\ntemplate = [\"template.md\"]\n{extra}"
    ))
};

#[test]
fn em_dash_fires_on_the_character_on_smart_dashes_and_on_entities() {
    let text = "# Extra\n\nA \u{2014} b.\n\nC --- d and e &mdash; f.\n\n`code \u{2014} span` and\n\n```\nblock \u{2014} x\n```\n";
    let report = book_with(&[("src/extra.md", text)]).check();
    assert_eq!(
        positions(&report, "em-dash"),
        ["src/extra.md:3:3", "src/extra.md:5:3", "src/extra.md:5:15"]
    );
    let messages = messages(&report, "em-dash");
    assert!(
        messages[1].contains("`---` becomes an em-dash"),
        "{messages:?}"
    );
    assert!(
        messages[2].contains("`&mdash;` renders as an em-dash"),
        "{messages:?}"
    );
}

#[test]
fn em_dash_is_silent_on_triple_hyphens_without_smart_punctuation() {
    let toml = TOML_WITH("\n[output.html]\nsmart-punctuation = false\n");
    let report = book_with(&[
        ("book.toml", toml),
        ("src/extra.md", "# Extra\n\nC --- d -- e.\n"),
    ])
    .check();
    assert!(of(&report, "em-dash").is_empty());
    let report = book_with(&[("src/extra.md", "# Extra\n\nC -- d, e - f.\n")]).check();
    assert!(of(&report, "em-dash").is_empty());
}

#[test]
fn invisible_character_fires_on_bidi_controls_anywhere_and_invisibles_where_they_change_words() {
    // A right-to-left override in prose and in a code block; a zero-width space in a code span
    // and in a shortcode; a soft hyphen in prose and a joiner in an emoji, both left alone.
    let text = "# Extra\n\nAccess is \u{202E}denied\u{202C} for guests.\n\n```\nif admin \u{2066}&& x\u{2069} {}\n```\n\nCall `Sweeper.swe\u{200B}ep`, see {{#axis read\u{2060}iness}}.\n\nA long\u{00AD}word, a family \u{1F468}\u{200D}\u{1F469}.\n";
    let report = book_with(&[("src/extra.md", text)]).check();
    assert_eq!(
        positions(&report, "invisible-character"),
        [
            "src/extra.md:3:11",
            "src/extra.md:3:18",
            "src/extra.md:6:10",
            "src/extra.md:6:15",
            "src/extra.md:9:18",
            "src/extra.md:9:40",
        ]
    );
    let found = of(&report, "invisible-character");
    assert_eq!(
        found[0].message,
        "U+202E RIGHT-TO-LEFT OVERRIDE: the text after it is shown in another order than it is stored"
    );
    assert_eq!(found[0].severity, mdbook_contract::Severity::Error);
    assert_eq!(
        found[4].message,
        "U+200B ZERO WIDTH SPACE in a code span: it makes the text another one than it shows"
    );
    assert_eq!(found[4].severity, mdbook_contract::Severity::Warning);
    assert!(
        found[5]
            .message
            .starts_with("U+2060 WORD JOINER in a shortcode")
    );
    // The axis code with a word joiner is not the axis: the shortcode's error names it too.
    assert!(
        messages(&report, "unknown-axis")
            .iter()
            .chain(messages(&report, "malformed-shortcode").iter())
            .any(|m| m.contains("U+2060 WORD JOINER")),
        "{:?}",
        report.findings
    );
}

#[test]
fn invisible_character_is_silent_on_plain_text_and_when_allowed() {
    let text = "# Extra\n\nPlain text, caf\u{00E9}, \u{201C}quotes\u{201D}, a long\u{00AD}word.\n\n<!-- contract: allow invisible-character -->\nAn \u{202E}override allowed.\n";
    let report = book_with(&[("src/extra.md", text)]).check();
    assert!(of(&report, "invisible-character").is_empty());
}

#[test]
fn line_reference_fires_in_prose_and_code_spans() {
    let text = "# Extra\n\nSee provider.go:120 and `gc.go:40-52`, or lines :12-30.\n\nA URL https://example.com:8080/x is fine, and so is `Sweeper.sweep`.\n";
    let report = book_with(&[("src/extra.md", text)]).check();
    assert_eq!(
        positions(&report, "line-reference"),
        ["src/extra.md:3:5", "src/extra.md:3:26", "src/extra.md:3:49"]
    );
    assert!(
        of(&report, "line-reference")[0]
            .message
            .contains("`provider.go:120`")
    );
}

#[test]
fn line_reference_patterns_are_configurable() {
    let toml = TOML_WITH("line-reference-patterns = ['\\bL[0-9]+\\b']\n");
    let text = "# Extra\n\nSee L42, and provider.go:120 is allowed here.\n";
    let report = book_with(&[("book.toml", toml), ("src/extra.md", text)]).check();
    assert_eq!(positions(&report, "line-reference"), ["src/extra.md:3:5"]);
}

#[test]
fn dangling_link_fires_on_missing_chapters_and_anchors() {
    let text = "# Extra\n\n[a](nope.md) [b](contract.md#readines) [c](#missing) [d](#extra)\n[e](appendix/existing.md#pods) [f](template.html#readiness) [g](img/none.png)\n[h](https://example.com/x.md) [i](contract.md#readiness) [j](unlisted.md)\n<a href=\"contract.md#gone\">k</a>\n";
    let report = book_with(&[
        ("src/extra.md", text),
        ("src/unlisted.md", "# Not in summary\n"),
    ]);
    // `unlisted.md` exists but is not in SUMMARY.md.
    std::fs::write(
        report.root().join("src/SUMMARY.md"),
        "# Summary\n\n- [c](contract.md)\n- [t](template.md)\n- [a](appendix/existing.md)\n- [e](extra.md)\n",
    )
    .unwrap();
    let report = report.check();
    assert_eq!(
        positions(&report, "dangling-link"),
        [
            "src/extra.md:3:1",
            "src/extra.md:3:14",
            "src/extra.md:3:40",
            "src/extra.md:4:61",
            "src/extra.md:5:58",
            "src/extra.md:6:1",
        ]
    );
    let messages = messages(&report, "dangling-link");
    assert!(
        messages[1].contains("no anchor `#readines`; did you mean `readiness`?"),
        "{messages:?}"
    );
    assert!(
        messages[4].contains("SUMMARY.md does not list it"),
        "{messages:?}"
    );
}

#[test]
fn dangling_link_checks_links_out_of_the_book_only_with_a_source_root() {
    let text = "# Extra\n\n[out](../../missing/file.go) [ok](../../repo/real.go)\n";
    let files = [("src/extra.md", text)];
    assert!(of(&book_with(&files).check(), "dangling-link").is_empty());
    let toml = TOML_WITH("source-root = \"..\"\n");
    let fixture = book_with(&[("book.toml", toml), ("src/extra.md", text)]);
    let repo = fixture.root().parent().unwrap().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(repo.join("real.go"), "package x\n").unwrap();
    // The book root's parent is the source root here; `../../` from `src/` reaches it.
    let report = fixture.check();
    assert_eq!(positions(&report, "dangling-link"), ["src/extra.md:3:1"]);
}

#[test]
fn readme_link_fails_the_build() {
    let report = book_with(&[
        ("src/README.md", "# Intro\n"),
        (
            "src/extra.md",
            "# Extra\n\n[intro](README.md) [ok](index.md)\n",
        ),
    ])
    .check();
    assert_eq!(positions(&report, "readme-link"), ["src/extra.md:3:1"]);
    assert!(
        of(&report, "dangling-link").is_empty(),
        "{:?}",
        of(&report, "dangling-link")
    );
    assert_eq!(
        of(&report, "readme-link")[0].severity,
        mdbook_contract::Severity::Error,
        "the published link is broken"
    );
}

#[test]
fn forbidden_term_bans_provider_names_in_the_contract_and_configured_terms() {
    let contract = leak(format!(
        "{CONTRACT}\nLike Pods, see `internal/provider/vms` and the squid proxy; podsx is a word.\n"
    ));
    let toml =
        TOML_WITH("\n[preprocessor.contract.forbidden-terms]\n\"contract.md\" = [\"squid\"]\n");
    let report = book_with(&[("book.toml", toml), ("src/contract.md", contract)]).check();
    assert_eq!(
        positions(&report, "forbidden-term"),
        [
            "src/contract.md:27:6",
            "src/contract.md:27:35",
            "src/contract.md:27:48"
        ]
    );
    // The appendix names providers freely.
    assert!(
        of(&report, "forbidden-term")
            .iter()
            .all(|f| f.location.path.ends_with("contract.md"))
    );
}

#[test]
fn must_cite_fires_on_a_must_without_a_caller() {
    let contract = leak(format!(
        "{CONTRACT}\n## Rules\n\nCreate MUST be idempotent. It MUST NOT block, or `reconcileManaged` stalls.\n\n- Get MUST answer NotFound only when gone.\n- Delete MUST be re-entrant, since `internal/controller` retries.\n\n| Rule | Why |\n|---|---|\n| Quota MUST be transient | for `Sweeper.sweep` |\n"
    ));
    let report = book_with(&[("src/contract.md", contract)]).check();
    assert_eq!(
        positions(&report, "must-cite"),
        ["src/contract.md:29:8", "src/contract.md:31:7"]
    );
}

#[test]
fn must_cite_respects_the_shared_layer_roots() {
    let contract = leak(format!(
        "{CONTRACT}\n## Rules\n\n- A MUST hold, see `internal/provider/registry`.\n- B MUST hold, see `internal/other/x.go`.\n"
    ));
    let toml = TOML_WITH("shared-layer = [\"internal/provider\", \"cmd/main.go\"]\n");
    let report = book_with(&[("book.toml", toml), ("src/contract.md", contract)]).check();
    assert_eq!(positions(&report, "must-cite"), ["src/contract.md:30:5"]);
}

fn source_tree(root: &std::path::Path) {
    for (path, text) in [
        (
            "repo/internal/gc/gc.go",
            "package gc\n\ntype Sweeper struct{}\n\nfunc (s *Sweeper) sweep() {}\n",
        ),
        (
            "repo/internal/controller/proxy_controller.go",
            "package controller\n\nfunc reconcileManaged() {}\n",
        ),
        ("repo/cmd/main.go", "package main\n"),
    ] {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn cited_path_and_symbol_fire_against_the_source_tree() {
    let text = "# Extra\n\nSee `internal/gc/gc.go`, `internal/gc/gcc.go`, `internal/{gc,controller}`, `cmd/*.go`,\n`Sweeper.sweep`, `Sweeper.swep`, `reconcileManaged`, `reconcileAll` and `readiness` and `ignored`.\n";
    let toml = TOML_WITH("source-root = \"repo\"\nsymbol-ignore = [\"ignored\"]\n");
    let fixture = book_with(&[("book.toml", toml), ("src/extra.md", text)]);
    source_tree(fixture.root());
    let report = fixture.check();
    // Claims' evidence is checked too: `internal/provider/pods` is not in this tree.
    assert_eq!(
        positions(&report, "cited-path"),
        ["src/appendix/existing.md:10:57", "src/extra.md:3:26"]
    );
    // The fixture's claims cite `newWithClient` and `Create`, which this tree does not have.
    assert_eq!(
        positions(&report, "cited-symbol"),
        [
            "src/appendix/existing.md:9:56",
            "src/appendix/existing.md:10:80",
            "src/extra.md:4:18",
            "src/extra.md:4:54"
        ]
    );
    assert!(
        of(&report, "cited-symbol")[2]
            .message
            .contains("`swep` is not a whole word")
    );
}

#[test]
fn cited_checks_are_silent_without_a_source_root() {
    let text = "# Extra\n\nSee `internal/gc/gcc.go` and `Sweeper.swep`.\n";
    let report = book_with(&[("src/extra.md", text)]).check();
    assert!(of(&report, "cited-path").is_empty() && of(&report, "cited-symbol").is_empty());
}

#[test]
fn a_source_root_that_does_not_exist_is_a_dangling_path_and_the_rest_is_checked() {
    let toml = TOML_WITH("source-root = \"no/such/folder\"\n");
    let fixture = book_with(&[
        ("book.toml", toml),
        (
            "src/extra.md",
            "# Extra\n\nSee `internal/x.go`; and \u{2014} here.\n",
        ),
    ]);
    let report = fixture.check();
    assert_eq!(positions(&report, "dangling-path"), ["book.toml:7:15"]);
    let finding = report
        .findings
        .iter()
        .find(|f| f.check == "dangling-path")
        .unwrap();
    assert!(
        finding.message.contains(
            "`preprocessor.contract.source-root` is `no/such/folder`, which does not exist"
        ),
        "{}",
        finding.message
    );
    // Without the tree the citation is not checked; the em-dash is.
    assert!(positions(&report, "cited-path").is_empty());
    assert_eq!(positions(&report, "em-dash"), ["src/extra.md:3:26"]);

    std::fs::create_dir_all(fixture.root().join("no/such/folder/internal")).unwrap();
    std::fs::write(
        fixture.root().join("no/such/folder/internal/x.go"),
        "package x\n",
    )
    .unwrap();
    let report = fixture.check();
    assert!(positions(&report, "dangling-path").is_empty());
}

#[test]
fn leftover_directive_fires_on_failed_includes_even_in_code() {
    let text = "# Extra\n\n{{#include missing.md}}\n\n```rust\n{{#include missing.rs}}\n```\n\n\\{{#include shown.md}} and {{#unknown thing}}\n";
    let report = book_with(&[("src/extra.md", text)]).check();
    assert_eq!(
        positions(&report, "leftover-directive"),
        ["src/extra.md:3:1", "src/extra.md:6:1", "src/extra.md:9:28"]
    );
}

#[test]
fn findings_in_included_text_name_the_included_file() {
    let text = "# Extra\n\nBefore.\n\n{{#include parts/part.md}}\n\nAfter \u{2014} here.\n";
    let part = "Line one.\nLine two \u{2014} there.\n";
    let report = book_with(&[("src/extra.md", text), ("src/parts/part.md", part)]);
    std::fs::write(
        report.root().join("src/SUMMARY.md"),
        "# Summary\n\n- [c](contract.md)\n- [t](template.md)\n- [a](appendix/existing.md)\n- [e](extra.md)\n",
    )
    .unwrap();
    let report = report.check();
    assert_eq!(
        positions(&report, "em-dash"),
        ["src/parts/part.md:2:10", "src/extra.md:7:7"]
    );
    assert_eq!(
        of(&report, "em-dash")[0].location.note.as_deref(),
        Some("included by src/extra.md:5:1")
    );
}

#[test]
fn suppression_comments_and_chapter_severities() {
    let text = "# Extra\n\n<!-- contract: allow em-dash -->\nA \u{2014} b.\n\nC \u{2014} d.\n\n<!-- contract: allow em-dsh -->\n";
    let report = book_with(&[("src/extra.md", text)]).check();
    assert_eq!(positions(&report, "em-dash"), ["src/extra.md:6:3"]);
    assert_eq!(
        positions(&report, "malformed-suppression"),
        ["src/extra.md:8:1"]
    );
    let whole = "<!-- contract: allow em-dash -->\n# Extra\n\nA \u{2014} b.\n\nC \u{2014} d.\n";
    assert!(of(&book_with(&[("src/extra.md", whole)]).check(), "em-dash").is_empty());
    let toml = TOML_WITH(
        "\n[preprocessor.contract.chapters.\"extra.md\".checks]\nem-dash = \"warning\"\n",
    );
    let report = book_with(&[
        ("book.toml", toml),
        ("src/extra.md", "# Extra\n\nA \u{2014} b.\n"),
    ])
    .check();
    assert_eq!(
        of(&report, "em-dash")[0].severity,
        mdbook_contract::Severity::Warning
    );
}

#[test]
fn must_cite_takes_the_rfc_2119_sentence_for_what_it_is() {
    let contract = leak(format!(
        "{CONTRACT}\n## Keywords\n\nThe key words \"MUST\", \"MUST NOT\", \"SHOULD\" and \"MAY\" in this document are to be\ninterpreted as described in RFC 2119.\n\nCreate MUST be idempotent.\n"
    ));
    let report = book_with(&[("src/contract.md", contract)]).check();
    // The definition of the keywords is not a rule; the uncited rule after it still fires.
    assert_eq!(positions(&report, "must-cite"), ["src/contract.md:32:8"]);
}

#[test]
fn dangling_definition_warns_on_an_unused_definition_whose_target_dangles() {
    let text = "# Extra\n\nSee [the contract][c] and [gone][].\n\n[c]: contract.md#readiness\n[gone]: nowhere.md\n[spare]: missing.md\n[also-spare]: template.md\n[Anchor Spare]: contract.md#no-such-heading\n";
    let report = book_with(&[("src/extra.md", text)]).check();
    // The used definitions are checked with their links (`gone`); of the unused ones, those
    // whose target dangles.
    assert_eq!(positions(&report, "dangling-link"), ["src/extra.md:3:27"]);
    assert_eq!(
        positions(&report, "dangling-definition"),
        ["src/extra.md:7:1", "src/extra.md:9:1"]
    );
    let found = of(&report, "dangling-definition");
    assert_eq!(found[0].severity, mdbook_contract::Severity::Warning);
    assert!(
        found[0].message.contains("`missing.md`"),
        "{}",
        found[0].message
    );
    let clean =
        "# Extra\n\nSee [the contract][c].\n\n[c]: contract.md#readiness\n[spare]: template.md\n";
    assert!(
        of(
            &book_with(&[("src/extra.md", clean)]).check(),
            "dangling-definition"
        )
        .is_empty()
    );
}

/// The same link written in several chapters is resolved once per folder (books repeat links:
/// mdbook-spec appends the same definitions to every chapter); a folder of its own gets its
/// own answer, and a link into its own chapter is never shared.
#[test]
fn the_same_link_in_chapters_of_different_folders_leads_to_different_places() {
    let book = Fixture::new(&[
        ("book.toml", "[book]\ntitle = \"x\"\n"),
        (
            "src/SUMMARY.md",
            "# Summary\n\n- [A](a.md)\n- [B](p/b.md)\n- [X](p/x.md)\n- [C](c.md)\n",
        ),
        (
            "src/a.md",
            "# A\n\n## Here\n\n[x](x.md) [h](#here)\n\n[d]: x.md\n",
        ),
        ("src/p/b.md", "# B\n\n[x](x.md) [h](#here)\n\n[d]: x.md\n"),
        ("src/p/x.md", "# X\n"),
        ("src/c.md", "# C\n\n[x](x.md)\n\n[d]: x.md\n"),
    ]);
    let report = book.check();
    assert_eq!(
        positions(&report, "dangling-link"),
        ["src/a.md:5:1", "src/p/b.md:3:11", "src/c.md:3:1"]
    );
    assert_eq!(
        positions(&report, "dangling-definition"),
        ["src/a.md:7:1", "src/c.md:5:1"]
    );
}

#[test]
fn dangling_link_messages_say_where_the_link_leads() {
    let text = "# Extra\n\n[a](nowhere.md) [b](sub/../elsewhere.md)\n";
    let report = book_with(&[("src/extra.md", text)]).check();
    let messages = messages(&report, "dangling-link");
    assert_eq!(
        messages[0],
        "the link to `nowhere.md` leads to no chapter of the book"
    );
    assert!(
        messages[1].starts_with(
            "the link to `sub/../elsewhere.md` (`elsewhere.md` in the book) leads to no chapter"
        ),
        "{messages:?}"
    );
}

#[test]
fn leftover_directive_leaves_mentions_of_mdbook_directives_alone() {
    let text = "# Extra\n\nThe directives `{{ #include }}`, `{{#playground}}` and {{#include}} are mdBook's.\n\n{{#include missing.md}}\n";
    let report = book_with(&[("src/extra.md", text)]).check();
    assert_eq!(
        positions(&report, "leftover-directive"),
        ["src/extra.md:5:1"]
    );
}

#[test]
fn leftover_directive_says_once_that_links_runs_too_late() {
    let text = "# Extra\n\n{{#include part.md}}\n\n{{#include part.md}}\n";
    let files = [("src/extra.md", text), ("src/part.md", "Part.\n")];
    // mdBook without `after = ["links"]`: the built-in `links` runs after `contract`, and the
    // book reaches this preprocessor with every include as written. (`check` runs `links`
    // itself, so the book is given to the pipeline unexpanded here, as a build hands it over.)
    let toml = TOML_WITH("");
    let fixture = book_with(&[files[0], files[1], ("book.toml", toml)]);
    let md = mdbook_driver::MDBook::load(fixture.root()).unwrap();
    let ctx = mdbook_preprocessor::PreprocessorContext::new(
        fixture.root().to_path_buf(),
        md.config.clone(),
        "html".to_owned(),
    );
    let report = mdbook_contract::check(&ctx, &md.book, Default::default()).unwrap();
    assert_eq!(positions(&report, "leftover-directive"), ["book.toml:4:1"]);
    let message = &messages(&report, "leftover-directive")[0];
    assert!(message.contains("(2 directives in 1 chapter)"), "{message}");
    assert!(
        of(&report, "leftover-directive")[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("after = [\"links\"]")),
        "{:?}",
        of(&report, "leftover-directive")
    );
    // With `after = ["links"]` the same unexpanded book is reported directive by directive.
    let toml = TOML_WITH("after = [\"links\"]\n");
    let fixture = book_with(&[files[0], files[1], ("book.toml", toml)]);
    let md = mdbook_driver::MDBook::load(fixture.root()).unwrap();
    let ctx = mdbook_preprocessor::PreprocessorContext::new(
        fixture.root().to_path_buf(),
        md.config.clone(),
        "html".to_owned(),
    );
    let report = mdbook_contract::check(&ctx, &md.book, Default::default()).unwrap();
    assert_eq!(
        positions(&report, "leftover-directive"),
        ["src/extra.md:3:1", "src/extra.md:5:1"]
    );
}

#[test]
fn line_reference_leaves_tool_positions_and_code_blocks_alone() {
    let text = "# Extra\n\nThe panic says _src/main.rs:2:5_, line 2, column 5.\n\n```console\nthread 'main' panicked at src/main.rs:2:5:\n(gdb) break provider.go:120\n```\n\nBut provider.go:120 and `gc.go:40` are citations.\n";
    let report = book_with(&[("src/extra.md", text)]).check();
    assert_eq!(
        positions(&report, "line-reference"),
        ["src/extra.md:10:5", "src/extra.md:10:26"]
    );
}
