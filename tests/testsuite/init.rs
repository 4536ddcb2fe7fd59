//! `mdbook-contract init`, through the binary: the book it writes builds at once with real mdBook
//! code and has no finding; a folder with a book is refused and left as it was.

use std::path::Path;

use crate::common::{Fixture, files, run_in};

/// `check` of the book at `root`: exit 0 and no finding at all, not even a warning.
fn assert_clean(root: &Path) {
    let (code, stdout, stderr) = run_in(root, &["check"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(stdout, "mdbook-contract: no findings\n", "{stderr}");
}

#[test]
fn an_empty_folder_gets_a_book_that_builds_without_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = run_in(dir.path(), &["init", "docs"]);
    assert_eq!(code, 0, "{stderr}");
    let root = dir.path().join("docs");
    assert_eq!(
        files(&root),
        [
            ".gitignore",
            "book.toml",
            "code/alpha/backend.py",
            "code/beta/backend.py",
            "code/conformance/test_conformance.py",
            "code/shared/client.py",
            "mdbook-contract.css",
            "mdbook-contract.js",
            "src/SUMMARY.md",
            "src/appendix.md",
            "src/contract.md",
            "src/spec-template.md",
        ]
    );
    assert!(stdout.contains("wrote docs/src/contract.md\n"), "{stdout}");
    assert!(stdout.contains("next: `mdbook build docs`"), "{stdout}");
    // Each file says first what to change first.
    for file in files(&root) {
        if file.starts_with("mdbook-contract.") {
            continue;
        }
        let text = std::fs::read_to_string(root.join(&file)).unwrap();
        assert!(text.contains("Change first: "), "{file}: {text}");
    }
    assert_clean(&root);
    // Real mdBook code builds it, with this preprocessor: both matrices are on the appendix.
    let (built, out) = Fixture::build_at(&root);
    built.expect("the book builds");
    let appendix = std::fs::read_to_string(out.join("appendix.html")).unwrap();
    assert!(appendix.contains("contract-matrix"), "no profile matrix");
    assert!(
        appendix.contains("data-rule=\"call.errors\""),
        "no rule matrix"
    );
    assert!(!appendix.contains("{{#"), "a shortcode left as written");
    let (code, status, _) = run_in(&root, &["status"]);
    assert_eq!(code, 0);
    assert!(
        status.contains("`alpha`, 2 of 2 rules verified") && status.contains("`beta`, 2 of 2"),
        "{status}"
    );
}

#[test]
fn the_providers_and_the_noun_given_are_the_books_words() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run_in(
        dir.path(),
        &[
            "init",
            "--provider",
            "s3",
            "--provider",
            "gcs",
            "--provider",
            "azure",
            "--noun",
            "storage backend",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let root = dir.path();
    let toml = std::fs::read_to_string(root.join("book.toml")).unwrap();
    assert!(
        toml.contains("title = \"Storage backend contract\""),
        "{toml}"
    );
    let appendix = std::fs::read_to_string(root.join("src/appendix.md")).unwrap();
    for provider in ["s3", "gcs", "azure"] {
        assert!(
            appendix.contains(&format!("## `{provider}` {{.provider}}")),
            "{appendix}"
        );
        assert!(root.join(format!("code/{provider}/backend.py")).exists());
    }
    assert!(appendix.starts_with("<!-- Change first: one section per storage backend"));
    let test = std::fs::read_to_string(root.join("code/conformance/test_conformance.py")).unwrap();
    assert!(
        test.contains("IMPLEMENTATIONS = [\"s3\", \"gcs\", \"azure\"]"),
        "{test}"
    );
    assert_clean(root);
    let (built, _) = Fixture::build_at(root);
    built.expect("the book builds");
    // A new provider's spec starts from the template, in the book's words.
    let (code, stdout, stderr) = run_in(root, &["new-spec", "minio"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("wrote src/minio-storage-backend-spec.md"),
        "{stdout}"
    );
}

#[test]
fn a_folder_with_a_book_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("book.toml"), "[book]\ntitle = \"Mine\"\n").unwrap();
    let (code, stdout, stderr) = run_in(root, &["init"]);
    assert_eq!(code, 2, "{stdout}");
    assert_eq!(
        stderr,
        "mdbook-contract: `./book.toml` exists: `init` writes a new book into a folder without one (to set up this book, run `mdbook-contract install` in it)\n"
    );
    assert_eq!(files(root), ["book.toml"]);
    assert_eq!(
        std::fs::read_to_string(root.join("book.toml")).unwrap(),
        "[book]\ntitle = \"Mine\"\n"
    );
}

#[test]
fn a_file_init_would_write_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join("src")).unwrap();
    std::fs::write(root.join("src/contract.md"), "# Mine\n").unwrap();
    let (code, _, stderr) = run_in(root, &["init", "."]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(
            "`./src/contract.md` exists: `init` writes only new files, and changed nothing"
        ),
        "{stderr}"
    );
    assert_eq!(files(root), ["src/contract.md"]);
}

#[test]
fn a_bad_name_or_noun_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    for (args, expected) in [
        (
            &["init", "new", "--provider", "S3"][..],
            "`--provider S3`: a provider's name is a DNS-1123 label",
        ),
        (
            &["init", "new", "--provider", "x", "--provider", "x"][..],
            "`--provider x` is given twice",
        ),
        (
            &["init", "new", "--provider", "client"][..],
            "the contract chapter uses the word `client`",
        ),
        (
            &["init", "new", "--noun", "Payment Gateway"][..],
            "`--noun Payment Gateway`: a noun is one to four lowercase words",
        ),
    ] {
        let (code, _, stderr) = run_in(dir.path(), args);
        assert_eq!(code, 2, "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!dir.path().join("new").exists(), "{args:?} wrote something");
    }
}
