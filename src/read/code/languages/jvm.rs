//! The rows of the JVM languages whose reports name a case by its class (package and class,
//! `Placed::JvmClass`): Java (JUnit 4 and 5, TestNG) and Kotlin.

use tree_sitter::Language;

use super::{Lang, Placed, UnitKind};

pub(super) fn java() -> Lang {
    Lang {
        name: "Java",
        extensions: &["java"],
        file_names: &[],
        grammar: grammar!("lang-java", tree_sitter_java::LANGUAGE),
        comments: &["line_comment", "block_comment"],
        strings: &["string_literal", "character_literal"],
        docstrings: false,
        units: &[
            ("method_declaration", UnitKind::Function),
            ("constructor_declaration", UnitKind::Function),
            ("class_declaration", UnitKind::Type),
            ("interface_declaration", UnitKind::Type),
            ("enum_declaration", UnitKind::Type),
            ("record_declaration", UnitKind::Type),
        ],
        function_values: None,
        test_calls: None,
        wrappers: &[],
        skipped: &[],
        test_macros: &[],
        by_title: false,
        test_name: None,
        parameters: Some(&super::super::parameterised::JAVA),
        test_marker: Some(
            r"@(?:\w+\.)*(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b",
        ),
        placed_by: Some(Placed::JvmClass),
        patterns: std::sync::OnceLock::new(),
        roles: std::sync::OnceLock::new(),
        line_tests: None,
    }
}

pub(super) fn kotlin() -> Lang {
    Lang {
        name: "Kotlin",
        extensions: &["kt", "kts"],
        file_names: &[],
        grammar: grammar!("lang-kotlin", tree_sitter_kotlin_ng::LANGUAGE),
        comments: &["line_comment", "block_comment"],
        strings: &[
            "string_literal",
            "multiline_string_literal",
            "character_literal",
        ],
        docstrings: false,
        units: &[
            ("function_declaration", UnitKind::Function),
            ("class_declaration", UnitKind::Type),
            ("object_declaration", UnitKind::Type),
        ],
        function_values: None,
        test_calls: None,
        wrappers: &[],
        skipped: &[],
        test_macros: &[],
        by_title: false,
        test_name: None,
        parameters: None,
        test_marker: Some(
            r"@(?:\w+\.)*(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b",
        ),
        placed_by: Some(Placed::JvmClass),
        patterns: std::sync::OnceLock::new(),
        roles: std::sync::OnceLock::new(),
        line_tests: None,
    }
}
