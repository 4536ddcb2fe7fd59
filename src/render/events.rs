//! Builders of the pulldown-cmark events that generated Markdown is made of: text, code spans,
//! links, tables and the `<div>`s around them, and a `Profile` cell's events rebased for
//! another chapter.

use std::path::Path;

use mdbook_markdown::pulldown_cmark::{Alignment, CowStr, Event, LinkType, Tag, TagEnd};

use super::Events;
use crate::util::paths;

pub(super) fn text(s: &str) -> Event<'_> {
    Event::Text(CowStr::Borrowed(s))
}

/// `s`, copied from the author's text, as text events. A `{{` in it is a shortcode the author
/// escaped (real ones are rendered before anything is copied), so its first brace is written as
/// `&#123;`: it shows as written, and the output holds no `{{#` that looks unrendered.
pub(super) fn shown_as_text(s: &str) -> Events<'static> {
    let mut events = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find("{{") {
        if i > 0 {
            events.push(Event::Text(CowStr::from(rest[..i].to_owned())));
        }
        events.push(Event::InlineHtml(CowStr::Borrowed("&#123;")));
        rest = &rest[i + 1..];
    }
    if !rest.is_empty() {
        events.push(Event::Text(CowStr::from(rest.to_owned())));
    }
    events
}

pub(super) fn code(s: &str) -> Event<'_> {
    Event::Code(CowStr::Borrowed(s))
}

/// A shortcode that names something unknown, shown as written in a code span. A carriage
/// return in it (a line ending to CommonMark, not to the shortcode scanner) would end the
/// span's paragraph and leave the shortcode outside code: it is shown as a space.
pub(super) fn as_written(source: &str) -> Event<'_> {
    if source.contains('\r') {
        Event::Code(CowStr::from(source.replace('\r', " ")))
    } else {
        code(source)
    }
}

pub(super) fn strong(s: &str) -> Events<'_> {
    vec![
        Event::InlineHtml(CowStr::Borrowed("<strong>")),
        text(s),
        Event::InlineHtml(CowStr::Borrowed("</strong>")),
    ]
}

/// `<em>s</em>` as inline HTML (see [`strong`]).
pub(super) fn emphasis(s: &str) -> Events<'_> {
    vec![
        Event::InlineHtml(CowStr::Borrowed("<em>")),
        text(s),
        Event::InlineHtml(CowStr::Borrowed("</em>")),
    ]
}

pub(super) fn link(dest: String, inner: Events<'_>) -> Events<'_> {
    let mut events = vec![Event::Start(Tag::Link {
        link_type: LinkType::Inline,
        dest_url: CowStr::from(dest),
        title: CowStr::Borrowed(""),
        id: CowStr::Borrowed(""),
    })];
    events.extend(inner);
    events.push(Event::End(TagEnd::Link));
    events
}

/// `inner` in the `<div>` that `open` starts (one of a class of the stylesheet that `install`
/// ships; without it the table reads the same, only wider and with codes that may wrap).
pub(super) fn in_div<'e>(open: &'static str, inner: Events<'e>) -> Events<'e> {
    let mut events = vec![
        Event::Start(Tag::HtmlBlock),
        Event::Html(CowStr::Borrowed(open)),
        Event::End(TagEnd::HtmlBlock),
    ];
    events.extend(inner);
    events.extend([
        Event::Start(Tag::HtmlBlock),
        Event::Html(CowStr::Borrowed("</div>\n")),
        Event::End(TagEnd::HtmlBlock),
    ]);
    events
}

pub(super) fn push_joined<'e>(
    out: &mut Events<'e>,
    parts: impl Iterator<Item = Events<'e>>,
    separator: Event<'e>,
) {
    for (i, part) in parts.enumerate() {
        if i > 0 {
            out.push(separator.clone());
        }
        out.extend(part);
    }
}

pub(super) fn table<'e>(header: Vec<Events<'e>>, rows: Vec<Vec<Events<'e>>>) -> Events<'e> {
    let mut events = vec![
        Event::Start(Tag::Table(vec![Alignment::None; header.len()])),
        Event::Start(Tag::TableHead),
    ];
    for cell in header {
        events.push(Event::Start(Tag::TableCell));
        events.extend(cell);
        events.push(Event::End(TagEnd::TableCell));
    }
    events.push(Event::End(TagEnd::TableHead));
    for row in rows {
        events.push(Event::Start(Tag::TableRow));
        for cell in row {
            events.push(Event::Start(Tag::TableCell));
            events.extend(cell);
            events.push(Event::End(TagEnd::TableCell));
        }
        events.push(Event::End(TagEnd::TableRow));
    }
    events.push(Event::End(TagEnd::Table));
    events
}

/// Relative links of `events`, written in the chapter at `from`, made to work in `to`.
pub(super) fn rebase(events: &[Event<'static>], from: &Path, to: &Path) -> Events<'static> {
    if paths::components(from) == paths::components(to) {
        return events.to_vec();
    }
    events
        .iter()
        .map(|event| match event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) if !paths::is_external(dest_url) && !dest_url.starts_with('/') => {
                let (path, fragment) = match dest_url.split_once('#') {
                    Some((path, fragment)) => (path, Some(fragment)),
                    None => (dest_url.as_ref(), None),
                };
                let target = if path.is_empty() {
                    from.to_path_buf()
                } else {
                    from.parent().unwrap_or(Path::new("")).join(path)
                };
                let mut dest = paths::relative(to, &target);
                if let Some(fragment) = fragment {
                    dest.push('#');
                    dest.push_str(fragment);
                }
                Event::Start(Tag::Link {
                    link_type: *link_type,
                    dest_url: CowStr::from(dest),
                    title: title.clone(),
                    id: id.clone(),
                })
            }
            other => other.clone(),
        })
        .collect()
}
