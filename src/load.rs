//! Loading a book from disk the way mdBook hands it to this preprocessor, for
//! `mdbook-contract check`.
//!
//! [`load`] reads book.toml (with `MDBOOK_*` environment overrides) and SUMMARY.md through
//! mdbook-driver, then runs mdBook's own `index` and `links` preprocessors, so includes are
//! expanded exactly as in a build. Other preprocessors of the book are not run.

use std::path::Path;

use anyhow::{Context as _, Result};
use mdbook_driver::MDBook;
use mdbook_driver::builtin_preprocessors::{IndexPreprocessor, LinkPreprocessor};
use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

/// Loads the book at `dir` as mdBook would hand it to this preprocessor for `renderer`.
pub fn load(dir: &Path, renderer: &str) -> Result<(PreprocessorContext, Book)> {
    let md = MDBook::load(dir)
        .with_context(|| format!("could not load the book at `{}`", dir.display()))?;
    let ctx = PreprocessorContext::new(md.root.clone(), md.config.clone(), renderer.to_owned());
    let mut book = md.book;
    if md.config.build.use_default_preprocessors {
        // mdBook runs preprocessors without ordering constraints sorted by name.
        book = IndexPreprocessor::new().run(&ctx, book)?;
        book = LinkPreprocessor::new().run(&ctx, book)?;
    }
    Ok((ctx, book))
}
