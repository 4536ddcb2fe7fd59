//! The provider reports of `provider-reports` read into an analysis: after the local coverage,
//! before the checks, so that the matrix, `status`, `export` and the gates see a reported
//! provider as they see a local one (`model::rules::reported`).

use mdbook_preprocessor::PreprocessorContext;

use crate::model::Model;
use crate::model::rules::Rules;
use crate::model::rules::code::CodeCitation;
use crate::model::rules::coverage::Coverage;
use crate::model::rules::reported::{self, Reported};
use crate::read::chapter::{BookFiles, Chapter};
use crate::read::config::Config;
use crate::read::reports::Reports;
use crate::read::results::Results;

/// Reads the reports and puts their evidence into the coverage, the citations and the results.
pub(super) fn apply(
    ctx: &PreprocessorContext,
    files: &BookFiles,
    config: &Config,
    chapters: &[Chapter<'_>],
    model: &Model,
    rules: &Rules,
    (coverage, citations, results): (&mut Coverage, &mut Vec<CodeCitation>, &mut Results),
) -> Reported {
    let reports = Reports::read(
        &ctx.root,
        &config.provider_reports,
        files.confinement(),
        config.test_results_limit,
    );
    let texts: Vec<&str> = rules
        .rules
        .iter()
        .map(|rule| &chapters[rule.chapter].content[rule.text.clone()])
        .collect();
    reported::apply(reports, coverage, rules, &texts, model, citations, results)
}
