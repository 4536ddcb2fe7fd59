//! The table's own checks: every kind a row names exists in its grammar, and no extension is
//! in two rows.

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
    for (index, lang) in LANGUAGES.iter().enumerate() {
        assert_eq!(lang.index, index, "{}", lang.name);
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
