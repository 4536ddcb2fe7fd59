//! `unknown-axis`: a shortcode names an axis that no `.axis` heading defines.

use super::{Context, Draft};
use crate::util::suggest;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for (number, chapter) in cx.each_chapter() {
        for shortcode in &chapter.scan.shortcodes {
            let Some(code) = shortcode.kind.axis() else {
                continue;
            };
            // A heading that lacks only its class is the cause, reported once by
            // `malformed-section` with this use as a note.
            if cx.model.axis(&code.text).is_some()
                || cx.model.unclassed.iter().any(|h| h.code == code.text)
            {
                continue;
            }
            let hint = suggest::hint(&code.text, cx.model.codes());
            let message = format!("no axis `{}` is defined{hint}", code.text);
            let help = if cx.model.axes.is_empty() {
                format!(
                    "no axis is defined in this book; define one with a heading such as ``### `{}` {{.axis}}`` in a contract chapter",
                    code.text
                )
            } else {
                format!(
                    "axes are defined by headings such as ``### `{}` {{.axis}}`` in contract chapters",
                    cx.model.axes[0].code
                )
            };
            out.push(
                Draft::new(Check::UnknownAxis, number, code.range.clone(), message).help(help),
            );
        }
    }
}
