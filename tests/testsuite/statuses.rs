//! One table of cell statuses (`mdbook_contract::CELL_STATUSES`): the page script, the
//! stylesheet and the export schema name the same statuses, with the same words.

use mdbook_contract::CELL_STATUSES as ROWS;

/// The strings between the brackets or braces that follow `name` in the page script.
fn listed<'s>(script: &'s str, name: &str, open: char, close: char) -> Vec<&'s str> {
    let start = script.find(name).expect(name);
    let from = start + script[start..].find(open).expect("opening") + 1;
    let to = from + script[from..].find(close).expect("closing");
    script[from..to].split('\'').skip(1).step_by(2).collect()
}

#[test]
fn the_page_script_lists_every_status_in_order_with_its_word() {
    let script = mdbook_contract::JS;
    let names: Vec<&str> = ROWS.iter().map(|r| r.name).collect();
    assert_eq!(listed(script, "const STATUSES", '[', ']'), names);
    // WORDS is `{ 'name': 'word', ... }`, the names quoted where they must be.
    let words = listed(script, "const WORDS", '{', '}');
    let with_words: Vec<&str> = ROWS
        .iter()
        .filter(|r| r.word != r.name)
        .flat_map(|r| [r.name, r.word])
        .collect();
    assert_eq!(words, with_words);
}

#[test]
fn the_stylesheet_colours_every_status() {
    let css = mdbook_contract::CSS;
    for row in &ROWS {
        let class = format!(".contract-{}", row.name);
        let found = css.match_indices(&class).any(|(at, _)| {
            let next = css[at + class.len()..].chars().next();
            next.is_some_and(|c| c == ',' || c == ' ')
        });
        assert!(found, "{class} has no colour in mdbook-contract.css");
    }
}

#[test]
fn the_export_schema_lists_every_status() {
    let schema: serde_json::Value = serde_json::from_str(mdbook_contract::CONTRACT_SCHEMA).unwrap();
    let status = &schema["$defs"]["coverage"]["properties"]["rules"]["items"]["properties"]["status"]
        ["enum"];
    let mut listed: Vec<&str> = status
        .as_array()
        .expect("the schema's status enum")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    let mut names: Vec<&str> = ROWS.iter().map(|r| r.name).collect();
    listed.sort_unstable();
    names.sort_unstable();
    assert_eq!(listed, names);
}
