//! Rules from end to end: an on-disk book in a git repository whose contract chapter holds rule
//! markers and whose source tree holds citations, run through the whole pipeline, `status`,
//! `export` and `diff`.
//!
//! The input is split on `0xFF` into up to five parts: the contract chapter, the appendix (its
//! provider sections cite `pods/` and `vms/`, the source tree's two folders), the raw bytes
//! of two source files, `code/pods/pods_test.EXT` and `code/vms/vms.EXT` (not only UTF-8: the
//! source tree is read as bytes and parsed with the grammar of its language; each part's first
//! byte picks its language among [`EXTENSIONS`]), and the raw bytes of a test report, `results/report`, JUnit
//! XML or `go test -json` by what it starts with (book.toml names it in `test-results` only
//! when the input has a fifth part). The chapters are read as lossy UTF-8, as mdBook would
//! refuse a file that is not. The book is committed, then:
//!
//! - the pipeline runs with the invariants of `src/lib.rs` (no panic, no `internal-error`,
//!   every position at least 1:1, chapters changed only at shortcodes and rule markers);
//! - `status` renders in both formats, with the code units no citation maps;
//! - `export` gives the same bytes twice;
//! - `diff HEAD` of the working tree, equal to the base, finds no change;
//! - the working tree is changed (the contract's first marker line dropped, a rule added), and
//!   `diff HEAD` renders in every format, every change placed at least at 1:1.

#![no_main]

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mdbook_contract::{DiffFormat, StatusFormat};
use mdbook_contract_fuzz as harness;

const BOOK_TOML: &str = "[book]\ntitle = \"Rules\"\n\n[output.html]\ngit-repository-url = \"https://example.com/team/repo\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\nsource-root = \"code\"\n";

/// The key that reads the fifth part as the test results.
const TEST_RESULTS: &str = "test-results = [\"results/*\"]\n";

/// The languages a source file is written in, picked by its part's first byte: every grammar
/// of the table, and one read as text.
const EXTENSIONS: &[&str] = &[
    "go", "rs", "py", "ts", "tsx", "js", "java", "kt", "c", "cpp", "cs", "swift", "rb", "php",
    "sh", "yaml", "toml", "mk", "proto",
];

/// The path of a source file in `folder`, named `stem`, in the language `part`'s first byte
/// picks.
fn source_path(folder: &str, stem: &str, part: &[u8]) -> String {
    let extension = EXTENSIONS[usize::from(part.first().copied().unwrap_or(0)) % EXTENSIONS.len()];
    format!("code/{folder}/{stem}.{extension}")
}

const SUMMARY: &str = "# Summary\n\n- [Contract](contract.md)\n- [Appendix](appendix.md)\n";

/// A folder for the book, made once per process. libFuzzer ends the process without dropping
/// statics, so it is left behind: `rm -rf /tmp/mdbook-contract-fuzz-*` after a run.
fn book_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        tempfile::Builder::new()
            .prefix("mdbook-contract-fuzz-rules-")
            .tempdir()
            .expect("a temporary folder")
    })
    .path()
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=fuzz", "-c", "user.email=fuzz@example.com"])
        .args(["-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        status.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

/// Writes the book and its source tree into `root`, a new repository, and commits it.
fn write_and_commit(root: &Path, parts: &[&[u8]]) {
    let _ = std::fs::remove_dir_all(root.join(".git"));
    let _ = std::fs::remove_dir_all(root.join("src"));
    let _ = std::fs::remove_dir_all(root.join("code"));
    let _ = std::fs::remove_dir_all(root.join("results"));
    let part = |i: usize| parts.get(i).copied().unwrap_or_default();
    let results = parts.get(4);
    let book_toml = match results {
        Some(_) => format!("{BOOK_TOML}{TEST_RESULTS}"),
        None => BOOK_TOML.to_owned(),
    };
    let pods = source_path("pods", "pods_test", part(2));
    let vms = source_path("vms", "vms", part(3));
    let mut files: Vec<(&str, Vec<u8>)> = vec![
        ("book.toml", book_toml.into_bytes()),
        ("src/SUMMARY.md", SUMMARY.into()),
        (
            "src/contract.md",
            String::from_utf8_lossy(part(0)).into_owned().into_bytes(),
        ),
        (
            "src/appendix.md",
            String::from_utf8_lossy(part(1)).into_owned().into_bytes(),
        ),
        (&pods, part(2).to_vec()),
        (&vms, part(3).to_vec()),
    ];
    if let Some(results) = results {
        files.push(("results/report", results.to_vec()));
    }
    for (path, bytes) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder is made");
        std::fs::write(path, bytes).expect("a file is written");
    }
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "--allow-empty", "-m", "base"]);
}

fuzz_target!(|data: &[u8]| {
    let parts: Vec<&[u8]> = data.splitn(5, |&b| b == 0xFF).collect();
    harness::restart_interrupted_calls();
    let root = book_dir();
    write_and_commit(root, &parts);

    let Ok((ctx, book)) = mdbook_contract::load(root, "html") else {
        // mdBook refuses some books (a chapter it cannot read); nothing of ours ran.
        return;
    };
    harness::run_and_check(&ctx, book.clone());

    let status = mdbook_contract::status_with(&ctx, &book, Default::default(), true)
        .expect("status runs on a book that loads");
    for format in [StatusFormat::Human, StatusFormat::Json] {
        let _ = mdbook_contract::render_status(&status, format);
    }

    let first = mdbook_contract::export(root).expect("export runs on a book that loads");
    let second = mdbook_contract::export(root).expect("export runs again");
    assert_eq!(first.to_json(), second.to_json(), "export is not deterministic");

    let diff = mdbook_contract::diff(
        root,
        "HEAD",
        None,
        Default::default(),
        mdbook_contract::Commands::Refuse,
    )
        .expect("diff runs against the committed base");
    assert!(
        diff.changes.is_empty(),
        "the working tree equals the base, yet: {:?}",
        diff.changes
    );

    // A change: the first marker line of the contract dropped, and a rule added.
    let contract = root.join("src/contract.md");
    let text = std::fs::read_to_string(&contract).expect("the contract was written");
    let changed = match text.find("\nr[") {
        Some(at) => {
            let end = text[at + 1..].find('\n').map_or(text.len(), |e| at + 1 + e);
            format!("{}{}", &text[..at], &text[end..])
        }
        None => text.clone(),
    };
    let changed = changed + "\n\nr[fuzz.added]\nAn added rule MUST hold, because `pods` asks.\n";
    std::fs::write(&contract, changed).expect("the contract is changed");
    let diff = mdbook_contract::diff(
        root,
        "HEAD",
        None,
        Default::default(),
        mdbook_contract::Commands::Refuse,
    )
        .expect("diff runs on a changed working tree");
    for format in [
        DiffFormat::Human,
        DiffFormat::Markdown,
        DiffFormat::Json,
        DiffFormat::Github,
    ] {
        let _ = mdbook_contract::render_diff(&diff, format);
    }
    for change in &diff.changes {
        let mut numbers = change.at.rsplitn(3, ':');
        let column: usize = numbers.next().and_then(|n| n.parse().ok()).unwrap_or(0);
        let line: usize = numbers.next().and_then(|n| n.parse().ok()).unwrap_or(0);
        assert!(line >= 1 && column >= 1, "a change at {}", change.at);
    }
});
