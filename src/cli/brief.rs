//! `mdbook-contract brief`: the implementer's brief of a provider, to a file or standard
//! output; a spec with errors gets its findings as `check` prints them instead.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mdbook_contract::Format;

use super::{display_root, failed, load};

/// Writes the implementer's brief of a provider: one self-contained Markdown document with
/// its spec, the profiles it chose with what they oblige, worked examples from the existing
/// providers, the checklist for adding a provider, and the whole contract.
///
/// Checks the book first: a spec with errors gets its findings printed as `check` prints
/// them, and nothing is written (exit 1); the book's errors elsewhere are listed in the
/// brief, which is written all the same. Exit 2 when the book cannot be loaded or has no
/// spec of that provider.
#[derive(clap::Args)]
pub(crate) struct BriefArgs {
    /// The provider's type, as its spec names it.
    provider_type: String,
    /// The book's root folder, where book.toml is.
    #[arg(default_value = ".")]
    book_dir: PathBuf,
    /// Where to write it (standard output when not given).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Test results to read (JUnit XML or `go test -json` output, globs allowed), relative
    /// to where the command runs, in place of book.toml's `test-results`; may be given more
    /// than once.
    #[arg(long = "test-results", value_name = "GLOB")]
    test_results: Vec<PathBuf>,
}

pub(crate) fn run(args: BriefArgs) -> ExitCode {
    let (ctx, book) = match load(&args.book_dir, &args.test_results, None) {
        Ok(loaded) => loaded,
        Err(error) => return failed(&error),
    };
    match mdbook_contract::brief(&ctx, &book, &args.provider_type) {
        Ok(brief) => written(&brief, args.output.as_deref()),
        Err(mdbook_contract::BriefError::Findings(report)) => {
            // The findings as `check` prints them, with book paths shown from here.
            let report =
                mdbook_contract::check(&ctx, &book, display_root(&args.book_dir)).unwrap_or(report);
            let color = std::io::stderr().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            let mut stderr = std::io::stderr().lock();
            let _ = stderr.write_all(report.render(Format::Human, color).as_bytes());
            let _ = writeln!(
                stderr,
                "mdbook-contract: no brief written: it copies the spec's answers, so it is written only from a spec without errors"
            );
            ExitCode::FAILURE
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error}");
            ExitCode::from(2)
        }
    }
}

/// The brief written to `output` or standard output, and what standard error says of it.
fn written(brief: &mdbook_contract::Brief, output: Option<&Path>) -> ExitCode {
    let written = match output {
        Some(file) => std::fs::write(file, &brief.markdown),
        None => std::io::stdout()
            .lock()
            .write_all(brief.markdown.as_bytes()),
    };
    if let Err(error) = written {
        let _ = writeln!(
            std::io::stderr(),
            "mdbook-contract: cannot write the brief: {error}"
        );
        return ExitCode::from(2);
    }
    if brief.errors_elsewhere > 0 {
        let _ = writeln!(
            std::io::stderr(),
            "mdbook-contract: the book has {} outside the spec (listed in the brief); `mdbook-contract check` shows them",
            if brief.errors_elsewhere == 1 {
                "1 error".to_owned()
            } else {
                format!("{} errors", brief.errors_elsewhere)
            }
        );
    }
    if let Some(file) = output {
        let _ = writeln!(
            std::io::stderr(),
            "wrote {} ({} bytes, {} links, each to a heading of the brief or an absolute address)",
            file.display(),
            brief.markdown.len(),
            brief.links
        );
    }
    ExitCode::SUCCESS
}
