//! What the generated Markdown says: copies of the contract's text with their shortcodes
//! rendered, one answer list per axis, the profile matrix; and, on this repository's book built
//! by real mdBook, that no page shows a shortcode of ours as written.

use regex::Regex;

use crate::common::*;

fn with(path: &'static str, text: String) -> Fixture {
    let mut files = contract_book();
    files.retain(|(p, _)| *p != path);
    files.push((path, Box::leak(text.into_boxed_str())));
    Fixture::new(&files)
}

/// The contract of `common` with shortcodes in its `Profile` table: a plain one, one with a
/// backticked code, and an escaped one.
fn contract_with_shortcodes_in_cells() -> String {
    CONTRACT
        .replace(
            "| Get answers Running at once |",
            "| Get answers Running at once (see {{#axis create-return}}) |",
        )
        .replace(
            "| `reconcileManaged` requeues |",
            "| `reconcileManaged` requeues, as {{#axis `readiness`}} says; not \\{{#axis shown}} |",
        )
}

#[test]
fn copies_of_profile_cells_have_their_shortcodes_rendered() {
    let fixture = with("src/contract.md", contract_with_shortcodes_in_cells());
    let template = fixture.chapter("template.md");
    assert!(
        template.contains(
            "<em>Obliges:</em> Get answers Running at once (see [`create-return`](contract.md#create-return))"
        ),
        "{template}"
    );
    let contract = fixture.chapter("contract.md");
    // The closing table copies the `Tolerated by` cells.
    assert!(
        contract.contains(
            "`reconcileManaged` requeues, as [`readiness`](#readiness) says; not &#123;{#axis shown}}"
        ),
        "{contract}"
    );
    // Generated text: the template's answer lists, the contract's closing table (above it, the
    // contract shows its escaped shortcode as written, as the author asked).
    let closing = &contract[contract
        .find("## Closing table")
        .expect("the closing table")..];
    let unrendered = Regex::new(r"\{\{#axis").unwrap();
    let code = Regex::new(r"`[^`]*`").unwrap();
    for (path, text) in [("template", template.as_str()), ("closing table", closing)] {
        let outside_code = code.replace_all(text, "");
        assert!(
            !unrendered.is_match(&outside_code),
            "{path} shows a shortcode as written: {text}"
        );
    }
    assert!(
        fixture
            .check()
            .findings
            .iter()
            .all(|f| f.check != "malformed-shortcode")
    );
}

#[test]
fn two_answer_sites_of_one_entry_are_two_lists_each_naming_its_axis() {
    let template = "# Template\n\n## Readiness and create\n\n{{#answers readiness}}\n\n{{#answers create-return}}\n";
    let fixture = with("src/template.md", template.to_owned());
    let text = fixture.chapter("template.md");
    let first = text.find("Answers for [`readiness`](contract.md#readiness):\n\n- ");
    let second = text.find("Answers for [`create-return`](contract.md#create-return):\n\n- ");
    assert!(first.is_some() && second.is_some(), "{text}");
    assert!(first < second, "{text}");
    // Parsed as mdBook parses it: two lists.
    let html = {
        let (result, out) = fixture.build();
        result.expect("the book builds");
        fixture.html(&out, "template.html")
    };
    assert_eq!(html.matches("<ul>").count(), 2, "{html}");
}

#[test]
fn the_matrix_shows_profiles_linked_unknown_plain_and_the_verified_count() {
    let fixture = Fixture::new(&contract_book());
    let appendix = fixture.chapter("appendix/existing.md");
    let matrix = &appendix[appendix
        .find("<div class=\"contract-matrix\">")
        .expect("the matrix")..];
    let matrix = &matrix[..matrix.find("</div>").expect("closed") + "</div>".len()];
    assert_eq!(
        matrix,
        "<div class=\"contract-matrix\">\n\n\
         |Axis|[`pods`](#pods)|[`vms`](#vms)<br><em>proposed</em>|\n\
         |----|------|-------------|\n\
         |[`readiness`](../contract.md#readiness)|[`immediate`](#create)|[`provisioning-window`](#create-1)|\n\
         |[`create-return`](../contract.md#create-return)|[`submit`](#create)|<em>unknown</em>|\n\
         |<strong>known claims</strong>|2 of 2|1 of 2 stated|\n\n\
         </div>"
    );
}

#[test]
fn no_page_of_this_book_shows_a_shortcode_as_written() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = tempfile::tempdir().unwrap();
    let mut md = mdbook_driver::MDBook::load(root).expect("the book loads");
    md.with_preprocessor(mdbook_contract::ContractPreprocessor::new());
    md.config.build.build_dir = out.path().to_path_buf();
    md.build().expect("the book builds");
    // What mdBook shows as code: `<code>` and `<pre>` elements.
    let code = Regex::new(r"(?s)<pre>.*?</pre>|<code[^>]*>.*?</code>").unwrap();
    let ours = Regex::new(r"\{\{#(axis|answers|profile|axis-table|profile-matrix)\b").unwrap();
    let mut pages = 0;
    for entry in std::fs::read_dir(out.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            pages += 1;
            let html = std::fs::read_to_string(&path).unwrap();
            let shown = code.replace_all(&html, "");
            assert!(
                !ours.is_match(&shown),
                "{} shows `{}`",
                path.display(),
                ours.find(&shown).unwrap().as_str()
            );
        }
    }
    assert!(pages >= 6, "{pages} pages");
}

#[test]
fn a_section_and_the_axis_under_it_named_alike_are_one_group_of_the_rule_matrix() {
    let contract = "# Contract\n\n## Refunds\n\nr[refund.partial]\nA partial refund MUST leave the rest refundable.\n\n### `refunds` {.axis}\n\nHow are refunds made?\n\n| Profile | Meaning |\n|---|---|\n| `sync` | at once |\n| `async` | later |\n\nr[refund.idempotent]\nA refund MUST be idempotent.\n\n## Charges\n\nr[charge.once]\nA charge MUST happen once.\n";
    let appendix =
        "# Existing\n\n{{#rule-matrix}}\n\n## `stripe` {.provider}\n\n{{#profile refunds sync}}\n";
    let book = Fixture::new(&[
        (
            "book.toml",
            "[book]\ntitle = \"P\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\n\n[preprocessor.contract.checks]\nmust-cite = \"off\"\n",
        ),
        ("src/contract.md", contract),
        ("src/appendix.md", appendix),
    ]);
    let chapters = book.preprocess();
    let page = &chapters.iter().find(|(p, _)| p == "appendix.md").unwrap().1;
    let titles: Vec<&str> = Regex::new(r#"<span class="contract-group-title">([^<]*)</span>"#)
        .unwrap()
        .captures_iter(page)
        .map(|c| c.get(1).unwrap().as_str())
        .collect();
    assert_eq!(titles, ["Refunds", "Charges"], "{page}");
}
