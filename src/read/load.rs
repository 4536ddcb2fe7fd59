//! Loading a book from disk the way mdBook hands it to this preprocessor, for
//! `mdbook-contract check` and the other commands that read a book.
//!
//! [`load`] reads book.toml (with `MDBOOK_*` environment overrides) and SUMMARY.md through
//! mdbook-driver, then runs every preprocessor that mdBook would run before this one, in
//! mdBook's own order and by mdBook's own code: `index` and `links`, and any other the book
//! configures, external commands included. In this preprocessor's place it puts one that keeps
//! the book as it arrives and stops the run, so the preprocessors ordered after it never run.
//! A book whose other preprocessors write links or text gets the same findings from `check` as
//! from `mdbook build`.
//!
//! Every load here goes through [`open`], `build.create-missing` off: reading a book writes no
//! file, and a chapter SUMMARY.md names that is not on disk is loaded as a draft, for the
//! `missing-chapter` check to report at its line.

use std::path::Path;
use std::sync::{Arc, Mutex};

use anyhow::{Context as _, Result, bail};
use mdbook_driver::MDBook;
use mdbook_driver::config::Config;
use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use mdbook_renderer::{RenderContext, Renderer};

use crate::read::chapter::Overlays;
use crate::util::vocab::NAME;

/// Loads the book at `dir` as mdBook would hand it to this preprocessor for `renderer`, its
/// own preprocessors run: what `check` and a build do, which the user runs on purpose.
pub fn load(dir: &Path, renderer: &str) -> Result<(PreprocessorContext, Book)> {
    let md = open(dir)?;
    preprocess(md, renderer)
}

/// Whether a load may run the commands book.toml names (its preprocessors other than mdBook's
/// own and this one). Opening a book is not running it: the language server, the MCP server
/// and `diff` run them only when the user says so (`--allow-commands`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Commands {
    /// Run them, as `mdbook build` would.
    Run,
    /// Stand in for each with one that passes the book on: the book as written.
    Refuse,
}

impl Commands {
    /// `Run` when the user allowed it.
    pub fn allowed(allow: bool) -> Commands {
        if allow {
            Commands::Run
        } else {
            Commands::Refuse
        }
    }
}

/// Loads the book at `dir` for `renderer`, running its commands only as `commands` says;
/// with what was left out (see [`refused`]).
pub(crate) fn load_with(
    dir: &Path,
    renderer: &str,
    commands: Commands,
) -> Result<(PreprocessorContext, Book, Vec<String>)> {
    let mut md = open(dir)?;
    let left_out = match commands {
        Commands::Run => Vec::new(),
        Commands::Refuse => pass_on_commands(&mut md),
    };
    let (ctx, book) = preprocess(md, renderer)?;
    Ok((ctx, book, left_out))
}

/// Stands in for every preprocessor of `md` that runs a command (any but mdBook's own and
/// this one, before or after it), and says what each would have run: `` `NAME` (`COMMAND`) ``.
fn pass_on_commands(md: &mut MDBook) -> Vec<String> {
    let named = commands_of(&md.config);
    for (name, _) in &named {
        md.with_preprocessor(PassOn(name.clone()));
    }
    named
        .into_iter()
        .map(|(name, command)| format!("`{name}` (`{command}`)"))
        .collect()
}

/// Each preprocessor of `config` that runs a command, with the command: its `command`, or
/// `mdbook-NAME` as mdBook makes it.
pub(crate) fn commands_of(config: &Config) -> Vec<(String, String)> {
    let Ok(all) = config.preprocessors::<serde_json::Value>() else {
        return Vec::new();
    };
    all.into_iter()
        .filter(|(name, _)| !matches!(name.as_str(), "index" | "links" | NAME))
        .map(|(name, table)| {
            let command = table["command"]
                .as_str()
                .map_or_else(|| format!("mdbook-{name}"), str::to_owned);
            (name, command)
        })
        .collect()
}

/// A `[preprocessor.NAME]` table of `config` without a `command` whose name is nearly this
/// preprocessor's (`contracts`): said with its line of book.toml under `root` and the name
/// meant, since mdBook takes it for another preprocessor (and this one's keys go unread).
fn misspelt_table(root: &Path, config: &Config) -> String {
    let Ok(all) = config.preprocessors::<serde_json::Value>() else {
        return String::new();
    };
    let Some(name) = all.iter().find_map(|(name, table)| {
        let near = name != NAME
            && table.get("command").is_none()
            && crate::util::suggest::did_you_mean(name, [NAME]).is_some();
        near.then_some(name)
    }) else {
        return String::new();
    };
    let header = format!("[preprocessor.{name}");
    let line = crate::util::text::read_to_string(&root.join("book.toml"))
        .ok()
        .and_then(|text| {
            text.lines()
                .position(|l| l.trim_start().starts_with(&header))
                .map(|i| format!("book.toml:{}:1: ", i + 1))
        })
        .unwrap_or_default();
    format!(
        " ({line}`[preprocessor.{name}]` names no preprocessor of this book; did you mean `[preprocessor.{NAME}]`?)"
    )
}

/// What a reader is told of the commands a load left out (`left_out` as [`load_with`] gives
/// it), or `None` when it left none out.
pub(crate) fn refused(left_out: &[String]) -> Option<String> {
    if left_out.is_empty() {
        return None;
    }
    Some(format!(
        "book.toml runs {} {}, not run here: the book is read as written (mdBook's `links` and this preprocessor only); start it with `--allow-commands` to run them, in a folder you trust",
        if left_out.len() == 1 {
            "the command"
        } else {
            "the commands"
        },
        left_out.join(", ")
    ))
}

/// Reads the book at `dir` as `MDBook::load` does (book.toml with its `MDBOOK_*` overrides,
/// SUMMARY.md, each chapter), with `build.create-missing` off: a read writes no file, so a
/// chapter SUMMARY.md names that is not on disk is a draft (and a `missing-chapter` finding),
/// never a file created. Only `mdbook build` itself creates missing chapters.
pub(crate) fn open(dir: &Path) -> Result<MDBook> {
    let toml = dir.join("book.toml");
    let mut config = if toml.exists() {
        Config::from_disk(&toml).with_context(|| cannot_load(dir))?
    } else {
        Config::default()
    };
    config.update_from_env().with_context(|| cannot_load(dir))?;
    config.build.create_missing = false;
    let src = config.book.src.clone();
    load_drafting_missing(dir, config).map_err(|error| match missing_chapter(dir, &src, &error) {
        Some(told) => error.context(told),
        None => error.context(cannot_load(dir)),
    })
}

/// Loads the book at `dir` as mdBook does with `config` (`create-missing` off), except that a
/// chapter SUMMARY.md names that is not on disk is loaded as a draft (no file, no content):
/// the book loads, and `missing-chapter` reports it at its link in SUMMARY.md. A SUMMARY.md
/// this cannot read is left to mdBook, which says why.
fn load_drafting_missing(dir: &Path, config: Config) -> Result<MDBook> {
    let src = dir.join(&config.book.src);
    let summary = crate::util::text::read_to_string(&src.join("SUMMARY.md"))
        .ok()
        .and_then(|text| mdbook_summary::parse_summary(&text).ok());
    match summary {
        Some(mut summary) => {
            if drafted(&mut summary, &src) {
                MDBook::load_with_config_and_summary(dir, config, summary)
            } else {
                MDBook::load_with_config(dir, config)
            }
        }
        None => MDBook::load_with_config(dir, config),
    }
}

/// Makes a draft of every chapter of `summary` whose file is not under `src`; whether there
/// was one.
fn drafted(summary: &mut mdbook_summary::Summary, src: &Path) -> bool {
    fn walk(items: &mut [mdbook_summary::SummaryItem], src: &Path) -> bool {
        let mut any = false;
        for item in items {
            if let mdbook_summary::SummaryItem::Link(link) = item {
                if link
                    .location
                    .as_ref()
                    .is_some_and(|l| !src.join(l).exists())
                {
                    link.location = None;
                    any = true;
                }
                any |= walk(&mut link.nested_items, src);
            }
        }
        any
    }
    let prefix = walk(&mut summary.prefix_chapters, src);
    let numbered = walk(&mut summary.numbered_chapters, src);
    let suffix = walk(&mut summary.suffix_chapters, src);
    prefix || numbered || suffix
}

/// What to tell when `error` is a chapter SUMMARY.md names (in the book at `dir`, its source
/// folder `src`) that is not on disk: where SUMMARY.md names it, from the book's folder, and
/// what to do.
fn missing_chapter(dir: &Path, src: &Path, error: &anyhow::Error) -> Option<String> {
    let not_found = error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound)
    });
    let chapter = error.chain().find_map(|cause| {
        let text = cause.to_string();
        let rest = text.strip_prefix("failed to read chapter `")?;
        Some(rest.strip_suffix('`')?.to_owned())
    })?;
    if !not_found {
        return None;
    }
    let summary = src.join("SUMMARY.md");
    let line = crate::util::text::read_to_string(&dir.join(&summary))
        .ok()
        .and_then(|text| {
            let link = format!("]({chapter})");
            text.lines().position(|l| l.contains(&link))
        })
        .map_or(String::new(), |index| format!(":{}", index + 1));
    Some(format!(
        "{}{line}: SUMMARY.md names the chapter `{chapter}`, which does not exist: write it, or take it out of SUMMARY.md (this tool creates no chapter; `mdbook build` does when `build.create-missing` is on)",
        crate::util::paths::slashed(&summary)
    ))
}

/// Why the book at `dir` cannot be loaded, naming book.toml when that is what cannot be read
/// (mdBook's own message gives the line and column, not the file).
fn cannot_load(dir: &Path) -> String {
    let toml = dir.join("book.toml");
    if toml.is_file() && Config::from_disk(&toml).is_err() {
        format!(
            "could not load the book at `{}`: `{}` cannot be read",
            dir.display(),
            toml.display()
        )
    } else {
        format!("could not load the book at `{}`", dir.display())
    }
}

/// Loads the book at `dir` as its authors wrote it: mdBook's own preprocessors run (`index`,
/// `links`, so includes are expanded), and every other one passes the book on unchanged in its
/// place. What the brief is written from: Markdown, not another preprocessor's HTML.
pub(crate) fn load_as_written(dir: &Path) -> Result<(PreprocessorContext, Book)> {
    let mut md = open(dir)?;
    pass_on_external(&mut md);
    preprocess(md, "html")
}

/// Stands in for each external preprocessor of `md` with one that passes the book on.
fn pass_on_external(md: &mut MDBook) {
    for name in crate::read::chapter::external_preprocessors(&md.config) {
        // In the same place: mdBook keeps a replaced preprocessor's position.
        md.with_preprocessor(PassOn(name));
    }
}

/// Which preprocessors a load runs before this one's place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Preprocessors {
    /// Every one mdBook would run, external commands included.
    All,
    /// mdBook's own (`index`, `links`); each external one is stood in for by one that passes
    /// the book on unchanged, in its place.
    MdbookOnly,
}

/// Loads the book at `dir` for an editor: an open book.toml or chapter is read from
/// `overlays` instead of the disk (SUMMARY.md and included files are read from disk), and a
/// chapter that SUMMARY.md lists but that does not exist is a draft (a `missing-chapter`
/// finding), not a file created (`build.create-missing` is off), since the editor loads the
/// book at every change.
pub(crate) fn load_for_editor(
    dir: &Path,
    overlays: &Overlays,
    preprocessors: Preprocessors,
) -> Result<(PreprocessorContext, Book)> {
    let toml = dir.join("book.toml");
    let mut config = match overlays.get(&crate::util::paths::lexical(&toml)) {
        Some(text) => text
            .parse::<Config>()
            .context("book.toml could not be read")?,
        None if toml.exists() => Config::from_disk(&toml)?,
        None => Config::default(),
    };
    config.update_from_env()?;
    config.build.create_missing = false;
    let mut md = load_drafting_missing(dir, config)
        .with_context(|| format!("could not load the book at `{}`", dir.display()))?;
    let src = md.root.join(&md.config.book.src);
    for item in md.book.items.iter_mut() {
        overlay(item, &src, overlays);
    }
    if preprocessors == Preprocessors::MdbookOnly {
        pass_on_external(&mut md);
    }
    preprocess(md, "html")
}

/// Stands in for an external preprocessor: the book goes on unchanged.
struct PassOn(String);

impl Preprocessor for PassOn {
    fn name(&self) -> &str {
        &self.0
    }

    fn run(&self, _: &PreprocessorContext, book: Book) -> Result<Book> {
        Ok(book)
    }

    fn supports_renderer(&self, _: &str) -> Result<bool> {
        Ok(true)
    }
}

/// Puts the overlay of each chapter in `item` (and below) in place of its content.
fn overlay(item: &mut BookItem, src: &Path, overlays: &Overlays) {
    let BookItem::Chapter(chapter) = item else {
        return;
    };
    if let Some(path) = &chapter.source_path
        && let Some(text) = overlays.get(&crate::util::paths::lexical(&src.join(path)))
    {
        // mdBook drops a byte order mark when it reads a chapter.
        chapter.content = text.strip_prefix('\u{feff}').unwrap_or(text).to_owned();
    }
    for sub in &mut chapter.sub_items {
        overlay(sub, src, overlays);
    }
}

/// Runs the preprocessors of `md` up to this one's place, and gives the book as it arrives.
fn preprocess(mut md: MDBook, renderer: &str) -> Result<(PreprocessorContext, Book)> {
    let ctx = PreprocessorContext::new(md.root.clone(), md.config.clone(), renderer.to_owned());
    let arrived = Arc::new(Mutex::new(None));
    // Takes this preprocessor's place in mdBook's order (or the last place, when book.toml
    // does not configure it).
    md.with_preprocessor(Arrival {
        book: Arc::clone(&arrived),
    });
    let ran = md.preprocess_book(&Named(renderer));
    let book = arrived
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .take();
    match (book, ran) {
        (Some(book), _) => Ok((ctx, book)),
        // This preprocessor does not run for `renderer` (`renderers` leaves it out): every
        // other one did.
        (None, Ok((book, _))) => Ok((ctx, book)),
        (None, Err(error)) => Err(error.context(format!(
            "a preprocessor that mdBook runs before `{NAME}` failed{}",
            misspelt_table(&ctx.root, &ctx.config)
        ))),
    }
}

/// Stands in for this preprocessor: keeps the book it is given and stops the run there.
struct Arrival {
    book: Arc<Mutex<Option<Book>>>,
}

impl Preprocessor for Arrival {
    fn name(&self) -> &str {
        NAME
    }

    fn run(&self, _: &PreprocessorContext, book: Book) -> Result<Book> {
        *self
            .book
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(book);
        bail!("stopped where `{NAME}` runs: the book is read as it arrives there")
    }

    fn supports_renderer(&self, _: &str) -> Result<bool> {
        Ok(true)
    }
}

/// A renderer that is only a name: what `MDBook::preprocess_book` asks the preprocessors
/// about. It renders nothing.
struct Named<'a>(&'a str);

impl Renderer for Named<'_> {
    fn name(&self) -> &str {
        self.0
    }

    fn render(&self, _: &RenderContext) -> Result<()> {
        Ok(())
    }
}
