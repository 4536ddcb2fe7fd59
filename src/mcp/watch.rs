//! The book as last loaded, and when to load it again.
//!
//! [`Watch::current`] answers every tool call: it takes a [`Fingerprint`] of every file the
//! book is read from (book.toml, the `src` folder, `source-root`, the test results, the
//! companions, the baseline, the files a preprocessor's command names, and mdBook's own
//! `build.extra-watch-dirs`: every file's path, size and time of change) and loads the book
//! again when it differs from the last one. No file watcher: a call costs one walk of those
//! folders (a few milliseconds on the Rust Reference), and an edit is seen by the next call,
//! however it was made.
//!
//! A book that cannot be loaded is a [`State::Failed`] with the reason; the next call whose
//! fingerprint differs tries again.
//!
//! [`Paths`] writes every path of an answer from the repository's root.

use std::collections::HashMap;
use std::hash::{Hash as _, Hasher as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::Book;

use crate::commands::brief::Brief;
use crate::commands::export::{CoverageOut, Export};
use crate::pipeline::ForAgent;
use crate::read::load::{Commands, load_with};
use crate::util::paths::slashed;

/// A finding, as `check --format json` prints it.
#[derive(Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub(crate) struct FindingOut {
    /// The check's name (`dangling-link`).
    pub(crate) check: String,
    /// `error` or `warning`.
    pub(crate) severity: String,
    pub(crate) message: String,
    pub(crate) path: String,
    pub(crate) line: usize,
    pub(crate) column: usize,
    /// How many columns it underlines.
    pub(crate) width: usize,
    /// What the underline says, when it says something.
    pub(crate) note: Option<String>,
    /// What to do about it.
    pub(crate) help: Option<String>,
    /// What else a reader should know.
    pub(crate) notes: Vec<String>,
}

/// How the paths of answers are written: from the root of the repository that holds the book
/// (as `check --format github` prints them), or from the book's root outside a repository.
pub(crate) struct Paths {
    /// The book's root folder, absolute.
    pub(crate) dir: PathBuf,
    /// The book's folder from the repository's root: `docs/`, or empty.
    prefix: String,
    /// `source-root` from the repository's root, ending with `/`, when book.toml sets it.
    source: Option<String>,
}

impl Paths {
    fn new(dir: &Path, source_root: Option<&str>) -> Paths {
        let mut prefix = crate::util::git::in_repository(dir)
            .map(|p| slashed(&p))
            .unwrap_or_default();
        if !prefix.is_empty() && !prefix.ends_with('/') {
            prefix.push('/');
        }
        let source = source_root.map(|root| {
            let mut source = lexical(&format!("{prefix}{root}"));
            if !source.is_empty() {
                source.push('/');
            }
            source
        });
        Paths {
            dir: dir.to_path_buf(),
            prefix,
            source,
        }
    }

    /// The book's root, as the folder the paths are from.
    pub(crate) fn prefix(&self) -> PathBuf {
        PathBuf::from(&self.prefix)
    }

    /// `path` (from the book's root) from the repository's root.
    pub(crate) fn of_book(&self, path: &str) -> String {
        lexical(&format!("{}{path}", self.prefix))
    }

    /// `path` (under `source-root`) from the repository's root.
    pub(crate) fn of_source(&self, path: &str) -> String {
        lexical(&format!(
            "{}{path}",
            self.source.as_deref().unwrap_or(&self.prefix)
        ))
    }
}

/// A `/`-separated path with its `.` parts left out and each `..` taking its parent away (one
/// above the start is kept: a source root beside the repository).
fn lexical(path: &str) -> String {
    slashed(&crate::util::paths::lexical(Path::new(path)))
}

/// The book, loaded and checked.
pub(crate) struct Loaded {
    /// Behind a lock: the context is not `Sync` (mdBook keeps chapter titles in a `RefCell`),
    /// and only a brief reads it.
    ctx: Mutex<PreprocessorContext>,
    /// The book's source folder, relative to its root, `/`-separated.
    pub(crate) src: String,
    pub(crate) book: Book,
    pub(crate) agent: ForAgent,
    pub(crate) export: Export,
    /// The coverage of each provider only a spec describes so far, as the export's of the
    /// built ones.
    pub(crate) pending: Vec<CoverageOut>,
    pub(crate) paths: Paths,
    /// The findings, as `check --format json` gives them.
    pub(crate) findings: Vec<FindingOut>,
    /// Each provider's brief, written when first asked for.
    briefs: Mutex<HashMap<String, Result<Brief, String>>>,
    /// What the agent is told of the book's commands that were not run, if any.
    pub(crate) left_out: Option<String>,
}

impl Loaded {
    /// The brief of `provider`, as `brief` writes it, or why there is none.
    pub(crate) fn brief(&self, provider: &str) -> Result<Brief, String> {
        let mut briefs = self.briefs.lock().unwrap_or_else(|e| e.into_inner());
        briefs
            .entry(provider.to_owned())
            .or_insert_with(|| {
                let ctx = self.ctx.lock().unwrap_or_else(|e| e.into_inner());
                crate::commands::brief::brief(&ctx, &self.book, provider).map_err(|e| {
                    e.told(&|path| self.paths.of_book(&crate::util::paths::slashed(path)))
                })
            })
            .clone()
    }
}

/// The book as the last call found it.
pub(crate) enum State {
    Loaded(Box<Loaded>),
    /// Why the book cannot be loaded or checked.
    Failed(String),
}

/// What the book is read from, at one moment: a hash of every file's path, size and time of
/// change, and how many files there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fingerprint {
    hash: u64,
    files: usize,
}

/// The book at `dir`, loaded again when what it is read from changes.
pub(crate) struct Watch {
    dir: PathBuf,
    /// Whether the book's own commands run (`mcp --allow-commands`).
    commands: Commands,
    last: Option<(Fingerprint, Arc<State>)>,
}

impl Watch {
    pub(crate) fn new(dir: PathBuf, commands: Commands) -> Watch {
        Watch {
            dir,
            commands,
            last: None,
        }
    }

    /// The book as it is on disk now, loaded again only if something changed.
    pub(crate) fn current(&mut self) -> Arc<State> {
        // Taken before the load: an edit made while the book loads is seen by the next call.
        let now = Fingerprint::of(&roots(&self.dir));
        if let Some((was, state)) = &self.last
            && *was == now
        {
            return Arc::clone(state);
        }
        let state = Arc::new(load(&self.dir, self.commands));
        self.last = Some((now, Arc::clone(&state)));
        state
    }
}

/// Loads and checks the book at `dir`, as `check` does, its own preprocessors run only as
/// `commands` says.
fn load(dir: &Path, commands: Commands) -> State {
    let loaded = load_with(dir, "html", commands).and_then(|(ctx, book, left_out)| {
        let source_root = crate::read::config::Config::from_book_config(&ctx.config)
            .ok()
            .and_then(|c| c.source_root);
        let paths = Paths::new(dir, source_root.as_deref());
        let mut agent = crate::pipeline::for_agent(&ctx, &book, paths.prefix())?;
        let findings: serde_json::Value = serde_json::from_str(
            &agent
                .report
                .render(crate::report::diagnostic::Format::Json, false),
        )?;
        // Read back once, typed, for `contract_check`.
        let typed: Vec<FindingOut> = serde_json::from_value(findings.clone())?;
        let mut export =
            crate::commands::export::of(&agent.snapshot, ctx.config.book.title.clone(), findings);
        let mut pending: Vec<CoverageOut> = agent
            .snapshot
            .pending
            .iter()
            .map(CoverageOut::from)
            .collect();
        for coverage in export.coverage.iter_mut().chain(&mut pending) {
            rebase(coverage, &paths);
        }
        for citation in &mut agent.citations {
            citation.path = paths.of_source(&citation.path);
        }
        let status = &mut agent.status;
        for file in status.results.iter_mut().flatten() {
            *file = paths.of_book(file);
        }
        for file in status.providers.iter_mut().flat_map(|p| &mut p.reports) {
            *file = paths.of_book(file);
        }
        Ok(Loaded {
            src: slashed(&ctx.config.book.src),
            ctx: Mutex::new(ctx),
            book,
            agent,
            export,
            pending,
            paths,
            findings: typed,
            briefs: Mutex::new(HashMap::new()),
            left_out: crate::read::load::refused(&left_out),
        })
    });
    match loaded {
        Ok(loaded) => State::Loaded(Box::new(loaded)),
        Err(error) => State::Failed(format!("{error:#}")),
    }
}

/// A coverage's citations and results files from the repository's root.
fn rebase(coverage: &mut CoverageOut, paths: &Paths) {
    for cell in &mut coverage.rules {
        if let Some(citation) = &mut cell.citation {
            citation.path = paths.of_source(&citation.path);
        }
        if let Some(result) = &mut cell.result {
            result.run = paths.of_book(&result.run);
        }
    }
}

/// What the book at `dir` is read from: book.toml, its source folder, `source-root`, the
/// folders of `test-results` (up to their first glob) and `build.extra-watch-dirs`, as
/// book.toml (with `MDBOOK_*` overrides) names them; book.toml and `src` when it cannot be
/// read.
fn roots(dir: &Path) -> Vec<PathBuf> {
    let toml = dir.join("book.toml");
    let Ok(mut config) = mdbook_driver::config::Config::from_disk(&toml) else {
        return vec![toml, dir.join("src")];
    };
    if config.update_from_env().is_err() {
        return vec![toml, dir.join("src")];
    }
    let mut roots = vec![toml, dir.join(&config.book.src)];
    roots.extend(command_files(&config, dir));
    if let Ok(ours) = crate::read::config::Config::from_book_config(&config) {
        roots.extend(ours.source_root.map(|r| dir.join(r)));
        roots.extend(ours.companions.iter().map(|c| dir.join(c)));
        roots.extend(ours.baseline.as_ref().map(|b| dir.join(b)));
        for pattern in &ours.test_results {
            let fixed: PathBuf = Path::new(pattern)
                .components()
                .take_while(|c| !crate::read::code::is_glob(&c.as_os_str().to_string_lossy()))
                .collect();
            roots.push(dir.join(fixed));
        }
    }
    roots.extend(config.build.extra_watch_dirs.iter().map(|d| dir.join(d)));
    roots
}

/// The files of the book's folder that a preprocessor's or a renderer's `command` names (a
/// script it runs, `python3 tools/pp.py`): an edit of one changes what the book gives.
fn command_files(config: &mdbook_driver::config::Config, dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for (_, table) in config
        .preprocessors::<serde_json::Value>()
        .unwrap_or_default()
        .into_iter()
        .chain(config.outputs::<serde_json::Value>().unwrap_or_default())
    {
        let Some(command) = table.get("command").and_then(|c| c.as_str()) else {
            continue;
        };
        files.extend(
            command
                .split_whitespace()
                .map(|word| dir.join(word.trim_matches(['"', '\''])))
                .filter(|path| path.is_file()),
        );
    }
    files
}

impl Fingerprint {
    /// The fingerprint of the files under `roots` (a root may be a file; one that does not
    /// exist counts as such). Files git or `.ignore` excludes are left out, as the source
    /// index leaves them out.
    fn of(roots: &[PathBuf]) -> Fingerprint {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        let mut files = 0;
        for root in roots {
            root.hash(&mut hasher);
            let walker = ignore::WalkBuilder::new(root)
                .hidden(false)
                .require_git(false)
                .sort_by_file_path(Path::cmp)
                .filter_entry(|e| e.file_name() != ".git")
                .build();
            for entry in walker.flatten() {
                let Ok(meta) = entry.metadata() else { continue };
                if !meta.is_file() {
                    continue;
                }
                files += 1;
                entry.path().hash(&mut hasher);
                meta.len().hash(&mut hasher);
                meta.modified().ok().hash(&mut hasher);
            }
        }
        Fingerprint {
            hash: hasher.finish(),
            files,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fingerprint_changes_with_a_file_and_only_then() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.md"), "one").unwrap();
        let roots = roots(dir.path());
        let first = Fingerprint::of(&roots);
        assert_eq!(first, Fingerprint::of(&roots));
        std::fs::write(dir.path().join("src/a.md"), "two!").unwrap();
        assert_ne!(first, Fingerprint::of(&roots));
        let second = Fingerprint::of(&roots);
        std::fs::write(dir.path().join("src/b.md"), "").unwrap();
        assert_ne!(second, Fingerprint::of(&roots));
    }
}
