//! `syntax-error`: a file of the source tree whose syntax tree has errors the parser recovered
//! from, when the file holds a citation of a rule or a cited symbol: what is read around the
//! errors (a comment, the test a citation stands in, a name of the code) may be read wrongly,
//! so the finding stands at the first error's line. A file nothing is read from is only counted
//! in `status`.

use super::{Context, Draft, Place};
use crate::util::counted;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let Some(source) = cx.source else {
        return;
    };
    for (first, count) in &source.reading.errors_where_read {
        out.push(
            Draft::at(
                Check::SyntaxError,
                Place::Source(Box::new(first.clone())),
                0..0,
                format!(
                    "{} in this file, the first here, which the parser read past: its citations and the names around them may be read wrongly",
                    counted(*count, "syntax error")
                ),
            )
            .help("fix the syntax, or say in a `.ignore` file under `source-root` that the file is not source"),
        );
    }
}
