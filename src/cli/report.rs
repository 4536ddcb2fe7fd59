//! `mdbook-contract report`: a provider's evidence against the contract, written in the
//! provider's repository for the book's `provider-reports`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{failed, load};

/// Writes a provider's evidence against the contract as one JSON document, for the book's
/// `provider-reports`: run in the provider's repository after its tests.
///
/// The document holds the provider, its repository and commit, each rule's ID, version and
/// digest, every citation of a rule in the source root with the results of its test, the
/// declared statuses and what `check` found. Exit 2 when the book cannot be loaded or an
/// option is wrong.
#[derive(clap::Args)]
pub(crate) struct ReportArgs {
    /// The contract's book (a checkout of its repository), where book.toml is.
    #[arg(long = "book", value_name = "PATH", required_unless_present = "schema")]
    book_dir: Option<PathBuf>,
    /// The provider, as the book's provider section names it.
    #[arg(long, value_name = "NAME", required_unless_present = "schema")]
    provider: Option<String>,
    /// The provider's repository (default: `git remote get-url origin`, written as https).
    #[arg(long, value_name = "URL")]
    repository: Option<String>,
    /// The commit the report is of (default: the source root's HEAD).
    #[arg(long, value_name = "SHA")]
    commit: Option<String>,
    /// Test results to read (JUnit XML or `go test -json` output, globs allowed), relative
    /// to where the command runs; may be given more than once.
    #[arg(long = "test-results", value_name = "GLOB")]
    test_results: Vec<PathBuf>,
    /// A TOML file whose table `[declared]` gives rule IDs the status the provider states
    /// without evidence: "implemented", "not-implemented" or "not-applicable".
    #[arg(long, value_name = "FILE")]
    declared: Option<PathBuf>,
    /// The provider's source tree (default: the folder the command runs in).
    #[arg(long, value_name = "DIR", default_value = ".")]
    source_root: PathBuf,
    /// Print the JSON Schema of the document instead.
    #[arg(long)]
    schema: bool,
}

/// The book loaded with the provider's tree as `source-root` and its results as
/// `test-results`, the report on standard output.
pub(crate) fn run(args: ReportArgs) -> ExitCode {
    if args.schema {
        let _ = std::io::stdout()
            .lock()
            .write_all(mdbook_contract::PROVIDER_REPORT_SCHEMA.as_bytes());
        return ExitCode::SUCCESS;
    }
    let options = mdbook_contract::ReportOptions {
        provider: args.provider.unwrap_or_default(),
        repository: args.repository,
        commit: args.commit,
        declared: args.declared,
    };
    let book_dir = args.book_dir.unwrap_or_default();
    let mut given = args.test_results.clone();
    given.push(args.source_root.clone());
    mdbook_contract::given_on_command_line(&given);
    match made(&book_dir, &args.source_root, &args.test_results, &options) {
        Ok(json) => {
            let _ = std::io::stdout().lock().write_all(json.as_bytes());
            ExitCode::SUCCESS
        }
        Err(error) => failed(&error),
    }
}

/// The report's JSON: the book's settings replaced by the provider's tree and results.
fn made(
    book_dir: &Path,
    source_root: &Path,
    test_results: &[PathBuf],
    options: &mdbook_contract::ReportOptions,
) -> anyhow::Result<String> {
    let (mut ctx, book) = load(book_dir, test_results, None)?;
    if !source_root.is_dir() {
        anyhow::bail!(
            "`--source-root` is `{}`, which is not a folder",
            source_root.display()
        );
    }
    let root = mdbook_contract::from_folder(book_dir, source_root);
    let root = mdbook_contract::slashed(&root);
    let root = if root.is_empty() {
        ".".to_owned()
    } else {
        root
    };
    ctx.config.set("preprocessor.contract.source-root", root)?;
    // The other providers' reports the book reads are not this provider's evidence, nor
    // are the book's own test results.
    let none: Vec<String> = Vec::new();
    ctx.config
        .set("preprocessor.contract.provider-reports", none.clone())?;
    if test_results.is_empty() {
        ctx.config.set("preprocessor.contract.test-results", none)?;
    }
    mdbook_contract::provider_report(&ctx, &book, source_root, options)
}
