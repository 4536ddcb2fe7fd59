//! What `status` reports, as data: where each filled spec stands, and how much of the contract
//! each built provider's tests verify.
//!
//! [`SpecState`] is one spec (its provider, status, entries answered of all, and each open
//! entry with its place); [`ProviderCoverage`] one built provider's rules. They are worked out
//! here from an analysis ([`status_of`]), from the same reading of the specs that the
//! `unanswered-entry` check and the `{{#spec-status}}` box use, and the coverage that
//! `{{#rule-matrix}}` draws; the `status` command prints them (`commands::status`), and the
//! MCP server answers from them.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use super::analysis::Analysis;
pub use super::notes::CitedPlace;
use crate::model::rules::coverage::Status as CellStatus;
use crate::model::rules::status::Kind;

/// One spec chapter's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct SpecState {
    /// The provider it specifies (empty when the spec has no provider heading).
    pub provider: String,
    /// The spec's file, as shown to the user.
    #[serde(serialize_with = "crate::util::paths::serialize_slashed")]
    pub path: PathBuf,
    /// `draft` or `accepted`.
    pub status: &'static str,
    /// How many entries of the template the spec answers.
    pub answered: usize,
    /// How many entries the template has.
    pub entries: usize,
    /// The entries not answered yet, in the spec's order (the template's entries the spec
    /// lacks come last, at the spec's first line).
    pub open: Vec<OpenEntry>,
}

/// An entry of a spec that is not answered yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct OpenEntry {
    /// Its heading text.
    pub entry: String,
    /// The file it is in, as shown to the user.
    #[serde(serialize_with = "crate::util::paths::serialize_slashed")]
    pub path: PathBuf,
    /// Its 1-based line.
    pub line: usize,
    /// What it lacks, in words.
    pub lacks: String,
}

/// What `status` reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Status {
    /// Each filled spec, in the book's order.
    pub specs: Vec<SpecState>,
    /// How many rules the contract has: for each provider, `bound`, `optional`, `not_bound`
    /// and `undecided` add up to it.
    pub rules: usize,
    /// Each built provider's coverage of the rules, in the book's order (none when the
    /// contract has no rules).
    pub providers: Vec<ProviderCoverage>,
    /// What was read of the source tree for the rules' citations, when the contract has rules
    /// and `source-root` is read: so that a coverage of zero is never silent.
    pub source: Option<SourceRead>,
    /// The test results files read (relative to the book root), when `test-results` names
    /// some: with them, verified means passed.
    pub results: Option<Vec<String>>,
    /// What could not be read of the test results, as `malformed-results` says it.
    pub results_problems: Vec<String>,
    /// What the coverage rests on that a reader should know, one sentence each: a citation
    /// that stands in no test, a test that passed on a rerun, reports that disagree, a test
    /// that names no provider and verifies for all.
    pub notes: Vec<String>,
    /// The files no provider's places hold whose citations count for every built provider
    /// (a shared suite), with how many citations of rules each holds.
    pub shared_files: Vec<CitedPlace>,
    /// The folders beside providers' folders (`internal/provider/ovh/` beside
    /// `internal/provider/kvm/`) that no provider of the book is named after: their
    /// citations count for none.
    pub unplaced: Vec<CitedPlace>,
    /// With `--unmapped`: the code units no citation maps, per provider and for the shared
    /// code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmapped: Option<super::unmapped::Unmapped>,
}

/// What the search for citations of rules read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SourceRead {
    /// `source-root` as book.toml gives it.
    pub root: String,
    /// How many files were read (text files, Markdown aside, that git or `.ignore` does not
    /// exclude).
    pub files: usize,
    /// How many citations of rules they hold.
    pub citations: usize,
    /// Files read as code (comments, strings and units from a syntax tree), by language.
    pub code: BTreeMap<String, usize>,
    /// Files read as text (no grammar reads them), by extension.
    pub text: BTreeMap<String, usize>,
    /// Files passed over as not source, by why (vendored, minified, the book's own).
    pub not_source: BTreeMap<String, usize>,
    /// Files whose syntax the parser could not fully read: read as far as it recovered.
    pub syntax_errors: Vec<SyntaxErrorsAt>,
    /// Of the files read as code, those whose parse the cache answered (unchanged since a run
    /// read them); 0 with `--no-cache`.
    pub from_cache: usize,
    /// Files and folders that could not be read or walked, each once.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<Unreadable>,
    /// Files of a language with a grammar read as text for their size (over 4 MiB), relative
    /// to `source-root`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub too_large: Vec<String>,
    /// The globs of the files cited symbols are looked up in.
    pub symbol_files: Vec<String>,
}

/// A file or folder of the source tree that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Unreadable {
    /// Relative to `source-root` (empty when the walk did not say).
    pub path: String,
    /// Why, as the system says it.
    pub why: String,
}

/// A file parsed with syntax errors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SyntaxErrorsAt {
    /// Relative to `source-root`.
    pub path: String,
    /// The line of the first error.
    pub line: usize,
    /// How many errors the parser recovered from.
    pub errors: usize,
}

/// How many of the rules that bind a built provider its code and tests cite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct ProviderCoverage {
    /// The provider.
    pub provider: String,
    /// The file of its section, as shown to the user.
    #[serde(serialize_with = "crate::util::paths::serialize_slashed")]
    pub path: PathBuf,
    /// The line of its heading.
    pub line: usize,
    /// The rules that bind it and oblige it (MUST, SHOULD, or no keyword): what its coverage
    /// counts. With `optional`, `not_bound` and `undecided`, every rule of the contract.
    pub bound: usize,
    /// The MAY rules that bind it: they permit and oblige nothing, and are not counted.
    pub optional: usize,
    /// The rules whose `applies=` names a profile it does not claim.
    pub not_bound: usize,
    /// The rules whose `applies=` names a profile of an axis it has not stated yet.
    pub undecided: usize,
    /// Of those, the ones a `verify` counting for it cites.
    pub verified: usize,
    /// The ones only an `impl` cites.
    pub implemented: usize,
    /// With test results: the ones a test citing them failed for the provider.
    pub failed: usize,
    /// With test results: the ones whose tests were skipped (none failed).
    pub skipped: usize,
    /// With test results: the ones cited by a test that has no result.
    pub not_run: usize,
    /// With test results: the ones whose tests ran, for a provider or in a file their report
    /// does not name.
    pub unattributed: usize,
    /// With test results: the ones whose tests have no case in a report that holds cases of
    /// their file no test could be placed on.
    pub unmatched: usize,
    /// The bound required rules (MUST, or no keyword), and of those the verified ones (for
    /// `--min-verified`).
    pub must: usize,
    pub must_verified: usize,
    /// The bound required rules not verified, by ID.
    pub must_short: Vec<String>,
    /// Whether the source tree was read (`source-root`): without it nothing is known of the
    /// code, and only `bound` means anything.
    pub known: bool,
    /// With test results: the reports (relative to the book root) whose cases decided its
    /// cells.
    pub reports: Vec<String>,
    /// The ones its provider report declares, implemented or not, with nothing citing them.
    pub declared: usize,
    /// Of those, the ones it declares not implemented.
    pub declared_not_implemented: usize,
    /// With `provider-reports`: the ones no report of the provider speaks of (it has none).
    pub no_report: usize,
    /// With `provider-reports`: the report its cells come from; none for a provider without
    /// one (every rule that binds it is then `no report`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<ReportState>,
}

/// The provider report a provider's cells come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct ReportState {
    /// The report's file, as `provider-reports` matched it (relative to the book root).
    pub file: String,
    /// The provider's repository, as the report gives it.
    pub repository: Option<String>,
    /// The commit the report is of.
    pub commit: Option<String>,
    /// The rules whose text or version changed since the report was made: what it says of
    /// them is of the older text (run the provider's CI again).
    pub older_text: Vec<String>,
}

/// The report that made the coverage's column `column`, if one did.
fn report_state(analysis: &Analysis<'_>, column: usize) -> Option<ReportState> {
    let reported = &analysis.reported;
    let r = (*reported.columns.get(column)?)?;
    let loaded = reported.reports.reports.get(r)?;
    let older_text = reported
        .drift
        .get(r)
        .into_iter()
        .flatten()
        .filter_map(|&i| analysis.rules.rules.get(i).map(|rule| rule.id.clone()))
        .collect();
    Some(ReportState {
        file: loaded.shown.clone(),
        repository: loaded.report.repository.clone(),
        commit: loaded.report.commit.clone(),
        older_text,
    })
}

/// What `status` reports of an analysis.
pub(super) fn status_of(analysis: &Analysis<'_>) -> Status {
    let Analysis {
        specs,
        rules,
        coverage,
        source,
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
    let source = match (&config.source_root, source) {
        (Some(root), Some(index)) => Some(source_read(root, index, citations.len())),
        _ => None,
    };
    // Provider reports that hold their tests' results count as results read.
    let results = (results.asked || coverage.results).then(|| {
        results
            .files
            .iter()
            .map(|f| f.shown.clone())
            .collect::<Vec<_>>()
    });
    let results_problems = if results.is_some() {
        analysis
            .results
            .problems
            .iter()
            .map(|p| p.message.clone())
            .collect()
    } else {
        Vec::new()
    };
    let shared_files = super::notes::shared_files(analysis);
    let unplaced = super::notes::unplaced_folders(analysis);
    Status {
        specs: states,
        rules: rules.rules.len(),
        providers,
        source,
        results,
        results_problems,
        notes: super::notes::notes(analysis, &shared_files, &unplaced),
        shared_files,
        unplaced,
        unmapped: None,
    }
}

fn source_read(root: &str, index: &crate::read::code::SourceIndex, citations: usize) -> SourceRead {
    let reading = &index.reading;
    SourceRead {
        root: root.to_owned(),
        files: index.files_read,
        citations,
        code: reading
            .code
            .iter()
            .map(|(k, n)| ((*k).to_owned(), *n))
            .collect(),
        text: reading.text.clone(),
        not_source: reading
            .not_source
            .iter()
            .map(|(k, n)| (k.as_str().to_owned(), *n))
            .collect(),
        syntax_errors: reading
            .syntax_errors
            .iter()
            .map(|(path, e)| SyntaxErrorsAt {
                path: path.clone(),
                line: e.first_line,
                errors: e.count,
            })
            .collect(),
        too_large: reading.too_large.clone(),
        from_cache: reading.from_cache,
        unreadable: reading
            .unreadable
            .iter()
            .map(|(path, why)| Unreadable {
                path: path.clone(),
                why: why.clone(),
            })
            .collect(),
        symbol_files: index.symbol_globs.clone(),
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
            .filter(|(rule, _)| rule.required())
    };
    let kind = |row: &[CellStatus]| coverage.kind(row[column]);
    let must_short: Vec<String> = must_rules()
        .filter(|(_, row)| kind(row).open())
        .map(|(rule, _)| rule.id.clone())
        .collect();
    let must = must_rules().filter(|(_, row)| kind(row).obliges()).count();
    ProviderCoverage {
        provider: provider.name.clone(),
        path: at.path,
        line: at.line,
        bound,
        optional: coverage.count(column, Kind::Optional),
        not_bound: coverage.count(column, Kind::NotBound),
        undecided: coverage.count(column, Kind::ProfileUnknown),
        verified,
        implemented: coverage.count(column, Kind::Implemented),
        failed: coverage.count(column, Kind::Failed),
        skipped: coverage.count(column, Kind::Skipped),
        not_run: coverage.count(column, Kind::NotRun),
        unattributed: coverage.count(column, Kind::Unattributed),
        unmatched: coverage.count(column, Kind::Unmatched),
        declared: coverage.count(column, Kind::Declared)
            + coverage.count(column, Kind::DeclaredNotImplemented),
        declared_not_implemented: coverage.count(column, Kind::DeclaredNotImplemented),
        no_report: coverage.count(column, Kind::NoReport),
        report: report_state(analysis, column),
        must_verified: must - must_short.len(),
        must,
        must_short,
        known: coverage.known,
        reports: coverage
            .reports
            .get(column)
            .into_iter()
            .flatten()
            .filter_map(|&r| analysis.results.files.get(r).map(|f| f.shown.clone()))
            .collect(),
    }
}
