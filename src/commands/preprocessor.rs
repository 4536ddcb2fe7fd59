//! The preprocessor in-process, for `mdbook_driver::MDBook::with_preprocessor`.

use std::path::PathBuf;

use anyhow::Result;
use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

use super::protocol;
use crate::pipeline;
use crate::util::vocab::NAME;

/// The preprocessor, for use in-process with `mdbook_driver::MDBook::with_preprocessor`.
///
/// Findings go to standard error; error findings fail the run after all are printed, as they
/// do when mdBook runs the `mdbook-contract` binary.
#[derive(Debug, Default, Clone, Copy)]
#[non_exhaustive]
pub struct ContractPreprocessor;

impl ContractPreprocessor {
    /// The preprocessor.
    pub fn new() -> ContractPreprocessor {
        ContractPreprocessor
    }
}

impl Preprocessor for ContractPreprocessor {
    fn name(&self) -> &str {
        NAME
    }

    #[allow(
        clippy::print_stderr,
        reason = "the findings of the in-process preprocessor, printed where a test harness captures them"
    )]
    fn run(&self, ctx: &PreprocessorContext, book: Book) -> Result<Book> {
        let outcome = pipeline::process(ctx, book, PathBuf::new())?;
        // Printed with `eprint!`, which a test harness captures (a write to the stderr
        // handle it would not): a passing test prints nothing.
        let mut printed = Vec::new();
        let finished = protocol::finish(ctx, &outcome.report, &mut printed);
        eprint!("{}", String::from_utf8_lossy(&printed));
        finished?;
        Ok(outcome.book)
    }

    fn supports_renderer(&self, _renderer: &str) -> Result<bool> {
        Ok(true)
    }
}
