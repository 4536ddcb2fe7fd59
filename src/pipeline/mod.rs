//! The pipeline, in one direction: read, model, check, resolve, then (for a build) render and
//! splice.
//!
//! 1. [`read_chapters`](crate::read::chapter::read_chapters) parses each chapter once into a [`ChapterIndex`](crate::read::markdown::ChapterIndex)
//!    and finds its shortcodes;
//! 2. [`Model::collect`](crate::model::Model::collect) reads axes, profiles, providers, claims and answer sites;
//! 3. [`checks::run_all`] reports drafts at byte ranges, which [`resolve`](crate::report::resolve::resolve) turns into findings
//!    at `file:line:col` of the text as written;
//! 4. [`render::patches`] turns each shortcode into Markdown, spliced into the chapter by byte
//!    range ([`splice::apply`]).
//!
//! [`check`] stops after step 3; [`process`] runs all four. No stage calls back into an earlier
//! one or changes what it produced. Steps 1 to 3 are `analysis/`'s, the same for every
//! command; this file makes each command's result from an analysis (the rendered book, the
//! report, the editor's outline, the snapshot, the agent's state), `status.rs` status's.

mod analysis;
pub(crate) mod evidence;
pub(crate) mod notes;
pub(crate) mod outline;
mod reports;
pub(crate) mod snapshot;
pub(crate) mod status;
pub(crate) mod unmapped;

use std::path::PathBuf;

use anyhow::{Result, bail};
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::{Book, BookItem};

use crate::checks;
use crate::model::Model;
use crate::model::rules::Rules;
use crate::model::rules::code::{self, CodeCitation};
use crate::model::rules::coverage::Coverage;
use crate::model::spec::Specs;
use crate::pipeline::outline::Outline;
use crate::pipeline::snapshot::Snapshot;
use crate::pipeline::status::Status;
use crate::read::chapter::{BookFiles, Chapter, is_read};
use crate::read::config::Config;
use crate::read::markdown::{MarkdownOptions, splice};
use crate::read::results::Results;
use crate::render;
use crate::render::serve;
use crate::report::diagnostic::{Finding, Report};
use crate::report::overview::Overview;
use crate::util::vocab::{Check, Severity};
use analysis::Analysis;
use status::status_of;

/// The book after rendering, and what the checks found.
#[derive(Debug)]
#[non_exhaustive]
pub struct Outcome {
    /// The book with every shortcode rendered.
    pub book: Book,
    /// The findings, in document order.
    pub report: Report,
}

/// Runs every check over `book` and renders its shortcodes. Paths in findings are shown under
/// `display_root` (empty: relative to the book root).
pub fn process(
    ctx: &PreprocessorContext,
    mut book: Book,
    display_root: PathBuf,
) -> Result<Outcome> {
    // The chapters as read (and their indexes) borrow the book; they are dropped before the
    // patches are spliced in, so that the book is never held twice.
    let (report, patches) = {
        let Analysis {
            mut chapters,
            model,
            specs,
            rules,
            coverage,
            citations,
            results,
            mut report,
            mut pages,
            options,
            files,
            config,
            ..
        } = Analysis::run(ctx, &book, BookFiles::new(ctx, display_root))?;
        // Checked and resolved: rendering reads only headings, tables and shortcodes, so the
        // rest of every chapter's index is given back before the largest tables are written.
        for chapter in &mut chapters {
            chapter.release_checked();
        }
        let repository = repository(ctx, &config);
        let view = rule_view(&rules, &coverage, &citations, &results, repository.as_ref());
        let (mut patches, failed) = render::patches(&chapters, &model, &specs, view);
        for failure in failed {
            let number = failure.chapter;
            let finding = render_failed(&chapters[number], &files, failure);
            match pages.iter_mut().find(|(n, _)| *n == number) {
                Some((_, list)) => list.push(finding.clone()),
                None => pages.push((number, vec![finding.clone()])),
            }
            report.findings.push(finding);
        }
        if let Some((number, left)) = render::unrendered(&patches, &options) {
            let chapter = &chapters[number];
            bail!(
                "internal error: the rendered chapter `{}` would show `{left}` as written; the book is not at fault, this is a bug of mdbook-contract {} (please report it with the chapter)",
                chapter.key,
                env!("CARGO_PKG_VERSION")
            );
        }
        if is_serving(ctx) {
            for (number, findings) in pages {
                patches[number].insert(0, serve::panel(&findings));
            }
        }
        (report, patches)
    };
    splice_into(&mut book.items, &mut patches.into_iter());
    Ok(Outcome { book, report })
}

/// Runs every check over `book`, without rendering it. Paths in findings are shown under
/// `display_root` (empty: relative to the book root).
pub fn check(ctx: &PreprocessorContext, book: &Book, display_root: PathBuf) -> Result<Report> {
    Ok(Analysis::run(ctx, book, BookFiles::new(ctx, display_root))?.report)
}

/// Runs every check over `book`, without rendering it, and sums up what the book states (see
/// [`crate::Overview`]). Paths in findings are shown under `display_root`.
pub fn overview(
    ctx: &PreprocessorContext,
    book: &Book,
    display_root: PathBuf,
) -> Result<(Overview, Report)> {
    let analysis = Analysis::run(ctx, book, BookFiles::new(ctx, display_root))?;
    let title = ctx.config.book.title.clone();
    let overview = Overview::of(&analysis.model, &analysis.specs, title);
    Ok((overview, analysis.report))
}

/// Runs every check over `book` as an editor shows it: `overlays` read in place of the files
/// they stand for, paths shown absolute (under the book root, as the root is given), what the
/// last check left taken from `kept` and this one's left there. Also where the book's names
/// are written (see [`crate::pipeline::outline`]).
pub(crate) fn for_editor(
    ctx: &PreprocessorContext,
    book: &Book,
    overlays: std::sync::Arc<crate::read::chapter::Overlays>,
    kept: &std::sync::Arc<crate::read::kept::Kept>,
) -> Result<(Report, Outline)> {
    let files = BookFiles::new(ctx, ctx.root.clone())
        .with_overlays(overlays)
        .with_kept(std::sync::Arc::clone(kept));
    let analysis = Analysis::run(ctx, book, files)?;
    kept.finish();
    let rules = crate::pipeline::outline::RulesRead {
        rules: &analysis.rules,
        coverage: &analysis.coverage,
        citations: &analysis.citations,
        config: &analysis.config,
    };
    let outline = Outline::of(
        &analysis.chapters,
        &analysis.model,
        &analysis.specs,
        &analysis.files,
        &rules,
    );
    Ok((analysis.report, outline))
}

/// Runs every check over `book` and reads its contract as owned data, for `diff`. Paths are
/// shown under `display_root`.
pub(crate) fn snapshot(
    ctx: &PreprocessorContext,
    book: &Book,
    display_root: PathBuf,
) -> Result<(Snapshot, Report)> {
    let analysis = Analysis::run(ctx, book, BookFiles::new(ctx, display_root))?;
    Ok((snapshot_of(&analysis), analysis.report))
}

/// [`snapshot`] with the code units no citation maps, for `export` (every file of the source
/// tree with a grammar is parsed for them).
pub(crate) fn snapshot_with_units(
    ctx: &PreprocessorContext,
    book: &Book,
) -> Result<(Snapshot, Report, Option<unmapped::Unmapped>)> {
    let analysis = Analysis::run_with(ctx, book, BookFiles::new(ctx, PathBuf::new()), true)?;
    let unmapped = unmapped::unmapped_of(&analysis);
    Ok((snapshot_of(&analysis), analysis.report, unmapped))
}

/// The contract of an analysis, as owned data.
fn snapshot_of(analysis: &Analysis<'_>) -> Snapshot {
    let mut snapshot = Snapshot::of(
        &analysis.chapters,
        &analysis.model,
        &analysis.specs,
        &analysis.rules,
        &analysis.files,
    )
    .with_coverage(
        &analysis.model,
        &analysis.rules,
        &analysis.coverage,
        &analysis.citations,
        &analysis.results,
    );
    snapshot.version = analysis.config.version.clone();
    snapshot.cited = analysis
        .citations
        .iter()
        .filter_map(|c| {
            let id = c.cited.as_ref().ok()?.id.clone();
            let at = crate::report::resolve::locate_code(&analysis.files, &analysis.config, c);
            Some((
                id,
                snapshot::Place {
                    path: at.path,
                    line: at.line,
                    column: at.column,
                },
            ))
        })
        .collect();
    snapshot
}

/// What the MCP server answers from, of one analysis of `book`: its contract, its status, its
/// findings (paths shown under `display_root`) and every citation of a rule in the source
/// tree (under `source-root`).
pub(crate) fn for_agent(
    ctx: &PreprocessorContext,
    book: &Book,
    display_root: PathBuf,
) -> Result<ForAgent> {
    let analysis = Analysis::run(ctx, book, BookFiles::new(ctx, display_root))?;
    let citations = analysis
        .citations
        .iter()
        .filter_map(|c| {
            let cited = c.cited.as_ref().ok()?;
            Some(RuleCitation {
                rule: cited.id.clone(),
                version: cited.version,
                verb: match c.verb {
                    code::Verb::Impl => "impl",
                    code::Verb::Verify => "verify",
                    code::Verb::Mentions => "mentions",
                },
                path: c.path.clone(),
                line: c.line,
                test: c.test.as_ref().map(|t| t.name.clone()),
            })
        })
        .collect();
    Ok(ForAgent {
        snapshot: snapshot_of(&analysis),
        status: status_of(&analysis),
        source_root: analysis.config.source_root.clone(),
        citations,
        report: analysis.report,
    })
}

/// See [`for_agent`].
pub(crate) struct ForAgent {
    pub(crate) snapshot: Snapshot,
    pub(crate) status: Status,
    pub(crate) report: Report,
    /// `source-root` as book.toml gives it.
    pub(crate) source_root: Option<String>,
    pub(crate) citations: Vec<RuleCitation>,
}

/// A citation of a rule in the source tree.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub(crate) struct RuleCitation {
    pub(crate) rule: String,
    /// The version it cites.
    pub(crate) version: u32,
    /// `impl`, `verify` or `mentions`.
    pub(crate) verb: &'static str,
    /// Under `source-root`, `/`-separated.
    pub(crate) path: String,
    pub(crate) line: usize,
    /// For a `verify`, the test it stands in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) test: Option<String>,
}

/// A chapter as a build renders it (its shortcodes rendered, without the serve panel).
pub(crate) struct RenderedChapter {
    /// Its source path with `/` separators, as book.toml names chapters.
    pub(crate) key: String,
    /// The path links are computed from.
    pub(crate) link_path: PathBuf,
    /// Its content, rendered.
    pub(crate) content: String,
}

/// The book rendered, with what was read from it: what the implementer's brief is written
/// from. Chapters are numbered as the model numbers them.
pub(crate) struct Rendered {
    pub(crate) chapters: Vec<RenderedChapter>,
    pub(crate) model: Model,
    pub(crate) rules: Rules,
    /// Where each rule stands for each built provider.
    pub(crate) coverage: Coverage,
    pub(crate) specs: Specs,
    pub(crate) config: Config,
    pub(crate) options: MarkdownOptions,
}

/// Reads, checks and renders `book` without changing it; also the findings.
pub(crate) fn rendered(ctx: &PreprocessorContext, book: &Book) -> Result<(Rendered, Report)> {
    let Analysis {
        chapters,
        model,
        specs,
        rules,
        coverage,
        citations,
        results,
        options,
        config,
        files,
        mut report,
        ..
    } = Analysis::run(ctx, book, BookFiles::new(ctx, PathBuf::new()))?;
    let repository = repository(ctx, &config);
    let view = rule_view(&rules, &coverage, &citations, &results, repository.as_ref());
    let (patches, failed) = render::patches(&chapters, &model, &specs, view);
    for failure in failed {
        let finding = render_failed(&chapters[failure.chapter], &files, failure);
        report.findings.push(finding);
    }
    let chapters = chapters
        .iter()
        .zip(&patches)
        .map(|(chapter, patches)| RenderedChapter {
            key: chapter.key.clone(),
            link_path: chapter.link_path().to_path_buf(),
            content: splice::apply(chapter.content, patches).into_owned(),
        })
        .collect();
    let rendered = Rendered {
        chapters,
        model,
        rules,
        coverage,
        specs,
        config,
        options,
    };
    Ok((rendered, report))
}

/// Where every filled spec of `book` stands (see [`crate::pipeline::status`]). Paths are shown under
/// `display_root`.
pub fn status(ctx: &PreprocessorContext, book: &Book, display_root: PathBuf) -> Result<Status> {
    status_with(ctx, book, display_root, false)
}

/// [`status`], with the code units that no citation maps when `unmapped` is set (every file of
/// the source tree with a grammar is parsed for them).
pub fn status_with(
    ctx: &PreprocessorContext,
    book: &Book,
    display_root: PathBuf,
    unmapped: bool,
) -> Result<Status> {
    let analysis = Analysis::run_with(ctx, book, BookFiles::new(ctx, display_root), unmapped)?;
    let mut status = status_of(&analysis);
    if unmapped {
        status.unmapped = unmapped::unmapped_of(&analysis);
    }
    Ok(status)
}

/// Where the book's repository is browsed, for links to the tests that verify a rule:
/// `output.html.git-repository-url`, with `source-root`'s place in the repository, found by
/// the `.git` of the nearest folder above it that has one. Without either, no link: a link
/// whose path is not the file's would lead nowhere.
fn repository(ctx: &PreprocessorContext, config: &Config) -> Option<render::Repository> {
    let url = ctx
        .config
        .get::<String>("output.html.git-repository-url")
        .ok()
        .flatten()?;
    let source_root = crate::util::paths::lexical(&ctx.root.join(config.source_root.as_deref()?));
    let top = source_root
        .ancestors()
        .find(|dir| dir.join(".git").exists())?;
    let inside = crate::util::paths::components(source_root.strip_prefix(top).ok()?);
    let source_root = inside.iter().map(|part| format!("{part}/")).collect();
    Some(render::Repository { url, source_root })
}

/// What the renderer reads of the rules.
fn rule_view<'a>(
    rules: &'a Rules,
    coverage: &'a Coverage,
    citations: &'a [CodeCitation],
    results: &'a Results,
    repository: Option<&'a render::Repository>,
) -> render::RuleView<'a> {
    render::RuleView {
        rules,
        coverage,
        citations,
        results,
        repository,
    }
}

/// Whether the build is `mdbook serve` (the context carries a live-reload endpoint).
pub(crate) fn is_serving(ctx: &PreprocessorContext) -> bool {
    ctx.config
        .get::<String>("output.html.live-reload-endpoint")
        .ok()
        .flatten()
        .is_some()
}

/// Splices each chapter's patches into it, in the order [`read_chapters`] read the chapters;
/// each old content is freed as soon as its new one is made.
fn splice_into(items: &mut [BookItem], patches: &mut impl Iterator<Item = Vec<splice::Patch>>) {
    for item in items {
        if let BookItem::Chapter(chapter) = item {
            if is_read(chapter)
                && let Some(edits) = patches.next()
                && !edits.is_empty()
            {
                chapter.content = splice::apply(&chapter.content, &edits).into_owned();
            }
            splice_into(&mut chapter.sub_items, patches);
        }
    }
}

/// The `internal-error` finding of a shortcode (or a chapter) whose rendering hit a bug: it
/// is met after the other findings were resolved, and is an error whatever book.toml says.
fn render_failed(chapter: &Chapter<'_>, files: &BookFiles, failed: render::Failed) -> Finding {
    let what = if failed.range.is_empty() {
        "its shortcodes".to_owned()
    } else {
        format!("`{}`", &chapter.content[failed.range.clone()])
    };
    Finding {
        check: Check::InternalError,
        severity: Severity::Error,
        message: format!(
            "internal error: rendering {what} in the chapter `{}` failed: {}; it is left as written, the book is not at fault, and every check ran",
            chapter.key, failed.panic.0
        ),
        location: chapter.locate(files, failed.range),
        help: Some(checks::internal_error_help(
            "the shortcode stays as written in the page until it is fixed",
        )),
        notes: Vec::new(),
    }
}
