//! The rows of the scripting languages whose test runners name a test by its title or by a
//! method made at run time: Ruby (RSpec, minitest), shell (bats), Lua (busted), Perl
//! (Test::More under prove) and Robot Framework. Perl and Robot have no grammar here: their
//! tests are read line by line (`lines.rs`).

use tree_sitter::Language;

use super::{Lang, TestCalls, UnitKind, lines};

pub(super) fn ruby() -> Lang {
    Lang {
        name: "Ruby",
        extensions: &["rb", "rake", "gemspec"],
        file_names: &["Rakefile", "Gemfile"],
        grammar: grammar!("lang-ruby", tree_sitter_ruby::LANGUAGE),
        comments: &["comment"],
        strings: &[
            "string",
            "heredoc_body",
            "string_array",
            "symbol_array",
            "character",
            "regex",
        ],
        docstrings: false,
        units: &[
            ("method", UnitKind::Function),
            ("singleton_method", UnitKind::Function),
            ("class", UnitKind::Type),
            ("module", UnitKind::Scope),
        ],
        function_values: None,
        // RSpec's `it "put on #{store} is atomic" do` inside `describe`s, and minitest's
        // methods made in a loop: `define_method("test_put_atomic_#{store}") do`, a test
        // when its name is one (`test_name`), named by the method alone.
        test_calls: Some(TestCalls {
            variable_titles: true,
            interpolations: &["interpolation"],
            ..TestCalls::plain(
                "call",
                "method",
                "arguments",
                &[
                    ("it", UnitKind::Case),
                    ("specify", UnitKind::Case),
                    ("test", UnitKind::Case),
                    ("define_method", UnitKind::Function),
                    ("describe", UnitKind::Scope),
                    ("context", UnitKind::Scope),
                ],
            )
        }),
        wrappers: &[],
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

pub(super) fn shell() -> Lang {
    Lang {
        name: "shell",
        extensions: &["sh", "bash", "zsh", "bats"],
        file_names: &[],
        grammar: grammar!("lang-bash", tree_sitter_bash::LANGUAGE),
        comments: &["comment"],
        strings: &[
            "string",
            "raw_string",
            "ansi_c_string",
            "translated_string",
            "heredoc_body",
        ],
        docstrings: false,
        units: &[("function_definition", UnitKind::Function)],
        function_values: None,
        // bats: `@test "title" {`, which the grammar reads as a command named `@test`.
        test_calls: Some(TestCalls {
            listed: false,
            ..TestCalls::plain("command", "name", "argument", &[("@test", UnitKind::Case)])
        }),
        wrappers: &[],
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

/// Lua, with busted's `describe("title", function() ... end)` and `it("put on " .. store ..
/// " is atomic", function() ... end)`.
pub(super) fn lua() -> Lang {
    Lang {
        name: "Lua",
        extensions: &["lua"],
        file_names: &[],
        grammar: grammar!("lang-lua", tree_sitter_lua::LANGUAGE),
        comments: &["comment"],
        strings: &["string"],
        docstrings: false,
        units: &[("function_declaration", UnitKind::Function)],
        function_values: None,
        test_calls: Some(TestCalls {
            variable_titles: true,
            concatenation: Some(("binary_expression", "..")),
            ..TestCalls::plain(
                "function_call",
                "name",
                "arguments",
                &[
                    ("it", UnitKind::Case),
                    ("test", UnitKind::Case),
                    ("spec", UnitKind::Case),
                    ("describe", UnitKind::Scope),
                    ("context", UnitKind::Scope),
                ],
            )
        }),
        wrappers: &[],
        skipped: &[],
        test_macros: &[],
        by_title: false,
        test_name: None,
        parameters: None,
        test_marker: None,
        placed_by: None,
        patterns: std::sync::OnceLock::new(),
        roles: std::sync::OnceLock::new(),
        line_tests: None,
    }
}

/// Perl: no grammar (the grammar crates need another tree-sitter than this one); its
/// subtests are read line by line.
pub(super) fn perl() -> Lang {
    Lang {
        name: "Perl",
        extensions: &["pl", "pm", "t"],
        grammar: None,
        line_tests: Some(&lines::PERL),
        ..without_grammar()
    }
}

/// Robot Framework: no grammar; its test cases are read line by line.
pub(super) fn robot() -> Lang {
    Lang {
        name: "Robot Framework",
        extensions: &["robot"],
        grammar: None,
        line_tests: Some(&lines::ROBOT),
        ..without_grammar()
    }
}

/// A row read as text: no kinds of a tree.
fn without_grammar() -> Lang {
    Lang {
        name: "",
        extensions: &[],
        file_names: &[],
        grammar: None,
        comments: &[],
        strings: &[],
        docstrings: false,
        units: &[],
        function_values: None,
        test_calls: None,
        wrappers: &[],
        skipped: &[],
        test_macros: &[],
        by_title: false,
        test_name: None,
        parameters: None,
        test_marker: None,
        placed_by: None,
        patterns: std::sync::OnceLock::new(),
        roles: std::sync::OnceLock::new(),
        line_tests: None,
    }
}
