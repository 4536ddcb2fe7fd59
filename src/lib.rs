//! mdbook-contract: an mdBook preprocessor that keeps a contract, its spec template and its
//! appendix in step.
//!
//! The pipeline runs in one direction ([`process`]):
//!
//! 1. [`book::read_chapters`] parses each chapter once into a [`markdown::ChapterIndex`] and
//!    finds its shortcodes ([`shortcode`]);
//! 2. [`model::Model::collect`] reads axes, profiles, providers, claims and answer sites;
//! 3. [`checks::run_all`] reports findings at byte ranges, which [`sourcemap`] turns into
//!    `file:line:col` of the text as written;
//! 4. [`render::patches`] turns each shortcode into Markdown, spliced in by byte range.
//!
//! `main.rs` holds only the command line; [`protocol`] speaks mdBook's JSON protocol.

pub mod book;
pub mod check;
pub mod checks;
pub mod config;
pub mod diagnostic;
pub mod links;
pub mod markdown;
pub mod model;
pub mod protocol;
pub mod render;
pub mod shortcode;
pub mod sourcemap;
pub mod suggest;

use std::path::PathBuf;

use anyhow::Result;
use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use serde::de::IgnoredAny;

use crate::book::{BookFiles, for_each_read_chapter_mut, read_chapters};
use crate::checks::Draft;
use crate::config::{Config, Severity};
use crate::diagnostic::{Finding, Report};
use crate::markdown::{parse_options, splice};

/// The name of the preprocessor, as in `[preprocessor.contract]`.
pub const NAME: &str = "contract";

/// The book after rendering, and what the checks found.
#[derive(Debug)]
pub struct Outcome {
    /// The book with every shortcode rendered.
    pub book: Book,
    /// The findings, in document order.
    pub report: Report,
}

/// Runs the whole pipeline over `book`. Paths in findings are shown under `display_root`
/// (empty: relative to the book root).
pub fn process(
    ctx: &PreprocessorContext,
    mut book: Book,
    display_root: PathBuf,
) -> Result<Outcome> {
    let config = Config::from_book_config(&ctx.config)?;
    let options = parse_options(&ctx.config);
    let files = BookFiles::new(ctx, display_root);
    let (patches, report) = {
        let chapters = read_chapters(&book, &files, &options);
        let model = model::Model::collect(&chapters, &config);
        let drafts = checks::run_all(&checks::Context {
            chapters: &chapters,
            model: &model,
            config: &config,
        });
        let report = resolve(&chapters, &files, &config, drafts);
        (render::patches(&chapters, &model), report)
    };
    for_each_read_chapter_mut(&mut book, |number, chapter| {
        let edits = &patches[number];
        if !edits.is_empty() {
            chapter.content = splice::apply(&chapter.content, edits).into_owned();
        }
    });
    Ok(Outcome { book, report })
}

/// Locates drafts, gives them their severity and drops those that are off.
fn resolve(
    chapters: &[book::Chapter<'_>],
    files: &BookFiles,
    config: &Config,
    mut drafts: Vec<Draft>,
) -> Report {
    drafts.sort_by_key(|d| (d.chapter, d.range.start, d.range.end));
    let findings = drafts
        .into_iter()
        .filter_map(|draft| {
            let chapter = &chapters[draft.chapter];
            let severity = config.severity(draft.check, Some(&chapter.key));
            if severity == Severity::Off {
                return None;
            }
            let notes = draft
                .related
                .iter()
                .map(|(number, range, label)| {
                    let at = chapters[*number].locate(files, range.clone());
                    format!("{label}: {}:{}:{}", at.path.display(), at.line, at.column)
                })
                .collect();
            Some(Finding {
                check: draft.check,
                severity,
                message: draft.message,
                location: chapter.locate(files, draft.range),
                help: draft.help,
                notes,
            })
        })
        .collect();
    Report { findings }
}

/// Whether this run is the one that prints findings: mdBook runs a preprocessor once per
/// renderer, and the findings are the same each time, so only the first renderer's run prints.
pub fn reports_for_renderer(ctx: &PreprocessorContext) -> bool {
    let restricted = Config::from_book_config(&ctx.config)
        .ok()
        .and_then(|c| c.renderers);
    let mut renderers: Vec<String> = ctx
        .config
        .outputs::<IgnoredAny>()
        .map(|outputs| outputs.into_keys().collect())
        .unwrap_or_default();
    if renderers.is_empty() {
        renderers.push("html".to_owned());
    }
    if let Some(allowed) = restricted {
        renderers.retain(|r| allowed.contains(r));
    }
    renderers.first().is_none_or(|first| *first == ctx.renderer)
}

/// The preprocessor, for use in-process with `mdbook_driver::MDBook::with_preprocessor`.
///
/// Findings go to standard error; error findings fail the run after all are printed.
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

    fn run(&self, ctx: &PreprocessorContext, book: Book) -> Result<Book> {
        let outcome = process(ctx, book, PathBuf::new())?;
        protocol::finish(ctx, outcome, &mut std::io::stderr())
    }

    fn supports_renderer(&self, _renderer: &str) -> Result<bool> {
        Ok(true)
    }
}
