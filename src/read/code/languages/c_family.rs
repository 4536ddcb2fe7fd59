//! The rows of C and C++: their tests are functions named `test_...` (C) or the test
//! frameworks' macros and calls (C++: GoogleTest's `TEST`, `TEST_P`, Catch2's and doctest's
//! `TEST_CASE`, Boost.Test's cases inside its suites), named by title.

use tree_sitter::Language;

use super::{Lang, MacroCases, TestCalls, UnitKind};

/// C++ test frameworks whose tests are calls followed by a body: Catch2, doctest, Boost.Test.
const CPP_TEST_CALLS: TestCalls = TestCalls {
    flat_groups: Some(("BOOST_AUTO_TEST_SUITE", "BOOST_AUTO_TEST_SUITE_END")),
    ..TestCalls::plain(
        "call_expression",
        "function",
        "arguments",
        &[
            ("TEST_CASE", UnitKind::Case),
            ("SCENARIO", UnitKind::Case),
            ("TEMPLATE_TEST_CASE", UnitKind::Case),
            ("TEST_CASE_TEMPLATE", UnitKind::Case),
            ("BOOST_AUTO_TEST_CASE", UnitKind::Case),
            ("BOOST_DATA_TEST_CASE", UnitKind::Case),
        ],
    )
};

const C_FAMILY_UNITS: &[(&str, UnitKind)] = &[
    ("function_definition", UnitKind::Function),
    ("struct_specifier", UnitKind::Type),
    ("enum_specifier", UnitKind::Type),
];

/// C: a test is a function named `test_...`.
pub(super) fn c() -> Lang {
    Lang {
        name: "C",
        extensions: &["c", "h"],
        file_names: &[],
        grammar: grammar!("lang-c", tree_sitter_c::LANGUAGE),
        comments: &["comment"],
        strings: &[
            "string_literal",
            "char_literal",
            "concatenated_string",
            "system_lib_string",
        ],
        docstrings: false,
        units: C_FAMILY_UNITS,
        function_values: None,
        test_calls: None,
        wrappers: &["type_definition", "declaration"],
        skipped: &[],
        test_macros: &[],
        by_title: false,
        test_name: Some(r"^test_"),
        parameters: None,
        test_marker: None,
        placed_by: None,
        patterns: std::sync::OnceLock::new(),
        roles: std::sync::OnceLock::new(),
        line_tests: None,
    }
}

/// C++: GoogleTest, Catch2, doctest, Boost.Test and CppUTest tests, named by title.
pub(super) fn cpp() -> Lang {
    Lang {
        name: "C++",
        extensions: &["cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp"],
        file_names: &[],
        grammar: grammar!("lang-cpp", tree_sitter_cpp::LANGUAGE),
        comments: &["comment"],
        strings: &[
            "string_literal",
            "raw_string_literal",
            "char_literal",
            "concatenated_string",
            "system_lib_string",
        ],
        docstrings: false,
        units: &[
            ("function_definition", UnitKind::Function),
            ("class_specifier", UnitKind::Type),
            ("struct_specifier", UnitKind::Type),
            ("enum_specifier", UnitKind::Type),
            ("namespace_definition", UnitKind::Scope),
        ],
        function_values: None,
        test_calls: Some(CPP_TEST_CALLS),
        wrappers: &[
            "template_declaration",
            "type_definition",
            "declaration",
            "expression_statement",
        ],
        skipped: &[],
        test_macros: &[
            ("TEST", MacroCases::Named),
            ("TEST_F", MacroCases::Named),
            ("IGNORE_TEST", MacroCases::Named),
            ("TYPED_TEST", MacroCases::Parameterised),
            ("TEST_P", MacroCases::Parameterised),
            ("TYPED_TEST_P", MacroCases::Parameterised),
            ("BOOST_AUTO_TEST_CASE", MacroCases::Named),
            ("BOOST_DATA_TEST_CASE", MacroCases::Samples),
        ],
        by_title: true,
        test_name: Some(r"^test_"),
        parameters: Some(&crate::read::code::parameterised::CPP),
        test_marker: None,
        placed_by: None,
        patterns: std::sync::OnceLock::new(),
        roles: std::sync::OnceLock::new(),
        line_tests: None,
    }
}
