//! mdBook's side of the command line: with no command, the preprocessor protocol on standard
//! input and output; `supports`, whether it serves a renderer.

use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

/// Exits 0 when the preprocessor serves RENDERER (it serves every renderer).
#[derive(clap::Args)]
pub(crate) struct SupportsArgs {
    /// The renderer's name, such as `html` or `markdown`.
    renderer: String,
}

/// Every renderer is served, whichever the arguments name.
pub(crate) fn supports(_: SupportsArgs) -> ExitCode {
    ExitCode::SUCCESS
}

/// The book as JSON from mdBook on standard input, the book back on standard output.
pub(crate) fn run() -> ExitCode {
    let mut input = Vec::new();
    let mut stderr = std::io::stderr().lock();
    if std::io::stdin().is_terminal() {
        // mdBook pipes the book in; a person who typed the bare command would wait forever.
        let _ = writeln!(
            stderr,
            "mdbook-contract: with no command, this program is mdBook's `contract` preprocessor: it reads the book as JSON from mdBook on standard input, which is a terminal here.\n\
             To use it, add `[preprocessor.contract]` to book.toml (`mdbook-contract install` does) and run `mdbook build`;\n\
             to check a book without building it, run `mdbook-contract check [BOOK_DIR]`; `mdbook-contract --help` lists every command."
        );
        return ExitCode::from(2);
    }
    if let Err(error) = std::io::stdin().lock().read_to_end(&mut input) {
        let _ = writeln!(
            stderr,
            "mdbook-contract: could not read standard input: {error}"
        );
        return ExitCode::FAILURE;
    }
    let mut stdout = std::io::BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    let code = mdbook_contract::run_protocol(input, &mut stdout, &mut stderr);
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
