//! Steps 1 to 3 of the pipeline for every command: the chapters read, the companions, the
//! model, the specs and the rules, the source tree and the test results read beside each
//! other, the coverage, the checks and the findings resolved to places.
//!
//! [`Analysis::run`] is the one place these steps are called in order; what a command needs
//! beyond them (rendering, the snapshot, status) is made from an [`Analysis`] in `mod.rs` or
//! `status.rs`. A new input read for the checks belongs here, beside the others.

use std::collections::HashSet;

use anyhow::{Context as _, Result};
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::Book;

use crate::checks;
use crate::model::Model;
use crate::model::rules::Rules;
use crate::model::rules::code::{self, CodeCitation};
use crate::model::rules::coverage::{Coverage, WithResults};
use crate::model::spec::Specs;
use crate::read::chapter::{BookFiles, Chapter, chapter_keys, read_chapters};
use crate::read::citation::Citation;
use crate::read::code::{Extra, Options, Roots, SourceIndex};
use crate::read::companion::read_companions;
use crate::read::config::{self, Config, KeyPath, Problem};
use crate::read::markdown::{MarkdownOptions, parse_options};
use crate::read::results::Results;
use crate::read::results::matching::Matcher;
use crate::report::diagnostic::Report;
use crate::report::resolve::{Pages, resolve};
use settings::{check_chapter_keys, check_provider_paths, check_provider_places};

mod settings;

/// Steps 1 to 3 of the pipeline: the chapters as read, the model, and the findings.
pub(super) struct Analysis<'b> {
    pub(super) chapters: Vec<Chapter<'b>>,
    pub(super) model: Model,
    pub(super) specs: Specs,
    pub(super) rules: Rules,
    pub(super) coverage: Coverage,
    /// The citations of rules in the source tree.
    pub(super) citations: Vec<CodeCitation>,
    /// The source tree as read, when it was.
    pub(super) source: Option<SourceIndex>,
    /// The test results read (none without `test-results`).
    pub(super) results: Results,
    /// What the provider reports made of the coverage.
    pub(super) reported: crate::model::rules::reported::Reported,
    pub(super) report: Report,
    pub(super) pages: Pages,
    pub(super) options: MarkdownOptions,
    pub(super) config: Config,
    pub(super) files: BookFiles,
}

impl<'b> Analysis<'b> {
    pub(super) fn run(
        ctx: &PreprocessorContext,
        book: &'b Book,
        files: BookFiles,
    ) -> Result<Analysis<'b>> {
        Analysis::run_with(ctx, book, files, false)
    }

    /// [`Analysis::run`], with every file of the source tree that has a grammar parsed for its
    /// code units when `units` is set (`status --unmapped`, `export`).
    pub(super) fn run_with(
        ctx: &PreprocessorContext,
        book: &'b Book,
        files: BookFiles,
        units: bool,
    ) -> Result<Analysis<'b>> {
        let mut modelled = Modelled::of(ctx, book, &files)?;
        let (source, found, mut results) = modelled.tree(ctx, &files, units);
        let Modelled {
            mut config,
            options,
            shared,
            chapters,
            companions,
            model,
            specs,
            rules,
            excluded,
        } = modelled;
        let (mut citations, unclosed) = code::split(found);
        if let Some(source) = &source {
            check_provider_places(&mut config, source);
        }
        let mut coverage = coverage_of(
            ctx,
            &rules,
            &model,
            &config,
            source.is_some().then_some(citations.as_slice()),
            &shared,
            &excluded,
            &results,
        );
        let reported = crate::pipeline::reports::apply(
            ctx,
            &files,
            &config,
            &chapters,
            &model,
            &rules,
            (&mut coverage, &mut citations, &mut results),
        );
        let cx = checks::Context {
            chapters: &chapters,
            companions: &companions,
            model: &model,
            specs: &specs,
            rules: &rules,
            coverage: &coverage,
            citations: &citations,
            unclosed: &unclosed,
            config: &config,
            files: &files,
            source: source.as_ref(),
            shared: &shared,
            excluded: &excluded,
            results: &results,
            reported: &reported,
        };
        let (report, pages) = findings(&cx);
        Ok(Analysis {
            chapters,
            model,
            specs,
            rules,
            coverage,
            citations,
            source,
            results,
            reported,
            report,
            pages,
            options,
            config,
            files,
        })
    }
}

/// The book read and modelled: its configuration, chapters and companions, its axes,
/// providers, specs and rules, before the source tree and the test results are read.
struct Modelled<'b> {
    config: Config,
    options: MarkdownOptions,
    shared: Roots,
    chapters: Vec<Chapter<'b>>,
    companions: Vec<crate::read::companion::Companion>,
    model: Model,
    specs: Specs,
    rules: Rules,
    excluded: HashSet<String>,
}

impl<'b> Modelled<'b> {
    fn of(ctx: &PreprocessorContext, book: &'b Book, files: &BookFiles) -> Result<Modelled<'b>> {
        let mut config = Config::from_book_config(&ctx.config)?;
        let options = parse_options(&ctx.config);
        // The globs were checked with the configuration, so this does not fail in practice.
        let shared = Roots::new(&config.shared_layer)
            .with_context(|| format!("book.toml: `{}.shared-layer`", config::TABLE))?;
        // Before the chapters are parsed: a contract named wrongly must not decide which
        // chapters keep their tables.
        check_chapter_keys(&mut config, &chapter_keys(book));
        let chapters = read_chapters(book, files, &options, &config);
        let (companions, problems) = read_companions(&config, files, &chapters, &options)?;
        for problem in problems {
            config.add_problem(problem);
        }
        let model = Model::collect(&chapters, &config);
        let specs = Specs::collect(&chapters, &model, &config);
        let rules = Rules::collect(&chapters, &model, &config);
        check_provider_paths(&mut config, &model);
        let excluded = checks::excluded_words(&model, &config);
        Ok(Modelled {
            config,
            options,
            shared,
            chapters,
            companions,
            model,
            specs,
            rules,
            excluded,
        })
    }

    /// The source tree (every file with a grammar parsed for its units when `units` is set)
    /// and the test results, read for what the book needs.
    fn tree(
        &mut self,
        ctx: &PreprocessorContext,
        files: &BookFiles,
        units: bool,
    ) -> (Option<SourceIndex>, Vec<code::Found>, Results) {
        let has_rules = !self.rules.rules.is_empty();
        let wanted = Wanted {
            chapters: &self.chapters,
            excluded: &self.excluded,
            prefixes: if has_rules { &self.rules.prefixes } else { &[] },
            units,
        };
        read_tree_and_results(
            ctx,
            files,
            &mut self.config,
            &self.shared,
            &wanted,
            has_rules,
        )
    }
}

/// The findings of the checks of `cx`, resolved to their places, with the baseline applied,
/// and the pages they are shown on.
fn findings(cx: &checks::Context<'_>) -> (Report, Pages) {
    let drafts = checks::run_all(cx);
    let (mut report, pages) = resolve(
        cx.chapters,
        cx.companions,
        cx.citations,
        cx.files,
        cx.config,
        drafts,
    );
    // Without every report read, what the results would have said is not known.
    let unread = !cx.results.problems.is_empty();
    crate::report::baseline::apply(&mut report, cx.config, cx.files, unread);
    let pages = without_known(pages, &report.known);
    (report, pages)
}

/// `pages` without the findings the baseline made known, one for each: `mdbook serve`'s pages
/// show exactly what the build would fail on.
fn without_known(mut pages: Pages, known: &[crate::report::diagnostic::Finding]) -> Pages {
    if known.is_empty() {
        return pages;
    }
    let mut left: Vec<&crate::report::diagnostic::Finding> = known.iter().collect();
    for (_, findings) in &mut pages {
        findings.retain(|f| match left.iter().position(|k| *k == f) {
            Some(i) => {
                left.swap_remove(i);
                false
            }
            None => true,
        });
    }
    pages.retain(|(_, findings)| !findings.is_empty());
    pages
}

/// The source tree's index, the citations of rules in it and the ignore regions never closed
/// (none without `source-root`; a tree that cannot be read is a problem of book.toml), and the
/// test results (read only for a tree whose tests they can be of).
fn read_tree_and_results(
    ctx: &PreprocessorContext,
    files: &BookFiles,
    config: &mut Config,
    shared: &Roots,
    wanted: &Wanted<'_>,
    has_rules: bool,
) -> (Option<SourceIndex>, Vec<code::Found>, Results) {
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
    let (confinement, limit) = (files.confinement(), config.test_results_limit);
    let reading: &Config = config;
    let (indexed, results) = crate::util::parallel::both(
        work,
        || {
            let root = reading.source_root.clone()?;
            Some(index_source(ctx, files, reading, shared, wanted, &root))
        },
        move || {
            if wants_results {
                Results::read(&book_root, &patterns, confinement, limit)
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
    let sites: Vec<crate::read::results::matching::Site<'_>> = citations
        .unwrap_or_default()
        .iter()
        .filter_map(|c| Some(crate::model::rules::coverage::site_of(c, c.test.as_ref()?)))
        .collect();
    let with_results = WithResults {
        results,
        matcher: &matcher,
        source_root: &source_root,
        sites: &sites,
        matched: (0..citations.unwrap_or_default().len())
            .map(|_| std::sync::OnceLock::new())
            .collect(),
        cases_in: crate::read::results::cases_in::CasesIn::of(results),
        unplaced: (0..citations.unwrap_or_default().len())
            .map(|_| std::sync::OnceLock::new())
            .collect(),
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
    /// Every file with a grammar parsed for its code units (`status --unmapped`, `export`).
    units: bool,
}

/// The paths under the source tree at `source_root` that are the book's own, as paths under
/// `source_root`: they are not source. Its `src`, its build folder, `output.html.additional-js`
/// and `additional-css`, the page script and stylesheet `install` writes
/// (`commands::install::{JS_FILE, CSS_FILE}`), the baseline and book.toml, each relative to
/// book.toml. Both sides are made absolute first: run from inside the book (`.`) with
/// `source-root = ".."`, a relative build folder `book` is not under `..` lexically, and the
/// built pages were read as source. The files `provider-reports` names are not source either.
fn book_paths_under(
    ctx: &PreprocessorContext,
    config: &Config,
    source_root: &std::path::Path,
) -> Vec<String> {
    let mut own = vec![
        ctx.config.book.src.clone(),
        ctx.config.build.build_dir.clone(),
        "mdbook-contract.js".into(),
        "mdbook-contract.css".into(),
        "book.toml".into(),
    ];
    own.extend(config.baseline.iter().map(std::path::PathBuf::from));
    for pattern in &config.provider_reports {
        own.extend(crate::read::results::expand(&ctx.root, pattern));
    }
    for key in ["output.html.additional-js", "output.html.additional-css"] {
        if let Ok(Some(files)) = ctx.config.get::<Vec<std::path::PathBuf>>(key) {
            own.extend(files);
        }
    }
    let absolute = |path: &std::path::Path| {
        crate::util::paths::lexical(&std::path::absolute(path).unwrap_or_else(|_| path.into()))
    };
    let base = absolute(source_root);
    own.iter()
        .filter_map(|p| {
            let path = absolute(&ctx.root.join(p));
            let under = path.strip_prefix(&base).ok()?;
            let parts = crate::util::paths::components(under);
            (!parts.is_empty()).then(|| parts.join("/"))
        })
        .collect()
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
) -> Result<(SourceIndex, Vec<code::Found>), Box<Problem>> {
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
            let words = crate::read::code::wanted_words(symbols);
            let owned = code::patterns(wanted.prefixes);
            let patterns: Vec<&str> = owned.iter().map(String::as_str).collect();
            let read = |path: &str,
                        data: &[u8],
                        hits: &mut [(usize, usize)],
                        parsed: Option<&crate::read::code::Parsed<'_>>| {
                code::read_matches(wanted.prefixes, path, data, hits, parsed)
            };
            let extra = (!wanted.prefixes.is_empty()).then_some(Extra {
                patterns: &patterns,
                read: &read,
            });
            let of_the_book = book_paths_under(ctx, config, &path);
            let options = Options {
                symbol_files: config.symbol_files.as_deref(),
                of_the_book: &of_the_book,
                units: wanted.units,
            };
            match SourceIndex::build(&path, options, shared, &words, extra) {
                Ok(index) => return Ok(index),
                Err(error) => format!("`{at}` is `{root}`, which cannot be indexed: {error:#}"),
            }
        }
    };
    Err(Box::new(Problem::dangling(at, why, help)))
}
