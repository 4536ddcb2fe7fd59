//! The one door for data into markup. Test names, failure messages, paths, provider names
//! and rule text reach pages, job summaries and workflow commands only through these
//! functions, so that no data can end the HTML block it stands in, open an element or an
//! attribute, or carry a link, an image or a terminal escape.
//!
//! - [`html`]: element text or a double- or single-quoted attribute value. Every line break
//!   and control character is encoded or replaced: an HTML block of a chapter ends at a blank
//!   line (CommonMark's HTML block rule), so a `\n\n` from a report would hand the rest of the
//!   block to the Markdown parser, where `{#x onfocus=...}` makes an attribute. A `{` is
//!   encoded too: a preprocessor that runs after this one must not find a `{{#include}}` in
//!   data.
//! - [`markdown`]: Markdown text in which every ASCII punctuation character is escaped, so no
//!   emphasis, link, image, autolink, raw HTML or heading can start.
//! - [`markdown_message`]: one of this tool's messages (its code spans written with
//!   backticks) as Markdown: the code spans kept, the rest as [`markdown`].
//! - [`code_span`]: data as a Markdown code span, its fence longer than any run of backticks
//!   in it.
//! - [`plain`]: text for a terminal or a log, without the control characters that move a
//!   cursor or recolour a screen (ESC and the rest); line breaks and tabs kept.
//!
//! To carry data into a new kind of output, add its function here with a test of every
//! control character; never write data with `format!` into markup elsewhere.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` is a control character other than a tab, a line feed or a carriage return.
fn is_other_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// The character shown in place of a control character that has no business in text.
const REPLACEMENT: char = '\u{fffd}';

/// `text` as HTML element text or a quoted attribute value: `& < > " '` as references, `{`
/// as `&#123;`, a tab, a line feed and a carriage return as numeric references, every other
/// control character as U+FFFD.
pub(crate) fn html(text: &str) -> Cow<'_, str> {
    let special = |c: char| matches!(c, '&' | '<' | '>' | '"' | '\'' | '{') || c.is_control();
    if !text.contains(special) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            '{' => out.push_str("&#123;"),
            '\t' | '\n' | '\r' => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            c if c.is_control() => out.push(REPLACEMENT),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `text` as Markdown text: every ASCII punctuation character backslash-escaped (CommonMark
/// lets any be; an escaped `:` or `.` also keeps GitHub from making a bare address a link),
/// line breaks and tabs as one space, other control characters as U+FFFD, a leading space
/// encoded: the text stays one inline run whatever it holds.
pub(crate) fn markdown(text: &str) -> String {
    inline(text, true)
}

/// [`markdown`] for a run that starts a line (`first`) or follows other text.
fn inline(text: &str, first: bool) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for c in text.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
            out.push(c);
        } else if matches!(c, '\t' | '\n' | '\r') {
            // A run of them is one space; none at the start (four would indent a code block).
            if (!first || !out.is_empty()) && !out.ends_with(' ') {
                out.push(' ');
            }
        } else if c.is_control() {
            out.push(REPLACEMENT);
        } else if c == ' ' && first && out.is_empty() {
            out.push_str("&#32;");
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` as a Markdown code span: control characters as spaces (a line break would end a
/// table row or a list item), fenced by one more backtick than its longest run, padded with
/// a space where it starts or ends with a backtick.
pub(crate) fn code_span(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') || text.is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// One of this tool's messages as Markdown: each code span (a run of backticks up to the
/// next run of as many, as CommonMark reads it) written again as [`code_span`], the text
/// between as [`markdown`]. A backtick run that closes nothing is text.
pub(crate) fn markdown_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len() + 16);
    for (is_code, part) in spans(message) {
        if is_code {
            out.push_str(&code_span(part));
        } else {
            out.push_str(&inline(part, out.is_empty()));
        }
    }
    out
}

/// `message` cut into text and code spans, in order: `(true, inner)` for a code span (its
/// inner text with one leading and trailing space stripped, as CommonMark strips it).
pub(crate) fn spans(message: &str) -> Vec<(bool, &str)> {
    let run = |s: &str| s.bytes().take_while(|&b| b == b'`').count();
    let mut parts = Vec::new();
    let rest = message;
    let mut text_from = 0;
    let mut at = 0;
    while let Some(open) = rest[at..].find('`') {
        let open = at + open;
        let ticks = run(&rest[open..]);
        let after = open + ticks;
        let mut close = None;
        let mut from = after;
        while let Some(i) = rest[from..].find('`') {
            let i = from + i;
            let length = run(&rest[i..]);
            if length == ticks {
                close = Some(i);
                break;
            }
            from = i + length;
        }
        let Some(close) = close else {
            at = after;
            continue;
        };
        if open > text_from {
            parts.push((false, &rest[text_from..open]));
        }
        let inner = &rest[after..close];
        let inner = match inner.strip_prefix(' ').and_then(|c| c.strip_suffix(' ')) {
            Some(stripped) if !stripped.trim().is_empty() => stripped,
            _ => inner,
        };
        parts.push((true, inner));
        text_from = close + ticks;
        at = text_from;
    }
    if text_from < rest.len() {
        parts.push((false, &rest[text_from..]));
    }
    parts
}

/// `text` for a terminal or a log: every control character but a tab, a line feed and a
/// carriage return as U+FFFD (an ESC from a report must not recolour or clear a terminal).
pub(crate) fn plain(text: &str) -> Cow<'_, str> {
    if !text.contains(is_other_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if is_other_control(c) { REPLACEMENT } else { c })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every control character, and the characters markup gives a meaning to.
    fn hostile() -> String {
        let mut s: String = (0u32..0x20)
            .chain(0x7f..0xa0)
            .filter_map(char::from_u32)
            .collect();
        s.push_str("<img src=x onerror=alert(1)> \"a\" 'b' & {{#include x}} [c](javascript:d) ![e](f) `g` # h *i* _j_ |k|");
        s
    }

    #[test]
    fn html_leaves_no_line_break_control_or_markup() {
        let out = html(&hostile()).into_owned();
        assert!(!out.contains(|c: char| c.is_control()), "{out:?}");
        for raw in ['<', '>', '"', '\'', '{'] {
            assert!(!out.contains(raw), "{raw} in {out:?}");
        }
        assert!(out.contains("&#10;&#11;") || out.contains("&#10;\u{fffd}"));
        assert!(out.contains("&#123;&#123;#include"));
        assert_eq!(html("plain text"), Cow::Borrowed("plain text"));
        assert_eq!(html("a\n\nb"), "a&#10;&#10;b");
    }

    #[test]
    fn markdown_starts_no_construct() {
        let out = markdown(&hostile());
        assert!(!out.contains(|c: char| c.is_control()), "{out:?}");
        let html = render(&out);
        for bad in [
            "<img", "<a ", "<h1", "<em", "<code", "<strong", "<table", "<pre",
        ] {
            assert!(!html.contains(bad), "{bad} in {html}");
        }
    }

    #[test]
    fn code_spans_hold_any_backticks_and_no_line_break() {
        for text in ["a", "`", "a ``b`` c", "`x`", "a\n\nb", ""] {
            let span = code_span(text);
            let html = render(&span);
            assert!(html.contains("<code>"), "{text:?}: {span:?} {html}");
            assert!(!span.contains('\n'));
        }
        assert_eq!(code_span("a `b`"), "`` a `b` ``");
    }

    #[test]
    fn messages_keep_their_code_spans_and_escape_the_rest() {
        let out =
            markdown_message("rule `put.atomic` failed: <img src=x onerror=y> [a](javascript:b)");
        assert_eq!(
            out,
            "rule `put.atomic` failed\\: \\<img src\\=x onerror\\=y\\> \\[a\\]\\(javascript\\:b\\)"
        );
        // A lone backtick closes nothing and is escaped.
        assert_eq!(markdown_message("a ` b"), "a \\` b");
        let html = render(&markdown_message(&hostile()));
        assert!(!html.contains("<img") && !html.contains("<a "), "{html}");
        assert_eq!(
            spans("a `b` c ``d`e`` f"),
            [
                (false, "a "),
                (true, "b"),
                (false, " c "),
                (true, "d`e"),
                (false, " f")
            ]
        );
    }

    #[test]
    fn plain_drops_escapes_and_keeps_lines() {
        assert_eq!(
            plain("a\u{1b}[31mred\u{1b}[0m\nb\tc"),
            "a\u{fffd}[31mred\u{fffd}[0m\nb\tc"
        );
        assert_eq!(plain("fine"), Cow::Borrowed("fine"));
    }

    fn render(markdown: &str) -> String {
        let mut out = String::new();
        let parser = mdbook_markdown::pulldown_cmark::Parser::new(markdown);
        mdbook_markdown::pulldown_cmark::html::push_html(&mut out, parser);
        out
    }
}
