//! mdbook-contract: an mdBook preprocessor that keeps a contract, its spec template and its
//! appendix in step.
//!
//! The surface is small: [`ContractPreprocessor`] for use in-process, [`process`] (check and
//! render a book), [`check`] (only check it), [`overview`] (check it and sum it up),
//! [`load`] (a book from disk, as mdBook hands it over), [`run_protocol`] (mdBook's JSON
//! protocol, as the binary speaks it), and the [`Report`] of [`Finding`]s they produce; then
//! one function per command of the binary ([`init`], [`install`], [`new_spec`], [`status`],
//! [`brief`], [`carried_over`], [`run_language_server`]). The pipeline is described in
//! `ARCHITECTURE.md`.

mod checks;
mod commands;
mod lsp;
mod mcp;
mod model;
mod pipeline;
mod read;
mod render;
mod report;
mod util;

pub use commands::brief::{Brief, BriefError, brief};
pub use commands::carried_over::{CarriedOver, LostItem, carried_over};
pub use commands::diff::format::{DiffFormat, render_diff};
pub use commands::diff::{
    Act, Annotated, CATALOGUE, Change, ContractDiff, Kind as ChangeKind, Level as ChangeLevel, diff,
};
pub use commands::export::{
    Export, SCHEMA as CONTRACT_SCHEMA, SCHEMA_VERSION, export, export_book,
    render as export_renderer,
};
pub use commands::init::{DEFAULT_NOUN, DEFAULT_PROVIDERS, Initialized, init};
pub use commands::install::{CSS, CSS_FILE, Installed, JS, JS_FILE, install};
pub use commands::new_spec::{NewSpec, new_spec};
pub use commands::preprocessor::ContractPreprocessor;
pub use commands::protocol::{SUPPORTED, run as run_protocol};
pub use commands::provider_report::{ReportOptions, provider_report};
pub use commands::status::{StatusFormat, render_status};
/// The child process of the language server that runs the book's own preprocessors (see
/// `mdbook-contract lsp-arrival`); not part of the API.
#[doc(hidden)]
pub use lsp::arrival as language_server_arrival;
pub use lsp::{serve as serve_language_server, serve_stream as run_language_server};
pub use mcp::{
    Config as McpConfig, Host as McpHost, config as mcp_config, serve_stream as run_mcp,
};
pub use model::rules::status::{
    Binds, Kind as CellStatus, ROWS as CELL_STATUSES, Row as CellStatusRow,
};
pub use pipeline::status::{
    CitedPlace, OpenEntry, ProviderCoverage, SourceRead, SpecState, Status, SyntaxErrorsAt,
};
pub use pipeline::unmapped::{Unmapped, UnmappedOwner, UnmappedUnit};
pub use pipeline::{Outcome, check, overview, process, status, status_with};
pub use read::load::{Commands, load};
pub use read::reports::document::{
    SCHEMA as PROVIDER_REPORT_SCHEMA, SCHEMA_VERSION as PROVIDER_REPORT_SCHEMA_VERSION,
};
pub use read::sourcemap::Location;
pub use report::baseline::{setting as baseline_setting, write as write_baseline};
pub use report::diagnostic::{Finding, Format, Report};
pub use report::overview::{Overview, ProviderClaims};
pub use util::confine::given_on_command_line;
pub use util::git::in_repository;
pub use util::paths::{from_folder, slashed};
pub use util::stdio::protocol_stdout;
pub use util::vocab::{Check, NAME, Severity};

/// Every key of `[preprocessor.contract]` in book.toml, with what it expects, as the checks of
/// the configuration know them (an unknown key is `malformed-config`). mdBook's own keys of a
/// preprocessor's table (`command`, `before`, `after`, `optional`, `renderers`) are not listed.
pub const CONFIG_KEYS: &[(&str, &str)] = read::config::KNOWN_KEYS;

/// The environment variable that turns off the cache of what the source tree's files yield
/// (`MDBOOK_CONTRACT_NO_CACHE=1`), as `--no-cache` does.
pub const NO_CACHE_ENV: &str = read::code::NO_CACHE_ENV;

/// Reads the source tree without the cache of what its files yield, for the rest of the
/// process (`--no-cache`): every file that needs it is parsed, and nothing is kept.
pub fn without_cache() {
    read::code::turn_off_cache();
}

/// What the fuzz targets, the benchmark programs and the tests of the Markdown layer reach past
/// the surface for, with the `fuzzing` feature only. Not part of the API: it changes whenever
/// the crate does.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing {
    use std::ops::Range;
    use std::path::PathBuf;

    use mdbook_preprocessor::PreprocessorContext;
    use mdbook_preprocessor::book::Book;

    pub use crate::read::chapter::is_read;
    pub use crate::read::markdown::{
        ChapterIndex, Heading, MarkdownOptions, parse_options, pulldown_cmark,
    };
    pub use crate::read::shortcode::{
        Foreign, Kind, Malformed, Name, Scan, Shortcode, Spanned, scan,
    };

    /// How many test cases the test results that `patterns` (relative to `root`) name hold, read
    /// as a book's `test-results` are: for the benchmark of reading them.
    pub fn read_test_results(root: &std::path::Path, patterns: &[String]) -> usize {
        let confinement = crate::util::confine::Confinement::of_book(root);
        crate::read::results::Results::read(
            root,
            patterns,
            &confinement,
            crate::read::config::DEFAULT_RESULTS_LIMIT,
        )
        .cases
        .len()
    }

    /// The byte ranges that rendering may change in every chapter the pipeline reads (see
    /// [`is_read`]), in document order: its shortcodes, as the pipeline finds them (it alone
    /// knows which escaping backslashes mdBook's `links` removed), and the marker lines of the
    /// rules it defines, sorted.
    pub fn patched_ranges(
        ctx: &PreprocessorContext,
        book: &Book,
    ) -> anyhow::Result<Vec<Vec<Range<usize>>>> {
        let config = crate::read::config::Config::from_book_config(&ctx.config)?;
        let files = crate::read::chapter::BookFiles::new(ctx, PathBuf::new());
        let options = parse_options(&ctx.config);
        let chapters = crate::read::chapter::read_chapters(book, &files, &options, &config);
        let model = crate::model::Model::collect(&chapters, &config);
        let rules = crate::model::rules::Rules::collect(&chapters, &model, &config);
        Ok(chapters
            .iter()
            .enumerate()
            .map(|(number, c)| {
                let mut ranges: Vec<Range<usize>> =
                    c.scan.shortcodes.iter().map(|s| s.range.clone()).collect();
                ranges.extend(
                    rules
                        .rules
                        .iter()
                        .filter(|r| r.chapter == number)
                        .map(|r| r.marker.clone()),
                );
                ranges.sort_by_key(|r| r.start);
                ranges
            })
            .collect())
    }
}
