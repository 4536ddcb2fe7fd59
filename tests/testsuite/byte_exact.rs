//! Byte-exact output: a chapter without shortcodes comes back byte for byte; a chapter with
//! shortcodes differs only inside their byte ranges. A property test over generated Markdown,
//! and one large book.

use std::path::PathBuf;

use mdbook_contract::Check;
use mdbook_contract::fuzzing as shortcode;
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::{Book, BookItem, Chapter};
use mdbook_preprocessor::config::Config;
use proptest::prelude::*;

/// Pieces of Markdown that exercise the parser and this crate, shortcodes included.
const PIECES: &[&str] = &[
    "# Title\n",
    "## `readiness` {.axis}\n",
    "| Profile | Meaning | Tolerated by |\n|---|---|---|\n| `immediate` | at once | every caller |\n| `later` | after a while | `reconcileManaged` |\n",
    "Some *emphasis*, `code {{#axis readiness}}`, and _underscores_.\n",
    "See {{#axis readiness}} for the details.\n",
    "{{#axis-table}}\n",
    "{{#profile-matrix}}\n",
    "## `p1` {.provider}\n",
    "A claim: {{#profile readiness immediate `Pkg.Func`}}.\n",
    "An unknown one: {{#profile readiness unknown}}.\n",
    "Escaped \\{{#axis readiness}} stays.\n",
    "```\n{{#axis readiness}}\n```\n",
    "> quoted {{#axis nope}}\n",
    "- item one\n- item {{#axis readiness}}\n  continued\n",
    "1) ordered\n2) list\n",
    "Setext\n======\n",
    "Smart 'quotes' -- and --- dashes...\n",
    "<div id=\"raw\">{{#axis readiness}}</div>\n",
    "[link](other.md#x) and [ref][r]\n\n[r]: https://example.com\n",
    "Footnote[^n].\n\n[^n]: The note.\n",
    "Tab\tseparated\ttext\r\n",
    "Broken {{#axis\n",
    "{{#axes readiness}} typo\n",
    "Unicode: é, 漢字, 🐙, عربى\n",
    "\n",
    "   \n",
];

fn book_of(chapters: &[String]) -> Book {
    let mut book = Book::new();
    for (i, content) in chapters.iter().enumerate() {
        let path = PathBuf::from(format!("dir{}/ch{i}.md", i % 2));
        book.push_item(BookItem::Chapter(Chapter::new(
            &format!("Chapter {i}"),
            content.clone(),
            path,
            Vec::new(),
        )));
    }
    book
}

fn context() -> PreprocessorContext {
    // No book on disk: positions are measured on the content, which this test does not read.
    PreprocessorContext::new(
        PathBuf::from("/nonexistent-book-root"),
        Config::default(),
        "html".into(),
    )
}

/// Checks that `output` equals `input` outside the shortcode ranges that `scan` finds.
fn assert_changed_only_in_shortcodes(input: &str, output: &str) {
    let index = mdbook_contract::fuzzing::ChapterIndex::parse(input, &Default::default());
    let scan = shortcode::scan(input, &index, &|_| false);
    let mut expected_pieces = Vec::new();
    let mut at = 0;
    for s in &scan.shortcodes {
        expected_pieces.push(&input[at..s.range.start]);
        at = s.range.end;
    }
    expected_pieces.push(&input[at..]);
    if scan.shortcodes.is_empty() {
        assert_eq!(input, output);
        return;
    }
    // Every piece between shortcodes appears in order in the output, with only replacement
    // text between consecutive pieces.
    let mut cursor = 0;
    for (i, piece) in expected_pieces.iter().enumerate() {
        if i == 0 {
            assert!(
                output.starts_with(piece),
                "prefix changed:\n{input:?}\n{output:?}"
            );
            cursor = piece.len();
            continue;
        }
        if i == expected_pieces.len() - 1 {
            assert!(
                output.ends_with(piece),
                "suffix changed:\n{input:?}\n{output:?}"
            );
            continue;
        }
        let found = output[cursor..]
            .find(piece)
            .unwrap_or_else(|| panic!("piece {piece:?} lost:\n{input:?}\n{output:?}"));
        cursor += found + piece.len();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn output_differs_only_inside_shortcodes(
        chapters in prop::collection::vec(prop::collection::vec(0..PIECES.len(), 0..14), 1..4)
    ) {
        let texts: Vec<String> = chapters
            .iter()
            .map(|pieces| pieces.iter().map(|&i| PIECES[i]).collect::<Vec<_>>().join("\n"))
            .collect();
        let outcome = mdbook_contract::process(&context(), book_of(&texts), PathBuf::new()).expect("pipeline runs");
        let outputs: Vec<&Chapter> = outcome.book.chapters().collect();
        prop_assert_eq!(outputs.len(), texts.len());
        for (input, chapter) in texts.iter().zip(outputs) {
            assert_changed_only_in_shortcodes(input, &chapter.content);
        }
    }

    #[test]
    fn a_second_run_changes_nothing_and_reports_nothing_new(
        chapters in prop::collection::vec(prop::collection::vec(0..PIECES.len(), 0..14), 1..4)
    ) {
        let texts: Vec<String> = chapters
            .iter()
            .map(|pieces| pieces.iter().map(|&i| PIECES[i]).collect::<Vec<_>>().join("\n"))
            .collect();
        let first = mdbook_contract::process(&context(), book_of(&texts), PathBuf::new()).expect("first run");
        let rendered: Vec<String> = first.book.chapters().map(|c| c.content.clone()).collect();
        let second = mdbook_contract::process(&context(), book_of(&rendered), PathBuf::new()).expect("second run");
        let again: Vec<String> = second.book.chapters().map(|c| c.content.clone()).collect();
        prop_assert_eq!(&again, &rendered);
        // The first run consumed the claims and answer sites (they are rendered text now), so
        // the checks that count them see none the second time; every other finding of the
        // second run (a generated link that dangles, generated text that breaks a prose rule)
        // must have been reported by the first.
        let consumed = [Check::MissingClaim, Check::MissingAnswer];
        let seen: std::collections::HashSet<(Check, &str)> =
            first.report.findings.iter().map(|f| (f.check, f.message.as_str())).collect();
        for finding in &second.report.findings {
            if consumed.contains(&finding.check) {
                continue;
            }
            prop_assert!(
                seen.contains(&(finding.check, finding.message.as_str())),
                "new in the second run: {} {}\ninput: {:?}\nrendered: {:?}", finding.check, finding.message, texts, rendered
            );
        }
    }

    #[test]
    fn chapters_without_shortcodes_are_returned_unchanged(text in "[ -~\\n\\t\u{e9}\u{2014}]{0,400}") {
        prop_assume!(!text.contains("{{"));
        let outcome = mdbook_contract::process(&context(), book_of(std::slice::from_ref(&text)), PathBuf::new())
            .expect("pipeline runs");
        prop_assert_eq!(&outcome.book.chapters().next().expect("one chapter").content, &text);
    }
}

#[test]
fn a_large_book_changes_only_its_shortcodes() {
    // The structure (axes, providers, the rendered tables) is in the first chapter, as in a
    // real book; the other chapters repeat prose, claims, links and escapes.
    let structure = |piece: &&str| {
        piece.contains("{.axis}")
            || piece.contains("{.provider}")
            || piece.contains("-table}}")
            || piece.contains("-matrix}}")
    };
    let prose: Vec<&str> = PIECES.iter().copied().filter(|p| !structure(p)).collect();
    let mut texts = vec![PIECES.join("\n")];
    for i in 1..600 {
        let mut text = String::new();
        for j in 0..60 {
            text.push_str(prose[(i * 7 + j * 3) % prose.len()]);
            text.push('\n');
        }
        texts.push(text);
    }
    let total: usize = texts.iter().map(String::len).sum();
    assert!(total > 1_000_000, "the book is large: {total} bytes");
    let outcome = mdbook_contract::process(&context(), book_of(&texts), PathBuf::new())
        .expect("pipeline runs");
    let mut unchanged = 0;
    for (input, chapter) in texts.iter().zip(outcome.book.chapters()) {
        assert_changed_only_in_shortcodes(input, &chapter.content);
        unchanged += usize::from(*input == chapter.content);
    }
    assert!(
        unchanged < texts.len(),
        "some chapters have shortcodes to render"
    );
}
