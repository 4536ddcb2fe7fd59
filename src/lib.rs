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
//! 4. [`render::patches`] turns each shortcode into Markdown, spliced in by byte range: into
//!    the book ([`Prepared::apply`]), or into the JSON as it is written ([`json`]).
//!
//! `main.rs` holds only the command line; [`protocol`] speaks mdBook's JSON protocol, reading
//! and writing the book through [`json`].

pub mod book;
pub mod check;
pub mod checks;
pub mod citation;
pub mod config;
pub mod diagnostic;
pub mod json;
pub mod links;
pub mod markdown;
pub mod model;
pub mod parallel;
pub mod protocol;
pub mod render;
pub mod serve;
pub mod shortcode;
pub mod source;
pub mod sourcemap;
pub mod suggest;
pub mod suppress;

use std::path::PathBuf;

use anyhow::{Context as _, Result};
use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use serde::de::IgnoredAny;

use crate::book::{BookFiles, read_chapters, read_contents_mut};
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
pub fn process(ctx: &PreprocessorContext, book: Book, display_root: PathBuf) -> Result<Outcome> {
    Ok(prepare(ctx, book, display_root)?.apply())
}

/// The book as it came in, the patches that render its shortcodes, and what the checks found:
/// everything [`process`] does but the splicing, which [`Prepared::apply`] does, or which
/// [`Prepared::write_json`] does on the way out without building the patched book.
#[derive(Debug)]
pub struct Prepared {
    /// The book as it came in.
    pub book: Book,
    /// The patches of each chapter with content, in the order of [`book::read_chapters`].
    pub patches: Vec<Vec<splice::Patch>>,
    /// The findings, in document order.
    pub report: Report,
}

impl Prepared {
    /// The book with every shortcode rendered.
    pub fn apply(self) -> Outcome {
        let Prepared {
            mut book,
            patches,
            report,
        } = self;
        // Spliced in parallel, each chapter's old content freed as soon as its new one is made.
        let mut contents = read_contents_mut(&mut book);
        let work = contents.iter().map(|content| content.len()).sum();
        parallel::for_each_mut(&mut contents, work, |number, content| {
            let edits = &patches[number];
            if !edits.is_empty() {
                **content = splice::apply(content, edits).into_owned();
            }
        });
        Outcome { book, report }
    }

    /// Writes the book with every shortcode rendered as JSON, byte for byte what
    /// `serde_json::to_writer` writes for `self.apply().book`, splicing each chapter as it is
    /// written instead of into a copy of the book.
    pub fn write_json(self, writer: impl std::io::Write) -> serde_json::Result<()> {
        json::write_book(writer, self.book, &self.patches)
    }
}

/// [`process`] up to the patches.
pub fn prepare(ctx: &PreprocessorContext, book: Book, display_root: PathBuf) -> Result<Prepared> {
    let config = Config::from_book_config(&ctx.config)?;
    let options = parse_options(&ctx.config);
    let files = BookFiles::new(ctx, display_root);
    let shared = source::Roots::new(&config.shared_layer)
        .context("book.toml: `preprocessor.contract.shared-layer`")?;
    let serving = protocol::is_serving(ctx);
    let (patches, report) = {
        // Tables feed axes only, which only contract chapters define (any chapter when no
        // chapter is named a contract); other chapters' indexes leave them out.
        let defines_axes = |key: &str| config.contract.is_empty() || config.is_contract(key);
        let mut chapters = read_chapters(&book, &files, &options, &defines_axes);
        check_chapter_keys(&config, &chapters)?;
        let model = model::Model::collect(&chapters, &config);
        let excluded = checks::excluded_words(&model, &config);
        let source = match &config.source_root {
            Some(root) => Some(index_source(
                ctx, &config, &shared, &chapters, &excluded, root,
            )?),
            None => None,
        };
        let cx = checks::Context {
            chapters: &chapters,
            model: &model,
            config: &config,
            files: &files,
            source: source.as_ref(),
            shared: &shared,
            excluded: &excluded,
        };
        let drafts = checks::run_all(&cx);
        let (report, pages) = resolve(&chapters, &files, &config, drafts);
        // Checked and resolved: rendering reads only headings, tables and shortcodes, so the
        // rest of every chapter's index is given back before the largest tables are written.
        for chapter in &mut chapters {
            chapter.release_checked();
        }
        let mut patches = render::patches(&chapters, &model);
        if serving {
            for (number, findings) in pages {
                patches[number].insert(0, serve::panel(&findings));
            }
        }
        (patches, report)
    };
    Ok(Prepared {
        book,
        patches,
        report,
    })
}

/// Fails when book.toml names a chapter the book does not have (a typo there would silently
/// turn a role or a setting off).
fn check_chapter_keys(config: &Config, chapters: &[book::Chapter<'_>]) -> Result<()> {
    let keys: Vec<&str> = chapters.iter().map(|c| c.key.as_str()).collect();
    let named = [
        ("contract", &config.contract),
        ("template", &config.template),
    ]
    .into_iter()
    .flat_map(|(key, list)| list.iter().map(move |c| (key, c.as_str())))
    .chain(
        config
            .forbidden_terms
            .keys()
            .map(|c| ("forbidden-terms", c.as_str())),
    )
    .chain(config.chapter_keys().map(|c| ("chapters", c)));
    for (key, chapter) in named {
        if !keys.contains(&chapter) {
            let hint = suggest::hint(chapter, keys.iter().copied());
            anyhow::bail!(
                "book.toml: `{}.{key}` names `{chapter}`, which is not a chapter of the book (paths are relative to the book's `src`){hint}",
                config::TABLE
            );
        }
    }
    Ok(())
}

/// Reads the source tree once, searching it for every word the book cites.
fn index_source(
    ctx: &PreprocessorContext,
    config: &Config,
    shared: &source::Roots,
    chapters: &[book::Chapter<'_>],
    excluded: &std::collections::HashSet<String>,
    root: &str,
) -> Result<source::SourceIndex> {
    let citations = checks::citations(chapters, excluded);
    let symbols = citations.iter().filter_map(|(_, _, c)| match c {
        citation::Citation::Symbol(parts) => Some(parts.as_slice()),
        citation::Citation::Path(_) => None,
    });
    let words = source::wanted_words(symbols);
    let path = ctx.root.join(root);
    source::SourceIndex::build(&path, &config.symbol_files, shared, &words).with_context(|| {
        format!(
            "book.toml: `preprocessor.contract.source-root` is `{root}`, which cannot be indexed"
        )
    })
}

/// The findings of each chapter that has any, for the serve panel.
type Pages = Vec<(usize, Vec<Finding>)>;

/// Locates drafts, gives them their severity and drops those that are off or suppressed.
fn resolve(
    chapters: &[book::Chapter<'_>],
    files: &BookFiles,
    config: &Config,
    mut drafts: Vec<Draft>,
) -> (Report, Pages) {
    drafts.sort_by_key(|d| (d.chapter, d.range.start, d.range.end));
    let mut pages: Pages = Vec::new();
    let mut findings = Vec::new();
    for draft in drafts {
        let chapter = &chapters[draft.chapter];
        let severity = config.severity(draft.check, Some(&chapter.key));
        if severity == Severity::Off
            || chapter
                .suppressions()
                .allows(draft.check, draft.range.start)
        {
            continue;
        }
        let notes = draft
            .related
            .iter()
            .map(|(number, range, label)| {
                let at = chapters[*number].locate(files, range.clone());
                format!("{label}: {}:{}:{}", at.path.display(), at.line, at.column)
            })
            .collect();
        let finding = Finding {
            check: draft.check,
            severity,
            message: draft.message,
            location: chapter.locate(files, draft.range),
            help: draft.help,
            notes,
        };
        match pages.last_mut() {
            Some((number, list)) if *number == draft.chapter => list.push(finding.clone()),
            _ => pages.push((draft.chapter, vec![finding.clone()])),
        }
        findings.push(finding);
    }
    (Report { findings }, pages)
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
    // A renderer the book does not list (`mdbook test` runs preprocessors for its own) is a run
    // of its own: it prints.
    renderers.first().is_none_or(|first| *first == ctx.renderer)
        || !renderers.contains(&ctx.renderer)
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
        protocol::finish(ctx, &outcome.report, &mut std::io::stderr())?;
        Ok(outcome.book)
    }

    fn supports_renderer(&self, _renderer: &str) -> Result<bool> {
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mdbook_preprocessor::config::Config as BookConfig;

    fn context(toml: &str, renderer: &str) -> PreprocessorContext {
        let config: BookConfig = toml.parse().expect("valid book.toml");
        PreprocessorContext::new(PathBuf::from("/book"), config, renderer.to_owned())
    }

    #[test]
    fn findings_print_on_the_first_listed_renderer_and_on_unlisted_ones() {
        let two = "[output.html]\n[output.markdown]\n";
        assert!(reports_for_renderer(&context(two, "html")));
        assert!(!reports_for_renderer(&context(two, "markdown")));
        assert!(reports_for_renderer(&context(two, "test")));
        assert!(reports_for_renderer(&context("", "html")));
        let restricted = "[output.html]\n[output.markdown]\n[preprocessor.contract]\nrenderers = [\"markdown\"]\n";
        assert!(reports_for_renderer(&context(restricted, "markdown")));
    }
}
