//! What the book states, in numbers, with its findings: `check --format markdown`.
//!
//! The plan's execution summary records the frozen axis list and how far each provider's
//! claims are verified; a CI job summary (`$GITHUB_STEP_SUMMARY`) wants the same at a glance,
//! with the findings per check. [`Overview`] is that data, worked out by
//! [`crate::pipeline::overview`] from the model; [`Overview::markdown`] writes it with a
//! [`Report`]. The counts per check are the report's, so they equal what `--format json` lists.

use std::fmt::Write as _;

use crate::model::Model;
use crate::model::spec::Specs;
use crate::report::diagnostic::{Finding, Report};
use crate::util::escape::{code_span, markdown_message};
use crate::util::vocab::{Check, Severity};

/// The most findings the summary lists one by one, per severity: a job summary is read on a
/// page, and GitHub keeps at most 1 MiB of it.
const LISTED: usize = 200;

/// The axes and the providers' claims, as the profile matrix shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Overview {
    /// The book's title.
    pub title: Option<String>,
    /// The axis codes, in the contract's order.
    pub axes: Vec<String>,
    /// One per column of the profile matrix: built providers, then the proposed ones.
    pub providers: Vec<ProviderClaims>,
}

/// How many of a provider's axes it states a verified profile for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProviderClaims {
    /// The provider's name.
    pub name: String,
    /// `built`, `proposed`, or the status of its spec (`spec, draft`).
    pub stage: String,
    /// Axes with a profile other than `unknown`.
    pub known: usize,
    /// Axes whose profile is `unknown`.
    pub unknown: usize,
    /// Axes without a claim (for a spec: not answered).
    pub missing: usize,
}

impl Overview {
    /// Works out the overview of a book's model.
    pub(crate) fn of(model: &Model, specs: &Specs, title: Option<String>) -> Overview {
        let axes: Vec<&str> = model.unique_axes().map(|a| a.code.as_str()).collect();
        let providers = model
            .matrix_providers()
            .into_iter()
            .map(|(index, provider)| {
                let (mut known, mut unknown, mut missing) = (0, 0, 0);
                for axis in &axes {
                    match model.claims_of(index, axis).next() {
                        Some(claim) if claim.is_unknown() => unknown += 1,
                        Some(_) => known += 1,
                        None => missing += 1,
                    }
                }
                let stage = if provider.spec {
                    let status = specs
                        .specs
                        .iter()
                        .find(|s| s.provider == Some(index))
                        .map_or("draft", |s| s.status.as_str());
                    format!("spec, {status}")
                } else if provider.proposed {
                    "proposed".to_owned()
                } else {
                    "built".to_owned()
                };
                ProviderClaims {
                    name: provider.name.clone(),
                    stage,
                    known,
                    unknown,
                    missing,
                }
            })
            .collect();
        Overview {
            title,
            axes: axes.into_iter().map(str::to_owned).collect(),
            providers,
        }
    }

    /// The summary in GitHub-flavoured Markdown: the count, the axes, the claims per
    /// provider, the findings per check, then the errors and (folded) the warnings.
    pub fn markdown(&self, report: &Report) -> String {
        let mut out = String::new();
        match &self.title {
            Some(title) => {
                let _ = writeln!(out, "## mdbook-contract: {}\n", cell(title));
            }
            None => out.push_str("## mdbook-contract\n\n"),
        }
        let _ = writeln!(
            out,
            "**{}.**\n",
            crate::util::capitalised(&report.summary())
        );
        self.axes_and_claims(&mut out);
        out.push_str("### Findings per check\n\n");
        let per_check = per_check(report);
        if per_check.is_empty() {
            out.push_str("No findings.\n");
            return out;
        }
        out.push_str("| Check | Errors | Warnings |\n|---|--:|--:|\n");
        for (check, errors, warnings) in &per_check {
            let _ = writeln!(out, "| `{check}` | {errors} | {warnings} |");
        }
        let _ = writeln!(
            out,
            "| **All** | **{}** | **{}** |\n",
            report.errors(),
            report.warnings()
        );
        let errors: Vec<&Finding> = of(report, Severity::Error);
        if !errors.is_empty() {
            out.push_str("### Errors\n\n");
            list(&mut out, &errors);
            out.push('\n');
        }
        let warnings: Vec<&Finding> = of(report, Severity::Warning);
        if !warnings.is_empty() {
            let _ = writeln!(
                out,
                "<details><summary>{} warning{}</summary>\n",
                warnings.len(),
                if warnings.len() == 1 { "" } else { "s" }
            );
            list(&mut out, &warnings);
            out.push_str("\n</details>\n");
        }
        out
    }
}

impl Overview {
    /// The axes, then a table of the claims per provider.
    fn axes_and_claims(&self, out: &mut String) {
        let _ = writeln!(out, "### Axes\n");
        if self.axes.is_empty() {
            out.push_str("The book defines no axis.\n\n");
        } else {
            let codes: Vec<String> = self.axes.iter().map(|a| code_span(a)).collect();
            let _ = writeln!(out, "{} axes: {}.\n", self.axes.len(), codes.join(", "));
        }
        if self.providers.is_empty() {
            return;
        }
        out.push_str("### Claims per provider\n\n");
        out.push_str("| Provider | Stage | Known | Unknown | Missing |\n");
        out.push_str("|---|---|--:|--:|--:|\n");
        for p in &self.providers {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                code_span(&p.name).replace('|', "\\|"),
                p.stage,
                p.known,
                p.unknown,
                p.missing
            );
        }
        out.push('\n');
    }
}

/// `(check, errors, warnings)` for every check with a finding, in the order of `Check::ALL`.
fn per_check(report: &Report) -> Vec<(Check, usize, usize)> {
    Check::ALL
        .iter()
        .filter_map(|&check| {
            let count = |severity| {
                report
                    .findings
                    .iter()
                    .filter(|f| f.check == check && f.severity == severity)
                    .count()
            };
            let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
            (errors + warnings > 0).then_some((check, errors, warnings))
        })
        .collect()
}

fn of(report: &Report, severity: Severity) -> Vec<&Finding> {
    report
        .findings
        .iter()
        .filter(|f| f.severity == severity)
        .collect()
}

/// One list item per finding, `path:line:col` first; past [`LISTED`], a count of the rest.
fn list(out: &mut String, findings: &[&Finding]) {
    for f in findings.iter().take(LISTED) {
        let l = &f.location;
        let _ = writeln!(
            out,
            "- {} `{}`: {}",
            code_span(&format!(
                "{}:{}:{}",
                crate::util::paths::slashed(&l.path),
                l.line,
                l.column
            )),
            f.check,
            markdown_message(&f.message)
        );
    }
    if findings.len() > LISTED {
        let _ = writeln!(
            out,
            "- and {} more (`mdbook-contract check` lists every one)",
            findings.len() - LISTED
        );
    }
}

/// Data for a table cell or a heading: one line of text, nothing in it markup.
fn cell(text: &str) -> String {
    crate::util::escape::markdown(text)
}
