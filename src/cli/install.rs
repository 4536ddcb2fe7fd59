//! `mdbook-contract install`: the stylesheet and the page script beside book.toml, and
//! book.toml set up for them and for the preprocessor.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::failed;

/// Sets a book up: writes the stylesheet of the generated tables and the script of the
/// coverage page beside book.toml and lists them in `output.html.additional-css` and
/// `additional-js`, and adds `[preprocessor.contract]` with `after = ["links"]` when
/// book.toml has none (comments and formatting are kept).
#[derive(clap::Args)]
pub(crate) struct InstallArgs {
    /// The book's root folder, where book.toml is.
    #[arg(default_value = ".")]
    book_dir: PathBuf,
}

pub(crate) fn run(args: InstallArgs) -> ExitCode {
    match mdbook_contract::install(&args.book_dir) {
        Ok(installed) => {
            let mut stdout = std::io::stdout().lock();
            for file in [&installed.css, &installed.js] {
                let file = file.strip_prefix(".").unwrap_or(file);
                let _ = writeln!(stdout, "wrote {}", mdbook_contract::slashed(file));
            }
            for change in &installed.changes {
                let _ = writeln!(stdout, "book.toml: {change}");
            }
            if installed.changes.is_empty() {
                let _ = writeln!(stdout, "book.toml already had everything; left as it was");
            }
            ExitCode::SUCCESS
        }
        Err(error) => failed(&error),
    }
}
