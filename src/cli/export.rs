//! `mdbook-contract export`: the contract as one JSON document, to standard output, a file or
//! a built site; or as mdBook's renderer.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{failed, load};

/// Writes the contract as one JSON document (a `schema_version`, the book, axes, rules,
/// providers, specs, coverage and findings): the same book gives the same bytes.
///
/// `--site DIR` writes `contract.json` and its schema, `contract.schema.json`, into a built
/// site (after `mdbook build`, into its build directory). Exit 2 when the book cannot be
/// loaded.
#[derive(clap::Args)]
pub(crate) struct ExportArgs {
    /// The book's root folder, where book.toml is.
    #[arg(default_value = ".")]
    book_dir: PathBuf,
    /// Where to write it (standard output when neither this nor `--site` is given).
    #[arg(long)]
    out: Option<PathBuf>,
    /// A built site to write `contract.json` and `contract.schema.json` into.
    #[arg(long, conflicts_with = "out")]
    site: Option<PathBuf>,
    /// Print the JSON Schema of the document instead.
    #[arg(long, conflicts_with_all = ["out", "site"])]
    schema: bool,
    /// Run as mdBook's renderer (`[output.contract]` with `command = "mdbook-contract
    /// export --renderer"`): the render context on standard input, the files into the
    /// renderer's folder.
    #[arg(long, conflicts_with_all = ["out", "site", "schema"])]
    renderer: bool,
    /// Test results to read (JUnit XML or `go test -json` output, globs allowed), relative
    /// to where the command runs, in place of book.toml's `test-results`; may be given more
    /// than once.
    #[arg(long = "test-results", value_name = "GLOB")]
    test_results: Vec<PathBuf>,
}

pub(crate) fn run(args: ExportArgs) -> ExitCode {
    if args.renderer {
        return renderer();
    }
    let loaded = load(&args.book_dir, &args.test_results, None);
    if args.schema {
        let _ = std::io::stdout()
            .lock()
            .write_all(mdbook_contract::CONTRACT_SCHEMA.as_bytes());
        return ExitCode::SUCCESS;
    }
    let exported = loaded.and_then(|(ctx, book)| mdbook_contract::export_book(&ctx, &book));
    let written = exported
        .and_then(|export| write(&export.to_json(), args.out.as_deref(), args.site.as_deref()));
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => failed(&error),
    }
}

/// The document into `out`, or with its schema into the site `site`, or on standard output.
fn write(json: &str, out: Option<&Path>, site: Option<&Path>) -> anyhow::Result<()> {
    match (out, site) {
        (Some(path), _) => std::fs::write(path, json)
            .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", path.display())),
        (None, Some(dir)) => {
            for (name, text) in [
                ("contract.json", json),
                ("contract.schema.json", mdbook_contract::CONTRACT_SCHEMA),
            ] {
                let path = dir.join(name);
                std::fs::write(&path, text)
                    .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", path.display()))?;
            }
            Ok(())
        }
        (None, None) => {
            let _ = std::io::stdout().lock().write_all(json.as_bytes());
            Ok(())
        }
    }
}

/// `mdbook-contract export --renderer`: mdBook's renderer protocol on stdin.
fn renderer() -> ExitCode {
    match mdbook_contract::export_renderer(std::io::stdin().lock()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(error) => failed(&error),
    }
}
