//! `mdbook-contract check`: the book checked without rendering, its findings printed in the
//! format asked for; or every finding recorded as a baseline.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mdbook_contract::Format;

use super::{Loaded, display_root, failed, load, repository_root};

/// Loads the book (book.toml, SUMMARY.md, includes) and runs every check without rendering.
///
/// Exits 0 when there is no error finding, 1 when there is, 2 when the book could not be
/// loaded.
#[derive(clap::Args)]
pub(crate) struct CheckArgs {
    /// The book's root folder, where book.toml is.
    #[arg(default_value = ".")]
    book_dir: PathBuf,
    /// How to print findings.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// In companions, report only findings on lines added or changed since the merge base
    /// of REV and HEAD (the `changed-since` key). Chapters are always checked whole.
    #[arg(long, value_name = "REV")]
    changed_since: Option<String>,
    /// Findings this baseline file records do not fail the build (the `baseline` key; the
    /// path is relative to where the command runs).
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    baseline: Option<PathBuf>,
    /// Records every current finding in FILE, a baseline for `baseline = "FILE"` or
    /// `--baseline FILE`, and exits 0.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    /// Test results to read (JUnit XML or `go test -json` output, globs allowed), relative
    /// to where the command runs, in place of book.toml's `test-results`; may be given more
    /// than once.
    #[arg(long = "test-results", value_name = "GLOB")]
    test_results: Vec<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum OutputFormat {
    /// Snippets with the offending span underlined (`text` is the same).
    #[value(alias = "text")]
    Human,
    /// One line per finding: `path:line:col: severity[check]: message`.
    Short,
    /// A JSON array of findings.
    Json,
    /// GitHub Actions annotations.
    Github,
    /// A SARIF 2.1.0 log, for code scanning.
    Sarif,
    /// A Markdown summary (the axes, claims per provider, findings per check), for
    /// `$GITHUB_STEP_SUMMARY`.
    Markdown,
}

/// What the user names on the command line is theirs to read, then the book is checked, or
/// its findings recorded as a baseline.
pub(crate) fn run(args: CheckArgs) -> ExitCode {
    let mut given = args.test_results.clone();
    given.extend(args.baseline.clone());
    mdbook_contract::given_on_command_line(&given);
    let loaded = load(
        &args.book_dir,
        &args.test_results,
        args.changed_since.as_deref(),
    );
    match &args.write_baseline {
        Some(file) => record_baseline(loaded, &args.book_dir, file),
        None => check(
            loaded,
            &args.book_dir,
            args.format,
            args.baseline.as_deref(),
        ),
    }
}

/// Records every finding of the book at `book_dir` in `file`, paths from the book root.
fn record_baseline(loaded: Loaded, book_dir: &Path, file: &Path) -> ExitCode {
    let checked =
        loaded.and_then(|(ctx, book)| mdbook_contract::check(&ctx, &book, PathBuf::new()));
    let report = match checked {
        Ok(report) => report,
        Err(error) => return failed(&error),
    };
    let text = mdbook_contract::write_baseline(&report);
    let recorded = text.lines().filter(|l| !l.starts_with('#')).count();
    if let Err(error) = std::fs::write(file, text) {
        let _ = writeln!(
            std::io::stderr(),
            "mdbook-contract: cannot write `{}`: {error}",
            file.display()
        );
        return ExitCode::from(2);
    }
    let setting = mdbook_contract::baseline_setting(&mdbook_contract::from_folder(book_dir, file));
    let _ = writeln!(
        std::io::stdout(),
        "wrote {recorded} findings to {}; from now on they do not fail the build and new ones do, with `{setting}` under `[preprocessor.contract]` in book.toml (or `check --baseline {}`)",
        file.display(),
        file.display()
    );
    ExitCode::SUCCESS
}

fn check(
    loaded: Loaded,
    book_dir: &Path,
    format: OutputFormat,
    baseline: Option<&Path>,
) -> ExitCode {
    let checked = loaded.and_then(|(mut ctx, book)| {
        if let Some(file) = baseline {
            // Given from here; the key is relative to the book root.
            let file = mdbook_contract::from_folder(book_dir, file);
            ctx.config.set(
                "preprocessor.contract.baseline",
                file.to_string_lossy().as_ref(),
            )?;
        }
        let shown = match format {
            OutputFormat::Github | OutputFormat::Sarif => repository_root(book_dir),
            _ => display_root(book_dir),
        };
        mdbook_contract::overview(&ctx, &book, shown)
    });
    let (overview, report) = match checked {
        Ok(checked) => checked,
        Err(error) => return failed(&error),
    };
    let format = match format {
        OutputFormat::Human => Some(Format::Human),
        OutputFormat::Short => Some(Format::Short),
        OutputFormat::Json => Some(Format::Json),
        OutputFormat::Github => Some(Format::Github),
        OutputFormat::Sarif => Some(Format::Sarif),
        OutputFormat::Markdown => None,
    };
    let color = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let text = match format {
        Some(Format::Human) if report.findings.is_empty() => {
            format!("mdbook-contract: {}\n", report.summary())
        }
        Some(format) => report.render(format, color),
        None => overview.markdown(&report),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    if report.has_errors() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
