//! `missing-evidence`: a claim of a built (not proposed) provider cites no evidence, or a
//! claim (of any provider) whose evidence holds plain words.
//!
//! Evidence is a citation: a repository path (`src/s3.rs`), a symbol (`Store.put`,
//! `ListObjects`, `put_object`, `classify`) or a web address. Evidence with two or more plain
//! lowercase words (`the docs say so`) is prose ([`is_prose`]), whether or not the book has a
//! source tree; one such word alone is a symbol, which `cited-symbol` looks up.

use super::{Context, Draft};
use crate::read::citation::{is_plain_word, is_prose};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for claim in &cx.model.claims {
        let provider = &cx.model.providers[claim.provider];
        if is_prose(claim.evidence.iter().map(|e| &*e.text)) {
            let words: Vec<String> = claim
                .evidence
                .iter()
                .filter(|e| is_plain_word(&e.text))
                .map(|e| format!("`{}`", e.text))
                .collect();
            out.push(
                Draft::new(
                    Check::MissingEvidence,
                    claim.chapter,
                    claim.range.clone(),
                    format!(
                        "the claim of `{}` on axis `{}` gives {} as evidence: words, not citations",
                        provider.name,
                        claim.axis.text,
                        words.join(", ")
                    ),
                )
                .help("evidence is a path, a symbol (`Store.put`, `ListObjects`) or a web address (`https://...`); say in the prose around the shortcode why they show it"),
            );
            continue;
        }
        if provider.proposed || claim.is_unknown() || !claim.evidence.is_empty() {
            continue;
        }
        out.push(
            Draft::new(
                Check::MissingEvidence,
                claim.chapter,
                claim.range.clone(),
                format!("the claim of `{}` on axis `{}` cites no evidence", provider.name, claim.axis.text),
            )
            .help(format!(
                "name the symbol or path that shows it: `{{{{#profile {} {} path/to/file.go Type.Method}}}}`",
                claim.axis.text, claim.profile.text
            )),
        );
    }
}
