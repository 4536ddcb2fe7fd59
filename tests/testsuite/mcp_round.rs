//! `mdbook-contract mcp` and `check` told the truth an agent acts on, over stdio: a read writes
//! no file (a chapter SUMMARY.md names that does not exist is told, never created), a
//! mistyped profile leaves its entry open, a refused brief says what blocks it.

use serde_json::json;

use crate::broker::broker;
use crate::common::run_in;
use crate::mcp::Session;

/// The broker book whose SUMMARY.md names a chapter that is not on disk.
fn with_missing_chapter() -> crate::common::Fixture {
    broker(&[("src/SUMMARY.md", &|t: &str| {
        t.to_owned() + "- [Planned](planned/later.md)\n"
    })])
}

#[test]
fn a_missing_chapter_is_told_and_never_created() {
    let book = with_missing_chapter();
    let missing = book.root().join("src/planned/later.md");
    let mut session = Session::start_as_opened(book.root());
    let refusal = session.refusal("contract_check", json!({}));
    assert!(refusal.contains("planned/later.md"), "{refusal}");
    assert!(refusal.contains("SUMMARY.md"), "{refusal}");
    assert!(
        !missing.exists(),
        "contract_check created {}",
        missing.display()
    );
    assert!(!book.root().join("src/planned").exists());
    drop(session);

    let (code, stdout, stderr) = run_in(book.root(), &["check"]);
    assert_ne!(code, 0, "{stdout}{stderr}");
    assert!(stderr.contains("planned/later.md"), "{stderr}");
    assert!(!missing.exists(), "check created {}", missing.display());

    // Once the chapter is written, the same server answers.
    std::fs::create_dir_all(missing.parent().unwrap()).unwrap();
    std::fs::write(&missing, "# Planned\n").unwrap();
    let mut session = Session::start_as_opened(book.root());
    session.answer("contract_check", json!({}));
}
