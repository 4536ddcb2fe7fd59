//! `mdbook-contract status`: where each filled spec stands, and with `--min-verified` a gate
//! on the share of MUST rules each built provider has verified.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::{display_root, failed, load};

/// Prints where each filled spec stands: its status, the entries answered of all, and each
/// open entry with its place.
#[derive(clap::Args)]
pub(crate) struct StatusArgs {
    /// The book's root folder, where book.toml is.
    #[arg(default_value = ".")]
    book_dir: PathBuf,
    /// How to print it.
    #[arg(long, value_enum, default_value_t = StatusOutput::Human)]
    format: StatusOutput,
    /// Test results to read (JUnit XML or `go test -json` output, globs allowed), relative
    /// to where the command runs, in place of book.toml's `test-results`; may be given more
    /// than once.
    #[arg(long = "test-results", value_name = "GLOB")]
    test_results: Vec<PathBuf>,
    /// Also lists, per provider and for the shared code, every code unit (function,
    /// method, type, test) of the source tree in which no citation of a rule stands and
    /// above which none stands, with the share of units mapped.
    #[arg(long)]
    unmapped: bool,
    /// Exit 1 when a built provider has fewer than N percent of the MUST rules that bind it
    /// verified (with test results: passed), naming the providers and rules that fall short.
    #[arg(long, value_name = "N")]
    min_verified: Option<f64>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum StatusOutput {
    /// A few lines per spec (`text` is the same).
    #[value(alias = "text")]
    Human,
    /// A JSON object: `specs` (one per spec) and `providers` (the coverage of each built one).
    Json,
}

pub(crate) fn run(args: StatusArgs) -> ExitCode {
    let loaded = load(&args.book_dir, &args.test_results, None);
    let states = loaded.and_then(|(ctx, book)| {
        mdbook_contract::status_with(&ctx, &book, display_root(&args.book_dir), args.unmapped)
    });
    match states {
        Ok(states) => {
            let format = match args.format {
                StatusOutput::Human => mdbook_contract::StatusFormat::Human,
                StatusOutput::Json => mdbook_contract::StatusFormat::Json,
            };
            let text = mdbook_contract::render_status(&states, format);
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            match args.min_verified {
                Some(percent) => gate(&states, percent),
                None => ExitCode::SUCCESS,
            }
        }
        Err(error) => failed(&error),
    }
}

/// `status --min-verified PERCENT`: exit 1 when a built provider has fewer of the MUST rules
/// that bind it verified, naming it and the rules that fall short, on standard error.
fn gate(status: &mdbook_contract::Status, percent: f64) -> ExitCode {
    let mut short = false;
    let mut stderr = std::io::stderr().lock();
    for provider in &status.providers {
        let share = if provider.must == 0 {
            100.0
        } else {
            provider.must_verified as f64 * 100.0 / provider.must as f64
        };
        if share + 1e-9 < percent {
            short = true;
            let _ = writeln!(
                stderr,
                "mdbook-contract: `{}` has {} of {} MUST rules verified ({share:.1} %, below {percent} %); not verified: {}",
                provider.provider,
                provider.must_verified,
                provider.must,
                provider
                    .must_short
                    .iter()
                    .map(|r| format!("`{r}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    if short {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
