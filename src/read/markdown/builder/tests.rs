use super::*;

fn parse(text: &str) -> ChapterIndex {
    ChapterIndex::parse(text, &MarkdownOptions::default())
}

#[test]
fn heading_ids_follow_mdbook() {
    let index = parse(
        "# Hello World\n\n## Hello World\n\n### `readiness` {.axis}\n\n## Custom {#mine}\n\n## mine\n",
    );
    let ids: Vec<&str> = index.headings.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(
        ids,
        ["hello-world", "hello-world-1", "readiness", "mine", "mine"]
    );
    assert!(index.headings[2].has_class("axis"));
    assert_eq!(
        index.headings[2].first_code.as_ref().map(|c| c.0.as_str()),
        Some("readiness")
    );
    assert!(index.headings[3].explicit_id);
}

#[test]
fn smart_punctuation_changes_ids_and_is_recorded() {
    let index = parse("# A -- B --- C\n\nx --- y\n");
    assert_eq!(index.headings[0].id, "a--b--c");
    let dash = index
        .text()
        .filter(|t| t.rendered == Some("—"))
        .last()
        .unwrap();
    assert_eq!(dash.range, 18..21);
    let mut plain = MarkdownOptions::default();
    plain.smart_punctuation = false;
    assert_eq!(
        ChapterIndex::parse("# A -- B --- C\n", &plain).headings[0].id,
        "a----b-----c"
    );
}

#[test]
fn footnotes_and_raw_ids_are_anchors() {
    let index = parse("Text[^n].\n\n<div id=\"raw\"></div>\n\n[^n]: Note.\n\n[^unused]: Never.\n");
    for id in ["fr-n-1", "footnote-n", "raw"] {
        assert!(index.anchors.contains(id), "{id}");
    }
    assert!(!index.anchors.contains("footnote-unused"));
}

#[test]
fn verbatim_ranges_cover_code_and_html() {
    let text = "a `{{#x}}` b\n\n```\n{{#y}}\n```\n\n<!-- {{#z}} -->\n";
    let index = parse(text);
    for needle in ["{{#x}}", "{{#y}}", "{{#z}}"] {
        assert!(index.is_verbatim(text.find(needle).unwrap()), "{needle}");
    }
    assert!(!index.is_verbatim(0));
}

#[test]
fn verbatim_lookups_agree_with_one_sorted_list() {
    let text = "a `x` <b>y</b> `z`\n\n```\ncode\n```\n\n<div>\nhtml\n</div>\n\n- `i` <!-- c -->\n\n    indented\n\n> `q` <i>j</i>\n";
    let index = parse(text);
    let mut all: Vec<Range<usize>> = index.code_spans.iter().map(|c| c.range.clone()).collect();
    all.extend(index.code_blocks.iter().cloned());
    all.extend(index.html.iter().map(|h| h.range.clone()));
    all.sort_by_key(|r| r.start);
    assert!(all.windows(2).all(|w| w[0].end <= w[1].start), "{all:?}");
    for offset in 0..=text.len() {
        let i = all.partition_point(|r| r.start <= offset);
        let expected = (i > 0 && offset < all[i - 1].end).then(|| all[i - 1].clone());
        assert_eq!(index.verbatim_at(offset), expected, "{offset}");
    }
}

#[test]
fn tables_keep_cells() {
    let text = "| Profile | Meaning |\n|---|---|\n| `a` | first *one* |\n";
    let index = parse(text);
    let table = &index.tables[0];
    assert_eq!(table.rows.len(), 2);
    assert_eq!(table.rows[0].cells[0].text, "Profile");
    assert_eq!(table.rows[1].cells[0].first_code.as_deref(), Some("a"));
    assert_eq!(&text[table.rows[1].cells[1].range.clone()], "first *one*");
    assert_eq!(table.rows[1].cells[1].text, "first one");
}

#[test]
fn tables_can_be_left_out() {
    let text = "# T\n\n| Profile | Meaning |\n|---|---|\n| `a` | [first](#t) *one* |\n\nx `b`\n";
    let with = parse(text);
    let without = ChapterIndex::parse_with(text, &MarkdownOptions::default(), false);
    assert_eq!(with.tables.len(), 1);
    assert!(without.tables.is_empty());
    assert_eq!(with.headings, without.headings);
    assert_eq!(with.anchors, without.anchors);
    assert_eq!(with.links, without.links);
    assert_eq!(with.code_spans, without.code_spans);
    assert!(with.text().eq(without.text()));
    assert_eq!(with.blocks, without.blocks);
}
