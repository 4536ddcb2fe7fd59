//! `unknown-rule`: a citation in code (`r[impl ID]`, `r[verify ID]`) or a `{{#rule ID}}` that
//! names no rule, at the citation's `file:line:col`, with a did-you-mean. A citation whose
//! text is no rule ID at all is reported here too.

use super::{Context, Draft, Place};
use crate::read::shortcode::Kind;
use crate::util::suggest;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let rules = cx.rules;
    let unknown = |id: &str| {
        let hint = suggest::hint(id, rules.ids());
        if rules.rules.is_empty() {
            format!("`{id}` names no rule: the contract chapters have no rule marker")
        } else {
            format!("`{id}` names no rule of the contract{hint}")
        }
    };
    for (number, chapter) in cx.each_chapter() {
        for shortcode in &chapter.scan.shortcodes {
            let Kind::Rule { id } = &shortcode.kind else {
                continue;
            };
            let message = match crate::model::rules::marker::parse_versioned(&id.text) {
                Ok(cited) if rules.get(&cited.id).is_some() => continue,
                Ok(cited) => unknown(&cited.id),
                Err(why) => why,
            };
            out.push(
                Draft::new(Check::UnknownRule, number, id.range.clone(), message)
                    .help("a rule is defined by a line `r[ID]` before its paragraph in a contract chapter"),
            );
        }
    }
    // A provider report's citations are `provider_reports.rs`'s.
    for (i, citation) in cx.citations.iter().enumerate() {
        let message = match &citation.cited {
            _ if citation.remote.is_some() => continue,
            Ok(cited) if rules.get(&cited.id).is_some() => continue,
            Ok(cited) => unknown(&cited.id),
            Err(why) => why.clone(),
        };
        out.push(
            Draft::at(Check::UnknownRule, Place::Code(i), 0..0, format!(
                "`{}`: {message}",
                citation.text
            ))
            .help("cite a rule as the contract defines it; a rule that was renamed is cited by its new ID"),
        );
    }
}
