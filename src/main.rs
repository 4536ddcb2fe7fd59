//! The `mdbook-contract` command line: the preprocessor protocol, `supports`, and `check`.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use mdbook_contract::diagnostic::Format;

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
    /// Loads the book (book.toml, SUMMARY.md, includes) and runs every check without rendering.
    ///
    /// Exits 0 when there is no error finding, 1 when there is, 2 when the book could not be
    /// loaded.
    Check {
        /// The book's root folder, where book.toml is.
        #[arg(default_value = ".")]
        book_dir: PathBuf,
        /// How to print findings.
        #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
        format: OutputFormat,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum OutputFormat {
    /// Snippets with the offending span underlined.
    Human,
    /// One line per finding: `path:line:col: severity[check]: message`.
    Short,
    /// A JSON array of findings.
    Json,
    /// GitHub Actions annotations.
    Github,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Supports { .. }) => ExitCode::SUCCESS,
        Some(Command::Check { book_dir, format }) => check(&book_dir, format),
        None => protocol(),
    }
}

fn protocol() -> ExitCode {
    let mut input = Vec::new();
    let mut stderr = std::io::stderr().lock();
    if let Err(error) = std::io::stdin().lock().read_to_end(&mut input) {
        let _ = writeln!(
            stderr,
            "mdbook-contract: could not read standard input: {error}"
        );
        return ExitCode::FAILURE;
    }
    let mut stdout = std::io::BufWriter::with_capacity(64 << 10, book_output());
    let code = mdbook_contract::protocol::run(input, &mut stdout, &mut stderr);
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// Where the book is written. `Stdout` is line-buffered: it would search every block of the
/// book (as large as the book itself, and one line of JSON) for a newline. On Unix the book is
/// written to a duplicate of the descriptor instead, which writes each block as it is.
fn book_output() -> Box<dyn Write> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(std::fs::File::from(fd));
        }
    }
    Box::new(std::io::stdout().lock())
}

fn check(book_dir: &std::path::Path, format: OutputFormat) -> ExitCode {
    let outcome = match mdbook_contract::check::check(book_dir) {
        Ok(outcome) => outcome,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "mdbook-contract: {error:#}");
            return ExitCode::from(2);
        }
    };
    let report = outcome.report;
    let format = match format {
        OutputFormat::Human => Format::Human,
        OutputFormat::Short => Format::Short,
        OutputFormat::Json => Format::Json,
        OutputFormat::Github => Format::Github,
    };
    let color = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut text = report.render(format, color);
    if format == Format::Human && report.findings.is_empty() {
        text = format!("mdbook-contract: {}\n", report.summary());
    }
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    if report.has_errors() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
