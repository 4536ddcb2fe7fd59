//! `cited-path`: a code span (or claim evidence) that names a repository path that does not
//! exist under `source-root`. Globs and `{a,b}` braces are allowed; each alternative must exist.
//! Runs only when `source-root` is set.

use super::{Context, Draft};
use crate::read::citation::Citation;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let Some(source) = cx.source else { return };
    for (number, range, citation) in cx.citations() {
        let Citation::Path(path) = citation else {
            continue;
        };
        if source.path_exists(path) {
            continue;
        }
        let root = cx.config.source_root.as_deref().unwrap_or(".");
        out.push(
            Draft::new(
                Check::CitedPath,
                number,
                range,
                format!("`{path}` does not exist under the source root `{root}`"),
            )
            .help("fix the path, or write it as plain text if it names something to be created"),
        );
    }
}
