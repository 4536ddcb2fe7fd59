//! The book's own preprocessors in an editor (mdbook-spec, admonish: any that book.toml runs
//! before this one besides mdBook's `index` and `links`), kept off the keystroke path as
//! rust-analyzer keeps `cargo check` off it.
//!
//! - When the server starts and at every save, [`Externals::start`] runs them in a child
//!   process of this binary (`mdbook-contract lsp-arrival`, [`arrival`]) on the texts as the
//!   editor has them. A run still going is ended first: its process group is killed, so the
//!   preprocessors it started go too. Only the newest run's result is taken.
//! - The result ([`Arrival`]: for each chapter its file, what `links` alone made of it and
//!   what arrived at this preprocessor's place) is kept, and every check while typing reuses
//!   it ([`Arrival::current`]). A chapter whose `links` text is the run's gets the run's
//!   content as it is, so once a run is in, the diagnostics are those of `check`. An edited
//!   chapter gets the run's content with the edit applied where the run kept the text the
//!   edit touches; its findings on the edited lines wait for the next run, since a
//!   preprocessor may rewrite what was typed. A chapter whose edit touches text a
//!   preprocessor generated keeps its last diagnostics until the next run.

use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use anyhow::{Context as _, Result};
use crossbeam_channel::{Receiver, Sender};
use mdbook_preprocessor::book::{Book, BookItem};
use serde::{Deserialize, Serialize};

use super::rewrites::Rewrites;
use crate::read::chapter::Overlays;
use crate::read::load::{Preprocessors, load_for_editor};
use crate::read::sourcemap::Pieces;

/// What a run of the book's preprocessors gives back (the child's standard output).
#[derive(Serialize, Deserialize)]
struct RunOutput {
    /// The book after mdBook's own preprocessors.
    links: Book,
    /// The book as it arrives at this preprocessor's place.
    arrived: Book,
    /// Each chapter's file as the run read it, by source path.
    files: BTreeMap<PathBuf, String>,
    /// What the preprocessors rewrote, learned over every chapter.
    rewrites: Rewrites,
}

/// The child's side: loads the book at `dir` with the overlays read from `input` (a JSON map
/// of absolute paths to texts) twice, with mdBook's preprocessors only and with all of them,
/// and writes the two books, with the chapters' files as read, to `output` as JSON.
pub fn arrival(dir: &Path, input: impl Read, output: impl Write) -> Result<()> {
    let overlays: Overlays =
        serde_json::from_reader(input).context("the overlays on standard input")?;
    let (ctx, links) = load_for_editor(dir, &overlays, Preprocessors::MdbookOnly)?;
    let (_, arrived) = load_for_editor(dir, &overlays, Preprocessors::All)?;
    let src = ctx.root.join(&ctx.config.book.src);
    let mut files = BTreeMap::new();
    let mut rewrites = Rewrites::default();
    let arrived_by_path: HashMap<&Path, &str> = arrived
        .chapters()
        .filter_map(|c| Some((c.source_path.as_deref()?, c.content.as_str())))
        .collect();
    for chapter in links.chapters() {
        if let Some(path) = &chapter.source_path
            && let Some(content) = arrived_by_path.get(path.as_path())
        {
            rewrites.learn(&chapter.content, content);
        }
    }
    for chapter in links.chapters() {
        if let Some(path) = &chapter.source_path {
            let absolute = crate::util::paths::lexical(&src.join(path));
            let text = match overlays.get(&absolute) {
                Some(text) => text.clone(),
                None => std::fs::read_to_string(&absolute).unwrap_or_default(),
            };
            files.insert(path.clone(), text);
        }
    }
    serde_json::to_writer(
        output,
        &RunOutput {
            links,
            arrived,
            files,
            rewrites,
        },
    )?;
    Ok(())
}

/// A run that ended: its number, and what it gave or why it failed.
pub(super) struct Finished {
    generation: u64,
    result: Result<RunOutput, String>,
}

/// The runs of the book's preprocessors, and the last result.
pub(super) struct Externals {
    generation: u64,
    /// The process (group) of the run under way.
    running: Option<u32>,
    sender: Sender<Finished>,
    pub(super) receiver: Receiver<Finished>,
    /// The newest run's result.
    pub(super) arrival: Option<Arrival>,
    /// Why the newest run failed, if it did.
    pub(super) failed: Option<String>,
}

impl Default for Externals {
    fn default() -> Externals {
        let (sender, receiver) = crossbeam_channel::unbounded();
        Externals {
            generation: 0,
            running: None,
            sender,
            receiver,
            arrival: None,
            failed: None,
        }
    }
}

impl Externals {
    /// Starts a run on the book at `root` with `overlays`, ending the one under way.
    pub(super) fn start(&mut self, root: &Path, overlays: &Overlays) {
        self.cancel();
        self.generation += 1;
        let generation = self.generation;
        let sender = self.sender.clone();
        // `MDBOOK_CONTRACT_LSP_ARRIVAL` names another program to run as the child (one that
        // takes the same arguments): the fuzz target, whose own executable is no
        // `mdbook-contract`, sets it.
        let program = match std::env::var_os("MDBOOK_CONTRACT_LSP_ARRIVAL") {
            Some(program) => Ok(PathBuf::from(program)),
            None => std::env::current_exe().context("the path of this program"),
        };
        let spawned = program.and_then(|exe| {
            let mut command = Command::new(exe);
            command
                .arg("lsp-arrival")
                .arg(root)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            #[cfg(unix)]
            std::os::unix::process::CommandExt::process_group(&mut command, 0);
            Ok(command.spawn()?)
        });
        let mut child = match spawned {
            Ok(child) => child,
            Err(error) => {
                self.failed = Some(format!(
                    "the book's preprocessors could not be run: {error:#}"
                ));
                return;
            }
        };
        self.running = Some(child.id());
        let input = serde_json::to_vec(overlays).unwrap_or_default();
        let mut stdin = child.stdin.take();
        std::thread::spawn(move || {
            if let Some(stdin) = stdin.as_mut() {
                let _ = stdin.write_all(&input);
            }
            drop(stdin);
            let result = child
                .wait_with_output()
                .map_err(|error| error.to_string())
                .and_then(|out| {
                    if out.status.success() {
                        serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
                    } else {
                        let stderr = String::from_utf8_lossy(&out.stderr);
                        let said = stderr.trim().trim_start_matches("mdbook-contract: ");
                        Err(said.to_owned())
                    }
                });
            let _ = sender.send(Finished { generation, result });
        });
    }

    /// Ends the run under way, with the processes it started.
    pub(super) fn cancel(&mut self) {
        if let Some(pid) = self.running.take() {
            kill_group(pid);
        }
    }

    /// Takes a run's result: the newest run's replaces the last; an older one's is dropped.
    /// Whether it changed anything.
    pub(super) fn finished(&mut self, finished: Finished) -> bool {
        if finished.generation != self.generation {
            return false;
        }
        self.running = None;
        match finished.result {
            Ok(output) => {
                self.arrival = Some(Arrival::new(output));
                self.failed = None;
            }
            Err(error) => self.failed = Some(error),
        }
        true
    }
}

impl Drop for Externals {
    fn drop(&mut self) {
        self.cancel();
    }
}

#[cfg(unix)]
fn kill_group(pid: u32) {
    let _ = Command::new("kill")
        .args(["-TERM", "--", &format!("-{pid}")])
        .stderr(Stdio::null())
        .status();
}

#[cfg(not(unix))]
fn kill_group(pid: u32) {
    let _ = Command::new("taskkill")
        .args(["/PID", &pid.to_string(), "/T", "/F"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// A run's result, kept for the checks while typing.
pub(super) struct Arrival {
    arrived: Book,
    chapters: HashMap<PathBuf, Snapshot>,
    rewrites: Rewrites,
}

/// One chapter as the run saw it.
struct Snapshot {
    file: String,
    links: String,
    arrived: String,
    /// How `arrived` was made of `links`, by whole lines (an edit is applied only to lines a
    /// preprocessor left as they were), worked out when the chapter is first edited.
    pieces: OnceLock<Pieces>,
}

/// What of an edited chapter's findings waits for the next run.
pub(super) enum Held {
    /// Those on these lines (from 1) of the chapter file, by source path: typed lines that a
    /// preprocessor could rewrite (see `rewrites.rs`).
    Lines(PathBuf, Vec<usize>),
    /// All of them: the edit touched generated text; the last diagnostics stay.
    All(PathBuf),
}

impl Arrival {
    fn new(output: RunOutput) -> Arrival {
        let RunOutput {
            links,
            arrived,
            mut files,
            rewrites,
        } = output;
        let arrived_by_path: HashMap<&Path, &str> = arrived
            .chapters()
            .filter_map(|c| Some((c.source_path.as_deref()?, c.content.as_str())))
            .collect();
        let mut chapters = HashMap::new();
        for chapter in links.chapters() {
            let Some(path) = &chapter.source_path else {
                continue;
            };
            let Some(content) = arrived_by_path.get(path.as_path()) else {
                continue;
            };
            chapters.insert(
                path.clone(),
                Snapshot {
                    file: files.remove(path).unwrap_or_default(),
                    links: chapter.content.clone(),
                    arrived: (*content).to_owned(),
                    pieces: OnceLock::new(),
                },
            );
        }
        Arrival {
            arrived,
            chapters,
            rewrites,
        }
    }

    /// The book as the run's result makes it of `links_now` (the book after mdBook's own
    /// preprocessors, as the editor has it now), and what waits for the next run. `file_now`
    /// reads a chapter's file (by source path) as the editor has it.
    pub(super) fn current(
        &self,
        links_now: &Book,
        file_now: impl Fn(&Path) -> String,
    ) -> (Book, Vec<Held>) {
        let now: HashMap<&Path, &str> = links_now
            .chapters()
            .filter_map(|c| Some((c.source_path.as_deref()?, c.content.as_str())))
            .collect();
        let mut book = self.arrived.clone();
        let mut held = Vec::new();
        for item in book.items.iter_mut() {
            self.update(item, &now, &file_now, &mut held);
        }
        (book, held)
    }

    fn update(
        &self,
        item: &mut BookItem,
        now: &HashMap<&Path, &str>,
        file_now: &impl Fn(&Path) -> String,
        held: &mut Vec<Held>,
    ) {
        let BookItem::Chapter(chapter) = item else {
            return;
        };
        if let Some(path) = chapter.source_path.clone()
            && let (Some(snapshot), Some(links_now)) =
                (self.chapters.get(&path), now.get(path.as_path()))
            && snapshot.links != *links_now
        {
            match snapshot.patched(links_now) {
                Some(content) => {
                    chapter.content = content;
                    let file = file_now(&path);
                    let lines = self
                        .rewrites
                        .held(&file, edited_lines(&snapshot.file, &file));
                    if !lines.is_empty() {
                        held.push(Held::Lines(path.clone(), lines));
                    }
                }
                None => held.push(Held::All(path.clone())),
            }
        }
        for sub in &mut chapter.sub_items {
            self.update(sub, now, file_now, held);
        }
    }
}

impl Snapshot {
    /// The run's content with the edit from its `links` text to `links_now` applied, when
    /// the run kept the text that the edit touches.
    fn patched(&self, links_now: &str) -> Option<String> {
        let (then, now) = edit(&self.links, links_now);
        let pieces = self
            .pieces
            .get_or_init(|| Pieces::between_lines(&self.links, &self.arrived));
        let typed = &links_now[now.clone()];
        // Whole lines put in at a line start go between the lines around them, even where a
        // preprocessor rewrote those (typing a new line above `r[rule]`, say).
        let whole_lines = then.is_empty()
            && typed.ends_with('\n')
            && (then.start == 0 || self.links[..then.start].ends_with('\n'));
        let at = match pieces.to_content(then.clone()) {
            Some(at) => at,
            None if whole_lines => {
                let at = pieces.boundary_in_content(then.start)?;
                at..at
            }
            None => return None,
        };
        let mut content = String::with_capacity(self.arrived.len() + now.len());
        content.push_str(&self.arrived[..at.start]);
        content.push_str(typed);
        content.push_str(&self.arrived[at.end..]);
        Some(content)
    }
}

/// The one stretch in which `then` and `now` differ: its range in each (what is before and
/// after it is the same in both).
fn edit(then: &str, now: &str) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
    let mut prefix = then
        .bytes()
        .zip(now.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    // Equal bytes before a place are a character boundary in both texts or in neither.
    while !then.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let most = then.len().min(now.len()) - prefix;
    let mut suffix = then
        .bytes()
        .rev()
        .zip(now.bytes().rev())
        .take(most)
        .take_while(|(a, b)| a == b)
        .count();
    while !then.is_char_boundary(then.len() - suffix) {
        suffix -= 1;
    }
    (prefix..then.len() - suffix, prefix..now.len() - suffix)
}

/// The lines (from 1) of `now` that differ from `then`: those the changed stretch touches
/// (the line of a deletion, when nothing was put in its place).
fn edited_lines(then: &str, now: &str) -> RangeInclusive<usize> {
    let (_, changed) = edit(then, now);
    let line = |at: usize| now[..at].matches('\n').count() + 1;
    let first = line(changed.start);
    // A stretch that ends with its line break ends on that line, not the next.
    let inside = &now[changed.clone()];
    let last = line(changed.end) - usize::from(inside.ends_with('\n'));
    first..=last.max(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_is_the_stretch_between_the_common_ends() {
        assert_eq!(edit("abc", "abXc"), (2..2, 2..3));
        assert_eq!(edit("a é b", "a è b"), (2..4, 2..4));
        assert_eq!(edit("same", "same"), (4..4, 4..4));
        assert_eq!(edit("aa", "aaa"), (2..2, 2..3));
        assert_eq!(edited_lines("a\nb\nc\n", "a\nbX\nc\n"), 2..=2);
        assert_eq!(edited_lines("a\nb\nc\n", "a\nc\n"), 2..=2);
        assert_eq!(edited_lines("a\nc\n", "a\nb\nb\nc\n"), 2..=3);
    }

    #[test]
    fn an_edit_of_kept_text_is_applied_to_the_run_and_one_of_generated_text_is_not() {
        let snapshot = Snapshot {
            file: String::new(),
            links: "# T\n\nr[a]\nSome text here.\n".to_owned(),
            arrived: "# T\n\n<div id=\"r-a\"></div>\nSome text here.\n".to_owned(),
            pieces: OnceLock::new(),
        };
        assert_eq!(
            snapshot
                .patched("# T\n\nr[a]\nSome more text here.\n")
                .as_deref(),
            Some("# T\n\n<div id=\"r-a\"></div>\nSome more text here.\n")
        );
        assert_eq!(snapshot.patched("# T\n\nr[ab]\nSome text here.\n"), None);
        // A new line above the rewritten one goes above what it became.
        assert_eq!(
            snapshot
                .patched("# T\n\nNew.\nr[a]\nSome text here.\n")
                .as_deref(),
            Some("# T\n\nNew.\n<div id=\"r-a\"></div>\nSome text here.\n")
        );
    }
}
