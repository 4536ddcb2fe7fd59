//! Text as files written on any system hold it: the byte order mark that Windows editors and
//! PowerShell put before UTF-8, and lines ending in `\r\n` (a Windows checkout), read the way a
//! reader sees them.
//!
//! mdBook drops a chapter's BOM; every other file this tool reads itself goes through
//! [`read_to_string`] or [`without_bom`], so a first line or heading is never hidden behind
//! one. Text that is compared or recorded across checkouts (a rule's words in `diff`, the
//! Markdown of `export`) goes through [`lf`], so a Windows checkout gives what Linux gives.

use std::borrow::Cow;
use std::path::Path;

/// `text` without a leading byte order mark.
pub(crate) fn without_bom(text: String) -> String {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    }
}

/// The UTF-8 file at `path`, without a leading byte order mark.
pub(crate) fn read_to_string(path: &Path) -> std::io::Result<String> {
    std::fs::read_to_string(path).map(without_bom)
}

/// `text` with every `\r\n` as `\n`. Borrows when there is none.
pub(crate) fn lf(text: &str) -> Cow<'_, str> {
    if text.contains("\r\n") {
        Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

/// `text` cut to at most `max` bytes at a character boundary, with a word that says how much
/// was cut: what a report holds is shown, never a message of any size.
pub(crate) fn cut(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let kept = head(text, max);
    Cow::Owned(format!(
        "{kept}\u{2026} (cut: {} more bytes)",
        text.len() - kept.len()
    ))
}

/// At most `max` bytes of the start of `text`, cut at a character boundary.
pub(crate) fn head(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_at_a_character_and_says_so() {
        assert_eq!(cut("short", 10), "short");
        let long = "\u{e9}".repeat(10);
        let shown = cut(&long, 5);
        assert_eq!(shown, "\u{e9}\u{e9}\u{2026} (cut: 16 more bytes)");
    }

    #[test]
    fn a_byte_order_mark_is_dropped_once_at_the_start_only() {
        assert_eq!(without_bom("\u{feff}# T\n".to_owned()), "# T\n");
        assert_eq!(without_bom("# T\u{feff}".to_owned()), "# T\u{feff}");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "\u{feff}line\n").unwrap();
        assert_eq!(read_to_string(&file).unwrap(), "line\n");
    }

    #[test]
    fn windows_line_ends_read_as_unix_ones() {
        assert!(matches!(lf("a\nb"), Cow::Borrowed("a\nb")));
        assert_eq!(lf("a\r\nb\r\n"), "a\nb\n");
        // A lone `\r` is text, not a line end.
        assert_eq!(lf("a\rb"), "a\rb");
    }
}
