//! How each language's tests take rows of parameters: the data of the language table's
//! `parameters` field, read by `parameters.rs`. To read another framework's rows, add a marker
//! to its language's [`ParameterRow`] (and a test to `parameters.rs`).

/// How a language's tests take rows of parameters, for [`super::languages::Lang::parameters`].
pub(crate) struct ParameterRow {
    /// Regular expressions over a test's header (from the comments above it to its body: its
    /// decorators, annotations, docblock, a test macro's arguments). A match makes the test
    /// parameterised; its group `list` is a literal list written there, its group `source` the
    /// name of what gives the rows (a function or method returning a literal list, a variable
    /// initialised with one).
    pub(crate) markers: &'static [&'static str],
    /// The kinds of a literal list: its named children are the rows.
    pub(crate) lists: &'static [&'static str],
    /// Regular expressions over a test's body that make it parameterised by rows no list
    /// gives (unittest's `with self.subTest(store=store):` in a loop).
    pub(crate) in_body: &'static [&'static str],
    /// The markers compiled, over the header and over the body: at the row's first test.
    pub(crate) compiled: std::sync::OnceLock<(Vec<regex::Regex>, Vec<regex::Regex>)>,
}

impl ParameterRow {
    /// Its markers, compiled once.
    pub(crate) fn compiled(&self) -> &(Vec<regex::Regex>, Vec<regex::Regex>) {
        self.compiled.get_or_init(|| {
            let compile = |markers: &[&str]| -> Vec<regex::Regex> {
                markers
                    .iter()
                    .map(|m| regex::Regex::new(m).expect("a valid parameter marker"))
                    .collect()
            };
            (compile(self.markers), compile(self.in_body))
        })
    }
}

/// Python: nose2's `@params(...)`; unittest's `subTest` in the body.
pub(crate) static PYTHON: ParameterRow = ParameterRow {
    markers: &[r"@(?:\w+\.)*params\s*(?P<list>\()"],
    lists: &["argument_list"],
    in_body: &[r"\.subTest\s*\("],
    compiled: std::sync::OnceLock::new(),
};

/// Java: TestNG's `@Test(dataProvider = "name")`, the method of that name returning the rows;
/// JUnit 5's `@ValueSource(strings = {"s3", "gcs"})` and `@CsvSource({"s3, 1", "gcs, 2"})`,
/// the rows written there (Surefire names their cases `putAtomic{String}[2]`, from 1).
pub(crate) static JAVA: ParameterRow = ParameterRow {
    markers: &[
        r#"@Test\s*\([^)]*\bdataProvider\s*=\s*"(?P<source>[^"]+)""#,
        r"@(?:ValueSource|CsvSource)\s*\([^{)]*(?P<list>\{)",
        r"@(?:MethodSource|ArgumentsSource|CsvFileSource|EnumSource)\b",
    ],
    lists: &["array_initializer", "element_value_array_initializer"],
    in_body: &[],
    compiled: std::sync::OnceLock::new(),
};

/// PHP: PHPUnit's `@dataProvider name` (docblock) or `#[DataProvider('name')]`.
pub(crate) static PHP: ParameterRow = ParameterRow {
    markers: &[
        r"@dataProvider\s+(?P<source>\w+)",
        r#"#\[\s*(?:\\?\w+\\)*DataProvider\s*\(\s*['"](?P<source>\w+)"#,
    ],
    lists: &["array_creation_expression"],
    in_body: &[],
    compiled: std::sync::OnceLock::new(),
};

/// C++: Boost.Test's `BOOST_DATA_TEST_CASE(name, dataset, variable)` over a variable.
pub(crate) static CPP: ParameterRow = ParameterRow {
    markers: &[r"BOOST_DATA_TEST_CASE\s*\(\s*\w+\s*,\s*(?P<source>\w+)\s*,"],
    lists: &["initializer_list"],
    in_body: &[],
    compiled: std::sync::OnceLock::new(),
};
