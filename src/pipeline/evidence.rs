//! A provider's evidence, for `mdbook-contract report`: one analysis of the contract's book
//! with the provider's repository as its source tree and the provider's test results, turned
//! into a [`ProviderReport`] (without the repository, commit and declared statuses, which the
//! command adds).
//!
//! Every citation of a rule in the tree is the provider's (the tree is its repository alone),
//! and a cited test's cases are those its runner reported for this provider: a case whose name
//! says another provider is left out, one whose name cannot say is kept and marked
//! `unattributed`, so that the book never counts it as a pass.

use std::path::{Path, PathBuf};

use anyhow::Result;
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::Book;

use super::analysis::Analysis;
use crate::model::rules::code::{CodeCitation, Verb};
use crate::model::rules::coverage::site_of;
use crate::read::chapter::BookFiles;
use crate::read::reports::document::{
    CaseResult, CheckCounts, ContractRef, ProviderReport, ReportCitation, RuleRef, SCHEMA_VERSION,
    TestRef, digest,
};
use crate::read::results::Results;
use crate::read::results::matching::{Matcher, Site};
use crate::read::results::names::Named;

/// The report of `provider` for `book`, whose configuration names the provider's tree as
/// `source-root` and its results as `test-results`.
pub(crate) fn provider_report(
    ctx: &PreprocessorContext,
    book: &Book,
    provider: &str,
) -> Result<ProviderReport> {
    let analysis = Analysis::run(ctx, book, BookFiles::new(ctx, PathBuf::new()))?;
    let source_root = ctx
        .root
        .join(analysis.config.source_root.as_deref().unwrap_or("."));
    let rules = analysis
        .rules
        .rules
        .iter()
        .map(|rule| {
            let text = &analysis.chapters[rule.chapter].content[rule.text.clone()];
            RuleRef {
                id: rule.id.clone(),
                version: rule.version,
                digest: digest(&rule.id, rule.version, text),
            }
        })
        .collect();
    let citations = citations_of(
        &analysis.citations,
        &analysis.results,
        &source_root,
        provider,
    );
    let mut check = CheckCounts {
        errors: analysis.report.errors(),
        warnings: analysis.report.warnings(),
        ..CheckCounts::default()
    };
    for finding in &analysis.report.findings {
        *check
            .by_check
            .entry(finding.check.name().to_owned())
            .or_default() += 1;
    }
    Ok(ProviderReport {
        schema_version: SCHEMA_VERSION.to_owned(),
        provider: provider.to_owned(),
        repository: None,
        commit: None,
        contract: ContractRef {
            title: ctx.config.book.title.clone(),
            version: analysis.config.version.as_ref().map(ToString::to_string),
            rules,
        },
        tested: analysis.results.asked,
        citations,
        declared: Default::default(),
        check,
    })
}

/// Each citation that names a rule, with its test's results for `provider` when it is a
/// `verify` and results were read.
fn citations_of(
    citations: &[CodeCitation],
    results: &Results,
    source_root: &Path,
    provider: &str,
) -> Vec<ReportCitation> {
    let matcher = Matcher::new(results, vec![provider.to_owned()]);
    let sites: Vec<Site<'_>> = citations
        .iter()
        .filter_map(|c| Some(site_of(c, c.test.as_ref()?)))
        .collect();
    citations
        .iter()
        // Another provider's report, read by the book, is not this provider's evidence.
        .filter(|c| c.remote.is_none())
        .filter_map(|c| {
            let cited = c.cited.as_ref().ok()?;
            let results = match (&c.test, c.verb) {
                (Some(test), Verb::Verify) if results.asked => {
                    cases_of(&matcher, results, source_root, &site_of(c, test), &sites)
                }
                _ => Vec::new(),
            };
            Some(ReportCitation {
                rule: cited.id.clone(),
                version: cited.version,
                verb: match c.verb {
                    Verb::Impl => "impl",
                    Verb::Verify => "verify",
                    Verb::Mentions => "mentions",
                }
                .to_owned(),
                path: c.path.clone(),
                line: c.line,
                column: c.column,
                line_text: c.line_text.clone(),
                test: c.test.as_ref().map(|t| TestRef {
                    name: t.name.clone(),
                    line: t.line,
                }),
                results,
            })
        })
        .collect()
}

/// The cases of the test at `site` that ran for the matcher's one provider (or do not say for
/// whom), as the report writes them.
fn cases_of(
    matcher: &Matcher<'_>,
    results: &Results,
    source_root: &Path,
    site: &Site<'_>,
    sites: &[Site<'_>],
) -> Vec<CaseResult> {
    let mut found = matcher.cases(source_root, site, sites);
    let kinds = matcher.named_cases(site, &mut found);
    kinds
        .into_iter()
        .map(|(i, named)| {
            let unattributed = match named {
                Named::Provider(_) | Named::None => found.unplaced,
                Named::Position(_) | Named::Unknown => true,
            };
            let case = &results.cases[i];
            let file = &results.files[case.report];
            let run = crate::util::paths::lexical(&file.path)
                .strip_prefix(crate::util::paths::lexical(source_root))
                .map(crate::util::paths::slashed)
                .unwrap_or_else(|_| file.shown.clone());
            CaseResult {
                case: case.name.clone(),
                outcome: case.outcome.as_str().to_owned(),
                message: case.message.clone(),
                run,
                flaky: matcher.attempts.flaky.get(i).copied().unwrap_or(false),
                unattributed,
            }
        })
        .collect()
}
