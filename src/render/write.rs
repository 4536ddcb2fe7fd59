//! The Markdown of generated events.
//!
//! pulldown-cmark-to-cmark is the writer of reference ([`reference`]): it escapes by
//! construction. It is also general, and pays for it on every event: it buffers each block,
//! analyses its delimiter runs and writes through `fmt`. The profile matrix of a large book is a
//! table of tens of thousands of links, and writing it that way cost more than parsing the whole
//! book. So [`to_markdown`] first tries [`fast`], which writes the shapes generated most (a
//! table, a bulleted list, a link alone) when they hold only what [`Inline`] takes (plain text,
//! code spans, one-line inline HTML, inline links, and in a list item emphasis around one plain
//! text), with the same bytes as the reference, and hands everything else to the reference.
//! The reference writes emphasis only after parsing the whole block back and finding the same
//! events, and drops it (or spells it otherwise) where that fails, for reasons anywhere in the
//! block (an empty item, say); so a list with emphasis is parsed back here too, exactly as the
//! reference does it, and handed to the reference unless it passes.
//!
//! The bytes are the same by test, not by hope: for each shape, a proptest writes random
//! instances both ways and compares, once with text the fast path must take and once with text
//! drawn from every character the reference escapes (where the two must agree whenever the fast
//! path does not refuse). To widen the fast path, take another event in [`Inline`] and add it
//! to the generators; whatever the fast path refuses is written by the reference.

use mdbook_markdown::pulldown_cmark::{Alignment, Event, LinkType, Tag, TagEnd};

/// `events` as Markdown, without trailing newlines.
pub(super) fn to_markdown(events: &[Event<'_>]) -> String {
    fast(events).unwrap_or_else(|| reference(events))
}

/// `events` written by pulldown-cmark-to-cmark (see the module docs).
pub(super) fn reference(events: &[Event<'_>]) -> String {
    let write = |events: &mut dyn Iterator<Item = &Event<'_>>| {
        let mut out = String::new();
        let options = pulldown_cmark_to_cmark::Options {
            list_token: '-',
            ..Default::default()
        };
        pulldown_cmark_to_cmark::cmark_with_options(
            events,
            &mut out,
            mdbook_markdown::pulldown_cmark::Options::ENABLE_TABLES,
            options,
        )
        .map(|_| out)
    };
    // pulldown-cmark-to-cmark checks that a block with emphasis parses back to the same events,
    // and fails (`Unrepresentable`) when no spelling does, as with text it cannot escape in a
    // table cell (found by fuzzing). The same block without emphasis is written unchecked:
    // `*missing*` shows as `missing`, and nothing panics.
    let mut out = write(&mut events.iter())
        .or_else(|_| {
            write(&mut events.iter().filter(|e| {
                !matches!(
                    e,
                    Event::Start(Tag::Emphasis | Tag::Strong)
                        | Event::End(TagEnd::Emphasis | TagEnd::Strong)
                )
            }))
        })
        .unwrap_or_default();
    out.truncate(out.trim_end_matches('\n').len());
    out
}

/// `events` as the reference writes them, when they are one of the shapes generated most: a
/// table ([`table`]), a list ([`list`]) or a link ([`link`]); `None` for anything else.
pub(super) fn fast(events: &[Event<'_>]) -> Option<String> {
    match events.first()? {
        Event::Start(Tag::Table(_)) => table(events),
        Event::Start(Tag::List(None)) => list(events),
        Event::Start(Tag::Link { .. }) => link(events),
        _ => None,
    }
}

/// A table whose alignments are all `None` and whose cells hold only what [`Inline`] takes.
pub(super) fn table(events: &[Event<'_>]) -> Option<String> {
    let [
        Event::Start(Tag::Table(alignments)),
        body @ ..,
        Event::End(TagEnd::Table),
    ] = events
    else {
        return None;
    };
    if alignments.iter().any(|a| *a != Alignment::None) {
        return None;
    }
    // The reference sizes each column's `-` run by its header cell's text, with code spans
    // counted with their backticks.
    let mut out = String::with_capacity(events.len() * 16);
    let mut widths = Vec::with_capacity(alignments.len());
    let mut part = Part::BeforeHead;
    let mut cell: Option<Inline<'_>> = None;
    for event in body {
        match event {
            Event::Start(Tag::TableHead) if part == Part::BeforeHead => part = Part::Head,
            Event::End(TagEnd::TableHead) if part == Part::Head && cell.is_none() => {
                if widths.len() != alignments.len() {
                    return None;
                }
                out.push_str("|\n");
                for width in &widths {
                    out.push('|');
                    out.extend(std::iter::repeat_n('-', *width));
                }
                out.push('|');
                part = Part::BetweenRows;
            }
            Event::Start(Tag::TableRow) if part == Part::BetweenRows => {
                out.push('\n');
                part = Part::Row;
            }
            Event::End(TagEnd::TableRow) if part == Part::Row && cell.is_none() => {
                out.push('|');
                part = Part::BetweenRows;
            }
            Event::Start(Tag::TableCell)
                if matches!(part, Part::Head | Part::Row) && cell.is_none() =>
            {
                out.push('|');
                cell = Some(Inline::new(true));
            }
            Event::End(TagEnd::TableCell) => {
                let done = cell.take()?;
                if done.link.is_some() {
                    return None;
                }
                if part == Part::Head {
                    widths.push(done.width.max(1));
                }
            }
            inline => cell.as_mut()?.write(&mut out, inline)?,
        }
    }
    (part == Part::BetweenRows).then_some(out)
}

#[derive(PartialEq)]
enum Part {
    BeforeHead,
    Head,
    BetweenRows,
    Row,
}

/// A bulleted list whose items each hold one or more events that [`Inline`] takes.
pub(super) fn list(events: &[Event<'_>]) -> Option<String> {
    let [
        Event::Start(Tag::List(None)),
        body @ ..,
        Event::End(TagEnd::List(false)),
    ] = events
    else {
        return None;
    };
    let mut out = String::with_capacity(events.len() * 16);
    let mut item: Option<(Inline<'_>, usize)> = None;
    for event in body {
        match event {
            Event::Start(Tag::Item) if item.is_none() => {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str("- ");
                let mut writer = Inline::new(false);
                writer.emphasis_allowed = true;
                item = Some((writer, 0));
            }
            Event::End(TagEnd::Item) => {
                let (done, written) = item.take()?;
                if done.link.is_some() || done.emphasis.is_some() || written == 0 {
                    return None;
                }
            }
            inline => {
                let (writer, written) = item.as_mut()?;
                writer.write(&mut out, inline)?;
                *written += 1;
            }
        }
    }
    if item.is_some() || out.is_empty() {
        return None;
    }
    let emphasis = body
        .iter()
        .any(|e| matches!(e, Event::Start(Tag::Emphasis | Tag::Strong)));
    (!emphasis || parses_back(&out, events)).then_some(out)
}

/// A link alone, holding only what [`Inline`] takes.
pub(super) fn link(events: &[Event<'_>]) -> Option<String> {
    let mut out = String::with_capacity(events.len() * 16);
    let mut writer = Inline::new(false);
    let [
        first @ Event::Start(Tag::Link { .. }),
        body @ ..,
        last @ Event::End(TagEnd::Link),
    ] = events
    else {
        return None;
    };
    writer.write(&mut out, first)?;
    for event in body {
        if matches!(event, Event::Start(Tag::Link { .. })) {
            return None;
        }
        writer.write(&mut out, event)?;
    }
    writer.write(&mut out, last)?;
    Some(out)
}

/// Writes inline events as the reference does: text it writes as it is, code spans, one-line
/// inline HTML, and inline links without a title around them.
struct Inline<'e> {
    /// In a table cell (where `|` in code is escaped) or not (where more text is escaped at
    /// the start of a text).
    in_table: bool,
    /// The destination of the open link.
    link: Option<&'e str>,
    /// Whether nothing was written since the cell, the item or a link label opened: a leading
    /// space there would be trimmed by the parser, and the reference writes it as a character
    /// reference.
    at_start: bool,
    /// The characters of text and code spans written, by which the reference sizes a header.
    width: usize,
    /// Whether emphasis may be written (in a list item, not in a table cell or a lone link).
    emphasis_allowed: bool,
    /// The delimiter of the open emphasis (`*`) or strong emphasis (`**`), and whether its one
    /// text was written.
    emphasis: Option<(&'static str, bool)>,
    /// What was written last. Emphasis opens only after nothing or text, and only text follows
    /// its end, so that no other delimiter, bracket or backtick stands next to a `*`.
    last: Last,
}

#[derive(Clone, Copy, PartialEq)]
enum Last {
    Nothing,
    Text,
    Emphasis,
    Other,
}

impl<'e> Inline<'e> {
    fn new(in_table: bool) -> Inline<'e> {
        Inline {
            in_table,
            link: None,
            at_start: true,
            width: 0,
            emphasis_allowed: false,
            emphasis: None,
            last: Last::Nothing,
        }
    }

    /// Writes `event`; `None` for an event it does not take.
    fn write(&mut self, out: &mut String, event: &'e Event<'_>) -> Option<()> {
        if let Some((delimiter, written)) = self.emphasis {
            return self.write_emphasised(out, event, delimiter, written);
        }
        let last = std::mem::replace(&mut self.last, Last::Other);
        if last == Last::Emphasis && !matches!(event, Event::Text(_)) {
            return None;
        }
        match event {
            Event::Text(text) => {
                if !plain(text)
                    || (self.at_start && text.starts_with(' '))
                    || (!self.in_table && !plain_outside_table(text))
                {
                    return None;
                }
                out.push_str(text);
                self.width += text.chars().count();
                self.at_start &= text.is_empty();
                self.last = Last::Text;
            }
            Event::Start(tag @ (Tag::Emphasis | Tag::Strong))
                if self.emphasis_allowed
                    && self.link.is_none()
                    && matches!(last, Last::Nothing | Last::Text) =>
            {
                let delimiter = if matches!(tag, Tag::Emphasis) {
                    "*"
                } else {
                    "**"
                };
                out.push_str(delimiter);
                self.emphasis = Some((delimiter, false));
                self.at_start = false;
            }
            Event::Code(code) => {
                write_code(out, code, self.in_table)?;
                self.width += code.chars().count() + 2;
                self.at_start = false;
            }
            Event::InlineHtml(html) if !html.contains(['\n', '\r']) => {
                out.push_str(html);
                self.at_start &= html.is_empty();
            }
            Event::Start(Tag::Link {
                link_type: LinkType::Inline,
                dest_url,
                title,
                id: _,
            }) if self.link.is_none() && title.is_empty() => {
                self.link = Some(dest_url);
                out.push('[');
                self.at_start = true;
            }
            Event::End(TagEnd::Link) => {
                write_destination(out, self.link.take()?);
                self.at_start = false;
            }
            _ => return None,
        }
        Some(())
    }

    /// Inside emphasis: one text that starts and ends with a letter or digit (so the `*`s
    /// around it flank it whatever is outside), then the end.
    fn write_emphasised(
        &mut self,
        out: &mut String,
        event: &Event<'_>,
        delimiter: &'static str,
        written: bool,
    ) -> Option<()> {
        let alphanumeric = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
        match event {
            Event::Text(text)
                if !written
                    && plain(text)
                    && plain_outside_table(text)
                    && alphanumeric(text.chars().next())
                    && alphanumeric(text.chars().next_back()) =>
            {
                out.push_str(text);
                self.emphasis = Some((delimiter, true));
            }
            Event::End(end @ (TagEnd::Emphasis | TagEnd::Strong))
                if written && (*end == TagEnd::Strong) == (delimiter == "**") =>
            {
                out.push_str(delimiter);
                self.emphasis = None;
                self.last = Last::Emphasis;
            }
            _ => return None,
        }
        Some(())
    }
}

/// Whether `markdown` parses back to `events`, compared as pulldown-cmark-to-cmark compares
/// them before it keeps a block with emphasis (text merged, the reference's parser options).
fn parses_back(markdown: &str, events: &[Event<'_>]) -> bool {
    use mdbook_markdown::pulldown_cmark::{Options, Parser, TextMergeStream};
    let parsed = TextMergeStream::new(Parser::new_ext(markdown, Options::ENABLE_TABLES));
    parsed.eq(TextMergeStream::new(events.iter().cloned()))
}

/// Text the reference writes as it is inside a table cell: no character it escapes or encodes
/// there, whatever comes before or after.
fn plain(text: &str) -> bool {
    !text.contains([
        '\n', '\r', '\t', '&', '*', '[', ']', '`', '<', '~', '|', '\\', '^', '_', '!', '$',
    ])
}

/// [`plain`] text that the reference also writes as it is outside a table: it escapes a
/// leading `#` or `>`, a list or heading marker at the start of a line, and `.` or `)` after a
/// leading number, so text that starts with any of these (or a digit) is not taken.
fn plain_outside_table(text: &str) -> bool {
    !text.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '#' | '>' | '-' | '+' | '='))
}

/// A code span as the reference writes it: [`push_code_span`], with `|` escaped in a table.
/// `None` for a multi-line span.
fn write_code(out: &mut String, code: &str, in_table: bool) -> Option<()> {
    if code.contains(['\n', '\r']) {
        return None;
    }
    if in_table && code.contains('|') {
        push_code_span(out, &code.replace('|', "\\|"));
    } else {
        push_code_span(out, code);
    }
    Some(())
}

/// `text` as an inline code span appended to `out`, by CommonMark's rules: a fence of one
/// backtick more than the longest run of backticks inside, and a space inside each end when the
/// text starts or ends with a backtick, or starts and ends with a space without being all spaces
/// (the parser would strip one from each end). `text` is one line; the renderer's tests parse
/// the result back, and this module's compare it with the reference.
pub(super) fn push_code_span(out: &mut String, text: &str) {
    let mut longest = 0;
    let mut run = 0;
    for byte in text.bytes() {
        run = if byte == b'`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let pad = text.starts_with('`')
        || text.ends_with('`')
        || (text.len() >= 2
            && text.starts_with(' ')
            && text.ends_with(' ')
            && text.bytes().any(|b| b != b' '));
    out.extend(std::iter::repeat_n('`', longest + 1));
    if pad {
        out.push(' ');
    }
    out.push_str(text);
    if pad {
        out.push(' ');
    }
    out.extend(std::iter::repeat_n('`', longest + 1));
}

/// `](dest)` as the reference closes an inline link without a title: in angle brackets when
/// the destination has a space or unbalanced parentheses, `&`, line breaks, `\`, `<` and `>`
/// escaped.
fn write_destination(out: &mut String, dest: &str) {
    let mut depth = 0i32;
    for b in dest.bytes() {
        match b {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b' ' => {
                depth += 1;
                break;
            }
            _ => {}
        }
        if !(0..=3).contains(&depth) {
            break;
        }
    }
    let brackets = depth != 0;
    out.push_str(if brackets { "](<" } else { "](" });
    let mut rest = dest;
    while let Some(i) = rest.find(['&', '\n', '\r', '\\', '<', '>']) {
        out.push_str(&rest[..i]);
        let c = rest.as_bytes()[i];
        match c {
            b'&' => out.push_str("&amp;"),
            b'\n' => out.push_str("&#10;"),
            b'\r' => out.push_str("&#13;"),
            _ => {
                out.push('\\');
                out.push(char::from(c));
            }
        }
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
    out.push_str(if brackets { ">)" } else { ")" });
}

#[cfg(test)]
mod tests {
    use mdbook_markdown::pulldown_cmark::CowStr;
    use proptest::prelude::*;

    use super::*;

    /// Characters the reference writes as they are in a cell.
    const PLAIN: &[&str] = &[
        "a", "Z", "0", " ", "  ", ",", ".", ":", ";", "(", ")", "-", "#", ">", "=", "+", "/", "'",
        "\"", "?", "é", "1.",
    ];

    /// ... and the characters it escapes or encodes there, in some context or always.
    const SPECIAL: &[&str] = &[
        "|", "*", "_", "[", "]", "`", "<", "&", "~", "\\", "^", "!", "$", "\t", "\n", "\r",
    ];

    /// Text from [`PLAIN`] (and [`SPECIAL`] unless `plain`); when `plain`, without what the
    /// fast path refuses at the start of a text (a space at the start of a cell or a label,
    /// and what [`plain_outside_table`] refuses), so that the fast path must take it.
    fn any_text(plain: bool) -> BoxedStrategy<String> {
        let alphabet: Vec<&str> = if plain {
            PLAIN.to_vec()
        } else {
            [PLAIN, SPECIAL].concat()
        };
        prop::collection::vec(prop::sample::select(alphabet), 0..6)
            .prop_map(move |parts| {
                let text = parts.concat();
                if plain {
                    text.trim_start_matches(|c: char| {
                        c == ' ' || c.is_ascii_digit() || "#>-+=".contains(c)
                    })
                    .to_owned()
                } else {
                    text
                }
            })
            .boxed()
    }

    fn any_dest() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec![
                "a", "b.md", "#x", "../", "%20", " ", "(", ")", "<", ">", "&", "\\", "|", "é",
            ]),
            0..6,
        )
        .prop_map(|parts| parts.concat())
    }

    /// The inline events of one cell: text, code spans, inline HTML and links around them.
    fn any_cell(plain: bool) -> impl Strategy<Value = Vec<Event<'static>>> {
        let leaf = prop_oneof![
            any_text(plain).prop_map(|t| vec![Event::Text(CowStr::from(t))]),
            any_text(false)
                .prop_map(|t| vec![Event::Code(CowStr::from(t.replace(['\n', '\r'], " ")))]),
            prop::sample::select(vec!["<em>", "</em>", "<strong>", "<br>"])
                .prop_map(|h| vec![Event::InlineHtml(CowStr::Borrowed(h))]),
        ];
        let piece = prop_oneof![
            3 => leaf.clone(),
            1 => (any_dest(), prop::collection::vec(leaf, 0..3)).prop_map(|(dest, inner)| {
                let mut events = vec![Event::Start(Tag::Link {
                    link_type: LinkType::Inline,
                    dest_url: CowStr::from(dest),
                    title: CowStr::Borrowed(""),
                    id: CowStr::Borrowed(""),
                })];
                events.extend(inner.into_iter().flatten());
                events.push(Event::End(TagEnd::Link));
                events
            }),
        ];
        prop::collection::vec(piece, 0..4).prop_map(|pieces| pieces.concat())
    }

    fn any_table(plain: bool) -> impl Strategy<Value = Vec<Event<'static>>> {
        (1usize..4).prop_flat_map(move |columns| {
            (
                prop::collection::vec(any_cell(plain), columns),
                prop::collection::vec(prop::collection::vec(any_cell(plain), columns), 0..4),
            )
                .prop_map(move |(head, rows)| {
                    let cells = |events: &mut Vec<Event<'static>>,
                                 cells: Vec<Vec<Event<'static>>>| {
                        for cell in cells {
                            events.push(Event::Start(Tag::TableCell));
                            events.extend(cell);
                            events.push(Event::End(TagEnd::TableCell));
                        }
                    };
                    let mut events = vec![
                        Event::Start(Tag::Table(vec![Alignment::None; columns])),
                        Event::Start(Tag::TableHead),
                    ];
                    cells(&mut events, head);
                    events.push(Event::End(TagEnd::TableHead));
                    for row in rows {
                        events.push(Event::Start(Tag::TableRow));
                        cells(&mut events, row);
                        events.push(Event::End(TagEnd::TableRow));
                    }
                    events.push(Event::End(TagEnd::Table));
                    events
                })
        })
    }

    /// Emphasis or strong emphasis around one text: when `plain`, a text the fast path takes
    /// there (a letter or digit at each end).
    fn any_emphasis(plain: bool) -> impl Strategy<Value = Vec<Event<'static>>> {
        let inner = if plain {
            prop::sample::select(vec!["when", "x y", "é", "a, b", "Obliges"])
                .prop_map(str::to_owned)
                .boxed()
        } else {
            any_text(false)
        };
        (any::<bool>(), inner).prop_map(|(strong, text)| {
            let (start, end) = if strong {
                (Tag::Strong, TagEnd::Strong)
            } else {
                (Tag::Emphasis, TagEnd::Emphasis)
            };
            vec![
                Event::Start(start),
                Event::Text(CowStr::from(text)),
                Event::End(end),
            ]
        })
    }

    /// The events of a list item: those of a cell, with emphasis between them.
    fn any_item(plain: bool) -> impl Strategy<Value = Vec<Event<'static>>> {
        prop::collection::vec(
            prop_oneof![3 => any_cell(plain), 1 => any_emphasis(plain)],
            1..4,
        )
        .prop_map(|parts| parts.concat())
    }

    fn any_list(plain: bool) -> impl Strategy<Value = Vec<Event<'static>>> {
        prop::collection::vec(any_item(plain), 1..4).prop_map(|items| {
            let mut events = vec![Event::Start(Tag::List(None))];
            for item in items {
                events.push(Event::Start(Tag::Item));
                events.extend(item);
                events.push(Event::End(TagEnd::Item));
            }
            events.push(Event::End(TagEnd::List(false)));
            events
        })
    }

    fn any_link(plain: bool) -> impl Strategy<Value = Vec<Event<'static>>> {
        (any_dest(), any_cell(plain)).prop_map(|(dest, inner)| {
            let mut events = vec![Event::Start(Tag::Link {
                link_type: LinkType::Inline,
                dest_url: CowStr::from(dest),
                title: CowStr::Borrowed(""),
                id: CowStr::Borrowed(""),
            })];
            // A link holds no link.
            events.extend(inner.into_iter().filter(|e| {
                !matches!(e, Event::Start(Tag::Link { .. }) | Event::End(TagEnd::Link))
            }));
            events.push(Event::End(TagEnd::Link));
            events
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Lists of plain items without emphasis take the fast path (unless an item is empty),
        /// and it writes what the reference writes; with emphasis, or with any text, it does
        /// whenever it takes them.
        #[test]
        fn fast_lists_match_the_reference(plain in any_list(true), any in any_list(false)) {
            let empty_item = plain.windows(2).any(|w| {
                matches!(w, [Event::Start(Tag::Item), Event::End(TagEnd::Item)])
            });
            let emphasis = plain
                .iter()
                .any(|e| matches!(e, Event::Start(Tag::Emphasis | Tag::Strong)));
            let fast = list(&plain);
            if !emphasis {
                prop_assert_eq!(fast.is_some(), !empty_item, "{:?}", plain);
            }
            if let Some(fast) = fast {
                prop_assert_eq!(fast, reference(&plain));
            }
            if let Some(fast) = list(&any) {
                prop_assert_eq!(fast, reference(&any));
            }
        }

        /// The same for a link alone.
        #[test]
        fn fast_links_match_the_reference(plain in any_link(true), any in any_link(false)) {
            let fast = link(&plain);
            prop_assert!(fast.is_some(), "refused: {:?}", plain);
            prop_assert_eq!(fast.unwrap(), reference(&plain));
            if let Some(fast) = link(&any) {
                prop_assert_eq!(fast, reference(&any));
            }
        }

        /// Tables of plain text take the fast path, and it writes what the reference writes.
        #[test]
        fn fast_tables_match_the_reference(events in any_table(true)) {
            let fast = table(&events);
            prop_assert!(fast.is_some(), "refused: {:?}", events);
            prop_assert_eq!(fast.unwrap(), reference(&events));
        }

        /// With any text, the fast path is taken only where it writes what the reference writes.
        #[test]
        fn the_fast_path_refuses_what_it_would_write_differently(events in any_table(false)) {
            if let Some(fast) = table(&events) {
                prop_assert_eq!(fast, reference(&events));
            }
        }
    }

    /// An answer list as `{{#answers}}` writes it, with emphasis in a meaning cell, takes the
    /// fast path and writes what the reference writes.
    #[test]
    fn an_answer_list_with_emphasis_takes_the_fast_path() {
        let mut events = vec![Event::Start(Tag::List(None))];
        for (profile, strong) in [("immediate", false), ("bounded", true)] {
            events.extend([
                Event::Start(Tag::Item),
                Event::Start(Tag::Link {
                    link_type: LinkType::Inline,
                    dest_url: CowStr::Borrowed("contract.md#readiness"),
                    title: CowStr::Borrowed(""),
                    id: CowStr::Borrowed(""),
                }),
                Event::Code(CowStr::Borrowed(profile)),
                Event::End(TagEnd::Link),
                Event::Text(CowStr::Borrowed(": always ")),
                Event::Start(if strong { Tag::Strong } else { Tag::Emphasis }),
                Event::Text(CowStr::Borrowed("when")),
                Event::End(if strong {
                    TagEnd::Strong
                } else {
                    TagEnd::Emphasis
                }),
                Event::Text(CowStr::Borrowed(" bounded. ")),
                Event::InlineHtml(CowStr::Borrowed("<em>")),
                Event::Text(CowStr::Borrowed("Obliges:")),
                Event::InlineHtml(CowStr::Borrowed("</em>")),
                Event::Text(CowStr::Borrowed(" Get answers at once")),
                Event::End(TagEnd::Item),
            ]);
        }
        events.push(Event::End(TagEnd::List(false)));
        let fast = list(&events).expect("the fast path takes it");
        assert_eq!(fast, reference(&events));
        assert!(
            fast.contains(": always *when* bounded.") && fast.contains("**when**"),
            "{fast}"
        );
    }

    #[test]
    fn the_matrix_shape_takes_the_fast_path() {
        let link = |dest: &'static str, inner: Event<'static>| {
            vec![
                Event::Start(Tag::Link {
                    link_type: LinkType::Inline,
                    dest_url: CowStr::Borrowed(dest),
                    title: CowStr::Borrowed(""),
                    id: CowStr::Borrowed(""),
                }),
                inner,
                Event::End(TagEnd::Link),
            ]
        };
        let mut events = vec![
            Event::Start(Tag::Table(vec![Alignment::None; 2])),
            Event::Start(Tag::TableHead),
            Event::Start(Tag::TableCell),
            Event::Text("Axis".into()),
            Event::End(TagEnd::TableCell),
            Event::Start(Tag::TableCell),
        ];
        events.extend(link("gcp.md#gcp", Event::Code("gcp".into())));
        events.extend([
            Event::Text(" (proposed)".into()),
            Event::End(TagEnd::TableCell),
            Event::End(TagEnd::TableHead),
            Event::Start(Tag::TableRow),
            Event::Start(Tag::TableCell),
        ]);
        events.extend(link("c.md#ax-1", Event::Code("AX-1".into())));
        events.extend([Event::End(TagEnd::TableCell), Event::Start(Tag::TableCell)]);
        events.extend(link("gcp.md#ax-1-a", Event::Code("a|b".into())));
        events.extend([
            Event::Text(" ".into()),
            Event::Code("pkg.Func".into()),
            Event::End(TagEnd::TableCell),
            Event::End(TagEnd::TableRow),
            Event::End(TagEnd::Table),
        ]);
        let fast = table(&events).expect("the fast path takes the matrix");
        assert_eq!(
            fast,
            "|Axis|[`gcp`](gcp.md#gcp) (proposed)|\n|----|----------------|\n\
             |[`AX-1`](c.md#ax-1)|[`a\\|b`](gcp.md#ax-1-a) `pkg.Func`|"
        );
        assert_eq!(fast, reference(&events));
    }
}
