//! The rows of JavaScript and TypeScript (and TSX): their tests are calls named by title
//! (`test`, `it`, `describe`, `Deno.test`), matched as each runner writes a title inside its
//! groups' titles.

use tree_sitter::Language;

use super::{Lang, TestCalls, UnitKind};

/// JavaScript's and TypeScript's runners: Jest, Vitest, Mocha, Jasmine, node:test,
/// Playwright, and Deno's `Deno.test("title", fn)` or `Deno.test({ name, fn })`.
const JS_TEST_CALLS: TestCalls = TestCalls {
    variable_titles: true,
    title_option: Some(("pair", "name")),
    ..TestCalls::plain(
        "call_expression",
        "function",
        "arguments",
        &[
            ("test", UnitKind::Case),
            ("it", UnitKind::Case),
            ("Deno.test", UnitKind::Case),
            ("describe", UnitKind::Scope),
            ("suite", UnitKind::Scope),
        ],
    )
};

const JS_UNITS: &[(&str, UnitKind)] = &[
    ("function_declaration", UnitKind::Function),
    ("generator_function_declaration", UnitKind::Function),
    ("method_definition", UnitKind::Function),
    ("class_declaration", UnitKind::Type),
];

const TS_UNITS: &[(&str, UnitKind)] = &[
    ("function_declaration", UnitKind::Function),
    ("generator_function_declaration", UnitKind::Function),
    ("method_definition", UnitKind::Function),
    ("class_declaration", UnitKind::Type),
    ("abstract_class_declaration", UnitKind::Type),
    ("interface_declaration", UnitKind::Type),
    ("enum_declaration", UnitKind::Type),
];

pub(super) fn typescript() -> Lang {
    Lang {
        name: "TypeScript",
        extensions: &["ts", "mts", "cts"],
        file_names: &[],
        grammar: grammar!(
            "lang-typescript",
            tree_sitter_typescript::LANGUAGE_TYPESCRIPT
        ),
        comments: &["comment"],
        strings: &["string", "template_string"],
        docstrings: false,
        units: TS_UNITS,
        function_values: Some((
            "variable_declarator",
            &["arrow_function", "function_expression"],
        )),
        test_calls: Some(JS_TEST_CALLS),
        wrappers: &[
            "export_statement",
            "expression_statement",
            "lexical_declaration",
        ],
        skipped: &["decorator"],
        test_macros: &[],
        by_title: true,
        test_name: None,
        parameters: None,
        test_marker: None,
        placed_by: None,
        patterns: std::sync::OnceLock::new(),
        roles: std::sync::OnceLock::new(),
        line_tests: None,
    }
}

/// TSX: TypeScript's row, with its grammar for JSX.
pub(super) fn tsx() -> Lang {
    Lang {
        name: "TSX",
        extensions: &["tsx"],
        grammar: grammar!("lang-typescript", tree_sitter_typescript::LANGUAGE_TSX),
        ..typescript()
    }
}

/// JavaScript: TypeScript's row without the declarations only TypeScript has.
pub(super) fn javascript() -> Lang {
    Lang {
        name: "JavaScript",
        extensions: &["js", "mjs", "cjs", "jsx"],
        grammar: grammar!("lang-javascript", tree_sitter_javascript::LANGUAGE),
        units: JS_UNITS,
        ..typescript()
    }
}
