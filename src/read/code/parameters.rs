//! A parameterised test's rows as its source lists them: nose2's `@params("s3", "gcs")`, a
//! PHPUnit data provider returning `[['s3'], ['gcs']]`, a TestNG `@DataProvider` returning
//! `new Object[][] {{"s3"}, {"gcs"}}`, a Boost.Test data test case over a variable
//! initialised `{"s3", "gcs"}`. A runner that names a case by its row's index alone (`:2`,
//! `#1`, `_1`) is read through them (`read::results::rows`): the provider the row at that index
//! names. Where the rows are not a literal list (computed, read from a file), the test is
//! known to be parameterised and no more: its index-only cases stay unattributed.
//!
//! Each language says how in its row of the table (`Lang::parameters`,
//! the rows in `parameterised.rs`): what before a test's body makes it parameterised, and
//! which kinds of its tree are literal lists.

use tree_sitter::Node;

use super::languages::UnitKind;
use super::syntax::{Declared, Role, Syntax, push_children};

/// What a test's source says of its rows.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Parameters {
    /// Each row's text, in order (`"s3"`, `{"gcs"}`, `['azure-blob']`).
    Rows(Vec<String>),
    /// Parameterised, by rows that are no literal list of the file.
    Unlisted,
}

/// The rows of the test `declared` whose comments start at `above`, in the tree at `root`;
/// `None` for a test that takes no rows.
pub(super) fn of(
    syntax: &Syntax<'_>,
    root: Node<'_>,
    declared: &Declared<'_>,
    above: usize,
) -> Option<Parameters> {
    let row = syntax.lang.parameters?;
    let node = declared.node;
    let end = node
        .child_by_field_name("body")
        .map_or(node.end_byte(), |b| b.start_byte());
    let header = std::str::from_utf8(syntax.text.get(above..end)?).ok()?;
    let (markers, in_body) = row.compiled();
    let Some(captures) = markers.iter().find_map(|m| m.captures(header)) else {
        let body = std::str::from_utf8(syntax.text.get(end..node.end_byte())?).ok()?;
        return in_body
            .iter()
            .any(|m| m.is_match(body))
            .then_some(Parameters::Unlisted);
    };
    let list = if let Some(list) = captures.name("list") {
        let at = above + list.start();
        root.descendant_for_byte_range(at, at + list.len())
            .and_then(|n| enclosing_list(n, row.lists, end))
    } else if let Some(source) = captures.name("source") {
        source_list(syntax, root, source.as_str(), row.lists)
    } else {
        None
    };
    Some(list.map_or(Parameters::Unlisted, |l| Parameters::Rows(rows(syntax, l))))
}

/// The literal list at or around `node`, inside the header that ends at `end`.
fn enclosing_list<'n>(node: Node<'n>, lists: &[&str], end: usize) -> Option<Node<'n>> {
    let mut at = Some(node);
    while let Some(n) = at {
        if n.end_byte() > end {
            return None;
        }
        if lists.contains(&n.kind()) {
            return Some(n);
        }
        at = n.parent();
    }
    None
}

/// The literal list that the function, method or variable named `source` in the file gives:
/// a function's returned value, a variable's initial value; the first in the file's order.
fn source_list<'n>(
    syntax: &Syntax<'_>,
    root: Node<'n>,
    source: &str,
    lists: &[&str],
) -> Option<Node<'n>> {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if let Some(value) = node.child_by_field_name("value")
            && lists.contains(&value.kind())
            && node
                .child_by_field_name("declarator")
                .is_some_and(|d| syntax.text_of(d) == source)
        {
            return Some(value);
        }
        if syntax.role(node) == Role::Unit(UnitKind::Function)
            && syntax.declared(node).is_some_and(|d| d.name == source)
        {
            return returned_list(node, lists);
        }
        push_children(&mut stack, node);
    }
    None
}

/// The literal list a function's first `return` gives (itself, or the value of an array
/// creation: Java's `new Object[][] {...}`).
fn returned_list<'n>(function: Node<'n>, lists: &[&str]) -> Option<Node<'n>> {
    let mut stack = vec![function.child_by_field_name("body")?];
    while let Some(node) = stack.pop() {
        if node.kind().starts_with("return") {
            let value = node.named_child(0)?;
            if lists.contains(&value.kind()) {
                return Some(value);
            }
            return value
                .child_by_field_name("value")
                .filter(|v| lists.contains(&v.kind()));
        }
        push_children(&mut stack, node);
    }
    None
}

/// The rows of a literal list: its named children but comments, each as written.
fn rows(syntax: &Syntax<'_>, list: Node<'_>) -> Vec<String> {
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter(|n| syntax.role(*n) != Role::Comment)
        .map(|n| syntax.text_of(n).to_owned())
        .collect()
}

// The rows are read from syntax trees: only with the grammars.
#[cfg(all(test, feature = "lang-all"))]
mod tests {
    use super::Parameters;
    use crate::read::code::{for_path, parse};

    /// The rows of the test each `r[` of `text` (a file named `name`) stands in, in order.
    fn rows_of(name: &str, text: &str) -> Vec<Option<Parameters>> {
        let lang = for_path(name).expect("a language of the table");
        let parsed = parse(lang, text.as_bytes()).expect("a grammar");
        text.match_indices("r[")
            .map(|(at, _)| parsed.test_at(at).and_then(|t| t.parameters))
            .collect()
    }

    fn rows(rows: &[&str]) -> Option<Parameters> {
        Some(Parameters::Rows(
            rows.iter().map(|r| (*r).to_owned()).collect(),
        ))
    }

    #[test]
    fn nose2_params_written_on_the_test() {
        let text = "# r[verify a.b]\n@params(\"s3\", \"gcs\")\ndef test_put(store):\n    pass\n\n# r[verify a.c]\n@other(\"s3\")\ndef test_get():\n    pass\n\n# r[verify a.d]\ndef test_sub(self):\n    for s in STORES:\n        with self.subTest(store=s):\n            pass\n";
        assert_eq!(
            rows_of("test_a.py", text),
            [
                rows(&["\"s3\"", "\"gcs\""]),
                None,
                Some(Parameters::Unlisted)
            ]
        );
    }

    #[test]
    fn a_phpunit_data_provider_returning_a_literal_array() {
        let text = "<?php\nclass ATest {\n    // r[verify a.b]\n    /**\n     * @dataProvider stores\n     */\n    public function testPut(string $s): void {}\n    public static function stores(): array\n    {\n        return [['s3'], ['gcs']];\n    }\n    // r[verify a.c]\n    /** @dataProvider computed */\n    public function testGet(string $s): void {}\n    public static function computed(): array { return array_map(fn($s) => [$s], S); }\n    // r[verify a.d]\n    public function testDelete(): void {}\n}\n";
        assert_eq!(
            rows_of("ATest.php", text),
            [
                rows(&["['s3']", "['gcs']"]),
                Some(Parameters::Unlisted),
                None
            ]
        );
    }

    #[test]
    fn a_testng_data_provider_returning_a_literal_array_or_computed_rows() {
        let text = "class ATest {\n    @DataProvider(name = \"stores\")\n    public Object[][] stores() {\n        return new Object[][] {{\"s3\"}, {\"gcs\"}};\n    }\n    @DataProvider(name = \"some\")\n    public Object[][] some() {\n        return Stream.of(\"s3\").map(s -> new Object[] {s}).toArray(Object[][]::new);\n    }\n    // r[verify a.b]\n    @Test(dataProvider = \"stores\")\n    public void put(String s) {}\n    // r[verify a.c]\n    @Test(dataProvider = \"some\")\n    public void get(String s) {}\n    // r[verify a.d]\n    @Test\n    public void delete() {}\n}\n";
        assert_eq!(
            rows_of("ATest.java", text),
            [
                rows(&["{\"s3\"}", "{\"gcs\"}"]),
                Some(Parameters::Unlisted),
                None
            ]
        );
    }

    #[test]
    fn a_boost_data_test_case_over_a_variable_of_the_file() {
        let text = "static const std::vector<std::string> stores{\"s3\", \"gcs\"};\n\n// r[verify a.b]\nBOOST_DATA_TEST_CASE(put, stores, store) {\n  BOOST_TEST(true);\n}\n\n// r[verify a.c]\nBOOST_AUTO_TEST_CASE(get) { BOOST_TEST(true); }\n";
        assert_eq!(
            rows_of("a_test.cpp", text),
            [rows(&["\"s3\"", "\"gcs\""]), None]
        );
    }

    #[test]
    fn junit5_rows_written_in_a_value_source_or_a_csv_source() {
        let text = "class ATest {\n    // r[verify a.b]\n    @ParameterizedTest\n    @ValueSource(strings = {\"s3\", \"gcs\"})\n    void put(String s) {}\n    // r[verify a.c]\n    @ParameterizedTest(name = \"{0}\")\n    @CsvSource({\"s3, 1\", \"gcs, 2\"})\n    void get(String s, int n) {}\n    // r[verify a.d]\n    @ParameterizedTest\n    @MethodSource(\"stores\")\n    void delete(String s) {}\n    // r[verify a.e]\n    @Test\n    void list() {}\n}\n";
        assert_eq!(
            rows_of("ATest.java", text),
            [
                rows(&["\"s3\"", "\"gcs\""]),
                rows(&["\"s3, 1\"", "\"gcs, 2\""]),
                Some(Parameters::Unlisted),
                None
            ]
        );
    }
}
