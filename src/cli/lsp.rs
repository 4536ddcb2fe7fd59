//! `mdbook-contract lsp`, the language server, and its hidden child `lsp-arrival`, which runs
//! the book's own preprocessors on the editor's texts.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::failed;

/// Runs the language server (LSP over standard input and output) for the book's Markdown:
/// the findings as diagnostics while typing, completion of axis codes, profiles and check
/// names, hover, go to definition, references, rename of an axis code, document symbols.
///
/// Editors start it themselves; see the README's "Editors" section.
#[derive(clap::Args)]
pub(crate) struct LspArgs {
    /// Runs the book's own preprocessors (any that book.toml runs before this one besides
    /// mdBook's `links`) at start and on save; without it the book is read as written and
    /// book.toml says which were left out. Only for a folder you trust: its book.toml is
    /// someone's code.
    #[arg(long)]
    allow_commands: bool,
}

/// Runs the book's own preprocessors for the language server (its child process): the
/// editor's texts as JSON on standard input, the book as they leave it on standard output.
#[derive(clap::Args)]
pub(crate) struct LspArrivalArgs {
    /// The book's root folder, where book.toml is.
    book_dir: PathBuf,
}

/// The language server on stdio until the editor ends it.
pub(crate) fn run(args: LspArgs) -> ExitCode {
    let commands = mdbook_contract::Commands::allowed(args.allow_commands);
    let served = mdbook_contract::protocol_stdout()
        .map_err(anyhow::Error::from)
        .and_then(|stdout| {
            mdbook_contract::run_language_server(
                std::io::BufReader::new(std::io::stdin()),
                stdout,
                commands,
            )
        });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract lsp: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The language server's child process: the book's own preprocessors run on the editor's
/// texts of the book.
pub(crate) fn arrival(args: LspArrivalArgs) -> ExitCode {
    let served = mdbook_contract::protocol_stdout()
        .map_err(anyhow::Error::from)
        .and_then(|stdout| {
            let stdout = std::io::BufWriter::new(stdout);
            mdbook_contract::language_server_arrival(&args.book_dir, std::io::stdin(), stdout)
        });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = failed(&error);
            ExitCode::FAILURE
        }
    }
}
