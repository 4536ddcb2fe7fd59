//! Checking the book after a batch of changes and publishing what changed: each finding as a
//! diagnostic in the negotiated encoding (its notes as related places), the findings on typed
//! lines that wait for the book's own preprocessors held back, a book that cannot load as one
//! diagnostic on book.toml.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;
use lsp_server::Notification;
use lsp_types::notification::{Notification as _, PublishDiagnostics};
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, NumberOrString,
    PublishDiagnosticsParams, Url,
};

use super::{Server, external, text};
use crate::pipeline::outline::Outline;
use crate::read::chapter::Overlays;
use crate::read::load::{Commands, Preprocessors};
use crate::report::diagnostic::Finding;
use crate::util::vocab::Severity;

/// What one check of the book found, and what of it waits for the next run of the book's
/// own preprocessors.
pub(super) struct Checked {
    pub(super) report: crate::report::diagnostic::Report,
    pub(super) outline: Outline,
    /// The book's `src` folder, absolute.
    pub(super) src: PathBuf,
    pub(super) held: Vec<external::Held>,
    /// What the editor is told of the book's commands that were not run (see
    /// [`crate::read::load::refused`]).
    pub(super) left_out: Option<String>,
}

impl Server {
    pub(super) fn check_if_changed(&mut self) {
        if self.dirty {
            self.dirty = false;
            self.check();
        }
    }

    /// Loads and checks the book, and publishes the diagnostics that changed. The book is
    /// loaded with mdBook's own preprocessors; what the book's own (external) ones make of it
    /// comes from their last run (see `external.rs`), which a save starts again.
    pub(super) fn check(&mut self) {
        let Some(root) = self.root.clone() else {
            return;
        };
        let overlays = Arc::clone(&self.overlays);
        let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.check_with_runs(&root, &overlays)
        }));
        let diagnostics = match checked {
            Ok(Ok(None)) => return,
            Ok(Ok(Some(checked))) => self.diagnostics_of(&root, checked),
            Ok(Err(error)) => {
                let (uri, diagnostic) = self.unloadable(&root, &format!("{error:#}"));
                BTreeMap::from([(uri, vec![diagnostic])])
            }
            Err(_) => {
                let message = format!(
                    "internal error: mdbook-contract {} panicked while checking the book; this is a bug (please report it with the book)",
                    env!("CARGO_PKG_VERSION")
                );
                let (uri, diagnostic) = self.unloadable(&root, &message);
                BTreeMap::from([(uri, vec![diagnostic])])
            }
        };
        self.publish(diagnostics);
    }

    /// The diagnostics of a checked book by document, what the baseline records as hints; a
    /// document whose findings wait for the book's preprocessors keeps what was published.
    pub(super) fn diagnostics_of(
        &mut self,
        root: &Path,
        checked: Checked,
    ) -> BTreeMap<Url, Vec<Diagnostic>> {
        let Checked {
            report,
            outline,
            src,
            held,
            left_out,
        } = checked;
        self.outline = outline;
        let mut diagnostics: BTreeMap<Url, Vec<Diagnostic>> = BTreeMap::new();
        let mut kept = Vec::new();
        let mut lines = Vec::new();
        for held in held {
            match held {
                external::Held::All(path) => kept.push(src.join(path)),
                external::Held::Lines(path, range) => lines.push((src.join(path), range)),
            }
        }
        // What the baseline records is shown as a hint: known, not failing the build.
        let known = report.known.iter().map(|f| (f, true));
        for (finding, baselined) in report.findings.iter().map(|f| (f, false)).chain(known) {
            let path = if finding.location.path.is_absolute() {
                finding.location.path.clone()
            } else {
                root.join(&finding.location.path)
            };
            // Held for the next run of the book's preprocessors.
            let waits = kept.contains(&path)
                || lines
                    .iter()
                    .any(|(file, range)| *file == path && range.contains(&finding.location.line));
            if waits {
                continue;
            }
            if let Some(uri) = self.uris.of(&path) {
                let mut diagnostic = self.diagnostic(finding, &uri);
                if baselined {
                    diagnostic.severity = Some(DiagnosticSeverity::HINT);
                    diagnostic
                        .message
                        .push_str("\nnote: known: the baseline records it");
                }
                diagnostics.entry(uri).or_default().push(diagnostic);
            }
        }
        for path in kept {
            if let Some(uri) = self.uris.of(&path)
                && let Some(last) = self.published.get(&uri)
            {
                diagnostics.insert(uri, last.clone());
            }
        }
        if let Some(note) = left_out {
            let (uri, diagnostic) = self.commands_left_out(root, &note);
            diagnostics.entry(uri).or_default().push(diagnostic);
        }
        diagnostics
    }

    /// The book's commands that were not run, as information on book.toml (at the first
    /// `[preprocessor.NAME]` table that names one), and once in a message.
    fn commands_left_out(&mut self, root: &Path, note: &str) -> (Url, Diagnostic) {
        let toml = root.join("book.toml");
        let text = self.text_of(&toml);
        let line = text
            .lines()
            .position(|l| {
                let l = l.trim_start();
                l.starts_with("[preprocessor.")
                    && !l.starts_with("[preprocessor.contract")
                    && !l.starts_with("[preprocessor.links]")
                    && !l.starts_with("[preprocessor.index]")
            })
            .unwrap_or(0);
        let location = crate::read::sourcemap::Location {
            path: toml.clone(),
            line: line + 1,
            column: 1,
            width: text.lines().nth(line).map_or(0, |l| l.chars().count()),
            line_text: text.lines().nth(line).unwrap_or("").to_owned(),
            note: None,
        };
        let uri = self
            .uris
            .of(&toml)
            .unwrap_or_else(|| Url::parse("file:///book.toml").expect("a valid URL"));
        if self.told.as_deref() != Some(note) {
            self.told = Some(note.to_owned());
            let params = lsp_types::ShowMessageParams {
                typ: lsp_types::MessageType::INFO,
                message: format!("mdbook-contract: {note}"),
            };
            let message = Notification::new(
                <lsp_types::notification::ShowMessage as lsp_types::notification::Notification>::METHOD
                    .to_owned(),
                params,
            );
            let _ = self.connection.sender.send(message.into());
        }
        let diagnostic = Diagnostic {
            range: text::range(&location, self.encoding),
            severity: Some(DiagnosticSeverity::INFORMATION),
            code: Some(NumberOrString::String("commands-not-run".to_owned())),
            source: Some(env!("CARGO_PKG_NAME").to_owned()),
            message: note.to_owned(),
            ..Diagnostic::default()
        };
        (uri, diagnostic)
    }

    /// Publishes each document's diagnostics that changed, and an empty list for each that
    /// had some and has none now.
    pub(super) fn publish(&mut self, mut diagnostics: BTreeMap<Url, Vec<Diagnostic>>) {
        let gone: Vec<Url> = self
            .published
            .keys()
            .filter(|uri| !diagnostics.contains_key(*uri))
            .cloned()
            .collect();
        for uri in gone {
            diagnostics.insert(uri, Vec::new());
        }
        for (uri, list) in diagnostics {
            if self.published.get(&uri) == Some(&list) {
                continue;
            }
            let params = PublishDiagnosticsParams::new(uri.clone(), list.clone(), None);
            let note = Notification::new(PublishDiagnostics::METHOD.to_owned(), params);
            let _ = self.connection.sender.send(note.into());
            if list.is_empty() {
                self.published.remove(&uri);
            } else {
                self.published.insert(uri, list);
            }
        }
    }

    /// The check of [`Server::check`]: `None` while the first run of the book's own
    /// preprocessors is still under way (nothing is published before it is in).
    pub(super) fn check_with_runs(
        &mut self,
        root: &Path,
        overlays: &Arc<Overlays>,
    ) -> Result<Option<Checked>> {
        let (ctx, links) =
            crate::read::load::load_for_editor(root, overlays, Preprocessors::MdbookOnly)?;
        let src = ctx.root.join(&ctx.config.book.src);
        let external = crate::read::chapter::external_preprocessors(&ctx.config);
        if external.is_empty() || self.commands == Commands::Refuse {
            self.externals.cancel();
            // Opening is not running: without `--allow-commands`, the book as written.
            let left_out = if self.commands == Commands::Refuse {
                // Those the editor would run: the ones before this preprocessor.
                let named: Vec<String> = crate::read::load::commands_of(&ctx.config)
                    .into_iter()
                    .filter(|(name, _)| external.contains(name))
                    .map(|(name, command)| format!("`{name}` (`{command}`)"))
                    .collect();
                crate::read::load::refused(&named)
            } else {
                None
            };
            let (report, outline) =
                crate::pipeline::for_editor(&ctx, &links, Arc::clone(overlays), &self.kept)?;
            return Ok(Some(Checked {
                report,
                outline,
                src,
                held: Vec::new(),
                left_out,
            }));
        }
        if std::mem::take(&mut self.saved) {
            self.externals.start(root, overlays);
        }
        if let Some(error) = &self.externals.failed {
            anyhow::bail!("{error}");
        }
        let Some(arrival) = &self.externals.arrival else {
            // The outline serves requests meanwhile.
            if let Ok((_, outline)) =
                crate::pipeline::for_editor(&ctx, &links, Arc::clone(overlays), &self.kept)
            {
                self.outline = outline;
            }
            return Ok(None);
        };
        let (book, held) = arrival.current(&links, |path| self.text_of(&src.join(path)));
        let (report, outline) =
            crate::pipeline::for_editor(&ctx, &book, Arc::clone(overlays), &self.kept)?;
        Ok(Some(Checked {
            report,
            outline,
            src,
            held,
            left_out: None,
        }))
    }

    pub(super) fn diagnostic(&self, finding: &Finding, uri: &Url) -> Diagnostic {
        let location = &finding.location;
        let range = text::range(location, self.encoding);
        let mut message = finding.message.clone();
        if let Some(note) = &location.note {
            message.push_str("\nnote: ");
            message.push_str(note);
        }
        let mut related = Vec::new();
        if let Some(help) = &finding.help {
            related.push(DiagnosticRelatedInformation {
                location: lsp_types::Location::new(uri.clone(), range),
                message: format!("help: {help}"),
            });
        }
        for note in &finding.notes {
            match self.note_location(note) {
                Some((label, location)) => related.push(DiagnosticRelatedInformation {
                    location,
                    message: label,
                }),
                None => {
                    message.push_str("\nnote: ");
                    message.push_str(note);
                }
            }
        }
        Diagnostic {
            range,
            severity: Some(match finding.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                _ => DiagnosticSeverity::WARNING,
            }),
            code: Some(NumberOrString::String(finding.check.name().to_owned())),
            source: Some(env!("CARGO_PKG_NAME").to_owned()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..Diagnostic::default()
        }
    }

    /// A note as `resolve` writes it, `label: path:line:col`, as a label and a place.
    pub(super) fn note_location(&self, note: &str) -> Option<(String, lsp_types::Location)> {
        let mut parts = note.rsplitn(3, ':');
        let column: usize = parts.next()?.trim().parse().ok()?;
        let line: usize = parts.next()?.trim().parse().ok()?;
        let (label, path) = parts.next()?.split_once(": ")?;
        let path = PathBuf::from(path);
        let path = match &self.root {
            Some(root) if path.is_relative() => root.join(path),
            _ => path,
        };
        let uri = self.uris.of(&path)?;
        let text = self.text_of(&path);
        let line_text = text.lines().nth(line.saturating_sub(1)).unwrap_or("");
        let location = crate::read::sourcemap::Location {
            path,
            line,
            column,
            width: 1,
            line_text: line_text.to_owned(),
            note: None,
        };
        Some((
            label.to_owned(),
            lsp_types::Location::new(uri, text::range(&location, self.encoding)),
        ))
    }

    /// The diagnostic of a book that cannot be loaded: on book.toml, at the key the message
    /// names when it names one, else at the top.
    pub(super) fn unloadable(&self, root: &Path, message: &str) -> (Url, Diagnostic) {
        let toml = root.join("book.toml");
        let text = self.text_of(&toml);
        let key = message
            .split('`')
            .find_map(|part| part.strip_prefix("preprocessor.contract."))
            .map(|key| key.split(['.', '[']).next().unwrap_or(key));
        let location = crate::report::resolve::key_location(
            toml.clone(),
            &text,
            &crate::read::config::KeyPath::key(key.unwrap_or("")),
        );
        let uri = self
            .uris
            .of(&toml)
            .unwrap_or_else(|| Url::parse("file:///book.toml").expect("a valid URL"));
        let diagnostic = Diagnostic {
            range: text::range(&location, self.encoding),
            severity: Some(DiagnosticSeverity::ERROR),
            code: Some(NumberOrString::String("book".to_owned())),
            source: Some(env!("CARGO_PKG_NAME").to_owned()),
            message: format!("the book cannot be loaded: {message}"),
            ..Diagnostic::default()
        };
        (uri, diagnostic)
    }
}
