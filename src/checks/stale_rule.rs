//! `stale-rule`: a citation in code of an older version of a rule than the book's: the rule
//! changed since the code or test was written (`r[verify ID]` of a rule now `r[ID+2]`). It
//! counts for nothing in the coverage until it is looked at and raised.

use super::{Context, Draft, Place};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (i, citation) in cx.citations.iter().enumerate() {
        // A provider report's citations are `provider_reports.rs`'s.
        let (None, Ok(cited)) = (&citation.remote, &citation.cited) else {
            continue;
        };
        let Some(rule) = cx.rules.get(&cited.id) else {
            continue;
        };
        if cited.version == rule.version {
            continue;
        }
        // A version the rule never had (a typo, or a test ahead of the book) counts for
        // nothing either.
        let newer = cited.version > rule.version;
        out.push(
            Draft::at(
                Check::StaleRule,
                Place::Code(i),
                0..0,
                format!(
                    "`{}` cites version {} of the rule `{}`, which is at version {}{}",
                    citation.text,
                    cited.version,
                    rule.id,
                    rule.version,
                    if newer { ": the rule never had that version" } else { " now" }
                ),
            )
            .help(format!(
                "read the rule again, check that this code still meets it, then cite `{}+{}`; until then it counts for nothing",
                rule.id, rule.version
            ))
            .related(rule.chapter, rule.id_range.clone(), "the rule"),
        );
    }
}
