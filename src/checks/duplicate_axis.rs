//! `duplicate-axis`: two `.axis` headings define one code.

use super::{Context, Draft};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for axis in &cx.model.axes {
        let Some(first) = cx.model.axis(&axis.code) else {
            continue;
        };
        if std::ptr::eq(first, axis) {
            continue;
        }
        out.push(
            Draft::new(
                Check::DuplicateAxis,
                axis.chapter,
                axis.range.clone(),
                format!("axis `{}` is defined twice", axis.code),
            )
            .related(first.chapter, first.range.clone(), "first defined here")
            .help("keep one definition; links and claims resolve to the first"),
        );
    }
}
