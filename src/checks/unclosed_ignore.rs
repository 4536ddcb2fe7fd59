//! `unclosed-ignore`: an ignore region of tracey's (`@tracey:ignore-start`, alone in a comment)
//! that no `@tracey:ignore-end` closes, at its opening: every citation from there to the end
//! of the file is ignored, which would otherwise read as code that cites nothing.

use super::{Context, Draft, Place};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for spot in cx.unclosed {
        out.push(
            Draft::at(
                Check::UnclosedIgnore,
                Place::Source(Box::new(spot.clone())),
                0..0,
                "`@tracey:ignore-start` opens a region no `@tracey:ignore-end` closes: every citation to the end of the file is ignored".to_owned(),
            )
            .help("close the region with a comment `// @tracey:ignore-end` after the last line it should take out"),
        );
    }
}
