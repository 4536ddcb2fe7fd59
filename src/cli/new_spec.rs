//! `mdbook-contract new-spec`: a new provider's spec chapter from the template, listed in
//! SUMMARY.md and in `specs`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::{display_root, failed};

/// Writes the spec chapter of a new provider from the template, lists it in SUMMARY.md
/// after the template and adds it to `specs` in book.toml.
///
/// Every entry is left with its Answer and Evidence empty: fill them in, then mark the
/// spec `**Status:** accepted`. Changes nothing when it refuses.
#[derive(clap::Args)]
pub(crate) struct NewSpecArgs {
    /// The provider's type, a DNS-1123 label such as `proxmox`.
    provider_type: String,
    /// The book's root folder, where book.toml is.
    #[arg(default_value = ".")]
    book_dir: PathBuf,
    /// The chapter's path relative to `src` (default: `<type>-<noun>-spec.md` beside the
    /// template, the noun from its title).
    #[arg(long)]
    path: Option<String>,
}

pub(crate) fn run(args: NewSpecArgs) -> ExitCode {
    let book_dir = &args.book_dir;
    match mdbook_contract::new_spec(book_dir, &args.provider_type, args.path.as_deref()) {
        Ok(spec) => {
            let mut stdout = std::io::stdout().lock();
            for file in &spec.written {
                let _ = writeln!(
                    stdout,
                    "wrote {}",
                    mdbook_contract::slashed(&display_root(book_dir).join(file))
                );
            }
            for note in &spec.notes {
                let _ = writeln!(stdout, "{note}");
            }
            let _ = writeln!(
                stdout,
                "next: answer every entry of {} (the build lists what is open), then mark it `**Status:** accepted`",
                spec.chapter
            );
            ExitCode::SUCCESS
        }
        Err(error) => failed(&error),
    }
}
