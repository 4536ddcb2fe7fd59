//! The commands as the command line runs them: each command's arguments (a `clap::Args` type)
//! beside the function that runs it, reads what the user named, calls the library and writes
//! its answer on the standard streams with an exit code. `main.rs` parses and dispatches; the
//! library never touches the standard streams, this module does.
//!
//! To add a command: a file `NAME.rs` with `NameArgs` (its doc comment is the command's help)
//! and `run(NameArgs) -> ExitCode`, a variant `Name(NameArgs)` of `main.rs`'s `Command`, and
//! its `--help` transcript in `guide/examples/help/` (the guide's command reference includes
//! it).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub(crate) mod brief;
pub(crate) mod carried_over;
pub(crate) mod check;
pub(crate) mod diff;
pub(crate) mod export;
pub(crate) mod init;
pub(crate) mod install;
pub(crate) mod lsp;
pub(crate) mod mcp;
pub(crate) mod new_spec;
pub(crate) mod protocol;
pub(crate) mod report;
pub(crate) mod status;

/// The book as mdBook hands it over, loaded; or why it cannot be.
pub(crate) type Loaded = anyhow::Result<(
    mdbook_preprocessor::PreprocessorContext,
    mdbook_preprocessor::book::Book,
)>;

/// Loads the book at `book_dir` as mdBook hands it over, with what the command line sets in
/// place of book.toml: `--test-results` (given from the working folder, relative to the book
/// root in the key) and `--changed-since`.
pub(crate) fn load(
    book_dir: &Path,
    test_results: &[PathBuf],
    changed_since: Option<&str>,
) -> Loaded {
    mdbook_contract::given_on_command_line(test_results);
    let (mut ctx, book) = mdbook_contract::load(book_dir, "html")?;
    if !test_results.is_empty() {
        let list: Vec<String> = test_results
            .iter()
            .map(|p| {
                mdbook_contract::from_folder(book_dir, p)
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        ctx.config.set("preprocessor.contract.test-results", list)?;
    }
    if let Some(rev) = changed_since {
        ctx.config.set("preprocessor.contract.changed-since", rev)?;
    }
    Ok((ctx, book))
}

/// Paths in output that a repository's host places (GitHub annotations, SARIF) are relative
/// to the top of the git work tree, wherever the command runs; outside one, as for people.
pub(crate) fn repository_root(book_dir: &Path) -> PathBuf {
    mdbook_contract::in_repository(book_dir).unwrap_or_else(|| display_root(book_dir))
}

/// Paths in output are shown as `book_dir` joined with the path in the book, so they are
/// relative to where the command was run.
pub(crate) fn display_root(book_dir: &Path) -> PathBuf {
    if book_dir == Path::new(".") {
        PathBuf::new()
    } else {
        book_dir.to_path_buf()
    }
}

/// What a command that could not do its work says, on standard error, and its exit code 2.
pub(crate) fn failed(error: &anyhow::Error) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
    ExitCode::from(2)
}
