//! `cited-symbol`: a code span (or claim evidence) that names an identifier (`Sweeper.sweep`,
//! `provider.Checker`) with a part that is not a whole word in the code of any symbol file
//! under `source-root` (`symbol-files`, by default every source file of a language the table
//! knows; a word in a comment or a string is no definition). Runs only when `source-root` is
//! set.

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
        let files = match source.symbol_globs.as_slice() {
            [] => "no source file (the tree has none of a language read as code)".to_owned(),
            globs => globs.join(", "),
        };
        let message = if parts.len() == 1 {
            format!("`{symbol}` is not found in the source (no whole word `{missing}` in {files})")
        } else {
            format!(
                "`{symbol}` is not found in the source: `{missing}` is not a whole word in {files}"
            )
        };
        out.push(
            Draft::new(Check::CitedSymbol, number, range, message).help(
                "fix the name; if the code that defines it is in other files, name them in `symbol-files` in book.toml; if it is not a symbol, add it to `symbol-ignore`",
            ),
        );
    }
}
