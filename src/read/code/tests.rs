use super::*;

/// Whether each `r[` of `text` (a file named `name`) stands in a comment, in order.
fn comments(name: &str, text: &str) -> Vec<bool> {
    let lang = for_path(name).expect("a language of the table");
    let parsed = parse(lang, text.as_bytes()).expect("a grammar");
    text.match_indices("r[")
        .map(|(at, _)| parsed.in_comment(at))
        .collect()
}

/// The name of the test each `r[` of `text` stands in, in order.
fn tests(name: &str, text: &str) -> Vec<Option<String>> {
    let lang = for_path(name).expect("a language of the table");
    let parsed = parse(lang, text.as_bytes()).expect("a grammar");
    text.match_indices("r[")
        .map(|(at, _)| parsed.test_at(at).map(|t| t.name))
        .collect()
}

/// A file per language, and whether each of its `r[` stands in a comment: line, block and doc
/// comments count; strings, raw strings, heredocs and text blocks holding a comment marker do
/// not.
const COMMENT_CASES: &[(&str, &str, &[bool])] = &[
    (
        "a.rs",
        "/// r[impl a.b]\nfn f() {\n    // r[impl a.c]\n    let s = \"// r[impl a.d]\";\n    let r = r#\"// r[impl a.e]\"#;\n    /* r[impl a.f] */\n}\n",
        &[true, true, false, false, true],
    ),
    (
        "a.go",
        "package a\n\n// r[impl a.b]\nfunc F() {\n\ts := \"// r[impl a.c]\"\n\tr := `// r[impl a.d]`\n\t/* r[impl a.e] */\n}\n",
        &[true, false, false, true],
    ),
    (
        "a.py",
        "\"\"\"r[impl a.doc]\"\"\"\n# r[impl a.b]\ndef f():\n    \"\"\"r[impl a.c]\"\"\"\n    s = \"# r[impl a.d]\"\n    t = \"\"\"\n    # r[impl a.e]\n    \"\"\"\n    u = r'# r[impl a.f]'\n",
        &[true, true, true, false, false, false],
    ),
    (
        "a.ts",
        "// r[impl a.b]\nexport function f(): string {\n  const s = '// r[impl a.c]';\n  const t = `// r[impl a.d] ${s}`;\n  /** r[impl a.e] */\n  return s;\n}\n",
        &[true, false, false, true],
    ),
    (
        "a.tsx",
        "// r[impl a.b]\nexport const C = () => <div title=\"// r[impl a.c]\">{/* r[impl a.d] */}</div>;\n",
        &[true, false, true],
    ),
    (
        "a.js",
        "// r[impl a.b]\nfunction f() { return \"// r[impl a.c]\"; }\n/* r[impl a.d] */\n",
        &[true, false, true],
    ),
    (
        "A.java",
        "class A {\n  /** r[impl a.b] */\n  void f() {\n    String s = \"// r[impl a.c]\";\n    String t = \"\"\"\n      // r[impl a.d]\n      \"\"\";\n    // r[impl a.e]\n  }\n}\n",
        &[true, false, false, true],
    ),
    (
        "A.kt",
        "// r[impl a.b]\nfun f() {\n  val s = \"// r[impl a.c]\"\n  val t = \"\"\"// r[impl a.d]\"\"\"\n  /* r[impl a.e] */\n}\n",
        &[true, false, false, true],
    ),
    (
        "a.c",
        "// r[impl a.b]\nint f(void) {\n  const char *s = \"// r[impl a.c]\";\n  /* r[impl a.d] */\n  return 0;\n}\n",
        &[true, false, true],
    ),
    (
        "a.cpp",
        "// r[impl a.b]\nint f() {\n  auto s = R\"(// r[impl a.c])\";\n  auto t = \"/* r[impl a.d] */\";\n  /// r[impl a.e]\n  return 0;\n}\n",
        &[true, false, false, true],
    ),
    (
        "A.cs",
        "class A {\n  /// r[impl a.b]\n  void F() {\n    var s = @\"// r[impl a.c]\";\n    var t = $\"// r[impl a.d] {s}\";\n    var u = \"\"\"\n      // r[impl a.e]\n      \"\"\";\n    // r[impl a.f]\n  }\n}\n",
        &[true, false, false, false, true],
    ),
    (
        "a.swift",
        "// r[impl a.b]\nfunc f() {\n  let s = \"// r[impl a.c]\"\n  let t = \"\"\"\n  // r[impl a.d]\n  \"\"\"\n  /* r[impl a.e] */\n}\n",
        &[true, false, false, true],
    ),
    (
        "a.rb",
        "# r[impl a.b]\ndef f\n  s = \"# r[impl a.c]\"\n  t = <<~EOS\n    # r[impl a.d]\n  EOS\n  # r[impl a.e]\nend\n",
        &[true, false, false, true],
    ),
    (
        "a.php",
        "<?php\n// r[impl a.b]\nfunction f() {\n  $s = \"// r[impl a.c]\";\n  $t = '# r[impl a.d]';\n  # r[impl a.e]\n}\n",
        &[true, false, false, true],
    ),
    (
        "a.sh",
        "# r[impl a.b]\nf() {\n  echo \"# r[impl a.c]\"\n  cat <<EOF\n# r[impl a.d]\nEOF\n  # r[impl a.e]\n}\n",
        &[true, false, false, true],
    ),
    (
        "a.yaml",
        "# r[impl a.b]\nkey: \"# r[impl a.c]\"\nother: 'x' # r[impl a.d]\n",
        &[true, false, true],
    ),
    (
        "a.toml",
        "# r[impl a.b]\nkey = \"# r[impl a.c]\" # r[impl a.d]\n",
        &[true, false, true],
    ),
    (
        "Makefile",
        "# r[impl a.b]\nall:\n\techo done # r[impl a.c]\n",
        // The `#` of a recipe is the shell's, passed on by make: no comment of the file.
        &[true, false],
    ),
];

#[test]
fn comments_count_strings_do_not_in_every_language() {
    for (name, text, expected) in COMMENT_CASES {
        if for_path(name).and_then(|l| l.grammar).is_none() {
            continue;
        }
        assert_eq!(comments(name, text), *expected, "{name}:\n{text}");
    }
}

#[test]
fn the_test_around_a_citation_or_below_its_comment() {
    let go = "package a\n\nfunc TestGetMissing(t *testing.T) {\n\t// r[verify a.in]\n}\n\n// r[verify a.var]\nvar delay = 1\n\n// r[verify a.above]\nfunc TestReadAfterWrite(t *testing.T) {}\n\n// r[verify a.helper]\nfunc check(t *testing.T) {}\n";
    assert_eq!(
        tests("a_test.go", go),
        [
            Some("TestGetMissing".to_owned()),
            None,
            Some("TestReadAfterWrite".to_owned()),
            None
        ]
    );
    let rust = "mod tests {\n    /// r[verify a.doc]\n    #[test]\n    fn puts() {}\n\n    // r[verify a.rstest]\n    #[rstest]\n    #[case::s3(\"s3\")]\n    fn put_atomic(#[case] p: &str) {\n        // r[verify a.inside]\n    }\n}\n";
    assert_eq!(
        tests("a.rs", rust),
        [
            Some("puts".to_owned()),
            Some("put_atomic".to_owned()),
            Some("put_atomic".to_owned())
        ]
    );
    let python = "class TestStore:\n    # r[verify a.b]\n    @pytest.mark.parametrize('p', ['s3'])\n    def test_put(self, p):\n        pass\n\n# r[verify a.c]\ndef helper():\n    pass\n";
    assert_eq!(
        tests("test_a.py", python),
        [Some("test_put".to_owned()), None]
    );
    let jest = "describe('provider s3', () => {\n  // r[verify a.b]\n  test('get of a missing key is not found', () => {});\n});\n// r[verify a.c]\ntest.each(['s3', 'gcs'])('put is atomic on %s', (p) => {});\n// r[verify a.d]\nfunction helper() {}\n";
    assert_eq!(
        tests("a.test.js", jest),
        [
            Some("get of a missing key is not found".to_owned()),
            Some("put is atomic on %s".to_owned()),
            None
        ]
    );
    // A title held in a variable takes any text, as a placeholder.
    let looped = "describe('putAtomic', () => {\n  for (const store of STORES) {\n    // r[verify a.b]\n    test(store, () => {});\n  }\n});\n";
    assert_eq!(tests("a.test.js", looped), [Some("${store}".to_owned())]);
    let java = "class ConformanceTest {\n  // r[verify a.b]\n  @ParameterizedTest\n  @ValueSource(strings = {\"s3\"})\n  void putAtomic(String p) {}\n  // r[verify a.c]\n  void helper() {}\n}\n";
    assert_eq!(
        tests("ConformanceTest.java", java),
        [Some("putAtomic".to_owned()), None]
    );
}

#[test]
fn the_test_a_citation_stands_in_has_the_scopes_around_it() {
    let scopes = |name: &str, text: &str| -> Vec<Option<Vec<String>>> {
        let parsed = parse(for_path(name).unwrap(), text.as_bytes()).unwrap();
        text.match_indices("r[")
            .map(|(at, _)| parsed.test_at(at).map(|t| t.scope))
            .collect()
    };
    let rust = "mod tests {\n    mod inner {\n        /// r[verify a.doc]\n        #[test]\n        fn puts() {\n            // r[verify a.in]\n        }\n    }\n}\n";
    let inner = vec!["tests".to_owned(), "inner".to_owned()];
    assert_eq!(scopes("a.rs", rust), [Some(inner.clone()), Some(inner)]);
    let python = "class TestStore:\n    # r[verify a.b]\n    def test_put(self):\n        pass\n";
    assert_eq!(
        scopes("test_a.py", python),
        [Some(vec!["TestStore".to_owned()])]
    );
    let jest = "describe('provider s3', () => {\n  test('get', () => {\n    // r[verify a.b]\n  });\n});\n";
    assert_eq!(
        scopes("a.test.js", jest),
        [Some(vec!["provider s3".to_owned()])]
    );
}

#[test]
fn scopes_name_what_a_unit_stands_in() {
    let lang = for_path("a.test.ts").unwrap();
    let text =
        "describe('consistency', () => {\n  test('read after write on %s', () => {});\n});\n";
    let parsed = parse(lang, text.as_bytes()).unwrap();
    let units = parsed.units();
    let case = units.iter().find(|u| u.test).unwrap();
    assert_eq!(case.scope, ["consistency"]);
    assert_eq!(case.kind, UnitKind::Case);
    let python = for_path("a.py").unwrap();
    let text = "class Outer:\n    class TestInner:\n        def test_x(self):\n            pass\n";
    let parsed = parse(python, text.as_bytes()).unwrap();
    let units = parsed.units();
    let method = units.iter().find(|u| u.name == "test_x").unwrap();
    assert_eq!(method.scope, ["Outer", "TestInner"]);
    assert!(method.method && method.test);
}

#[test]
fn code_units_of_a_file() {
    let go = for_path("a.go").unwrap();
    let text = "package a\n\n// Store keeps blobs.\ntype Store struct{}\n\nfunc (s *Store) Put() {}\n\nfunc New() *Store { return nil }\n";
    let parsed = parse(go, text.as_bytes()).unwrap();
    let code_units = parsed.code_units();
    let units: Vec<(&str, UnitKind, bool, usize)> = code_units
        .iter()
        .map(|u| (u.name.as_str(), u.kind, u.method, u.line))
        .collect();
    assert_eq!(
        units,
        [
            ("Store", UnitKind::Type, false, 4),
            ("Put", UnitKind::Function, false, 6),
            ("New", UnitKind::Function, false, 8)
        ]
    );
    // The comment above the type belongs to it.
    let store = &code_units[0];
    assert_eq!(
        &text[store.range.clone()],
        "// Store keeps blobs.\ntype Store struct{}"
    );
}

#[test]
fn broken_syntax_is_read_as_far_as_the_parser_recovers() {
    let rust = for_path("a.rs").unwrap();
    let text = "// r[impl a.b]\nfn f( {\n    // r[impl a.c]\n}\n";
    let parsed = parse(rust, text.as_bytes()).unwrap();
    let errors = parsed.errors().expect("a syntax error");
    assert!(errors.count >= 1);
    assert_eq!(
        text.match_indices("r[")
            .map(|(at, _)| parsed.in_comment(at))
            .collect::<Vec<_>>(),
        [true, true]
    );
    // Not UTF-8, binary: never a panic.
    let bytes: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
    for lang in languages::LANGUAGES.iter() {
        let _ = parse(lang, &bytes);
    }
}

#[test]
fn a_word_in_a_comment_or_a_sentence_of_a_string_is_no_name_of_the_code() {
    let python = for_path("a.py").unwrap();
    let text = "# Backend in a comment\nclass Backend:\n    name = \"Backend\"\n    m = \"a Backend here\"\n    t = r'Backend'\n";
    let parsed = parse(python, text.as_bytes()).unwrap();
    let names: Vec<bool> = text
        .match_indices("Backend")
        .map(|(at, w)| parsed.names(at..at + w.len()))
        .collect();
    assert_eq!(names, [false, true, true, false, true]);
}

#[test]
fn c_and_cpp_tests_by_their_macros_and_names_never_their_return_type() {
    let c = "// r[verify a.b]\nint test_put(void) { return 0; }\n// r[verify a.c]\nstatic void helper(void) {}\n";
    assert_eq!(tests("a.c", c), [Some("test_put".to_owned()), None]);
    let cpp = "namespace s3 {\n// r[verify a.b]\nTEST(Provider, GetMissing) {}\n}\n// r[verify a.c]\nTEST_P(PutAtomic, IsAtomic) { x(); }\n// r[verify a.d]\nTEST_CASE(\"put is atomic\", \"[c]\") {\n  SECTION(\"on s3\") {}\n}\n// r[verify a.e]\nBOOST_AUTO_TEST_CASE(get_missing) {}\n";
    let scopes = |text: &str| -> Vec<Option<(String, Vec<String>)>> {
        let parsed = parse(for_path("a.cpp").unwrap(), text.as_bytes()).unwrap();
        text.match_indices("r[")
            .map(|(at, _)| parsed.test_at(at).map(|t| (t.name, t.scope)))
            .collect()
    };
    let site = |name: &str, scope: &[&str]| {
        Some((
            name.to_owned(),
            scope.iter().map(|s| (*s).to_owned()).collect(),
        ))
    };
    assert_eq!(
        scopes(cpp),
        [
            site("GetMissing", &["Provider"]),
            site("IsAtomic/${index}", &["${instance}/PutAtomic"]),
            site("put is atomic", &[]),
            site("get_missing", &[]),
        ]
    );
}

/// The test and the groups' titles a citation of a scripting language's runner stands in.
fn titled(name: &str, text: &str) -> Vec<Option<(String, Vec<String>)>> {
    let parsed = parse(for_path(name).unwrap(), text.as_bytes()).unwrap();
    text.match_indices("r[")
        .map(|(at, _)| {
            parsed
                .test_at(at)
                .inspect(|t| assert!(t.titled, "{name}: {} is titled", t.name))
                .map(|t| (t.name, t.scope))
        })
        .collect()
}

fn site(name: &str, scope: &[&str]) -> Option<(String, Vec<String>)> {
    Some((
        name.to_owned(),
        scope.iter().map(|s| (*s).to_owned()).collect(),
    ))
}

#[test]
fn rspec_and_minitest_tests_by_their_titles_in_and_under_loops() {
    let rspec = "RSpec.describe \"storage\" do\n  # r[verify a.b]\n  %w[s3 gcs].each do |store|\n    it \"put on #{store} is atomic\" do\n    end\n  end\n\n  %w[s3].each do |store|\n    # r[verify a.c]\n    it \"read on #{store}\", store: store do\n    end\n  end\n\n  # r[verify a.d]\n  x = 1\n  # r[verify a.e]\n  describe \"group\" do\n  end\nend\n";
    assert_eq!(
        titled("a_spec.rb", rspec),
        [
            site("put on ${store} is atomic", &["storage"]),
            site("read on ${store}", &["storage"]),
            None,
            None
        ]
    );
    // A method made in a loop is named by its name alone: the class is no title.
    let minitest = "class TestConformance < Minitest::Test\n  # r[verify a.b]\n  %w[s3 gcs].each do |store|\n    define_method(\"test_put_atomic_#{store}\") do\n    end\n  end\n  # r[verify a.c]\n  define_method(\"helper_#{x}\") do\n  end\nend\n";
    assert_eq!(
        titled("test_a.rb", minitest),
        [site("test_put_atomic_${store}", &[]), None]
    );
}

#[test]
fn deno_bats_and_busted_tests_by_their_titles() {
    let deno = "for (const store of STORES) {\n  // r[verify a.b]\n  Deno.test({\n    name: `put on ${store} is atomic`,\n    fn() {},\n  });\n}\n// r[verify a.c]\nDeno.test(\"get missing\", () => {});\n// r[verify a.d]\nDeno.serve(\"x\");\n// r[verify a.e]\nDeno.test({ fn() {} });\n";
    assert_eq!(
        titled("a.test.ts", deno),
        [
            site("put on ${store} is atomic", &[]),
            site("get missing", &[]),
            None,
            None
        ]
    );
    let bats = "# r[verify a.b]\n@test \"put on s3 is atomic\" {\n  true\n}\n\n# r[verify a.c]\necho \"not a test\"\n";
    assert_eq!(
        titled("a.bats", bats),
        [site("put on s3 is atomic", &[]), None]
    );
    let busted = "describe(\"storage\", function()\n  -- r[verify a.b]\n  for _, store in ipairs({ \"s3\", \"gcs\" }) do\n    it(\"put on \" .. store .. \" is atomic\", function() end)\n  end\n  -- r[verify a.c]\n  print(\"x\")\nend)\n";
    assert_eq!(
        titled("a_spec.lua", busted),
        [site("put on ${store} is atomic", &["storage"]), None]
    );
}

#[test]
fn boost_suites_around_their_tests_and_a_data_test_case_numbered_by_its_samples() {
    let cpp = "BOOST_AUTO_TEST_SUITE(providers)\nBOOST_AUTO_TEST_SUITE(gcs)\n\n// r[verify a.b]\nBOOST_AUTO_TEST_CASE(get_missing) { BOOST_TEST(true); }\n\nBOOST_AUTO_TEST_SUITE_END()\n// r[verify a.c]\nBOOST_DATA_TEST_CASE(put_atomic, stores, store) {}\nBOOST_AUTO_TEST_SUITE_END()\n// r[verify a.d]\nBOOST_AUTO_TEST_CASE(delete_missing) {}\n";
    let parsed = parse(for_path("a.cpp").unwrap(), cpp.as_bytes()).unwrap();
    let got: Vec<Option<(String, Vec<String>)>> = cpp
        .match_indices("r[")
        .map(|(at, _)| parsed.test_at(at).map(|t| (t.name, t.scope)))
        .collect();
    let site = |name: &str, scope: &[&str]| {
        Some((
            name.to_owned(),
            scope.iter().map(|s| (*s).to_owned()).collect(),
        ))
    };
    assert_eq!(
        got,
        [
            // Its comment, which the parser reads into the suite's statement (no `;`),
            // still stands above it.
            site("get_missing", &["providers", "gcs"]),
            site("_${index}", &["providers", "put_atomic"]),
            site("delete_missing", &[]),
        ]
    );
}

#[test]
fn a_comment_that_ends_a_block_without_error_stands_above_nothing_after_it() {
    let py = "def helper():\n    x()\n    # r[verify a.b]\ndef test_x():\n    pass\n";
    assert_eq!(tests("test_a.py", py), [None]);
}
