//! `mdbook-contract export`: the contract as one JSON document, for whoever builds on it
//! outside the book (an agent, a conformance-suite generator, a dashboard).
//!
//! [`export`] checks the book as `check` does and turns its [`Snapshot`] into an [`Export`]:
//! a `schema_version`, the book, axes, rules, providers, specs, coverage and findings, in the
//! book's order, with paths relative to the book root and no timestamps, so the same book gives
//! the same bytes. Plain-text fields are what a reader sees (shortcodes as their words, no
//! Markdown syntax); where the Markdown matters it is kept beside them (`*_markdown`).
//! [`SCHEMA`] is its JSON Schema (draft 2020-12), `schema/contract.schema.json` in the
//! repository: a field added is a minor `schema_version` bump, one removed or retyped a major
//! one.
//!
//! Publishing: a preprocessor cannot leave a file in the site (mdBook's HTML renderer empties
//! its folder before it writes), so the export reaches a built site in one of two ways that
//! mdBook offers: after the build, `export --site DIR` writes beside the pages (the layout of
//! the site unchanged; the Pages workflow does this), or as a renderer of its own
//! (`[output.contract]`, [`render`]), where mdBook gives each renderer a folder
//! (`build-dir/html`, `build-dir/contract`).
//!
//! To export something new: record it in the snapshot, add it here and to the schema (the test
//! validates this repository's book against it).

use std::path::{Path, PathBuf};

use anyhow::Result;
use schemars::JsonSchema;
use serde::Serialize;

use crate::read::markdown::plain;

use crate::model::rules::status::Kind as CellStatus;
use crate::pipeline::snapshot::{
    AxisSnap, CoverageSnap, Place, ProviderSnap, RuleSnap, Snapshot, SpecSnap,
};

/// The version of the document's shape (see the module docs).
pub const SCHEMA_VERSION: &str = "1.4.0";

/// The JSON Schema of the document.
pub const SCHEMA: &str = include_str!("../../schema/contract.schema.json");

/// Where something is written: a path relative to the book root, a line and a column.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PlaceOut {
    pub path: String,
    pub line: usize,
    pub column: usize,
}

impl From<&Place> for PlaceOut {
    fn from(place: &Place) -> PlaceOut {
        PlaceOut {
            path: crate::util::paths::slashed(&place.path),
            line: place.line,
            column: place.column,
        }
    }
}

/// The book.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BookOut {
    pub title: Option<String>,
    /// The contract's version (`version` in book.toml), if stated.
    pub version: Option<String>,
}

/// A profile of an axis.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ProfileOut {
    pub name: String,
    pub meaning: String,
    pub meaning_markdown: String,
    pub obliges: String,
    pub obliges_markdown: String,
    pub tolerated_by: String,
    pub tolerated_by_markdown: String,
}

/// An axis.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AxisOut {
    pub code: String,
    pub anchor: String,
    pub chapter: String,
    pub place: PlaceOut,
    pub question: String,
    pub question_markdown: String,
    pub profiles: Vec<ProfileOut>,
}

/// What a rule applies to.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AppliesOut {
    pub axis: String,
    pub profile: String,
}

/// A rule.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RuleOut {
    pub id: String,
    pub version: u32,
    pub level: Option<&'static str>,
    pub text: String,
    pub text_markdown: String,
    pub applies: Option<AppliesOut>,
    pub place: PlaceOut,
}

/// A claim.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ClaimOut {
    pub axis: String,
    pub profile: String,
    pub evidence: Vec<String>,
    pub place: PlaceOut,
}

/// A provider section, or a spec's provider.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ProviderOut {
    pub name: String,
    /// `built`, `proposed` or `spec`.
    pub status: &'static str,
    pub anchor: String,
    pub place: PlaceOut,
    pub claims: Vec<ClaimOut>,
}

/// An entry of a spec.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EntryOut {
    pub title: String,
    pub answered: bool,
    /// What it lacks, in words (empty when answered).
    pub lacks: Vec<String>,
}

/// A filled spec.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SpecOut {
    pub provider: String,
    pub status: &'static str,
    pub place: PlaceOut,
    pub entries: Vec<EntryOut>,
}

/// A citation in code.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CitationOut {
    /// Under `source-root`, or under a provider report's repository.
    pub path: String,
    pub line: usize,
    /// For a provider report's citation (since 1.4.0): its line in the provider's repository
    /// at the report's commit, where the host's form is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// Where one rule stands for one built provider.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CoverageRuleOut {
    pub rule: String,
    pub status: CellStatus,
    pub citation: Option<CitationOut>,
    /// The test result that decided a `failed` or `skipped` cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultOut>,
}

/// A test case's result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ResultOut {
    /// The case as its report names it (`TestPublish/kafka`).
    pub case: String,
    /// The first line of its failure, or of why it was skipped.
    pub message: Option<String>,
    /// The results file, relative to the book root.
    pub run: String,
    /// When the run was, as the report says.
    pub at: Option<String>,
}

/// The coverage of the rules for one built provider.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CoverageOut {
    pub provider: String,
    /// Whether the source tree was read (`source-root`).
    pub known: bool,
    /// Whether test results were read (`test-results`): then a rule is `passed`, `failed`,
    /// `skipped` or `not-run` where it is cited, not `verified`.
    pub results: bool,
    pub rules: Vec<CoverageRuleOut>,
}

/// The document (see the module docs).
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Export {
    pub schema_version: &'static str,
    pub book: BookOut,
    pub axes: Vec<AxisOut>,
    pub rules: Vec<RuleOut>,
    pub providers: Vec<ProviderOut>,
    pub specs: Vec<SpecOut>,
    pub coverage: Vec<CoverageOut>,
    /// The findings, as `check --format json` prints them.
    pub findings: serde_json::Value,
    /// The code units no citation maps (since 1.3.0), when the source tree was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmapped: Option<crate::pipeline::unmapped::Unmapped>,
}

impl Export {
    /// The document as pretty JSON, ending with a newline.
    pub fn to_json(&self) -> String {
        let mut out = serde_json::to_string_pretty(self).expect("the export serialises");
        out.push('\n');
        out
    }
}

/// Runs as mdBook's renderer `[output.contract]` (`command = "mdbook-contract export
/// --renderer"`): reads the render context from `input` and writes `contract.json` and
/// `contract.schema.json` into the folder mdBook gives this renderer. The book in the context
/// is already preprocessed (its shortcodes rendered), so the book is loaded again from its
/// root, as `check` loads it.
pub fn render(input: impl std::io::Read) -> Result<PathBuf> {
    let ctx = mdbook_renderer::RenderContext::from_json(input)?;
    let export = export(&ctx.root)?;
    std::fs::create_dir_all(&ctx.destination)?;
    std::fs::write(ctx.destination.join("contract.json"), export.to_json())?;
    std::fs::write(ctx.destination.join("contract.schema.json"), SCHEMA)?;
    Ok(ctx.destination)
}

/// The export of the book at `dir`.
pub fn export(dir: &Path) -> Result<Export> {
    let (ctx, book) = crate::read::load::load(dir, "html")?;
    export_book(&ctx, &book)
}

/// The export of `book`, loaded as [`crate::load`] loads it (with settings of its own, such as
/// test results given on the command line).
pub fn export_book(
    ctx: &mdbook_preprocessor::PreprocessorContext,
    book: &mdbook_preprocessor::book::Book,
) -> Result<Export> {
    let (snapshot, report, unmapped) = crate::pipeline::snapshot_with_units(ctx, book)?;
    let findings: serde_json::Value =
        serde_json::from_str(&report.render(crate::report::diagnostic::Format::Json, false))?;
    let mut export = of(&snapshot, ctx.config.book.title.clone(), findings);
    export.unmapped = unmapped;
    Ok(export)
}

pub(crate) fn of(
    snapshot: &Snapshot,
    title: Option<String>,
    findings: serde_json::Value,
) -> Export {
    Export {
        schema_version: SCHEMA_VERSION,
        book: BookOut {
            title,
            version: snapshot.version.as_ref().map(ToString::to_string),
        },
        axes: snapshot.axes.iter().map(AxisOut::from).collect(),
        rules: snapshot.rules.iter().map(RuleOut::from).collect(),
        providers: snapshot.providers.iter().map(ProviderOut::from).collect(),
        specs: snapshot.specs.iter().map(SpecOut::from).collect(),
        coverage: snapshot.coverage.iter().map(CoverageOut::from).collect(),
        findings,
        unmapped: None,
    }
}

impl From<&AxisSnap> for AxisOut {
    fn from(a: &AxisSnap) -> Self {
        AxisOut {
            code: a.code.clone(),
            anchor: a.anchor.clone(),
            chapter: a.chapter.clone(),
            place: (&a.place).into(),
            question: plain(&a.question),
            question_markdown: a.question.clone(),
            profiles: a
                .profiles
                .iter()
                .map(|p| ProfileOut {
                    name: p.name.clone(),
                    meaning: plain(&p.meaning),
                    meaning_markdown: p.meaning.clone(),
                    obliges: plain(&p.obliges),
                    obliges_markdown: p.obliges.clone(),
                    tolerated_by: plain(&p.tolerated_by),
                    tolerated_by_markdown: p.tolerated_by.clone(),
                })
                .collect(),
        }
    }
}

impl From<&RuleSnap> for RuleOut {
    fn from(r: &RuleSnap) -> Self {
        RuleOut {
            id: r.id.clone(),
            version: r.version,
            level: r.level.map(|l| l.as_str()),
            text: plain(&r.text),
            text_markdown: r.text.clone(),
            applies: r.applies.as_ref().map(|(axis, profile)| AppliesOut {
                axis: axis.clone(),
                profile: profile.clone(),
            }),
            place: (&r.place).into(),
        }
    }
}

impl From<&ProviderSnap> for ProviderOut {
    fn from(p: &ProviderSnap) -> Self {
        ProviderOut {
            name: p.name.clone(),
            status: if p.built {
                "built"
            } else if p.spec {
                "spec"
            } else {
                "proposed"
            },
            anchor: p.anchor.clone(),
            place: (&p.place).into(),
            claims: p
                .claims
                .iter()
                .map(|c| ClaimOut {
                    axis: c.axis.clone(),
                    profile: c.profile.clone(),
                    evidence: c.evidence.clone(),
                    place: (&c.place).into(),
                })
                .collect(),
        }
    }
}

impl From<&SpecSnap> for SpecOut {
    fn from(s: &SpecSnap) -> Self {
        SpecOut {
            provider: s.provider.clone(),
            status: s.status,
            place: (&s.place).into(),
            entries: s
                .entries
                .iter()
                .map(|(title, lacks)| EntryOut {
                    title: title.clone(),
                    answered: lacks.is_empty(),
                    lacks: lacks.clone(),
                })
                .collect(),
        }
    }
}

impl From<&CoverageSnap> for CoverageOut {
    fn from(c: &CoverageSnap) -> Self {
        CoverageOut {
            provider: c.provider.clone(),
            known: c.known,
            results: c.results,
            rules: c
                .rules
                .iter()
                .map(|cell| CoverageRuleOut {
                    rule: cell.rule.clone(),
                    status: cell.status,
                    citation: cell.citation.as_ref().map(|(path, line)| CitationOut {
                        path: path.clone(),
                        line: *line,
                        url: cell.url.clone(),
                    }),
                    result: cell.result.as_ref().map(|r| ResultOut {
                        case: r.case.clone(),
                        message: r.message.clone(),
                        run: r.run.clone(),
                        at: r.at.clone(),
                    }),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_what_a_reader_sees() {
        assert_eq!(
            plain(
                "Get answers `Running`; see {{#axis readiness}} and [the gc](gc.md#x).\nMore *here*."
            ),
            "Get answers Running; see readiness and the gc. More here."
        );
        assert_eq!(
            plain("{{#profile create-return `blocking`}}"),
            "create-return blocking"
        );
    }
}
