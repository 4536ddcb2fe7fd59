//! Positions as LSP counts them: a line and a column in the negotiated encoding (UTF-16 unless
//! the client offers another), against our byte offsets and character columns.

use lsp_types::{Position, PositionEncodingKind, Range};

use crate::read::sourcemap::Location;

/// How columns are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
    Utf32,
}

impl Encoding {
    /// The first of the client's encodings that the server speaks, else UTF-16, which every
    /// client must accept.
    pub(crate) fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        for kind in offered.unwrap_or_default() {
            match kind.as_str() {
                "utf-8" => return Encoding::Utf8,
                "utf-16" => return Encoding::Utf16,
                "utf-32" => return Encoding::Utf32,
                _ => {}
            }
        }
        Encoding::Utf16
    }

    /// Its name in `ServerCapabilities.positionEncoding`.
    pub(crate) fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    /// How long `text` is in this encoding's units.
    pub(crate) fn len(self, text: &str) -> u32 {
        let units = match self {
            Encoding::Utf8 => text.len(),
            Encoding::Utf16 => text.encode_utf16().count(),
            Encoding::Utf32 => text.chars().count(),
        };
        u32::try_from(units).unwrap_or(u32::MAX)
    }
}

/// The byte offset in `line` of `units` units from its start (clamped to the line, and to a
/// character boundary).
fn byte_in_line(line: &str, units: u32, encoding: Encoding) -> usize {
    let mut counted = 0u32;
    for (at, ch) in line.char_indices() {
        if counted >= units {
            return at;
        }
        counted += match encoding {
            Encoding::Utf8 => ch.len_utf8() as u32,
            Encoding::Utf16 => ch.len_utf16() as u32,
            Encoding::Utf32 => 1,
        };
    }
    line.len()
}

/// The lines of `text`, each without its line break, with its start offset. A last line
/// without a break counts; `\r\n` is one break.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    text.split_inclusive('\n').map(move |line| {
        let at = start;
        start += line.len();
        let line = line.strip_suffix('\n').unwrap_or(line);
        (at, line.strip_suffix('\r').unwrap_or(line))
    })
}

/// The byte offset of `position` in `text`: past the end of a line is its end, past the last
/// line is the end of the text.
pub(crate) fn offset(text: &str, position: Position, encoding: Encoding) -> usize {
    match lines(text).nth(position.line as usize) {
        Some((start, line)) => start + byte_in_line(line, position.character, encoding),
        None => text.len(),
    }
}

/// The position of byte `offset` of `text`.
pub(crate) fn position(text: &str, offset: usize, encoding: Encoding) -> Position {
    let mut line_number = 0u32;
    for (start, line) in lines(text) {
        if offset <= start + line.len() {
            let column = &line[..(offset - start).min(line.len())];
            return Position::new(line_number, encoding.len(column));
        }
        line_number += 1;
    }
    Position::new(line_number, 0)
}

/// The range a [`Location`] covers (its line, its character columns), in `encoding`.
pub(crate) fn range(location: &Location, encoding: Encoding) -> Range {
    let line = location.line.saturating_sub(1) as u32;
    let text = &location.line_text;
    let column = |chars: usize| {
        let byte = text
            .char_indices()
            .nth(chars)
            .map_or(text.len(), |(i, _)| i);
        encoding.len(&text[..byte])
    };
    let start = location.column.saturating_sub(1);
    Range::new(
        Position::new(line, column(start)),
        Position::new(line, column(start + location.width)),
    )
}

/// Whether `position` lies in `range` (its end included, where a cursor after a word is).
pub(crate) fn contains(range: &Range, position: Position) -> bool {
    range.start <= position && position <= range.end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_counts_surrogate_pairs_and_utf8_counts_bytes() {
        let text = "a\né😀 {{#axis x}}\r\nlast";
        let at = text.find("{{").unwrap();
        assert_eq!(position(text, at, Encoding::Utf16), Position::new(1, 4));
        assert_eq!(position(text, at, Encoding::Utf8), Position::new(1, 7));
        assert_eq!(position(text, at, Encoding::Utf32), Position::new(1, 3));
        for encoding in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let p = position(text, at, encoding);
            assert_eq!(offset(text, p, encoding), at);
        }
        // Past a line's end, and past the last line.
        assert_eq!(offset(text, Position::new(0, 9), Encoding::Utf16), 1);
        assert_eq!(
            offset(text, Position::new(9, 0), Encoding::Utf16),
            text.len()
        );
        assert_eq!(
            position(text, text.len(), Encoding::Utf16),
            Position::new(2, 4)
        );
    }

    #[test]
    fn a_location_becomes_a_range_in_the_encoding() {
        let location = Location {
            path: "a.md".into(),
            line: 3,
            column: 4,
            width: 2,
            line_text: "é😀 ab".into(),
            note: None,
        };
        let r = range(&location, Encoding::Utf16);
        assert_eq!((r.start, r.end), (Position::new(2, 4), Position::new(2, 6)));
        let r = range(&location, Encoding::Utf8);
        assert_eq!((r.start, r.end), (Position::new(2, 7), Position::new(2, 9)));
    }
}
