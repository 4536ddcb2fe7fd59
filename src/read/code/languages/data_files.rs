//! The rows of the files that hold no tests but can hold citations and cited names: YAML,
//! TOML and Makefiles. A row here names no test declarations.

use tree_sitter::Language;

use super::{Lang, UnitKind};

pub(super) fn yaml() -> Lang {
    Lang {
        name: "YAML",
        extensions: &["yaml", "yml"],
        file_names: &[],
        grammar: grammar!("lang-yaml", tree_sitter_yaml::LANGUAGE),
        comments: &["comment"],
        // A YAML scalar is the file's content (a key, a name): words in it are code.
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

pub(super) fn toml() -> Lang {
    Lang {
        name: "TOML",
        extensions: &["toml"],
        file_names: &[],
        grammar: grammar!("lang-toml", tree_sitter_toml_ng::LANGUAGE),
        comments: &["comment"],
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

pub(super) fn makefile() -> Lang {
    Lang {
        name: "Makefile",
        extensions: &["mk", "mak"],
        file_names: &["Makefile", "makefile", "GNUmakefile"],
        grammar: grammar!("lang-make", tree_sitter_make::LANGUAGE),
        comments: &["comment"],
        strings: &[],
        docstrings: false,
        units: &[("rule", UnitKind::Function)],
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
