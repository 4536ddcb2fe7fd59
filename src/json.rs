//! The book written back to mdBook as JSON, byte for byte what `serde_json::to_writer` writes,
//! with the chapters' contents escaped eight bytes at a time.
//!
//! Chapter contents are nearly all of a book's bytes, and serde_json escapes a string one byte
//! at a time through a table. [`write_book`] takes the contents out of the book, lets
//! serde_json write everything else (so the shape of mdBook's types stays serde's business),
//! and a [`Formatter`] puts each content back where its now empty string is written: the value
//! of the only `"content"` key of mdBook's types, met in the order [`take_contents`] took them.
//! Escapes themselves are still written by serde_json's [`CompactFormatter`].
//!
//! To extend: nothing here knows mdBook's types beyond the `content` key; a new string field
//! needs nothing, a second `content` key would fail the tests that compare with serde_json.

use std::io::{self, Write};

use mdbook_preprocessor::book::{Book, BookItem};
use serde::Serialize as _;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

/// Writes `book` as `serde_json::to_writer` would.
pub fn write_book(writer: impl Write, mut book: Book) -> serde_json::Result<()> {
    let contents = take_contents(&mut book.items);
    let mut unwritten = contents.iter();
    let formatter = ContentFormatter {
        contents: &mut unwritten,
        key: String::new(),
        in_key: false,
        content_next: false,
        in_content: false,
    };
    let mut serializer = serde_json::Serializer::with_formatter(writer, formatter);
    book.serialize(&mut serializer)?;
    if unwritten.len() != 0 {
        return Err(serde_json::Error::io(io::Error::other(
            "a chapter's content was not written back",
        )));
    }
    Ok(())
}

/// Every chapter's content, emptied in the book, in the order serde writes them: a chapter's
/// `content` field comes before its `sub_items`.
fn take_contents(items: &mut [BookItem]) -> Vec<String> {
    fn walk(items: &mut [BookItem], out: &mut Vec<String>) {
        for item in items {
            if let BookItem::Chapter(chapter) = item {
                out.push(std::mem::take(&mut chapter.content));
                walk(&mut chapter.sub_items, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(items, &mut out);
    out
}

/// serde_json's compact output, with the next taken content written into the value of each
/// `"content"` key.
struct ContentFormatter<'f, 'c> {
    contents: &'f mut std::slice::Iter<'c, String>,
    /// The key being written, while `in_key`.
    key: String,
    in_key: bool,
    /// The last key was `content`: the next string is a chapter's (emptied) content.
    content_next: bool,
    /// Within that string.
    in_content: bool,
}

impl Formatter for ContentFormatter<'_, '_> {
    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.in_key = true;
        self.content_next = false;
        self.key.clear();
        CompactFormatter.begin_object_key(writer, first)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.in_key = false;
        self.content_next = self.key == "content";
        CompactFormatter.end_object_key(writer)
    }

    fn begin_string<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.in_content = std::mem::take(&mut self.content_next);
        CompactFormatter.begin_string(writer)
    }

    fn end_string<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if std::mem::take(&mut self.in_content) {
            let content = self.contents.next().ok_or_else(|| {
                io::Error::other("the book has more `content` fields than chapters")
            })?;
            write_escaped(writer, content)?;
        }
        CompactFormatter.end_string(writer)
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if self.in_key {
            self.key.push_str(fragment);
        }
        if self.in_content {
            return Err(io::Error::other("a chapter's content was not taken out"));
        }
        CompactFormatter.write_string_fragment(writer, fragment)
    }

    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        if self.in_key {
            // No key of mdBook's types has an escape; this one is not `content`.
            self.key.push('\u{0}');
        }
        if self.in_content {
            return Err(io::Error::other("a chapter's content was not taken out"));
        }
        CompactFormatter.write_char_escape(writer, char_escape)
    }
}

/// The inside of a JSON string for `text`, as serde_json writes it: `"`, `\` and the bytes
/// below 0x20 escaped, everything else as it is.
fn write_escaped<W: ?Sized + Write>(writer: &mut W, text: &str) -> io::Result<()> {
    let bytes = text.as_bytes();
    let mut run = 0;
    let mut at = 0;
    while let Some(escape_at) = next_escape(bytes, at) {
        if run < escape_at {
            writer.write_all(&bytes[run..escape_at])?;
        }
        let byte = bytes[escape_at];
        let escape = match byte {
            b'"' => CharEscape::Quote,
            b'\\' => CharEscape::ReverseSolidus,
            b'\n' => CharEscape::LineFeed,
            b'\r' => CharEscape::CarriageReturn,
            b'\t' => CharEscape::Tab,
            0x08 => CharEscape::Backspace,
            0x0c => CharEscape::FormFeed,
            _ => CharEscape::AsciiControl(byte),
        };
        CompactFormatter.write_char_escape(writer, escape)?;
        at = escape_at + 1;
        run = at;
    }
    writer.write_all(&bytes[run..])
}

/// The first byte at or after `from` that JSON escapes: `"`, `\` or one below 0x20.
fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    // A high bit set in the byte of each lane that is zero; lanes above the first such lane
    // may be marked wrongly (a borrow), so only the lowest mark is used.
    let zero_lanes = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let mut at = from;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let below_space = x.wrapping_sub(ONES * 0x20) & !x & HIGHS;
        let marks = below_space
            | zero_lanes(x ^ (ONES * u64::from(b'"')))
            | zero_lanes(x ^ (ONES * u64::from(b'\\')));
        if marks != 0 {
            return Some(at + (marks.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    bytes[at.min(bytes.len())..]
        .iter()
        .position(|&b| b < 0x20 || b == b'"' || b == b'\\')
        .map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mdbook_preprocessor::book::{Chapter, SectionNumber};
    use proptest::prelude::*;

    fn ours(book: &Book) -> String {
        let mut out = Vec::new();
        write_book(&mut out, book.clone()).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn chapter(name: &str, content: &str, sub_items: Vec<BookItem>) -> BookItem {
        let mut chapter = Chapter::new(name, content.to_owned(), format!("{name}.md"), Vec::new());
        chapter.number = Some(SectionNumber::new([1, 2]));
        chapter.sub_items = sub_items;
        BookItem::Chapter(chapter)
    }

    #[test]
    fn a_book_of_every_shape_is_written_as_serde_json_writes_it() {
        let mut draft = Chapter::new_draft("Draft \"content\"", Vec::new());
        draft.content = String::new();
        let book = Book::new_with_items(vec![
            BookItem::PartTitle("content".to_owned()),
            chapter(
                "content",
                "# Title\n\n\"quoted\" \\ back\ttab\r\n\u{1}\u{8}\u{c}\u{1f} \u{7f} é — 😀\n",
                vec![
                    chapter("child", "", Vec::new()),
                    BookItem::Separator,
                    BookItem::Chapter(draft),
                    chapter("grandchild", "{\"content\":\"x\"}", Vec::new()),
                ],
            ),
            BookItem::Separator,
            chapter(
                "last",
                "no escapes at all here, a long line of prose",
                Vec::new(),
            ),
        ]);
        assert_eq!(ours(&book), serde_json::to_string(&book).unwrap());
    }

    #[test]
    fn an_empty_book_is_written_as_serde_json_writes_it() {
        let book = Book::new();
        assert_eq!(ours(&book), serde_json::to_string(&book).unwrap());
    }

    #[test]
    fn escapes_are_found_at_every_lane() {
        for len in 0..20 {
            for at in 0..len {
                for byte in [b'"', b'\\', b'\n', 0x00, 0x1f] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = byte;
                    assert_eq!(next_escape(&bytes, 0), Some(at), "{len} {at} {byte}");
                }
                let bytes = vec![b' '; len];
                assert_eq!(next_escape(&bytes, at), None);
            }
        }
    }

    proptest! {
        #[test]
        fn any_content_is_escaped_as_serde_json_escapes_it(
            content in "(\\PC|[\\x00-\\x1f\"\\\\])*",
            name in "\\PC*",
        ) {
            let book = Book::new_with_items(vec![chapter(&name, &content, Vec::new())]);
            prop_assert_eq!(ours(&book), serde_json::to_string(&book).unwrap());
        }
    }
}
