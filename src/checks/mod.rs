//! The checks: each one reads the model and the chapter indexes and reports findings.
//!
//! [`REGISTRY`] lists every check with its name, default severity and what it reports; book.toml
//! is validated against it and the README documents it. A check never edits text and never
//! decides severity: it pushes [`Draft`]s at byte ranges of a chapter's content, and the
//! pipeline resolves them to `file:line:col`, applies book.toml's severities and suppression.
//! To add a check: a file here with a `run` function, a line in [`REGISTRY`], a fixture that
//! fires it and one that keeps it silent (`tests/checks.rs`), and a row in the README.

use std::collections::HashSet;
use std::ops::Range;

use crate::book::{BookFiles, Chapter};
use crate::citation::{Citation, classify};
use crate::config::{Config, Severity};
use crate::model::{Model, UNKNOWN_PROFILE};
use crate::shortcode::Kind;
use crate::source::{Roots, SourceIndex};

mod cited_path;
mod cited_symbol;
mod dangling_link;
mod duplicate_axis;
mod duplicate_claim;
mod em_dash;
mod forbidden_term;
mod leftover_directive;
mod line_reference;
mod malformed_section;
mod malformed_shortcode;
mod malformed_suppression;
mod missing_answer;
mod missing_claim;
mod missing_evidence;
mod must_cite;
mod readme_link;
mod unknown_axis;
mod unknown_claim;
mod unknown_profile;

/// What a check sees.
pub struct Context<'a> {
    /// The chapters, in document order.
    pub chapters: &'a [Chapter<'a>],
    /// The model collected from them.
    pub model: &'a Model,
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
}

impl<'a> Context<'a> {
    /// Whether `word` is never taken for a symbol.
    pub fn is_excluded_word(&self, word: &str) -> bool {
        self.excluded.contains(word)
    }

    /// Every citation of the book: each code span, and each bare evidence argument of a claim,
    /// that names a path or a symbol, with its chapter and range.
    pub fn citations(&self) -> Vec<(usize, Range<usize>, Citation<'a>)> {
        citations(self.chapters, self.excluded)
    }
}

/// The words [`Context::excluded`] holds for `model` and `config`.
pub fn excluded_words(model: &Model, config: &Config) -> HashSet<String> {
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
pub fn citations<'a>(
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
        for shortcode in chapter
            .scan
            .shortcodes
            .iter()
            .filter(|s| s.kind == Kind::Profile)
        {
            for arg in shortcode.args.iter().skip(2) {
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

/// A finding before it is located and given its severity.
#[derive(Debug, Clone)]
pub struct Draft {
    /// The check's name.
    pub check: &'static str,
    /// The chapter (index into the chapters).
    pub chapter: usize,
    /// What to point at, in the chapter's content.
    pub range: Range<usize>,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// Other places that matter ("first defined here"), as a chapter, a range and a label.
    pub related: Vec<(usize, Range<usize>, &'static str)>,
}

impl Draft {
    /// A finding of `check` at `range` of chapter `chapter`.
    pub fn new(
        check: &'static str,
        chapter: usize,
        range: Range<usize>,
        message: impl Into<String>,
    ) -> Draft {
        Draft {
            check,
            chapter,
            range,
            message: message.into(),
            help: None,
            related: Vec::new(),
        }
    }

    /// Adds what to do about it.
    pub fn help(mut self, help: impl Into<String>) -> Draft {
        self.help = Some(help.into());
        self
    }

    /// Adds another place that matters.
    pub fn related(mut self, chapter: usize, range: Range<usize>, label: &'static str) -> Draft {
        self.related.push((chapter, range, label));
        self
    }
}

/// One check: its name, default severity, what it reports, and the function that runs it.
pub struct CheckInfo {
    /// Stable kebab-case name, used in book.toml and in output.
    pub name: &'static str,
    /// Severity when book.toml says nothing.
    pub default: Severity,
    /// What it fires on.
    pub summary: &'static str,
    run: fn(&Context<'_>, &mut Vec<Draft>),
}

/// Every check, in the order the README lists them.
pub const REGISTRY: &[CheckInfo] = &[
    CheckInfo {
        name: "unknown-axis",
        default: Severity::Error,
        summary: "a shortcode names an axis that no `.axis` heading defines",
        run: unknown_axis::run,
    },
    CheckInfo {
        name: "duplicate-axis",
        default: Severity::Error,
        summary: "two `.axis` headings define one code",
        run: duplicate_axis::run,
    },
    CheckInfo {
        name: "malformed-section",
        default: Severity::Error,
        summary: "an `.axis` or `.provider` heading that cannot be read: no code, no `Profile` table, a bad row, an axis outside the contract chapters",
        run: malformed_section::run,
    },
    CheckInfo {
        name: "unknown-profile",
        default: Severity::Error,
        summary: "a claim names a profile its axis does not list",
        run: unknown_profile::run,
    },
    CheckInfo {
        name: "missing-claim",
        default: Severity::Error,
        summary: "a provider has no claim for some axis",
        run: missing_claim::run,
    },
    CheckInfo {
        name: "duplicate-claim",
        default: Severity::Error,
        summary: "a provider claims one axis twice",
        run: duplicate_claim::run,
    },
    CheckInfo {
        name: "missing-evidence",
        default: Severity::Error,
        summary: "a claim of a built provider cites no evidence",
        run: missing_evidence::run,
    },
    CheckInfo {
        name: "unknown-claim",
        default: Severity::Warning,
        summary: "a claim whose profile is `unknown`: a fact not verified yet",
        run: unknown_claim::run,
    },
    CheckInfo {
        name: "missing-answer",
        default: Severity::Error,
        summary: "an axis has no `{{#answers}}` in the template, or two",
        run: missing_answer::run,
    },
    CheckInfo {
        name: "malformed-shortcode",
        default: Severity::Error,
        summary: "a shortcode of this preprocessor with wrong arguments, in the wrong place, or an unknown name in its family",
        run: malformed_shortcode::run,
    },
    CheckInfo {
        name: "leftover-directive",
        default: Severity::Error,
        summary: "a `{{#...}}` directive left in the content after the preprocessors before this one (mdBook leaves a failed `{{#include}}` in place)",
        run: leftover_directive::run,
    },
    CheckInfo {
        name: "em-dash",
        default: Severity::Error,
        summary: "U+2014 in prose, including the em-dash that smart punctuation makes of `---`",
        run: em_dash::run,
    },
    CheckInfo {
        name: "line-reference",
        default: Severity::Error,
        summary: "a source line reference such as `provider.go:120` or `:12-30`, in prose or code spans",
        run: line_reference::run,
    },
    CheckInfo {
        name: "dangling-link",
        default: Severity::Error,
        summary: "a link to a page that is not a chapter, to a `#fragment` the target page will not have, or (with `source-root`) out of the book to a file that does not exist",
        run: dangling_link::run,
    },
    CheckInfo {
        name: "readme-link",
        default: Severity::Warning,
        summary: "a link to `README.md`, which mdBook turns into `README.html` while it renders the chapter as `index.html`",
        run: readme_link::run,
    },
    CheckInfo {
        name: "forbidden-term",
        default: Severity::Error,
        summary: "a term banned in a chapter; every provider's name is banned in contract chapters",
        run: forbidden_term::run,
    },
    CheckInfo {
        name: "must-cite",
        default: Severity::Error,
        summary: "a sentence or list item with MUST in a contract chapter that cites no path or symbol of the shared layer",
        run: must_cite::run,
    },
    CheckInfo {
        name: "cited-path",
        default: Severity::Error,
        summary: "a code span naming a repository path that does not exist under `source-root` (when set)",
        run: cited_path::run,
    },
    CheckInfo {
        name: "cited-symbol",
        default: Severity::Error,
        summary: "a code span naming an identifier that is not a whole word in the `symbol-files` under `source-root` (when set)",
        run: cited_symbol::run,
    },
    CheckInfo {
        name: "malformed-suppression",
        default: Severity::Warning,
        summary: "a `<!-- contract: allow ... -->` comment that names no check, or a name that is not one",
        run: malformed_suppression::run,
    },
];

/// The check called `name`.
pub fn find(name: &str) -> Option<&'static CheckInfo> {
    REGISTRY.iter().find(|c| c.name == name)
}

/// Runs every check.
pub fn run_all(cx: &Context<'_>) -> Vec<Draft> {
    // The checks are independent readers: they run on several threads, and their drafts are
    // put together in the order of the registry, as one thread would have pushed them.
    let work = cx
        .chapters
        .iter()
        .map(|chapter| chapter.content.len())
        .sum();
    let per_check = crate::parallel::map(
        REGISTRY,
        work,
        || (),
        |(), _, check| {
            let mut drafts = Vec::new();
            (check.run)(cx, &mut drafts);
            drafts
        },
    );
    per_check.into_iter().flatten().collect()
}

/// Reports the model's problems that belong to `check`.
fn problems(cx: &Context<'_>, check: &'static str, out: &mut Vec<Draft>) {
    for problem in cx.model.problems.iter().filter(|p| p.check == check) {
        out.push(Draft::new(
            check,
            problem.chapter,
            problem.range.clone(),
            problem.message.clone(),
        ));
    }
}
