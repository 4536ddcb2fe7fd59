//! The table's own checks: every kind a row names exists in its grammar, no extension is in
//! two rows, and the code units it finds are definitions of the grammars' own tags queries
//! where those name declarations.

use super::*;

/// Every kind a row names exists in its grammar, named: a grammar's new version that
/// renames one fails here, not silently in a reading.
#[test]
fn every_kind_of_the_table_is_a_kind_of_its_grammar() {
    for lang in LANGUAGES.iter() {
        let Some(grammar) = lang.grammar else {
            continue;
        };
        let language = grammar();
        let mut kinds: Vec<&str> = Vec::new();
        kinds.extend(lang.comments);
        kinds.extend(lang.strings);
        kinds.extend(lang.units.iter().map(|(k, _)| *k));
        kinds.extend(lang.wrappers);
        kinds.extend(lang.skipped);
        kinds.extend(lang.parameters.map(|p| p.lists).unwrap_or_default());
        if let Some((declarator, values)) = lang.function_values {
            kinds.push(declarator);
            kinds.extend(values);
        }
        if let Some(calls) = &lang.test_calls {
            kinds.push(calls.call);
            kinds.extend(calls.interpolations);
            kinds.extend(calls.concatenation.map(|(kind, _)| kind));
            kinds.extend(calls.title_option.map(|(kind, _)| kind));
            for field in [calls.callee, calls.arguments] {
                assert_ne!(
                    language.field_id_for_name(field),
                    None,
                    "{}: field {field}",
                    lang.name
                );
            }
        }
        for kind in kinds {
            assert_ne!(
                language.id_for_node_kind(kind, true),
                0,
                "{} has no kind `{kind}`",
                lang.name
            );
        }
    }
}

#[test]
fn no_extension_or_file_name_is_in_two_rows() {
    let mut seen = std::collections::HashSet::new();
    for lang in LANGUAGES.iter() {
        for e in lang.extensions.iter().chain(lang.file_names) {
            assert!(seen.insert(*e), "`{e}` is in two rows ({})", lang.name);
        }
    }
}

#[test]
fn test_patterns_compile_and_files_are_found_by_name() {
    for lang in LANGUAGES.iter() {
        lang.is_test("test_x", "");
    }
    assert_eq!(for_path("a/b.rs").map(|l| l.name), Some("Rust"));
    assert_eq!(for_path("a/Makefile").map(|l| l.name), Some("Makefile"));
    assert_eq!(for_path("x.TSX").map(|l| l.name), Some("TSX"));
    assert!(for_path("README").is_none() && for_path("a.proto").is_none());
    assert!(is_test_file("store/put_test.go") && is_test_file("tests/test_store.py"));
    assert!(is_test_file("src/put.test.ts") && is_test_file("StoreTest.java"));
    assert!(is_test_file("providers/gcs/provider_spec.lua") && is_test_file("a/x.bats"));
    assert!(!is_test_file("providers/gcs/provider.lua") && !is_test_file("a/x.sh"));
    assert!(!is_test_file("store/put.go") && !is_test_file("src/latest.py"));
}

/// The grammars' own tags queries (`TAGS_QUERY`) against the table, over every file of the
/// fixtures: where a query names declarations (Rust, Go, Python, Java, C, C#, PHP), every
/// code unit the table finds is one of its definitions, so a field that is not what it seems
/// fails here. The queries do not replace the table: they name no test case by its title
/// (JavaScript, Ruby, Lua, C++'s test macros, which they name `TEST`), TypeScript's defines no
/// function on its own, and they also name what the table leaves out by design (a function
/// inside a function, constants, macros, namespaces).
#[cfg(feature = "lang-all")]
#[test]
fn every_code_unit_is_a_definition_of_the_grammars_tags_query() {
    let rows: [(&str, &str); 7] = [
        ("rs", tree_sitter_rust::TAGS_QUERY),
        ("go", tree_sitter_go::TAGS_QUERY),
        ("py", tree_sitter_python::TAGS_QUERY),
        ("java", tree_sitter_java::TAGS_QUERY),
        ("c", tree_sitter_c::TAGS_QUERY),
        ("cs", tree_sitter_c_sharp::TAGS_QUERY),
        ("php", tree_sitter_php::TAGS_QUERY),
    ];
    let mut files = Vec::new();
    let mut folders = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    let mut compared = 0;
    for (extension, query) in rows {
        for path in files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == extension))
        {
            let text = std::fs::read(path).unwrap();
            let lang = for_path(&path.to_string_lossy()).unwrap();
            let parsed = crate::read::code::parse(lang, &text).unwrap();
            let defined = tags_defined((lang.grammar.unwrap())(), query, &text);
            for unit in parsed.code_units() {
                assert!(
                    defined.contains(&unit.name),
                    "{}: `{}` is a unit of the table, not a definition of the tags query",
                    path.display(),
                    unit.name
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 100, "{compared} units compared");
}

/// The names the tags query `query` defines (`@name` in a pattern with a `@definition.*`) in
/// `text`, parsed with `language`.
#[cfg(feature = "lang-all")]
fn tags_defined(
    language: tree_sitter::Language,
    query: &str,
    text: &[u8],
) -> std::collections::BTreeSet<String> {
    use tree_sitter::{Query, QueryCursor, StreamingIterator};
    let query = Query::new(&language, query).unwrap();
    let names = query.capture_names();
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&language).unwrap();
    let tree = parser.parse(text, None).unwrap();
    let mut defined = std::collections::BTreeSet::new();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(&query, tree.root_node(), text);
    while let Some(m) = matches.next() {
        let captured = |c: &tree_sitter::QueryCapture<'_>| names[c.index as usize];
        if m.captures()
            .iter()
            .any(|c| captured(c).starts_with("definition."))
        {
            let name = m.captures().iter().find(|c| captured(c) == "name");
            defined.extend(name.map(|c| c.node.utf8_text(text).unwrap().to_owned()));
        }
    }
    defined
}
