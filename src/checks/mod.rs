//! The checks: each one reads the model and the chapter indexes and reports findings.
//!
//! Each check is a [`Check`] of [`crate::util::vocab`] (its name, default severity and summary) and
//! a file here with a `run` function, which [`run_all`] calls through [`run`]. A check never
//! edits text and never decides severity: it pushes [`Draft`]s at byte ranges of a chapter's
//! content, and [`crate::report::resolve`] turns them into `file:line:col`, applies book.toml's
//! severities and suppression. To add a check: its variant in `vocab.rs`, a file here, its arm
//! in [`run`], a fixture that fires it and one that keeps it silent (`tests/testsuite`), and a
//! row in the README.

use std::cell::Cell;
use std::collections::HashSet;
use std::ops::Range;

use crate::model::rules::Rules;
use crate::model::rules::code::CodeCitation;
use crate::model::rules::coverage::Coverage;
use crate::model::spec::Specs;
use crate::model::{Model, UNKNOWN_PROFILE};
use crate::read::chapter::{BookFiles, Chapter};
use crate::read::citation::{Citation, classify, is_prose};
use crate::read::code::{Roots, SourceIndex, Spot};
use crate::read::companion::Companion;
use crate::read::config::{Config, KeyPath};
use crate::read::markdown::ChapterIndex;
use crate::read::shortcode::Kind;
use crate::util::vocab::Check;

mod cited_path;
mod cited_symbol;
mod dangling_definition;
mod dangling_link;
mod duplicate_axis;
mod duplicate_claim;
mod duplicate_rule;
mod em_dash;
mod failing_rule;
mod forbidden_term;
mod invisible_character;
mod leftover_directive;
mod line_reference;
mod malformed_results;
mod malformed_rule;
mod malformed_section;
mod malformed_shortcode;
mod malformed_suppression;
mod missing_answer;
mod missing_chapter;
mod missing_claim;
mod missing_evidence;
mod missing_role;
mod missing_rule;
mod must_cite;
mod provider_reports;
mod readme_link;
mod spec_drift;
mod spec_mismatch;
mod stale_results;
mod stale_rule;
mod syntax_error;
mod unanswered_entry;
mod unclosed_ignore;
mod unknown_axis;
mod unknown_claim;
mod unknown_profile;
mod unknown_rule;
mod unreadable_source;
mod unverified_rule;

/// What a check sees.
pub(crate) struct Context<'a> {
    /// The chapters, in document order.
    pub chapters: &'a [Chapter<'a>],
    /// The companions, in the order book.toml names them.
    pub companions: &'a [Companion],
    /// The model collected from them.
    pub model: &'a Model,
    /// The template's entries and the filled specs.
    pub specs: &'a Specs,
    /// The rules of the contract chapters.
    pub rules: &'a Rules,
    /// Which rules each built provider's code cites.
    pub coverage: &'a Coverage,
    /// The citations of rules in the source tree (none without it).
    pub citations: &'a [CodeCitation],
    /// The ignore regions of the source tree opened and never closed.
    pub unclosed: &'a [Spot],
    /// The configuration.
    pub config: &'a Config,
    /// Where the book's files are.
    pub files: &'a BookFiles,
    /// The source tree, when `source-root` is set.
    pub source: Option<&'a SourceIndex>,
    /// The shared-layer roots.
    pub shared: &'a Roots,
    /// Words that are never symbols: axis codes, profile names, provider names, `symbol-ignore`.
    pub excluded: &'a HashSet<String>,
    /// The test results read (none without `test-results`).
    pub results: &'a crate::read::results::Results,
    /// What the provider reports (`provider-reports`) made of the coverage.
    pub reported: &'a crate::model::rules::reported::Reported,
}

/// A text that the prose checks read: a chapter, or a companion.
pub(crate) struct Text<'t> {
    /// Where a finding in it is reported.
    pub place: Place,
    /// Its content.
    pub content: &'t str,
    /// Its one parse.
    pub index: &'t ChapterIndex,
}

impl<'a> Context<'a> {
    /// Every chapter with its number, in document order. A check reads the chapters through
    /// this (or [`Context::texts`]), so that a bug it hits names the chapter it was reading.
    pub(crate) fn each_chapter(&self) -> impl Iterator<Item = (usize, &'a Chapter<'a>)> {
        self.chapters
            .iter()
            .enumerate()
            .inspect(|&(n, _)| reading(Reading::Chapter(n)))
    }

    /// Every companion with its number, in the order book.toml names them.
    pub(crate) fn each_companion(&self) -> impl Iterator<Item = (usize, &'a Companion)> {
        self.companions
            .iter()
            .enumerate()
            .inspect(|&(n, _)| reading(Reading::Companion(n)))
    }

    /// Every chapter, then every companion: what `em-dash`, `line-reference` and the like read.
    pub(crate) fn texts(&self) -> impl Iterator<Item = Text<'a>> {
        let chapters = self.each_chapter().map(|(n, c)| Text {
            place: Place::Chapter(n),
            content: c.content,
            index: &c.index,
        });
        let companions = self.each_companion().map(|(n, c)| Text {
            place: Place::Companion(n),
            content: &c.content,
            index: &c.index,
        });
        chapters.chain(companions)
    }

    /// Whether `word` is never taken for a symbol.
    pub(crate) fn is_excluded_word(&self, word: &str) -> bool {
        self.excluded.contains(word)
    }

    /// Every citation of the book: each code span, and each bare evidence argument of a claim,
    /// that names a path or a symbol, with its chapter and range.
    pub(crate) fn citations(&self) -> Vec<(usize, Range<usize>, Citation<'a>)> {
        citations(self.chapters, self.excluded)
    }
}

/// The words [`Context::excluded`] holds for `model` and `config`.
pub(crate) fn excluded_words(model: &Model, config: &Config) -> HashSet<String> {
    let mut words: HashSet<String> = config.symbol_ignore.iter().cloned().collect();
    words.insert(UNKNOWN_PROFILE.to_owned());
    for axis in &model.axes {
        words.insert(axis.code.clone());
        words.extend(axis.profiles.iter().map(|p| p.name.clone()));
    }
    words.extend(model.providers.iter().map(|p| p.name.clone()));
    words
}

/// See [`Context::citations`].
pub(crate) fn citations<'a>(
    chapters: &'a [Chapter<'a>],
    excluded: &HashSet<String>,
) -> Vec<(usize, Range<usize>, Citation<'a>)> {
    let is_excluded = |w: &str| excluded.contains(w);
    let mut out = Vec::new();
    for (number, chapter) in chapters.iter().enumerate() {
        for span in &chapter.index.code_spans {
            if let Some(citation) = classify(&span.text, &is_excluded) {
                out.push((number, span.range.clone(), citation));
            }
        }
        for shortcode in &chapter.scan.shortcodes {
            let Kind::Profile { evidence, .. } = &shortcode.kind else {
                continue;
            };
            // Prose is `missing-evidence`'s finding, not a list of symbols to look up.
            if is_prose(evidence.iter().map(|e| &*e.text)) {
                continue;
            }
            for arg in evidence {
                // Backticked evidence is a code span, counted above.
                let written = &chapter.content[arg.range.clone()];
                if written.starts_with('`') {
                    continue;
                }
                if let Some(citation) = classify(written, &is_excluded) {
                    out.push((number, arg.range.clone(), citation));
                }
            }
        }
    }
    out
}

/// Where a finding is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// In book.toml, at this value of `[preprocessor.contract]`, for what no chapter shows.
    Config(KeyPath),
    /// In a chapter (its index into the chapters).
    Chapter(usize),
    /// In a companion (its index into the companions).
    Companion(usize),
    /// At a citation of a rule in the source tree (its index into the source index's
    /// citations).
    Code(usize),
    /// At another place of a file of the source tree.
    Source(Box<Spot>),
    /// In a file of the book that is no chapter (SUMMARY.md), its path from the book's root.
    Book(Box<Spot>),
}

/// A finding before it is located and given its severity.
#[derive(Debug, Clone)]
pub(crate) struct Draft {
    /// The check.
    pub check: Check,
    /// Where it is.
    pub place: Place,
    /// What to point at, in the chapter's or the companion's content (empty in book.toml).
    pub range: Range<usize>,
    /// Reported as an error whatever its check's severity (unless the check is off): an
    /// unanswered entry of an accepted spec blocks implementation.
    pub blocking: bool,
    /// Reported as a warning at most, whatever its check's severity: a rule marker outside the
    /// contract chapters may belong to another preprocessor.
    pub lenient: bool,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// Other places that matter ("first defined here"), as a chapter, a range and a label.
    pub related: Vec<(usize, Range<usize>, &'static str)>,
}

impl Draft {
    /// A finding of `check` at `range` of chapter `chapter`.
    pub(crate) fn new(
        check: Check,
        chapter: usize,
        range: Range<usize>,
        message: impl Into<String>,
    ) -> Draft {
        Draft::at(check, Place::Chapter(chapter), range, message)
    }

    /// A finding of `check` at `range` of the text at `place`.
    pub(crate) fn at(
        check: Check,
        place: Place,
        range: Range<usize>,
        message: impl Into<String>,
    ) -> Draft {
        Draft {
            check,
            place,
            range,
            blocking: false,
            lenient: false,
            message: message.into(),
            help: None,
            related: Vec::new(),
        }
    }

    /// A finding of `check` about book.toml, at `key` of `[preprocessor.contract]` (empty: at
    /// the table), for what no chapter shows.
    pub(crate) fn in_config(check: Check, key: &str, message: impl Into<String>) -> Draft {
        Draft::at(check, Place::Config(KeyPath::key(key)), 0..0, message)
    }

    /// Makes it an error whatever its check's severity, unless the check is off.
    pub(crate) fn blocking(mut self, blocking: bool) -> Draft {
        self.blocking = blocking;
        self
    }

    /// Makes it a warning at most.
    pub(crate) fn lenient(mut self, lenient: bool) -> Draft {
        self.lenient = lenient;
        self
    }

    /// Adds what to do about it.
    pub(crate) fn help(mut self, help: impl Into<String>) -> Draft {
        self.help = Some(help.into());
        self
    }

    /// Adds another place that matters.
    pub(crate) fn related(
        mut self,
        chapter: usize,
        range: Range<usize>,
        label: &'static str,
    ) -> Draft {
        self.related.push((chapter, range, label));
        self
    }
}

/// Runs `check`.
fn run(check: Check, cx: &Context<'_>, out: &mut Vec<Draft>) {
    match check {
        Check::UnknownAxis => unknown_axis::run(cx, out),
        Check::DuplicateAxis => duplicate_axis::run(cx, out),
        Check::MalformedSection => malformed_section::run(cx, out),
        Check::UnknownProfile => unknown_profile::run(cx, out),
        Check::MissingClaim => missing_claim::run(cx, out),
        Check::DuplicateClaim => duplicate_claim::run(cx, out),
        Check::MissingEvidence => missing_evidence::run(cx, out),
        Check::UnknownClaim => unknown_claim::run(cx, out),
        Check::MissingAnswer => missing_answer::run(cx, out),
        Check::MalformedShortcode => malformed_shortcode::run(cx, out),
        Check::LeftoverDirective => leftover_directive::run(cx, out),
        Check::EmDash => em_dash::run(cx, out),
        Check::InvisibleCharacter => invisible_character::run(cx, out),
        Check::LineReference => line_reference::run(cx, out),
        Check::DanglingLink => dangling_link::run(cx, out),
        Check::ReadmeLink => readme_link::run(cx, out),
        Check::ForbiddenTerm => forbidden_term::run(cx, out),
        Check::MustCite => must_cite::run(cx, out),
        Check::CitedPath => cited_path::run(cx, out),
        Check::CitedSymbol => cited_symbol::run(cx, out),
        Check::MalformedSuppression => malformed_suppression::run(cx, out),
        Check::MissingRole => missing_role::run(cx, out),
        Check::DanglingDefinition => dangling_definition::run(cx, out),
        Check::UnansweredEntry => unanswered_entry::run(cx, out),
        Check::SpecDrift => spec_drift::run(cx, out),
        Check::SpecMismatch => spec_mismatch::run(cx, out),
        Check::DuplicateRule => duplicate_rule::run(cx, out),
        Check::MalformedRule => malformed_rule::run(cx, out),
        Check::UnknownRule => {
            unknown_rule::run(cx, out);
            provider_reports::unknown(cx, out);
        }
        Check::StaleRule => {
            stale_rule::run(cx, out);
            provider_reports::drift(cx, out);
        }
        Check::UnclosedIgnore => unclosed_ignore::run(cx, out),
        Check::MissingChapter => missing_chapter::run(cx, out),
        Check::SyntaxError => syntax_error::run(cx, out),
        Check::UnreadableSource => unreadable_source::run(cx, out),
        Check::UnverifiedRule => {
            unverified_rule::run(cx, out);
            provider_reports::missing(cx, out);
        }
        Check::MissingRule => missing_rule::run(cx, out),
        Check::FailingRule => failing_rule::run(cx, out),
        Check::StaleResults => stale_results::run(cx, out),
        Check::MalformedResults => {
            malformed_results::run(cx, out);
            provider_reports::malformed(cx, out);
        }
        Check::MalformedConfig | Check::DanglingPath => config_problems(cx, check, out),
        // Found by `crate::report::baseline` once the findings are resolved.
        Check::OutdatedBaseline => {}
        // Reported by `run_all` for a check that failed, and by the rendering.
        Check::InternalError => {}
    }
}

/// What a check is reading, for the finding of a bug it hits.
#[derive(Debug, Clone, Copy)]
enum Reading {
    Chapter(usize),
    Companion(usize),
}

thread_local! {
    /// The check this thread runs, and what it reads.
    static RUNNING: Cell<Option<(Check, Option<Reading>)>> = const { Cell::new(None) };
}

fn reading(what: Reading) {
    if let Some((check, _)) = RUNNING.get() {
        RUNNING.set(Some((check, Some(what))));
        crate::util::guard::fault(check.name());
    }
}

/// Runs every check. A check that panics keeps the drafts it made and adds an
/// `internal-error` one, at the chapter it was reading (or at book.toml's table); the other
/// checks run as usual.
pub(crate) fn run_all(cx: &Context<'_>) -> Vec<Draft> {
    // The checks are independent readers; their drafts are put together in the order of
    // `Check::ALL`, whichever thread ran them.
    let work = cx.chapters.iter().map(|c| c.content.len()).sum();
    let on: Vec<Check> = Check::ALL
        .iter()
        .copied()
        .filter(|&c| cx.config.runs(c))
        .collect();
    let per_check = crate::util::parallel::map(&on, work, |_, &check| {
        let mut drafts = Vec::new();
        RUNNING.set(Some((check, None)));
        let caught = crate::util::guard::catch(|| {
            run(check, cx, &mut drafts);
            // A check that reads no chapter is made to fail here (see `guard::fault`).
            crate::util::guard::fault(check.name());
        });
        let read = RUNNING.take().and_then(|(_, read)| read);
        if let Err(panic) = caught {
            drafts.push(internal_error(cx, check, read, panic));
        }
        drafts
    });
    per_check.into_iter().flatten().collect()
}

/// The finding of a bug that `check` hit while reading `read`.
fn internal_error(
    cx: &Context<'_>,
    check: Check,
    read: Option<Reading>,
    panic: crate::util::guard::Panic,
) -> Draft {
    let (place, what) = match read {
        Some(Reading::Chapter(n)) => (
            Place::Chapter(n),
            format!("the chapter `{}`", cx.chapters[n].key),
        ),
        Some(Reading::Companion(n)) => (
            Place::Companion(n),
            format!("the companion `{}`", cx.companions[n].path.display()),
        ),
        None => (Place::Config(KeyPath::key("")), "the book".to_owned()),
    };
    Draft::at(
        Check::InternalError,
        place,
        0..0,
        format!(
            "internal error: the check `{check}` failed while reading {what}: {}; the book is not at fault, and every other check ran",
            panic.0
        ),
    )
    .blocking(true)
    .help(internal_error_help(&format!(
        "until it is fixed, `{check} = \"off\"` in `[preprocessor.contract.checks]` skips the check"
    )))
}

/// What to do about an `internal-error` finding, then `meanwhile`.
pub(crate) fn internal_error_help(meanwhile: &str) -> String {
    format!(
        "this is a bug of mdbook-contract {}: please report it with the text it names; {meanwhile}",
        env!("CARGO_PKG_VERSION")
    )
}

/// Reports the configuration's problems that belong to `check` (`malformed-config`,
/// `dangling-path`): found while book.toml was read and while the book was, they are
/// reported here like any finding, so that every other check still runs.
fn config_problems(cx: &Context<'_>, check: Check, out: &mut Vec<Draft>) {
    for problem in cx.config.problems.iter().filter(|p| p.check == check) {
        let mut draft = Draft::at(
            check,
            Place::Config(problem.at.clone()),
            0..0,
            problem.message.clone(),
        );
        draft.help = problem.help.clone();
        out.push(draft);
    }
}

/// Reports the rules' problems that belong to `check` (`duplicate-rule`, `malformed-rule`).
fn rule_problems(cx: &Context<'_>, check: Check, out: &mut Vec<Draft>) {
    for problem in cx.rules.problems.iter().filter(|p| p.check == check) {
        // Read as a chapter is, so that a bug here names it.
        reading(Reading::Chapter(problem.chapter));
        let mut draft = Draft::new(
            check,
            problem.chapter,
            problem.range.clone(),
            problem.message.clone(),
        )
        .lenient(problem.warning);
        draft.help = problem.help.clone();
        if let Some((chapter, range)) = &problem.first {
            draft = draft.related(*chapter, range.clone(), "first defined here");
        }
        out.push(draft);
    }
}

/// Reports the model's problems that belong to `check`.
fn problems(cx: &Context<'_>, check: Check, out: &mut Vec<Draft>) {
    for problem in cx.model.problems.iter().filter(|p| p.check == check) {
        out.push(Draft::new(
            check,
            problem.chapter,
            problem.range.clone(),
            problem.message.clone(),
        ));
    }
}
