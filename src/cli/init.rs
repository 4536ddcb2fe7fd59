//! `mdbook-contract init`: a small contract book that builds at once.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::{display_root, failed};

/// Writes a small contract book that builds at once: book.toml, a contract with two axes
/// and three rules, the spec template, an appendix with the profile and rule matrices, and
/// a tiny source tree that cites the rules.
///
/// Every file says in its first comment what to change first. Refuses, changing nothing,
/// a folder that has a book.toml.
#[derive(clap::Args)]
pub(crate) struct InitArgs {
    /// The folder to write the book into (made when missing).
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// A provider's name, a DNS-1123 label such as `s3`; give it once per provider
    /// (default: `alpha` and `beta`).
    #[arg(long = "provider", value_name = "NAME")]
    providers: Vec<String>,
    /// What the book calls its providers, in lowercase words, such as `storage backend`.
    #[arg(long, default_value = mdbook_contract::DEFAULT_NOUN)]
    noun: String,
}

pub(crate) fn run(args: InitArgs) -> ExitCode {
    let dir = &args.dir;
    let providers: Vec<String> = if args.providers.is_empty() {
        mdbook_contract::DEFAULT_PROVIDERS
            .iter()
            .map(|p| (*p).to_owned())
            .collect()
    } else {
        args.providers.clone()
    };
    match mdbook_contract::init(dir, &providers, &args.noun) {
        Ok(initialized) => {
            let mut stdout = std::io::stdout().lock();
            for file in &initialized.written {
                let _ = writeln!(
                    stdout,
                    "wrote {}",
                    mdbook_contract::slashed(&display_root(dir).join(file))
                );
            }
            let shown = display_root(dir);
            let at = if shown.as_os_str().is_empty() {
                String::new()
            } else {
                format!(" {}", mdbook_contract::slashed(&shown))
            };
            let _ = writeln!(
                stdout,
                "next: `mdbook build{at}` (or `mdbook-contract check{at}`); each file's first comment says what to change first"
            );
            ExitCode::SUCCESS
        }
        Err(error) => failed(&error),
    }
}
