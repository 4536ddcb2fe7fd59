//! The checks: each one reads the model and the chapter indexes and reports findings.
//!
//! [`REGISTRY`] lists every check with its name, default severity and what it reports; book.toml
//! is validated against it and the README documents it. A check never edits text and never
//! decides severity: it pushes [`Draft`]s at byte ranges of a chapter's content, and the
//! pipeline resolves them to `file:line:col`, applies book.toml's severities and suppression.
//! To add a check: a file here with a `run` function, a line in [`REGISTRY`], a fixture that
//! fires it and one that keeps it silent (`tests/checks.rs`), and a row in the README.

use std::ops::Range;

use crate::book::Chapter;
use crate::config::{Config, Severity};
use crate::model::Model;

mod duplicate_axis;
mod duplicate_claim;
mod malformed_section;
mod malformed_shortcode;
mod missing_answer;
mod missing_claim;
mod missing_evidence;
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
];

/// The check called `name`.
pub fn find(name: &str) -> Option<&'static CheckInfo> {
    REGISTRY.iter().find(|c| c.name == name)
}

/// Runs every check.
pub fn run_all(cx: &Context<'_>) -> Vec<Draft> {
    let mut drafts = Vec::new();
    for check in REGISTRY {
        (check.run)(cx, &mut drafts);
    }
    drafts
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
