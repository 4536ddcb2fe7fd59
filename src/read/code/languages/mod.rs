//! The languages of a source tree: the one table that says, per language, which files are
//! written in it, its grammar, and which kinds of its syntax tree are comments, strings and
//! code units. Every difference between languages is a field here; the walk over a tree
//! (`walk.rs`) names no language.
//!
//! To add a language: a grammar crate as an optional dependency with a `lang-NAME` feature in
//! Cargo.toml (listed in `lang-all`), a row in [`LANGUAGES`] with `grammar!`, and a fixture in
//! `tests/fixtures/languages/`. The tests (`tests.rs`) check that every kind a row names exists in its
//! grammar (a renamed kind in a grammar's new version fails them) and that no extension is in
//! two rows. The scripting languages' rows stand in `scripting.rs`, JavaScript's and
//! TypeScript's in `javascript.rs`, C's and C++'s in `c_family.rs`, Java's and Kotlin's in `jvm.rs`, the files that hold no tests
//! (YAML, TOML, Makefiles) in `data_files.rs`; a language with no grammar
//! whose tests are declared one to a line is read by `lines.rs` (its row's `line_tests`).

pub(crate) mod lines;
mod roles;

pub(crate) use roles::Role;

use std::sync::LazyLock;

use regex::Regex;
use tree_sitter::Language;

/// What a code unit is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub(crate) enum UnitKind {
    /// A function (a method when it stands in a type).
    Function,
    /// A type: a class, struct, enum, interface, trait.
    Type,
    /// A test case declared by a call (`test("...", ...)`, `it "..." do`).
    Case,
    /// What only groups others and is no unit of its own: a module, a namespace, a
    /// `describe` call. It names the units inside (`mod tests`, `describe("s3")`).
    Scope,
    /// A block of a type's members that is no unit of its own (Rust's `impl`): a function in
    /// it is a method.
    Members,
}

/// A language read as code: every difference between languages is a field.
pub(crate) struct Lang {
    /// Its name, as `status` says it.
    pub(crate) name: &'static str,
    /// The file extensions (without the dot, lowercase) written in it.
    pub(crate) extensions: &'static [&'static str],
    /// Whole file names written in it (`Makefile`).
    pub(crate) file_names: &'static [&'static str],
    /// Its grammar; `None` when its `lang-NAME` feature is off, and its files are read as text.
    pub(crate) grammar: Option<fn() -> Language>,
    /// The kinds of its comments (line, block and doc comments alike).
    pub(crate) comments: &'static [&'static str],
    /// The kinds of its string and character literals (raw strings, heredocs, templates): a
    /// citation or a word in one is data, not a comment or code.
    pub(crate) strings: &'static [&'static str],
    /// A string that is the first statement of a module, class or function body is its
    /// documentation (Python's docstrings): read as a comment.
    pub(crate) docstrings: bool,
    /// The kinds of its code units, each with what it is.
    pub(crate) units: &'static [(&'static str, UnitKind)],
    /// A variable whose value is a function is a function unit named by the variable
    /// (`const put = () => {}`): the declarator's kind and the value kinds that make it one.
    pub(crate) function_values: Option<(&'static str, &'static [&'static str])>,
    /// Calls that declare a test case or a group of them (`test`, `it`, `describe`): the kind
    /// of a call, its callee's field, its arguments' field, and each callee with what it makes.
    pub(crate) test_calls: Option<TestCalls>,
    /// Nodes that wrap a unit, whose comments stand before the wrapper (`export_statement`,
    /// Python's `decorated_definition`, an expression statement holding a test call).
    pub(crate) wrappers: &'static [&'static str],
    /// Siblings passed over when looking for the comment above a unit (attributes,
    /// decorators): they belong to the unit.
    pub(crate) skipped: &'static [&'static str],
    /// Function definitions that are test macros (GoogleTest's `TEST(Suite, Name)`, CppUTest's
    /// `TEST(Group, Name)`, Boost.Test's `BOOST_DATA_TEST_CASE(name, data, sample)`), each
    /// with how its arguments name its cases.
    pub(crate) test_macros: &'static [(&'static str, MacroCases)],
    /// Its tests are named by their titles (a test call's first argument, a test macro's
    /// arguments) and matched as a report writes a title inside its groups' (`names/title.rs`'s
    /// `TitlePattern`), not by a function's name.
    pub(crate) by_title: bool,
    /// A function is a test when its name matches this (`^Test` in Go).
    pub(crate) test_name: Option<&'static str>,
    /// A function is a test when what stands before its name (its attributes, annotations and
    /// modifiers) matches this (`#[test]`, `@Test`, `[Fact]`).
    pub(crate) test_marker: Option<&'static str>,
    /// How its runners' reports say which file a case is of when they name no file (by a
    /// package, a module path, a dotted class name); `None`: they do not.
    pub(crate) placed_by: Option<Placed>,
    /// Its `test_name` and `test_marker` compiled, the first time a test is asked of it.
    pub(crate) patterns: std::sync::OnceLock<(Option<Regex>, Option<Regex>)>,
    /// The role of each kind id of its grammar, worked out at its first tree (`roles.rs`).
    pub(crate) roles: std::sync::OnceLock<Vec<Role>>,
    /// Test declarations read line by line, for a language without a grammar whose tests are
    /// line-shaped (Robot Framework's test case names, Perl's `subtest 'title' => sub {`).
    pub(crate) line_tests: Option<&'static lines::LineTests>,
    /// How its tests take rows of parameters (`parameters.rs`), for runners that name a case
    /// by its row's index alone.
    pub(crate) parameters: Option<&'static super::parameterised::ParameterRow>,
}

/// How a runner's report places a case in a file of a language, for [`Lang::placed_by`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Placed {
    /// By the case's package: the import path of the test's folder, or the folder (Go).
    GoPackage,
    /// By the module path before the case's function, its crate the binary (Rust under
    /// cargo-nextest).
    RustModule,
    /// By the file's module with the classes around the test (`pkg.test_store.TestS3`,
    /// Python).
    PythonModule,
    /// By the full class name, package and class, a nested class after `$` or `.` (Java,
    /// Kotlin); a package cannot hold `-`, so a folder `azure-blob` is the package `azureblob`.
    JvmClass,
}

/// How a test macro's arguments name its cases, for [`Lang::test_macros`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MacroCases {
    /// `TEST(Suite, Name)`: a case titled `Name` in the group `Suite`.
    Named,
    /// `TEST_P(Suite, Name)`: cases `Instance/Suite.Name/N`, the instance and the index
    /// placeholders.
    Parameterised,
    /// `BOOST_DATA_TEST_CASE(name, data, sample)`: a group `name` of one case a sample, named
    /// `_N` by its index.
    Samples,
}

/// Calls that declare test cases, for [`Lang::test_calls`].
pub(crate) struct TestCalls {
    /// The kind of a call node.
    pub(crate) call: &'static str,
    /// The field that holds what is called.
    pub(crate) callee: &'static str,
    /// The field that holds the arguments (the first is the case's title).
    pub(crate) arguments: &'static str,
    /// Each name called, and what a call of it declares.
    pub(crate) names: &'static [(&'static str, UnitKind)],
    /// A first argument that is a name is a variable holding the title (`it(store, ...)` in
    /// a loop: any text), not the title itself (`BOOST_AUTO_TEST_CASE(get_missing)`).
    pub(crate) variable_titles: bool,
    /// The `arguments` field holds a list of them (`f(a, b)`), not the first argument itself
    /// (bash's `@test "title" {`, a command whose every argument is an `argument` field).
    pub(crate) listed: bool,
    /// The kinds inside a string that put a value in it (Ruby's `#{store}`): placeholders of a
    /// title, as `${store}`.
    pub(crate) interpolations: &'static [&'static str],
    /// The operator that joins strings (Lua's `..`): a title written `"on " .. store` is
    /// `on ${store}`. The kind of a binary expression, and its operator.
    pub(crate) concatenation: Option<(&'static str, &'static str)>,
    /// A first argument that is an object of options takes its title from this key (Deno's
    /// `Deno.test({ name: ..., fn })`): the kind of a key-value pair, and the key.
    pub(crate) title_option: Option<(&'static str, &'static str)>,
    /// Calls that open a group of the tests after them up to a closing call, as statements
    /// of their own (`BOOST_AUTO_TEST_SUITE(s3)` ... `BOOST_AUTO_TEST_SUITE_END()`): the
    /// opening and the closing callee (`groups.rs`).
    pub(crate) flat_groups: Option<(&'static str, &'static str)>,
}

impl TestCalls {
    /// Calls of `names` by `call(callee, arguments...)`, with nothing else to read.
    pub(crate) const fn plain(
        call: &'static str,
        callee: &'static str,
        arguments: &'static str,
        names: &'static [(&'static str, UnitKind)],
    ) -> TestCalls {
        TestCalls {
            call,
            callee,
            arguments,
            names,
            variable_titles: false,
            listed: true,
            interpolations: &[],
            concatenation: None,
            title_option: None,
            flat_groups: None,
        }
    }
}

/// A grammar when its feature is on, else `None` (its files are then read as text).
macro_rules! grammar {
    ($feature:literal, $language:expr) => {{
        #[cfg(feature = $feature)]
        let grammar: Option<fn() -> Language> = Some(|| Language::new($language));
        #[cfg(not(feature = $feature))]
        let grammar: Option<fn() -> Language> = None;
        grammar
    }};
}

// After `grammar!`, which their rows use.
mod c_family;
mod data_files;
mod javascript;
mod jvm;
mod scripting;

/// Every language read as code.
pub(crate) static LANGUAGES: LazyLock<Vec<Lang>> = LazyLock::new(|| {
    vec![
        Lang {
            name: "Rust",
            extensions: &["rs"],
            file_names: &[],
            grammar: grammar!("lang-rust", tree_sitter_rust::LANGUAGE),
            comments: &["line_comment", "block_comment"],
            strings: &["string_literal", "raw_string_literal", "char_literal"],
            docstrings: false,
            units: &[
                ("function_item", UnitKind::Function),
                ("struct_item", UnitKind::Type),
                ("enum_item", UnitKind::Type),
                ("union_item", UnitKind::Type),
                ("trait_item", UnitKind::Type),
                ("impl_item", UnitKind::Members),
                ("mod_item", UnitKind::Scope),
            ],
            function_values: None,
            test_calls: None,
            wrappers: &[],
            skipped: &["attribute_item"],
            test_macros: &[],
            by_title: false,
            test_name: None,
            parameters: None,
            test_marker: Some(r"#\[\s*(?:\w+::)*(?:test|rstest|test_case|quickcheck|proptest)\b"),
            placed_by: Some(Placed::RustModule),
            patterns: std::sync::OnceLock::new(),
            roles: std::sync::OnceLock::new(),
            line_tests: None,
        },
        Lang {
            name: "Go",
            extensions: &["go"],
            file_names: &[],
            grammar: grammar!("lang-go", tree_sitter_go::LANGUAGE),
            comments: &["comment"],
            strings: &[
                "interpreted_string_literal",
                "raw_string_literal",
                "rune_literal",
            ],
            docstrings: false,
            units: &[
                ("function_declaration", UnitKind::Function),
                ("method_declaration", UnitKind::Function),
                ("type_spec", UnitKind::Type),
            ],
            function_values: None,
            test_calls: None,
            wrappers: &["type_declaration"],
            skipped: &[],
            test_macros: &[],
            by_title: false,
            test_name: Some(r"^(?:Test|Benchmark|Fuzz|Example)(?:$|[^a-z])"),
            parameters: None,
            test_marker: None,
            placed_by: Some(Placed::GoPackage),
            patterns: std::sync::OnceLock::new(),
            roles: std::sync::OnceLock::new(),
            line_tests: None,
        },
        Lang {
            name: "Python",
            extensions: &["py", "pyi"],
            file_names: &[],
            grammar: grammar!("lang-python", tree_sitter_python::LANGUAGE),
            comments: &["comment"],
            strings: &["string", "concatenated_string"],
            docstrings: true,
            units: &[
                ("function_definition", UnitKind::Function),
                ("class_definition", UnitKind::Type),
            ],
            function_values: None,
            test_calls: None,
            wrappers: &["decorated_definition"],
            skipped: &["decorator"],
            test_macros: &[],
            by_title: false,
            test_name: Some(r"^test"),
            parameters: Some(&super::parameterised::PYTHON),
            test_marker: None,
            placed_by: Some(Placed::PythonModule),
            patterns: std::sync::OnceLock::new(),
            roles: std::sync::OnceLock::new(),
            line_tests: None,
        },
        javascript::typescript(),
        javascript::tsx(),
        javascript::javascript(),
        jvm::java(),
        jvm::kotlin(),
        c_family::c(),
        c_family::cpp(),
        Lang {
            name: "C#",
            extensions: &["cs"],
            file_names: &[],
            grammar: grammar!("lang-csharp", tree_sitter_c_sharp::LANGUAGE),
            comments: &["comment"],
            strings: &[
                "string_literal",
                "verbatim_string_literal",
                "raw_string_literal",
                "interpolated_string_expression",
                "character_literal",
            ],
            docstrings: false,
            units: &[
                ("method_declaration", UnitKind::Function),
                ("constructor_declaration", UnitKind::Function),
                ("local_function_statement", UnitKind::Function),
                ("class_declaration", UnitKind::Type),
                ("struct_declaration", UnitKind::Type),
                ("interface_declaration", UnitKind::Type),
                ("record_declaration", UnitKind::Type),
                ("enum_declaration", UnitKind::Type),
                ("namespace_declaration", UnitKind::Scope),
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
                r"\[\s*(?:\w+\.)*(?:Test|TestMethod|TestCase|TestCaseSource|Fact|Theory)\b",
            ),
            placed_by: None,
            patterns: std::sync::OnceLock::new(),
            roles: std::sync::OnceLock::new(),
            line_tests: None,
        },
        Lang {
            name: "Swift",
            extensions: &["swift"],
            file_names: &[],
            grammar: grammar!("lang-swift", tree_sitter_swift::LANGUAGE),
            comments: &["comment", "multiline_comment"],
            strings: &[
                "line_string_literal",
                "multi_line_string_literal",
                "raw_string_literal",
            ],
            docstrings: false,
            units: &[
                ("function_declaration", UnitKind::Function),
                ("class_declaration", UnitKind::Type),
                ("protocol_declaration", UnitKind::Type),
            ],
            function_values: None,
            test_calls: None,
            wrappers: &[],
            skipped: &[],
            test_macros: &[],
            by_title: false,
            test_name: Some(r"^test"),
            parameters: None,
            test_marker: Some(r"@Test\b"),
            placed_by: None,
            patterns: std::sync::OnceLock::new(),
            roles: std::sync::OnceLock::new(),
            line_tests: None,
        },
        scripting::ruby(),
        Lang {
            name: "PHP",
            extensions: &["php"],
            file_names: &[],
            grammar: grammar!("lang-php", tree_sitter_php::LANGUAGE_PHP),
            comments: &["comment"],
            strings: &["string", "encapsed_string", "heredoc", "nowdoc"],
            docstrings: false,
            units: &[
                ("function_definition", UnitKind::Function),
                ("method_declaration", UnitKind::Function),
                ("class_declaration", UnitKind::Type),
                ("interface_declaration", UnitKind::Type),
                ("trait_declaration", UnitKind::Type),
                ("enum_declaration", UnitKind::Type),
            ],
            function_values: None,
            test_calls: None,
            wrappers: &[],
            skipped: &[],
            test_macros: &[],
            by_title: false,
            test_name: Some(r"^test"),
            parameters: Some(&super::parameterised::PHP),
            test_marker: Some(r"#\[\s*(?:\\?\w+\\)*Test\b|@test\b"),
            placed_by: None,
            patterns: std::sync::OnceLock::new(),
            roles: std::sync::OnceLock::new(),
            line_tests: None,
        },
        scripting::shell(),
        data_files::yaml(),
        data_files::toml(),
        data_files::makefile(),
        scripting::lua(),
        scripting::perl(),
        scripting::robot(),
    ]
});

impl Lang {
    /// Whether a function named `name`, with `before` standing before its name (attributes,
    /// annotations, modifiers), is a test.
    pub(crate) fn is_test(&self, name: &str, before: &str) -> bool {
        let (by_name, by_marker) = self.patterns.get_or_init(|| {
            let compile = |p: Option<&str>| p.map(|p| Regex::new(p).expect("a valid test pattern"));
            (compile(self.test_name), compile(self.test_marker))
        });
        by_name.as_ref().is_some_and(|r| r.is_match(name))
            || by_marker.as_ref().is_some_and(|r| r.is_match(before))
    }

    /// The globs of its files, for messages (`*.py`, `*.pyi`).
    pub(crate) fn globs(&self) -> Vec<String> {
        let extensions = self.extensions.iter().map(|e| format!("*.{e}"));
        extensions
            .chain(self.file_names.iter().map(|n| (*n).to_owned()))
            .collect()
    }
}

/// The language `path` (relative, `/`-separated) is written in, by its name or extension.
pub(crate) fn for_path(path: &str) -> Option<&'static Lang> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if let Some(lang) = LANGUAGES.iter().find(|l| l.file_names.contains(&name)) {
        return Some(lang);
    }
    let (_, extension) = name.rsplit_once('.')?;
    let extension = extension.to_ascii_lowercase();
    LANGUAGES
        .iter()
        .find(|l| l.extensions.contains(&extension.as_str()))
}

/// Whether `path` is a test file by the conventions of its runners (`x_test.go`,
/// `test_x.py`, `x.test.ts`, `x_spec.rb`, `x_spec.lua`, `x.bats`, a `tests/` folder): its code
/// is test code.
pub(crate) fn is_test_file(path: &str) -> bool {
    static TEST_FILE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?:^|/)(?:tests?|__tests__|spec|testing|conformance)/|(?:^|/)test_[^/]*$|_test\.[^/]+$|_spec\.(?:rb|lua)$|\.bats$|\.(?:test|spec)\.[cm]?[jt]sx?$|(?:^|/)[^/]*Tests?\.(?:java|kt|cs|swift|php)$|(?:^|/)src/test/",
        )
        .expect("a valid regex")
    });
    TEST_FILE.is_match(path)
}

#[cfg(test)]
mod tests;
