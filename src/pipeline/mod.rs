//! The pipeline, in one direction: read, model, check, resolve, then (for a build) render and
//! splice.
//!
//! 1. [`read_chapters`] parses each chapter once into a [`ChapterIndex`](crate::read::markdown::ChapterIndex)
//!    and finds its shortcodes;
//! 2. [`Model::collect`] reads axes, profiles, providers, claims and answer sites;
//! 3. [`checks::run_all`] reports drafts at byte ranges, which [`resolve`] turns into findings
//!    at `file:line:col` of the text as written;
//! 4. [`render::patches`] turns each shortcode into Markdown, spliced into the chapter by byte
//!    range ([`splice::apply`]).
//!
//! [`check`] stops after step 3; [`process`] runs all four. No stage calls back into an earlier
//! one or changes what it produced.

pub(crate) mod outline;
pub(crate) mod snapshot;
pub(crate) mod status;

use std::collections::HashSet;
use std::path::PathBuf;

use anyhow::{Context as _, Result, bail};
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::{Book, BookItem};

use crate::checks;
use crate::model::Model;
use crate::model::rules::Rules;
use crate::model::rules::code::{self, CodeCitation};
use crate::model::rules::coverage::{Coverage, Status as CellStatus, WithResults};
use crate::model::spec::Specs;
use crate::pipeline::outline::Outline;
use crate::pipeline::snapshot::Snapshot;
use crate::pipeline::status::{OpenEntry, ProviderCoverage, SourceRead, SpecState, Status};
use crate::read::chapter::{BookFiles, Chapter, chapter_keys, is_read, read_chapters};
use crate::read::citation::Citation;
use crate::read::companion::read_companions;
use crate::read::config::{self, Config, KeyPath, Problem};
use crate::read::markdown::{MarkdownOptions, parse_options, splice};
use crate::read::results::Results;
use crate::read::results::matching::Matcher;
use crate::read::source_tree::{Extra, Roots, SourceIndex, is_glob};
use crate::render;
use crate::render::serve;
use crate::report::diagnostic::{Finding, Report};
use crate::report::overview::Overview;
use crate::report::resolve::{Pages, resolve};
use crate::util::suggest;
use crate::util::vocab::{Check, Severity};

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
    snapshot
}

/// What the MCP server answers from, of one analysis of `book`: its contract, its status, its
/// findings (paths relative to the book root) and every citation of a rule in the source tree.
pub(crate) fn for_agent(ctx: &PreprocessorContext, book: &Book) -> Result<ForAgent> {
    let analysis = Analysis::run(ctx, book, BookFiles::new(ctx, PathBuf::new()))?;
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
                test: c.test.clone(),
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
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
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
    Ok(status_of(&Analysis::run(
        ctx,
        book,
        BookFiles::new(ctx, display_root),
    )?))
}

/// What `status` reports of an analysis.
fn status_of(analysis: &Analysis<'_>) -> Status {
    let Analysis {
        specs,
        rules,
        coverage,
        files_read,
        citations,
        config,
        results,
        ..
    } = analysis;
    let states = specs
        .specs
        .iter()
        .map(|spec| spec_state(analysis, spec))
        .collect();
    let providers = if rules.rules.is_empty() {
        Vec::new()
    } else {
        coverage
            .providers
            .iter()
            .enumerate()
            .map(|(column, &p)| provider_coverage(analysis, column, p))
            .collect()
    };
    let source = match (&config.source_root, files_read) {
        (Some(root), Some(files)) if !rules.rules.is_empty() => Some(SourceRead {
            root: root.clone(),
            files: *files,
            citations: citations.len(),
        }),
        _ => None,
    };
    let results = results.asked.then(|| {
        results
            .files
            .iter()
            .map(|f| f.shown.clone())
            .collect::<Vec<_>>()
    });
    Status {
        specs: states,
        providers,
        source,
        results,
    }
}

/// Where one filled spec stands: its entries answered, and each open one with its place (the
/// template's entries it lacks last, at its first line).
fn spec_state(analysis: &Analysis<'_>, spec: &crate::model::spec::Spec) -> SpecState {
    let Analysis {
        chapters,
        model,
        specs,
        files,
        ..
    } = analysis;
    let chapter = &chapters[spec.chapter];
    let unanswered = spec.unanswered(model, specs);
    let mut open = Vec::new();
    let mut answered = 0;
    for (entry, why) in &unanswered {
        if why.is_empty() {
            answered += 1;
            continue;
        }
        let (to_fill, _) = crate::model::spec::where_to_fill(entry, &why[0]);
        let at = chapter.locate(files, to_fill);
        open.push(OpenEntry {
            entry: entry.title.clone(),
            path: at.path,
            line: at.line,
            lacks: why
                .iter()
                .map(|w| w.describe())
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    let top = chapter.locate(files, 0..0);
    for entry in &specs.template {
        if !unanswered.iter().any(|(e, _)| e.name == entry.name) {
            open.push(OpenEntry {
                entry: entry.title.clone(),
                path: top.path.clone(),
                line: top.line,
                lacks: "not in the spec".to_owned(),
            });
        }
    }
    SpecState {
        provider: spec
            .provider
            .map(|p| model.providers[p].name.clone())
            .unwrap_or_default(),
        path: top.path,
        status: spec.status.as_str(),
        answered,
        entries: specs.template.len(),
        open,
    }
}

/// How many of the rules that bind the built provider `p` (the coverage's column `column`)
/// its tests verify, and which MUST rules they leave.
fn provider_coverage(analysis: &Analysis<'_>, column: usize, p: usize) -> ProviderCoverage {
    let Analysis {
        chapters,
        model,
        rules,
        coverage,
        files,
        ..
    } = analysis;
    let provider = &model.providers[p];
    let at = chapters[provider.chapter].locate(files, provider.range.clone());
    let (verified, bound) = coverage.verified_of_bound(column);
    let must_rules = || {
        rules
            .rules
            .iter()
            .zip(&coverage.cells)
            .filter(|(rule, _)| rule.level == Some(crate::model::rules::Level::Must))
    };
    let must_short: Vec<String> = must_rules()
        .filter(|(_, row)| {
            !matches!(
                row[column],
                CellStatus::Verified(_)
                    | CellStatus::NotBound
                    | CellStatus::Undecided
                    | CellStatus::Optional
            )
        })
        .map(|(rule, _)| rule.id.clone())
        .collect();
    let must = must_rules()
        .filter(|(_, row)| {
            !matches!(
                row[column],
                CellStatus::NotBound | CellStatus::Undecided | CellStatus::Optional
            )
        })
        .count();
    ProviderCoverage {
        provider: provider.name.clone(),
        path: at.path,
        line: at.line,
        bound,
        verified,
        implemented: coverage.implemented_only(column),
        failed: coverage.count(column, |s| matches!(s, CellStatus::Failed(..))),
        skipped: coverage.count(column, |s| matches!(s, CellStatus::Skipped(..))),
        not_run: coverage.count(column, |s| matches!(s, CellStatus::NotRun(_))),
        must_verified: must - must_short.len(),
        must,
        must_short,
        known: coverage.known,
    }
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

/// Steps 1 to 3 of the pipeline: the chapters as read, the model, and the findings.
struct Analysis<'b> {
    chapters: Vec<Chapter<'b>>,
    model: Model,
    specs: Specs,
    rules: Rules,
    coverage: Coverage,
    /// The citations of rules in the source tree.
    citations: Vec<CodeCitation>,
    /// How many files of the source tree were read, when it was.
    files_read: Option<usize>,
    /// The test results read (none without `test-results`).
    results: Results,
    report: Report,
    pages: Pages,
    options: MarkdownOptions,
    config: Config,
    files: BookFiles,
}

impl<'b> Analysis<'b> {
    fn run(ctx: &PreprocessorContext, book: &'b Book, files: BookFiles) -> Result<Analysis<'b>> {
        let mut config = Config::from_book_config(&ctx.config)?;
        let options = parse_options(&ctx.config);
        // The globs were checked with the configuration, so this does not fail in practice.
        let shared = Roots::new(&config.shared_layer)
            .with_context(|| format!("book.toml: `{}.shared-layer`", config::TABLE))?;
        // Before the chapters are parsed: a contract named wrongly must not decide which
        // chapters keep their tables.
        check_chapter_keys(&mut config, &chapter_keys(book));
        let chapters = read_chapters(book, &files, &options, &config);
        let (companions, problems) = read_companions(&config, &files, &chapters, &options)?;
        for problem in problems {
            config.add_problem(problem);
        }
        let model = Model::collect(&chapters, &config);
        let specs = Specs::collect(&chapters, &model, &config);
        let rules = Rules::collect(&chapters, &model, &config);
        check_provider_paths(&mut config, &model);
        let excluded = checks::excluded_words(&model, &config);
        let wanted = Wanted {
            chapters: &chapters,
            excluded: &excluded,
            prefixes: if rules.rules.is_empty() {
                &[]
            } else {
                &rules.prefixes
            },
        };
        let (source, citations, results) = read_tree_and_results(
            ctx,
            &files,
            &mut config,
            &shared,
            &wanted,
            !rules.rules.is_empty(),
        );
        let coverage = coverage_of(
            ctx,
            &rules,
            &model,
            &config,
            source.is_some().then_some(citations.as_slice()),
            &shared,
            &excluded,
            &results,
        );
        let cx = checks::Context {
            chapters: &chapters,
            companions: &companions,
            model: &model,
            specs: &specs,
            rules: &rules,
            coverage: &coverage,
            citations: &citations,
            config: &config,
            files: &files,
            source: source.as_ref(),
            shared: &shared,
            excluded: &excluded,
            results: &results,
        };
        let drafts = checks::run_all(&cx);
        let (mut report, pages) =
            resolve(&chapters, &companions, &citations, &files, &config, drafts);
        crate::report::baseline::apply(&mut report, &config, &files);
        let files_read = source.as_ref().map(|s| s.files_read);
        Ok(Analysis {
            chapters,
            model,
            specs,
            rules,
            coverage,
            citations,
            files_read,
            results,
            report,
            pages,
            options,
            config,
            files,
        })
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

/// Takes out of the roles and settings of `config` every chapter that the book does not have
/// (a typo there would silently turn a role or a setting off), each a `dangling-path`
/// problem with a did-you-mean; likewise a `specs` path without wildcards that names no
/// chapter.
fn check_chapter_keys(config: &mut Config, keys: &[String]) {
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    let mut problems = Vec::new();
    let mut dangling = |at: KeyPath, chapter: &str| {
        let hint = suggest::hint(chapter, keys.iter().copied());
        problems.push(Problem::dangling(
            at.clone(),
            format!("`{at}` names `{chapter}`, which is not a chapter of the book{hint}"),
            "chapter paths are relative to the book's `src`, as in SUMMARY.md; the key is checked as if the chapter were not named",
        ));
    };
    let is_chapter = |chapter: &str| keys.contains(&chapter);
    for key in ["contract", "template"] {
        let list = if key == "contract" {
            &config.contract
        } else {
            &config.template
        };
        for (i, chapter) in list.iter().enumerate() {
            if !is_chapter(chapter) {
                dangling(config.item_at(key, i), chapter);
            }
        }
        config.retain_chapters(key, is_chapter);
    }
    for (i, spec) in config.specs.iter().enumerate() {
        if !is_glob(spec) && !is_chapter(spec) {
            dangling(config.item_at("specs", i), spec);
        }
    }
    let named: Vec<(&str, String)> = config
        .forbidden_terms
        .keys()
        .map(|c| ("forbidden-terms", c.clone()))
        .chain(config.chapter_keys().map(|c| ("chapters", c.to_owned())))
        .filter(|(_, chapter)| !is_chapter(chapter))
        .collect();
    for (key, chapter) in named {
        // The finding is about the key's name, the chapter; as written it may differ
        // (`./a.md`), so it is found under its table.
        dangling(KeyPath::key(key).child(&chapter).naming(), &chapter);
        config.forget_chapter(key, &chapter);
    }
    for problem in problems {
        config.add_problem(problem);
    }
}

/// The source tree's index and the citations of rules in it (none without `source-root`; a
/// tree that cannot be read is a problem of book.toml), and the test results (read only for a
/// tree whose tests they can be of).
fn read_tree_and_results(
    ctx: &PreprocessorContext,
    files: &BookFiles,
    config: &mut Config,
    shared: &Roots,
    wanted: &Wanted<'_>,
    has_rules: bool,
) -> (Option<SourceIndex>, Vec<CodeCitation>, Results) {
    // The source tree and the test results are read at once: a large report (JUnit of a
    // whole suite, tens of megabytes) costs no more than the slower of the two.
    let wants_results =
        config.source_root.is_some() && has_rules && !config.test_results.is_empty();
    let work = if wants_results {
        crate::util::parallel::PARALLEL_FROM
    } else {
        0
    };
    let (book_root, patterns) = (ctx.root.clone(), config.test_results.clone());
    let reading: &Config = config;
    let (indexed, results) = crate::util::parallel::both(
        work,
        || {
            let root = reading.source_root.clone()?;
            Some(index_source(ctx, files, reading, shared, wanted, &root))
        },
        move || {
            if wants_results {
                Results::read(&book_root, &patterns)
            } else {
                Results::default()
            }
        },
    );
    let (source, citations) = match indexed {
        Some(Ok((source, citations))) => (Some(source), citations),
        // Without the tree, `cited-path` and `cited-symbol` cannot run; the rest can.
        Some(Err(problem)) => {
            config.add_problem(*problem);
            (None, Vec::new())
        }
        None => (None, Vec::new()),
    };
    // Test results count only for a tree whose tests they can be of.
    let results = if source.is_some() {
        results
    } else {
        Results::default()
    };
    (source, citations, results)
}

/// The coverage of the rules per built provider, with the test results when they were read.
#[allow(clippy::too_many_arguments)] // The inputs of `Coverage::of`, and the results' root.
fn coverage_of(
    ctx: &PreprocessorContext,
    rules: &Rules,
    model: &Model,
    config: &Config,
    citations: Option<&[CodeCitation]>,
    shared: &Roots,
    excluded: &HashSet<String>,
    results: &Results,
) -> Coverage {
    let mut built: Vec<String> = Vec::new();
    for provider in model.providers.iter().filter(|p| !p.proposed && !p.spec) {
        if !built.contains(&provider.name) {
            built.push(provider.name.clone());
        }
    }
    let matcher = Matcher::new(results, built);
    let source_root = ctx.root.join(config.source_root.as_deref().unwrap_or("."));
    let with_results = WithResults {
        results,
        matcher: &matcher,
        source_root: &source_root,
    };
    Coverage::of(
        rules,
        model,
        config,
        citations,
        shared,
        excluded,
        results.asked.then_some(&with_results),
    )
}

/// What the source tree is searched for: the words the chapters cite, and the citations of
/// rules when the book has rules.
struct Wanted<'w> {
    chapters: &'w [Chapter<'w>],
    excluded: &'w HashSet<String>,
    /// The prefixes of the rules' markers, whose citations are searched for (none when the
    /// book has no rules).
    prefixes: &'w [String],
}

/// A provider that `provider-paths` names and the book does not have is a `dangling-path`
/// problem at its key (a typo would give its folders to no one).
fn check_provider_paths(config: &mut Config, model: &Model) {
    let names: Vec<&str> = model
        .providers
        .iter()
        .filter(|p| !p.proposed && !p.spec)
        .map(|p| p.name.as_str())
        .collect();
    let unknown: Vec<String> = config
        .provider_paths
        .keys()
        .filter(|name| !names.contains(&name.as_str()))
        .cloned()
        .collect();
    for name in unknown {
        let hint = suggest::hint(&name, names.iter().copied());
        let at = KeyPath::key("provider-paths").child(&name).naming();
        config.add_problem(Problem::dangling(
            at,
            format!("`provider-paths` names `{name}`, which is not a built provider of the book{hint}"),
            "a key of `provider-paths` is the name of a `.provider` section; its folders count for no one until it matches",
        ));
    }
}

/// Reads the source tree once, searching it for every word the book cites (and the citations
/// of its rules); a `source-root` that is not a folder that can be read is a `dangling-path`
/// problem.
fn index_source(
    ctx: &PreprocessorContext,
    files: &BookFiles,
    config: &Config,
    shared: &Roots,
    wanted: &Wanted<'_>,
    root: &str,
) -> Result<(SourceIndex, Vec<CodeCitation>), Box<Problem>> {
    let at = KeyPath::key("source-root");
    let path = ctx.root.join(root);
    let folder = files.display_root_folder();
    let help = "`source-root` is relative to the folder of book.toml; `cited-path` and `cited-symbol` do not run without it, every other check does";
    let why = match std::fs::metadata(&path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => format!(
            "`{at}` is `{root}`, which does not exist: there is no `{root}` in `{}`, the folder of book.toml",
            folder.display()
        ),
        Err(error) => format!("`{at}` is `{root}`, which cannot be read: {error}"),
        Ok(metadata) if !metadata.is_dir() => format!(
            "`{at}` is `{root}`, which is not a folder (`{}`)",
            files.display(&path).display()
        ),
        Ok(_) => {
            let citations = checks::citations(wanted.chapters, wanted.excluded);
            let symbols = citations.iter().filter_map(|(_, _, c)| match c {
                Citation::Symbol(parts) => Some(parts.as_slice()),
                Citation::Path(_) => None,
            });
            let words = crate::read::source_tree::wanted_words(symbols);
            let owned = code::patterns(wanted.prefixes);
            let patterns: Vec<&str> = owned.iter().map(String::as_str).collect();
            let read = |path: &str, data: &[u8], hits: &mut [(usize, usize)]| {
                code::read_matches(wanted.prefixes, path, data, hits)
            };
            let extra = (!wanted.prefixes.is_empty()).then_some(Extra {
                patterns: &patterns,
                read: &read,
            });
            match SourceIndex::build(&path, &config.symbol_files, shared, &words, extra) {
                Ok(index) => return Ok(index),
                Err(error) => format!("`{at}` is `{root}`, which cannot be indexed: {error:#}"),
            }
        }
    };
    Err(Box::new(Problem::dangling(at, why, help)))
}
