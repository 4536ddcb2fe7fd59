//! The book written back to mdBook as JSON, byte for byte what `serde_json::to_writer` writes
//! for the book with its patches applied, without applying them in memory first.
//!
//! Chapter contents are nearly all of a book's bytes. [`write_book`] takes the contents out of
//! the book, lets serde_json write everything else (so the shape of mdBook's types stays
//! serde's business), and a [`Formatter`] puts each content back where its now empty string is
//! written: the value of the only `"content"` key of mdBook's types, met in the order
//! `take_contents` took them. A content is written with its patches spliced in as it goes,
//! so a rendered book is never built as a second copy of the book; and escaped eight bytes at a
//! time, where serde_json looks up one byte at a time in a table. Escapes themselves are still
//! written by serde_json's [`CompactFormatter`].
//!
//! On the way in, [`split_input`] finds the context and every book item of
//! `[context, {"items": [...]}]`, each chapter's `sub_items` split out at every depth, by a scan
//! of the JSON's structure (strings, brackets and commas; no values are decoded), so that
//! [`read_items`] can deserialise the items on several threads and put the tree back together.
//!
//! To extend: nothing here knows mdBook's types beyond the keys `items`, `Chapter`,
//! `sub_items` and `content`; a new string field needs nothing, a second `content` key would
//! fail the tests that compare with serde_json, and a book object of another shape is left to
//! serde_json whole.

use std::borrow::Cow;
use std::io::{self, Write};
use std::ops::Range;

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
/// them: a chapter's `content` field comes before its `sub_items`. A chapter that
/// [`crate::book::is_read`] refuses (a draft without content) has no patches and no number in
/// `patches`.
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
                let edits = if crate::book::is_read(chapter) {
                    patches.next().map_or(&[][..], Vec::as_slice)
                } else {
                    &[][..]
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
    while let Some(escape_at) = next_escape(bytes, run) {
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
        run = escape_at + 1;
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
    bytes
        .get(at..)?
        .iter()
        .position(|&b| b < 0x20 || b == b'"' || b == b'\\')
        .map(|i| at + i)
}

/// The parts of mdBook's input, `[context, {"items": [item, ...]}]`, as bytes of the input.
#[derive(Debug, PartialEq, Eq)]
pub struct Split<'i> {
    /// The context object.
    pub context: &'i [u8],
    /// The book's items, in order.
    pub items: Vec<Item<'i>>,
}

/// One book item of the input, its sub-items split out when it has any.
#[derive(Debug, PartialEq, Eq)]
pub struct Item<'i> {
    /// The item as written when `sub_items` is empty; else the chapter with `[]` written for its
    /// `sub_items`.
    pub json: Cow<'i, [u8]>,
    /// The chapter's sub-items, each split the same way.
    pub sub_items: Vec<Item<'i>>,
}

/// The context and the book's items in `input`, when the input has the shape
/// `[context, {"items": [...]}]` (whitespace aside); `None` for anything else, which is then for
/// serde_json to read or to explain. The values are not checked: deserialising each part
/// does that.
pub fn split_input(input: &[u8]) -> Option<Split<'_>> {
    let mut scan = Scan {
        bytes: input,
        at: 0,
        depth: 0,
    };
    scan.expect(b'[')?;
    let context = scan.value()?;
    scan.expect(b',')?;
    scan.expect(b'{')?;
    scan.whitespace();
    if scan.string()? != b"items" {
        return None;
    }
    scan.expect(b':')?;
    let items = scan.items()?;
    scan.expect(b'}')?;
    scan.expect(b']')?;
    scan.whitespace();
    (scan.at == input.len()).then_some(Split { context, items })
}

/// The book that `items` make, each deserialised on its own, on up to
/// [`crate::parallel::threads`]`(work)` threads; `None` if one does not read.
pub fn read_items(items: &[Item<'_>], work: usize) -> Option<Vec<BookItem>> {
    fn flatten<'s, 'i>(items: &'s [Item<'i>], out: &mut Vec<&'s Item<'i>>) {
        for item in items {
            out.push(item);
            flatten(&item.sub_items, out);
        }
    }
    fn assemble(
        items: &[Item<'_>],
        read: &mut impl Iterator<Item = BookItem>,
    ) -> Option<Vec<BookItem>> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            let mut book_item = read.next()?;
            if !item.sub_items.is_empty() {
                let BookItem::Chapter(chapter) = &mut book_item else {
                    return None;
                };
                chapter.sub_items = assemble(&item.sub_items, read)?;
            }
            out.push(book_item);
        }
        Some(out)
    }
    let mut all = Vec::new();
    flatten(items, &mut all);
    let read = crate::parallel::map(
        &all,
        work,
        || (),
        |(), _, item| serde_json::from_slice::<BookItem>(&item.json).ok(),
    );
    let read: Vec<BookItem> = read.into_iter().collect::<Option<_>>()?;
    assemble(items, &mut read.into_iter())
}

/// What [`Scan::chapter`] found.
enum Shape<'i> {
    /// A chapter, with where its `sub_items` array is and its items, when it has one.
    Chapter(Option<(Range<usize>, Vec<Item<'i>>)>),
    /// Any other value.
    Other,
}

/// A cursor over JSON text that knows where values end and nothing else.
struct Scan<'i> {
    bytes: &'i [u8],
    at: usize,
    /// How many `sub_items` arrays the cursor is in.
    depth: usize,
}

/// The deepest nesting of chapters the scan follows (serde_json's own limit on nesting is 128
/// levels of arrays and objects, about 40 of chapters); deeper input is left to serde_json, so
/// that a book nested without end costs no stack here.
const DEEPEST: usize = 64;

impl<'i> Scan<'i> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    /// Skips whitespace, then `byte`.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.whitespace();
        (self.next()? == byte).then_some(())
    }

    /// Skips whitespace, then an array of book items.
    fn items(&mut self) -> Option<Vec<Item<'i>>> {
        self.expect(b'[')?;
        let mut items = Vec::new();
        self.whitespace();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Some(items);
        }
        loop {
            items.push(self.item()?);
            self.whitespace();
            match self.next()? {
                b',' => {}
                b']' => return Some(items),
                _ => return None,
            }
        }
    }

    /// Skips whitespace, then one book item: a chapter, `{"Chapter": {...}}`, with its
    /// `sub_items` split out, anything else as written.
    fn item(&mut self) -> Option<Item<'i>> {
        self.whitespace();
        let start = self.at;
        let Shape::Chapter(sub_items) = self.chapter()? else {
            self.at = start;
            return Some(Item {
                json: Cow::Borrowed(self.value()?),
                sub_items: Vec::new(),
            });
        };
        let end = self.at;
        let Some((cut, sub_items)) = sub_items.filter(|(_, items)| !items.is_empty()) else {
            return Some(Item {
                json: Cow::Borrowed(&self.bytes[start..end]),
                sub_items: Vec::new(),
            });
        };
        let mut json = Vec::with_capacity(end - start - cut.len() + 2);
        json.extend_from_slice(&self.bytes[start..cut.start]);
        json.extend_from_slice(b"[]");
        json.extend_from_slice(&self.bytes[cut.end..end]);
        Some(Item {
            json: Cow::Owned(json),
            sub_items,
        })
    }

    /// Reads `{"Chapter": {...}}`, finding its `sub_items` array; [`Shape::Other`] for anything
    /// else (the cursor then anywhere), `None` for JSON that ends or breaks.
    fn chapter(&mut self) -> Option<Shape<'i>> {
        if self.next()? != b'{' {
            return Some(Shape::Other);
        }
        self.whitespace();
        if self.peek()? != b'"' || self.string()? != b"Chapter" {
            return Some(Shape::Other);
        }
        self.expect(b':')?;
        self.whitespace();
        if self.peek()? != b'{' {
            return Some(Shape::Other);
        }
        self.at += 1;
        let mut sub_items = None;
        self.whitespace();
        if self.peek()? == b'}' {
            self.at += 1;
        } else {
            loop {
                self.whitespace();
                let key = self.string()?;
                self.expect(b':')?;
                self.whitespace();
                if key == b"sub_items" && self.peek()? == b'[' {
                    if sub_items.is_some() {
                        // Twice: serde_json's error, not ours.
                        return None;
                    }
                    if self.depth == DEEPEST {
                        return None;
                    }
                    let start = self.at;
                    self.depth += 1;
                    let items = self.items()?;
                    self.depth -= 1;
                    sub_items = Some((start..self.at, items));
                } else {
                    self.value()?;
                }
                self.whitespace();
                match self.next()? {
                    b',' => {}
                    b'}' => break,
                    _ => return None,
                }
            }
        }
        self.expect(b'}')?;
        Some(Shape::Chapter(sub_items))
    }

    /// At a `"`: the string's raw bytes (escapes as written), the cursor after its end.
    fn string(&mut self) -> Option<&'i [u8]> {
        if self.next()? != b'"' {
            return None;
        }
        let start = self.at;
        loop {
            // Quotes are rarer than escapes (every line of a chapter ends in `\n`): look for
            // the next quote, then count the backslashes before it; an odd number escapes it.
            let quote = self.at + memchr::memchr(b'"', self.bytes.get(self.at..)?)?;
            self.at = quote + 1;
            let backslashes = self.bytes[start..quote]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\\')
                .count();
            if backslashes % 2 == 0 {
                return Some(&self.bytes[start..quote]);
            }
        }
    }

    /// Skips whitespace, then one value: its bytes, the cursor after its end.
    fn value(&mut self) -> Option<&'i [u8]> {
        self.whitespace();
        let start = self.at;
        match self.peek()? {
            b'"' => {
                self.string()?;
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.at += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    self.at += 1;
                }
            }
            _ => {
                // A number, `true`, `false` or `null`: up to the next delimiter.
                while !matches!(
                    self.peek(),
                    None | Some(b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t')
                ) {
                    self.at += 1;
                }
            }
        }
        Some(&self.bytes[start..self.at])
    }
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
                    if crate::book::is_read(chapter) {
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

    #[test]
    fn the_input_is_split_into_the_context_and_every_item() {
        let input = br#" [ {"a": [1, {"b": "]}\\\"["}], "c": null} ,
            {"items" : [ {"Chapter": {"content": "x\"y\\", "sub_items": [
                "Separator", {"Chapter": {"sub_items": [], "name": "}"}}
            ], "z": 1}}, "Separator" , {"PartTitle": "{"} ]} ] "#;
        let split = split_input(input).expect("the shape is right");
        assert_eq!(split.context, br#"{"a": [1, {"b": "]}\\\"["}], "c": null}"#);
        let leaf = |json: &'static [u8]| Item {
            json: Cow::Borrowed(json),
            sub_items: Vec::new(),
        };
        assert_eq!(
            split.items,
            [
                Item {
                    json: Cow::Owned(
                        br#"{"Chapter": {"content": "x\"y\\", "sub_items": [], "z": 1}}"#.to_vec()
                    ),
                    sub_items: vec![
                        leaf(br#""Separator""#),
                        leaf(br#"{"Chapter": {"sub_items": [], "name": "}"}}"#),
                    ],
                },
                leaf(br#""Separator""#),
                leaf(br#"{"PartTitle": "{"}"#),
            ]
        );
        let empty = split_input(br#"[{}, {"items": []}]"#).expect("no items");
        assert!(empty.items.is_empty());
    }

    #[test]
    fn any_other_shape_is_left_to_serde_json() {
        for input in [
            &br#""#[..],
            br#"[{}, {"items": []}"#,
            br#"[{}, {"items": []}] x"#,
            br#"[{}, {"items": [], "more": 1}]"#,
            br#"[{}, {"item\u0073": []}]"#,
            br#"[{}, {"items": [1 2]}]"#,
            br#"[{}, {"items": ["unterminated]}]"#,
            br#"[{}, {"items": [{"a": 1]}]"#,
            br#"[{}, {"items": []}, 3]"#,
            br#"[{}, {"items": [{"Chapter": {"sub_items": [], "sub_items": []}}]}]"#,
            br#"[{}, {"items": [{"Chapter": {"sub_items": [1 2]}}]}]"#,
            br#"[{}, {"items": [{"Chapter": {"name" "x"}}]}]"#,
            br#"{"items": []}"#,
            br#"[{"a": "\"#,
            br#"[{"a": "\\"#,
            br#"[{"a"#,
            b"[",
        ] {
            assert_eq!(
                split_input(input),
                None,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn a_book_nested_without_end_is_left_to_serde_json() {
        let nested = |depth: usize| {
            let mut json = String::from(r#"[{}, {"items": ["#);
            json.push_str(&r#"{"Chapter": {"sub_items": ["#.repeat(depth));
            json.push_str(&"]}}".repeat(depth));
            json.push_str("]}]");
            json
        };
        assert!(split_input(nested(DEEPEST).as_bytes()).is_some());
        assert_eq!(split_input(nested(DEEPEST + 1).as_bytes()), None);
        // Far deeper than any stack would take in recursion.
        assert_eq!(split_input(nested(1_000_000).as_bytes()), None);
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

        /// Splitting a book serde_json wrote, then reading each part, gives the same book, at
        /// every depth.
        #[test]
        fn a_split_book_reads_back_the_same(
            names in proptest::collection::vec("\\PC*", 0..4),
            content in "(\\PC|[\\x00-\\x1f\"\\\\{}\\[\\],:])*",
        ) {
            let mut items: Vec<BookItem> = names
                .iter()
                .map(|name| {
                    let grandchild = chapter(name, &content, Vec::new());
                    let child = chapter(&content, name, vec![grandchild, BookItem::Separator]);
                    chapter(name, &content, vec![child, chapter(name, "", Vec::new())])
                })
                .collect();
            items.push(BookItem::Separator);
            items.push(BookItem::PartTitle(content.clone()));
            let book = Book::new_with_items(items);
            let context = serde_json::json!({"root": content, "n": [1, 2.5, null, true]});
            let input = serde_json::to_vec_pretty(&(&context, &book)).unwrap();
            let split = split_input(&input).expect("serde_json's output splits");
            let read: serde_json::Value = serde_json::from_slice(split.context).unwrap();
            prop_assert_eq!(read, context);
            let items = read_items(&split.items, 0).expect("every item reads");
            prop_assert_eq!(Book::new_with_items(items), book);
        }
    }
}
