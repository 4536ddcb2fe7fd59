//! `mdbook-contract diff`: the contract compared at two git revisions, each change with its
//! level and who must act.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::{display_root, failed, repository_root};

/// Compares the contract at two git revisions: axes, profiles, rules, claims, specs,
/// template entries and heading ids, each change with its level (major, minor, patch) and
/// who must act, where.
///
/// A revision is read from git's objects (nothing is checked out); HEAD defaults to the
/// working tree. Exits 0, or 1 with `--fail-on` when a change at or above that level
/// exists; 2 when a side cannot be loaded.
#[derive(clap::Args)]
pub(crate) struct DiffArgs {
    /// The revision to compare from, such as `origin/main`.
    base: String,
    /// The revision to compare to (default: the working tree).
    head: Option<String>,
    /// The book's root folder, where book.toml is.
    #[arg(long = "book", default_value = ".")]
    book_dir: PathBuf,
    /// How to print it.
    #[arg(long, value_enum, default_value_t = DiffOutput::Human)]
    format: DiffOutput,
    /// Exit 1 when a change at or above this level exists.
    #[arg(long, value_enum)]
    fail_on: Option<FailOn>,
    /// Runs the commands book.toml names (preprocessors other than mdBook's own) on each
    /// side; without it each side is read as written, and standard error says what was left
    /// out. A revision's book.toml is someone's code: allow it only for a repository you
    /// trust.
    #[arg(long)]
    allow_commands: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum DiffOutput {
    /// Grouped by level, each change with who must act (`text` is the same).
    #[value(alias = "text")]
    Human,
    /// Markdown, for a pull request comment or `$GITHUB_STEP_SUMMARY`.
    Markdown,
    /// JSON: `base`, `head`, `level`, `changes` (kind, level, message, at, acts).
    Json,
    /// GitHub annotations at the changed lines of HEAD.
    Github,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
enum FailOn {
    Patch,
    Minor,
    Major,
}

pub(crate) fn run(args: DiffArgs) -> ExitCode {
    let commands = mdbook_contract::Commands::allowed(args.allow_commands);
    let book_dir = &args.book_dir;
    let shown = match args.format {
        DiffOutput::Github => repository_root(book_dir),
        _ => display_root(book_dir),
    };
    let diff =
        match mdbook_contract::diff(book_dir, &args.base, args.head.as_deref(), shown, commands) {
            Ok(diff) => diff,
            Err(error) => return failed(&error),
        };
    if let Some(note) = &diff.left_out {
        let _ = writeln!(std::io::stderr(), "mdbook-contract: note: {note}");
    }
    let format = match args.format {
        DiffOutput::Human => mdbook_contract::DiffFormat::Human,
        DiffOutput::Markdown => mdbook_contract::DiffFormat::Markdown,
        DiffOutput::Json => mdbook_contract::DiffFormat::Json,
        DiffOutput::Github => mdbook_contract::DiffFormat::Github,
    };
    let text = mdbook_contract::render_diff(&diff, format);
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    let threshold = args.fail_on.map(|f| match f {
        FailOn::Patch => mdbook_contract::ChangeLevel::Patch,
        FailOn::Minor => mdbook_contract::ChangeLevel::Minor,
        FailOn::Major => mdbook_contract::ChangeLevel::Major,
    });
    // A version that rises less than the change is an error, as oasdiff's check is.
    let version_error = diff.version.as_ref().is_some_and(|v| v.error.is_some());
    match (threshold, diff.level) {
        _ if version_error => ExitCode::from(1),
        (Some(threshold), Some(level)) if level >= threshold => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}
