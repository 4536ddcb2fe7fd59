//! What the provider reports of `provider-reports` say is wrong, each told by the check of its
//! kind (they run inside that check's `run`, so its severity and suppression hold): a report
//! that cannot be read, or of a provider the book has no built section for (`malformed-results`);
//! a rule whose text or version changed since a report was made (`stale-rule`); a rule a report
//! cites or declares that the contract does not have (`unknown-rule`); a built provider without
//! a report (`unverified-rule`, once per provider). A report's finding is at its item of
//! `provider-reports` in book.toml and names the file.

use super::{Context, Draft, Place};
use crate::util::vocab::Check;

/// The item of `provider-reports` that read report `r`.
fn at(cx: &Context<'_>, r: usize) -> Place {
    let item = cx.reported.reports.reports[r].item;
    Place::Config(cx.config.item_at("provider-reports", item))
}

/// A report that gives nothing, or one of a provider the book does not have.
pub(super) fn malformed(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let reports = &cx.reported.reports;
    for problem in &reports.problems {
        let place = Place::Config(cx.config.item_at("provider-reports", problem.item));
        out.push(
            Draft::at(Check::MalformedResults, place, 0..0, problem.message.clone()).help(
                "point `provider-reports` at the files `mdbook-contract report` wrote in the providers' repositories (downloaded by CI), relative to the folder of book.toml",
            ),
        );
    }
    let built: Vec<&str> = cx
        .coverage
        .providers
        .iter()
        .map(|&p| cx.model.providers[p].name.as_str())
        .collect();
    for &r in &cx.reported.strangers {
        let loaded = &reports.reports[r];
        let name = &loaded.report.provider;
        let hint = crate::util::suggest::hint(name, built.iter().copied());
        out.push(
            Draft::at(
                Check::MalformedResults,
                at(cx, r),
                0..0,
                format!(
                    "the provider report `{}` is of `{name}`, which is not a built provider of the book: it counts for no one{hint}",
                    loaded.shown
                ),
            )
            .help("add a `.provider` section named as the report's `--provider`, or make the report again with the section's name"),
        );
    }
}

/// A rule whose digest differs from the one a report recorded.
pub(super) fn drift(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (r, rules) in cx.reported.drift.iter().enumerate() {
        let loaded = &cx.reported.reports.reports[r];
        for &i in rules {
            let rule = &cx.rules.rules[i];
            out.push(
                Draft::at(
                    Check::StaleRule,
                    at(cx, r),
                    0..0,
                    format!(
                        "the provider report `{}` of `{}` was made against another text or version of the rule `{}`: what it says of the rule is of that text",
                        loaded.shown, loaded.report.provider, rule.id
                    ),
                )
                .help(format!(
                    "run `{}`'s CI again, so that `mdbook-contract report` checks its code against the rule as the book now reads",
                    loaded.report.provider
                ))
                .related(rule.chapter, rule.id_range.clone(), "the rule"),
            );
        }
    }
}

/// A rule a report names that the contract does not have.
pub(super) fn unknown(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let ids: Vec<&str> = cx.rules.rules.iter().map(|r| r.id.as_str()).collect();
    for (r, unknown) in cx.reported.unknown.iter().enumerate() {
        let loaded = &cx.reported.reports.reports[r];
        for id in unknown {
            let hint = crate::util::suggest::hint(id, ids.iter().copied());
            out.push(
                Draft::at(
                    Check::UnknownRule,
                    at(cx, r),
                    0..0,
                    format!(
                        "the provider report `{}` of `{}` names the rule `{id}`, which the contract does not have{hint}",
                        loaded.shown, loaded.report.provider
                    ),
                )
                .help(format!(
                    "fix the citation or the declared status in `{}`'s repository and run its CI again, or define the rule in a contract chapter",
                    loaded.report.provider
                )),
            );
        }
    }
}

/// A built provider without a report, when `provider-reports` is set.
pub(super) fn missing(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for &p in &cx.reported.missing {
        let provider = &cx.model.providers[p];
        out.push(
            Draft::new(
                Check::UnverifiedRule,
                provider.chapter,
                provider.range.clone(),
                format!(
                    "`{}` has no report among `provider-reports`: no rule is known to be met by it",
                    provider.name
                ),
            )
            .help(format!(
                "run `mdbook-contract report --provider {}` in its repository's CI and have the book's CI download the report where `provider-reports` looks",
                provider.name
            )),
        );
    }
}
