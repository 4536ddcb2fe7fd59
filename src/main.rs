//! The `mdbook-contract` command line: the preprocessor protocol, `supports`, and `check`.

use std::io::{Read, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// An mdBook preprocessor that keeps a provider contract, its spec template and its appendix in
/// step. Run with no arguments, it speaks mdBook's preprocessor protocol on stdin and stdout.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Exits 0 when the preprocessor serves RENDERER (it serves every renderer).
    Supports {
        /// The renderer's name, such as `html` or `markdown`.
        renderer: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Supports { .. }) => ExitCode::SUCCESS,
        None => {
            let mut input = Vec::new();
            let mut stderr = std::io::stderr().lock();
            if let Err(error) = std::io::stdin().lock().read_to_end(&mut input) {
                let _ = writeln!(
                    stderr,
                    "mdbook-contract: could not read standard input: {error}"
                );
                return ExitCode::FAILURE;
            }
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            let code = mdbook_contract::protocol::run(&input, &mut stdout, &mut stderr);
            ExitCode::from(u8::try_from(code).unwrap_or(1))
        }
    }
}
