//! `cited-symbol`: a code span (or claim evidence) that names an identifier (`Sweeper.sweep`,
//! `provider.Checker`) with a part that is not a whole word in any file matched by
//! `symbol-files` under `source-root`. Runs only when `source-root` is set.

use super::{Context, Draft};
use crate::read::citation::Citation;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let Some(source) = cx.source else { return };
    for (number, range, citation) in cx.citations() {
        let Citation::Symbol(parts) = citation else {
            continue;
        };
        let Some(missing) = parts.iter().find(|p| !source.has_word(p)) else {
            continue;
        };
        let symbol = parts.join(".");
        let files = cx.config.symbol_files.join(", ");
        let message = if parts.len() == 1 {
            format!("`{symbol}` is not found in the source (no whole word `{missing}` in {files})")
        } else {
            format!(
                "`{symbol}` is not found in the source: `{missing}` is not a whole word in {files}"
            )
        };
        out.push(
            Draft::new(Check::CitedSymbol, number, range, message).help(
                "fix the name, or add it to `symbol-ignore` in book.toml if it is not a symbol",
            ),
        );
    }
}
