//! The book written back to mdBook as JSON, byte for byte what `serde_json::to_writer` writes
//! for the book with its patches applied, without applying them in memory first.
//!
//! Chapter contents are nearly all of a book's bytes. [`write_book`] takes the contents out of
//! the book, lets serde_json write everything else (so the shape of mdBook's types stays
//! serde's business), and a [`Formatter`] puts each content back where its now empty string is
//! written: the value of the only `"content"` key of mdBook's types, met in the order
//! [`take_contents`] took them. A content is written with its patches spliced in as it goes,
//! so a rendered book is never built as a second copy of the book; and escaped eight bytes at a
//! time, where serde_json looks up one byte at a time in a table. Escapes themselves are still
//! written by serde_json's [`CompactFormatter`].
//!
//! To extend: nothing here knows mdBook's types beyond the `content` key; a new string field
//! needs nothing, a second `content` key would fail the tests that compare with serde_json.

use std::io::{self, Write};

use mdbook_preprocessor::book::{Book, BookItem};
use serde::Serialize as _;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

use crate::markdown::splice::Patch;

/// Writes `book` with `patches` applied as `serde_json::to_writer` would. `patches` holds the
/// patches of each chapter with content, in the order of [`crate::book::read_chapters`] (as
/// [`crate::Prepared::patches`] does); chapters past its end have none.
pub fn write_book(
    writer: impl Write,
    mut book: Book,
    patches: &[Vec<Patch>],
) -> serde_json::Result<()> {
    let contents = take_contents(&mut book.items, patches);
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

/// Every chapter's content, emptied in the book, with its patches, in the order serde writes
/// them: a chapter's `content` field comes before its `sub_items`. A draft chapter (no path, no
/// content) has no patches and no number in `patches`, as in [`crate::book::read_chapters`].
fn take_contents<'p>(
    items: &mut [BookItem],
    patches: &'p [Vec<Patch>],
) -> Vec<(String, &'p [Patch])> {
    fn walk<'p>(
        items: &mut [BookItem],
        patches: &mut std::slice::Iter<'p, Vec<Patch>>,
        out: &mut Vec<(String, &'p [Patch])>,
    ) {
        for item in items {
            if let BookItem::Chapter(chapter) = item {
                let draft = chapter.path.is_none() && chapter.content.is_empty();
                let edits = if draft {
                    &[][..]
                } else {
                    patches.next().map_or(&[][..], Vec::as_slice)
                };
                out.push((std::mem::take(&mut chapter.content), edits));
                walk(&mut chapter.sub_items, patches, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(items, &mut patches.iter(), &mut out);
    out
}

/// serde_json's compact output, with the next taken content written into the value of each
/// `"content"` key.
struct ContentFormatter<'f, 'c, 'p> {
    contents: &'f mut std::slice::Iter<'c, (String, &'p [Patch])>,
    /// The key being written, while `in_key`.
    key: String,
    in_key: bool,
    /// The last key was `content`: the next string is a chapter's (emptied) content.
    content_next: bool,
    /// Within that string.
    in_content: bool,
}

impl Formatter for ContentFormatter<'_, '_, '_> {
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
            let (content, patches) = self.contents.next().ok_or_else(|| {
                io::Error::other("the book has more `content` fields than chapters")
            })?;
            // As `splice::apply` would: the text between patches, then each patch's text.
            let mut copied = 0;
            for patch in *patches {
                write_escaped(writer, &content[copied..patch.range.start])?;
                write_escaped(writer, &patch.text)?;
                copied = patch.range.end;
            }
            write_escaped(writer, &content[copied..])?;
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
        write_book(&mut out, book.clone(), &[]).unwrap();
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
    fn patches_are_spliced_as_splice_apply_splices_them_draft_chapters_skipped() {
        let patch = |range: std::ops::Range<usize>, text: &str| Patch {
            range,
            text: text.to_owned(),
        };
        let book = Book::new_with_items(vec![
            chapter(
                "one",
                "a {{#x}} b {{#y}}",
                vec![
                    BookItem::Chapter(Chapter::new_draft("draft", Vec::new())),
                    chapter("two", "\"quoted\" {{#z}}\n", Vec::new()),
                ],
            ),
            BookItem::Chapter(Chapter::new_draft("draft", Vec::new())),
            chapter("three", "untouched", Vec::new()),
            chapter("four", "past the end of the patches", Vec::new()),
        ]);
        let patches = vec![
            vec![
                patch(0..0, "<panel>\n"),
                patch(2..8, "[x](x.md)"),
                patch(11..17, ""),
            ],
            vec![patch(9..15, "\"z\"\t")],
            Vec::new(),
        ];
        // What `Prepared::apply` does, by hand.
        fn walk(items: &mut [BookItem], patches: &[Vec<Patch>], number: &mut usize) {
            for item in items {
                if let BookItem::Chapter(chapter) = item {
                    if !(chapter.path.is_none() && chapter.content.is_empty()) {
                        if let Some(edits) = patches.get(*number) {
                            chapter.content =
                                crate::markdown::splice::apply(&chapter.content, edits)
                                    .into_owned();
                        }
                        *number += 1;
                    }
                    walk(&mut chapter.sub_items, patches, number);
                }
            }
        }
        let mut spliced = book.clone();
        let mut number = 0;
        walk(&mut spliced.items, &patches, &mut number);
        assert_eq!(number, 4);
        let mut out = Vec::new();
        write_book(&mut out, book, &patches).unwrap();
        let expected = serde_json::to_string(&spliced).unwrap();
        assert!(
            expected.contains("<panel>\\na [x](x.md) b \""),
            "{expected}"
        );
        assert_eq!(String::from_utf8(out).unwrap(), expected);
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
