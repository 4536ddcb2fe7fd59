//! `unreadable-source`: a file or folder under `source-root` that could not be read or walked
//! (permissions, a file removed mid-walk), at `source-root` in book.toml, once each: its
//! citations and symbols are not known, and a rule it verifies would read as uncovered.
//! `status` lists them too.

use super::{Context, Draft, Place};
use crate::read::config::KeyPath;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let Some(source) = cx.source else {
        return;
    };
    for (path, why) in &source.reading.unreadable {
        let what = if path.is_empty() {
            "a part of the source tree".to_owned()
        } else {
            format!("`{path}`")
        };
        out.push(
            Draft::at(
                Check::UnreadableSource,
                Place::Config(KeyPath::key("source-root")),
                0..0,
                format!(
                    "{what} under `source-root` could not be read ({why}): its citations and symbols are not known"
                ),
            )
            .help("give the user who builds the book read access, or list the path in a `.ignore` file under `source-root`"),
        );
    }
}
