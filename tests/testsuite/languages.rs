//! Source read as code, through the binary: citations in comments are read and citations in
//! strings are not, in every language with a grammar (`tests/fixtures/languages/`, one file per
//! language whose first line says what it expects); vendored and minified files are not
//! source; symbols are found in the languages the tree has; `status` says how each file was
//! read and lists the code no citation maps.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::common::{Fixture, copy_tree, run_in};

const CONTRACT: &str = "# Contract\n\nr[known.rule]\nA provider MUST exist.\n";

/// A book whose source tree is a copy of `tests/fixtures/<tree>`.
fn book_over(tree: &str, toml_extra: &str) -> Fixture {
    let toml = format!(
        "[book]\ntitle = \"Languages\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\nsource-root = \"code\"\n{toml_extra}"
    );
    let fixture = Fixture::new(&[("book.toml", &toml), ("src/contract.md", CONTRACT)]);
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(tree);
    copy_tree(&from, &fixture.root().join("code"));
    fixture
}

/// The findings of `check --format json` on the book at `root`.
fn findings(root: &Path) -> Vec<Value> {
    let (_, stdout, stderr) = run_in(root, &["check", "--format", "json"]);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    report.as_array().cloned().expect("an array of findings")
}

/// The IDs a line `expect read: A B; not read: C D` names: (read, not read).
fn expected(first_line: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let rest = first_line
        .split_once("expect read:")
        .expect("an expect line")
        .1;
    let (read, not) = rest.split_once("; not read:").expect("a not read part");
    let words = |s: &str| s.split_whitespace().map(str::to_owned).collect();
    (words(read), words(not))
}

#[test]
fn citations_are_read_from_comments_never_from_strings_in_every_language() {
    let fixture = book_over("languages", "");
    let findings = findings(fixture.root());
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/languages");
    let mut files = Vec::new();
    for entry in walk(&dir) {
        let text = std::fs::read_to_string(&entry).unwrap();
        let Some(line) = text.lines().find(|l| l.contains("expect read:")) else {
            continue;
        };
        let relative = entry
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        files.push((relative, expected(line)));
    }
    assert!(files.len() >= 19, "a file per language: {files:?}");
    for (file, (read, not_read)) in files {
        let path = format!("code/{file}");
        let found: BTreeSet<String> = findings
            .iter()
            .filter(|f| f["check"] == "unknown-rule" && f["path"] == path.as_str())
            .filter_map(|f| {
                let message = f["message"].as_str()?;
                let id = message.split('`').nth(3)?;
                Some(id.to_owned())
            })
            .collect();
        assert_eq!(found, read, "{file}: the citations read");
        assert!(found.is_disjoint(&not_read), "{file}");
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn a_minified_or_vendored_file_is_not_source() {
    let fixture = book_over("languages", "");
    let code = fixture.root().join("code");
    // Written by a tool: one long line, `--` and `//` before `r[i.name]` and `r[r.length-1]`.
    let long = format!(
        "for(var i=9;i--;){{}}//{}var n=r[i.name]+r[r.length-1];\n",
        "x".repeat(5000)
    );
    std::fs::write(code.join("bundle.js"), &long).unwrap();
    std::fs::write(code.join("chart.min.js"), "// r[impl min.named]\n").unwrap();
    std::fs::create_dir_all(code.join("node_modules/lib")).unwrap();
    std::fs::write(
        code.join("node_modules/lib/index.js"),
        "// r[impl vendored.rule]\n",
    )
    .unwrap();
    std::fs::create_dir_all(code.join("vendor/x")).unwrap();
    std::fs::write(
        code.join("vendor/x/x.go"),
        "package x\n// r[impl vendored.go]\n",
    )
    .unwrap();
    let found = findings(fixture.root());
    let in_them: Vec<&Value> = found
        .iter()
        .filter(|f| {
            let path = f["path"].as_str().unwrap_or("");
            path.contains("bundle.js")
                || path.contains(".min.js")
                || path.contains("node_modules")
                || path.contains("vendor/")
        })
        .collect();
    assert!(in_them.is_empty(), "{in_them:#?}");
    let (_, status, _) = run_in(fixture.root(), &["status", "--format", "json"]);
    let status: Value = serde_json::from_str(&status).unwrap();
    let not_source = &status["source"]["not_source"];
    assert_eq!(
        not_source
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum::<u64>(),
        4,
        "{not_source}"
    );
}

#[test]
fn a_python_tree_finds_its_symbols_with_the_default_config() {
    let book = Fixture::copy_of("flags", &[]);
    let found = findings(book.root());
    let errors: Vec<&Value> = found.iter().filter(|f| f["severity"] == "error").collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // A word only in a comment or a string is no definition.
    let book = Fixture::copy_of(
        "flags",
        &[("src/contract.md", &|t: &str| {
            t.replace(
                "implements `Backend`",
                "implements `Backend` and `NeverDefined`",
            )
        })],
    );
    std::fs::write(
        book.root().join("flagsvc/notes.py"),
        "# NeverDefined in a comment\nMESSAGE = \"NeverDefined in a string\"\n",
    )
    .unwrap();
    let found = findings(book.root());
    let symbols: Vec<&str> = found
        .iter()
        .filter(|f| f["check"] == "cited-symbol")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        symbols,
        ["`NeverDefined` is not found in the source (no whole word `NeverDefined` in *.py, *.pyi)"]
    );
    // The mermaid bundle beside book.toml is the book's own, not source.
    let (_, status, _) = run_in(book.root(), &["status"]);
    assert!(status.contains("  read as code: Python 8\n"), "{status}");
    assert!(
        status.contains("  not source, the book's own (its src and build folder, book.toml, baseline, scripts and stylesheets): 7 files\n"),
        "{status}"
    );
}

#[test]
fn status_lists_the_code_no_citation_maps() {
    let toml = "[book]\ntitle = \"Store\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\nsource-root = \"code\"\n\n[preprocessor.contract.provider-paths]\ns3 = [\"store/s3.py\"]\n";
    let contract =
        "# Contract\n\nr[put.atomic]\nA put MUST be atomic.\n\n## `s3` {.provider}\n\nNo claims.\n";
    let fixture = Fixture::new(&[("book.toml", toml), ("src/contract.md", contract)]);
    let code = fixture.root().join("code");
    std::fs::create_dir_all(code.join("store")).unwrap();
    std::fs::create_dir_all(code.join("tests")).unwrap();
    std::fs::write(
        code.join("store/s3.py"),
        "class S3:\n    # r[impl put.atomic]\n    def put(self, key, data):\n        pass\n\n    def get(self, key):\n        pass\n",
    )
    .unwrap();
    std::fs::write(
        code.join("store/common.py"),
        "def retry(f):\n    return f\n",
    )
    .unwrap();
    std::fs::write(
        code.join("tests/test_store.py"),
        "# r[verify put.atomic]\ndef test_put():\n    pass\n\n\ndef test_get():\n    pass\n",
    )
    .unwrap();
    let (_, human, stderr) = run_in(fixture.root(), &["status", "--unmapped"]);
    // By hand: `S3` holds a citation (mapped), `S3.put` has one above it (mapped), `S3.get`
    // has none; `retry` is shared and unmapped; `test_put` is mapped, `test_get` is not.
    assert!(
        human.contains(
            "unmapped in `s3`: 2 of 3 code units mapped (66%), no test units\n  store/s3.py:6: method S3.get\n"
        ),
        "{human}{stderr}"
    );
    assert!(
        human.contains(
            "unmapped in shared code (no provider's places hold it): 0 of 1 code units mapped (0%), 1 of 2 test units mapped (50%)\n  store/common.py:1: function retry\n  tests/test_store.py:6: test test_get (test code)\n"
        ),
        "{human}"
    );
    let (_, json, _) = run_in(
        fixture.root(),
        &["status", "--unmapped", "--format", "json"],
    );
    let json: Value = serde_json::from_str(&json).unwrap();
    let owners = json["unmapped"]["owners"].as_array().unwrap();
    assert_eq!(owners.len(), 2);
    assert_eq!(owners[0]["owner"], "s3");
    assert_eq!(
        (
            owners[0]["code_units"].as_u64(),
            owners[0]["code_mapped"].as_u64()
        ),
        (Some(3), Some(2))
    );
    assert_eq!(owners[0]["code"][0]["name"], "S3.get");
    assert_eq!(owners[0]["code"][0]["kind"], "method");
    assert_eq!(owners[1]["owner"], "");
    assert_eq!(owners[1]["tests"][0]["name"], "test_get");
    // Without the flag, nothing of it.
    let (_, json, _) = run_in(fixture.root(), &["status", "--format", "json"]);
    assert!(!json.contains("\"unmapped\""), "{json}");
}

#[test]
fn many_cited_symbols_on_a_first_run_name_the_setting_before_a_baseline() {
    // A Python tree checked as if it were Go: the names are there, in files not looked in.
    let names: Vec<String> = (0..31).map(|i| format!("Backend{i}")).collect();
    let contract = format!(
        "# Contract\n\n{}\n",
        names
            .iter()
            .map(|n| format!("- `{n}` answers.\n"))
            .collect::<String>()
    );
    let code: String = names
        .iter()
        .map(|n| format!("class {n}:\n    pass\n"))
        .collect();
    let toml = "[book]\ntitle = \"x\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\nsource-root = \"code\"\nsymbol-files = [\"*.go\"]\n";
    let fixture = Fixture::new(&[
        ("book.toml", toml),
        ("src/contract.md", &contract),
        ("code/backends.py", &code),
    ]);
    let (code_, stdout, _) = run_in(fixture.root(), &["check", "--format", "short"]);
    assert_eq!(code_, 1);
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with("mdbook-contract: 31 `cited-symbol` errors: many `cited-symbol` findings mean the names are defined in files `symbol-files` does not name (it defaults to every language read as code), or are no symbols: name those files in `symbol-files`, or the words in `symbol-ignore`; if not, to adopt"),
        "{last}"
    );
    // With the default, every one is found.
    std::fs::write(
        fixture.root().join("book.toml"),
        toml.replace("symbol-files = [\"*.go\"]\n", ""),
    )
    .unwrap();
    let (code_, stdout, _) = run_in(fixture.root(), &["check", "--format", "short"]);
    assert_eq!(code_, 0, "{stdout}");
}

/// Files a grammar cannot read as written: broken syntax and a binary file are read as far as
/// the parser recovers, a file of invalid UTF-8 is parsed as bytes, and one over the size parsed
/// is read as text; each said once in `status`, none a failure.
#[test]
fn files_a_grammar_cannot_read_are_read_as_far_as_they_go() {
    let fixture = Fixture::new(&[
        (
            "book.toml",
            "[book]\ntitle = \"Bad\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\nsource-root = \"code\"\n",
        ),
        ("src/SUMMARY.md", "# Summary\n\n- [Contract](contract.md)\n"),
        ("src/contract.md", CONTRACT),
    ]);
    let code = fixture.root().join("code");
    std::fs::create_dir_all(&code).unwrap();
    let write = |name: &str, bytes: &[u8]| std::fs::write(code.join(name), bytes).unwrap();
    write(
        "broken.rs",
        b"// r[impl broken.one]\nfn f( {\n    // r[impl broken.two]\n}\n",
    );
    write("blob.rs", b"\x00\x01\x02\xff\xfe\x00 r[i] \x00\xff");
    write(
        "latin.py",
        b"# r[impl latin.one]\ns = \"caf\xe9 # r[impl latin.string]\"\n# r[impl latin.two]\n",
    );
    // Over the 4 MiB parsed: read as text, so its citation in a string counts as one.
    let mut big = b"package big\n// r[impl big.one]\n".to_vec();
    while big.len() <= 4 << 20 {
        big.extend_from_slice(b"func f() int { return 1 }\n");
    }
    big.extend_from_slice(b"var s = \"// r[impl big.string]\"\n");
    write("big.go", &big);

    let (code_status, _, stderr) = run_in(fixture.root(), &["check"]);
    assert_eq!(code_status, 1, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let read: BTreeSet<String> = findings(fixture.root())
        .iter()
        .filter(|f| f["check"] == "unknown-rule")
        .filter_map(|f| f["message"].as_str()?.split('`').nth(3).map(str::to_owned))
        .collect();
    let expected: BTreeSet<String> = [
        "broken.one",
        "broken.two",
        "latin.one",
        "latin.two",
        "big.one",
        "big.string",
    ]
    .map(str::to_owned)
    .into();
    assert_eq!(read, expected);

    let (_, human, stderr) = run_in(fixture.root(), &["status"]);
    assert!(
        human.contains("  read as text, too large to parse (over 4 MiB): big.go\n"),
        "{human}{stderr}"
    );
    assert!(
        human.contains("  broken.rs:2: 1 syntax error(s); read as far as the parser recovered\n"),
        "{human}"
    );
    assert_eq!(human.matches("blob.rs").count(), 1, "{human}");
    assert_eq!(human.matches("big.go").count(), 1, "{human}");
    assert!(!human.contains("read as text (no grammar"), "{human}");
}
