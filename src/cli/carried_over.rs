//! `mdbook-contract carried-over`: the list items of an old document whose code spans do not
//! all occur in the book.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::failed;

/// Reports every list item of an old document whose code spans do not all occur in the
/// book: nothing of what a split replaced is lost.
///
/// Exits 0 when every item is carried over, 1 when one is not, 2 when OLD, a section or the
/// book cannot be read.
#[derive(clap::Args)]
pub(crate) struct CarriedOverArgs {
    /// The old document: a file, or `REV:PATH` for a file at a git revision (read with
    /// `git show`, such as `main:docs/providers.md`).
    old: String,
    /// The book's root folder, where book.toml is.
    #[arg(default_value = ".")]
    book_dir: PathBuf,
    /// Compare only the list items of the section with this heading (numbering and case
    /// aside); may be given more than once. Default: every list item of OLD.
    #[arg(long = "section", value_name = "TITLE")]
    sections: Vec<String>,
}

pub(crate) fn run(args: CarriedOverArgs) -> ExitCode {
    let result = mdbook_contract::load(&args.book_dir, "html").and_then(|(_, book)| {
        mdbook_contract::carried_over(std::path::Path::new(""), &args.old, &args.sections, &book)
    });
    match result {
        Ok(report) => {
            let _ = std::io::stdout()
                .lock()
                .write_all(report.render().as_bytes());
            if report.lost.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error) => failed(&error),
    }
}
