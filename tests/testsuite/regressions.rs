//! Regression tests for bugs found by fuzzing (`fuzz/`) and by the bad-input matrix
//! (`bad_input.rs`). Each test reproduces the input that showed the bug, minimised, and
//! says where it was found and what was wrong.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::common::{Fixture, contract_book};
use mdbook_contract::fuzzing::{ChapterIndex, MarkdownOptions};
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::{Book, BookItem, Chapter as BookChapter};
use mdbook_preprocessor::config::Config;

/// Found by `bad_input.rs` (a 20 MB chapter of repeated sections hung for minutes): the
/// unique-id probe started at `-1` for every repeated heading, as mdBook's `unique_id` does, so
/// a page with n equal headings took n²/2 probes. The ids must stay mdBook's; the time linear.
#[test]
fn thousands_of_equal_headings_get_mdbooks_ids_in_linear_time() {
    let count = 20_000;
    let text = "## Same\n\n".repeat(count);
    let started = Instant::now();
    let index = ChapterIndex::parse(&text, &MarkdownOptions::default());
    let elapsed = started.elapsed();
    let ids: Vec<&str> = index.headings.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids.len(), count);
    assert_eq!(ids[0], "same");
    assert_eq!(ids[1], "same-1");
    assert_eq!(ids[count - 1], format!("same-{}", count - 1));
    // Quadratic probing took minutes here in a debug build; linear takes well under a second.
    assert!(
        elapsed < Duration::from_secs(20),
        "{count} headings took {elapsed:?}"
    );
}

/// Found by the `book` fuzz target (as a false alarm of its own first invariant check, which
/// is why the harness now takes shortcode ranges from the pipeline's reading): mdBook's `links`
/// treats `\{{#` up to the *last* `}}` of its line as one escape and removes only the first
/// backslash. A shortcode the author did not escape, later on that line, is still rendered,
/// and the escaped one is shown as written.
#[test]
fn a_shortcode_after_an_escape_on_the_same_line_is_rendered() {
    let mut files = contract_book();
    files.push((
        "src/escapes.md",
        "# E\n\nEscaped \\{{#axis x}} and {{#axis readiness}} and {{#axis create-return}}.\n",
    ));
    let fixture = Fixture::new(&files);
    let report = fixture.check();
    assert!(
        crate::common::of(&report, "unknown-axis").is_empty(),
        "the escaped `x` is not an axis reference: {report:?}"
    );
    assert_eq!(
        fixture.chapter("escapes.md"),
        "# E\n\nEscaped {{#axis x}} and [`readiness`](contract.md#readiness) and \
         [`create-return`](contract.md#create-return).\n"
    );
}

/// The contract and template of [`common`] with `chapters` (title, content, path) after them,
/// run through the pipeline in memory, as the fuzz targets do; returns each chapter's output.
fn process_in_memory(chapters: &[(&str, &str, &str)]) -> Vec<String> {
    let mut book = Book::new();
    let fixed = [
        ("Contract", crate::common::CONTRACT, "contract.md"),
        ("Template", crate::common::TEMPLATE, "template.md"),
    ];
    for (name, content, path) in fixed.iter().chain(chapters) {
        book.push_item(BookItem::Chapter(BookChapter::new(
            name,
            (*content).to_owned(),
            path,
            Vec::new(),
        )));
    }
    let config: Config =
        "[preprocessor.contract]\ncontract = [\"contract.md\"]\ntemplate = [\"template.md\"]\n"
            .parse()
            .expect("valid TOML");
    let ctx = PreprocessorContext::new(PathBuf::from("/nonexistent"), config, "html".to_owned());
    let outcome = mdbook_contract::process(&ctx, book, PathBuf::new()).expect("the pipeline runs");
    outcome.book.chapters().map(|c| c.content.clone()).collect()
}

/// Found by the `book` fuzz target (`crash-de8b21e4…`, minimised to a profile matrix and a
/// provider in a chapter whose path is a form feed): the matrix links the provider's chapter,
/// the path went into the link bare, pulldown-cmark-to-cmark found no spelling of the table that
/// parsed back the same (`Unrepresentable`), and `render::to_markdown` panicked ("writing to a
/// String does not fail"). A tab, any ASCII control character or a `|` in a path did the same.
/// Now such characters are percent-encoded, as spaces already were.
#[test]
fn a_chapter_path_with_a_control_character_or_a_pipe_is_linked_encoded() {
    let cases = [
        ("\u{c}", "(%0C#)"),
        ("a\tb.md", "(a%09b.md#p)"),
        ("\u{1}.md", "(%01.md#p)"),
        ("a|b.md", "(a%7Cb.md#p)"),
        ("a%20b.md", "(a%2520b.md#p)"),
    ];
    for (path, link) in cases {
        // The minimised input named the provider with a lone backtick; `p` gives it an id.
        let heading = if path == "\u{c}" {
            "# ` {.provider}\n"
        } else {
            "# `p` {.provider}\n"
        };
        let out = process_in_memory(&[
            ("Matrix", "{{#profile-matrix}}", "ch0.md"),
            ("Provider", heading, path),
        ]);
        let matrix = &out[2];
        assert!(
            matrix.starts_with("<div class=\"contract-matrix\">\n\n|Axis|"),
            "{path:?}: {matrix}"
        );
        assert!(matrix.contains(link), "{path:?}: {link} in {matrix}");
        assert!(
            matrix.contains("<em>missing</em>"),
            "the emphasis is kept: {matrix}"
        );
    }
}

/// Found while fixing the above: an explicit heading id with a `|` went into the link as a
/// fragment, unencoded, and pulldown-cmark-to-cmark found no spelling of the table. Fragments
/// are now encoded like paths, generated emphasis is inline HTML (which needs no round-trip
/// check), and should the writer still give up on an author's cell, the block is written again
/// without Markdown emphasis: rendering never panics.
#[test]
fn an_id_with_a_pipe_is_linked_encoded_not_panicked_on() {
    let out = process_in_memory(&[
        ("Matrix", "{{#profile-matrix}}", "ch0.md"),
        (
            "Provider",
            "# `p` {.provider #a|b}\n\n{{#profile create-return unknown}}\n",
            "x.md",
        ),
    ]);
    let matrix = &out[2];
    assert!(
        matrix.starts_with("<div class=\"contract-matrix\">\n\n|Axis|"),
        "{matrix}"
    );
    // The `|` of the id is encoded, so it cannot split the cell.
    assert!(matrix.contains("(x.md#a%7Cb)"), "{matrix}");
    assert!(matrix.contains("|<em>missing</em>|"), "{matrix}");
    assert!(out[3].contains("<strong>unknown</strong>"), "{}", out[3]);
}

/// Found by the `book` fuzz target: a shortcode naming an unknown axis, with carriage returns
/// inside, was shown as a code span that the carriage returns broke (to CommonMark each is a
/// line ending), so the build stopped on its own guard against an unrendered shortcode.
#[test]
fn an_unknown_shortcode_with_carriage_returns_stays_inside_its_code_span() {
    let book = Fixture::new(&[
        ("src/contract.md", crate::common::CONTRACT),
        ("src/template.md", crate::common::TEMPLATE),
        (
            "src/extra.md",
            "# Extra\n\n## `pods` {.provider}\n\nReady: {{#profile readinee immediate x\r\r\r\ry}}.\n",
        ),
    ]);
    let (ctx, loaded) = mdbook_contract::load(book.root(), "html").unwrap();
    let outcome = mdbook_contract::process(&ctx, loaded, std::path::PathBuf::new())
        .expect("rendered, not stopped by the guard");
    assert!(!outcome.report.findings.is_empty());
}

/// Found by the `book` fuzz target (`check` and the build disagreed): a link to a missing
/// anchor on a page whose ids include several equally near ones (`anch`, `anch-1`, ...) was
/// told a different did-you-mean by each run, as the ids are kept in a set whose order changes
/// from one run to the next. A tie now goes to the smaller name.
#[test]
fn a_did_you_mean_among_equally_near_anchors_is_the_same_every_run() {
    let mut files = contract_book();
    let headings = "## Anch\n\ntext\n\n".repeat(9);
    let page = format!("# Page\n\n{headings}See [there](#anchor).\n");
    files.push(("src/ties.md", &page));
    let fixture = Fixture::new(&files);
    for _ in 0..8 {
        let report = fixture.check();
        let links = crate::common::of(&report, "dangling-link");
        assert_eq!(links.len(), 1, "{report:?}");
        assert!(
            links[0].message.ends_with("did you mean `anch`?"),
            "{}",
            links[0].message
        );
    }
}
