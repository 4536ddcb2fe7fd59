//! `unknown-axis`: a shortcode names an axis that no `.axis` heading defines.

use super::{Context, Draft};
use crate::suggest;
use crate::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (number, chapter) in cx.each_chapter() {
        for shortcode in &chapter.scan.shortcodes {
            let Some(code) = shortcode.kind.axis() else {
                continue;
            };
            if cx.model.axis(&code.text).is_some() {
                continue;
            }
            let hint = suggest::hint(&code.text, cx.model.codes());
            let message = format!("no axis `{}` is defined{hint}", code.text);
            let help = if cx.model.axes.is_empty() {
                "no axis is defined in this book; define one with a heading such as ``### `readiness` {.axis}`` in a contract chapter".to_owned()
            } else {
                "axes are defined by headings such as ``### `readiness` {.axis}`` in contract chapters".to_owned()
            };
            out.push(
                Draft::new(Check::UnknownAxis, number, code.range.clone(), message).help(help),
            );
        }
    }
}
