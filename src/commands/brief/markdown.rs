//! Small builders of the pulldown-cmark events the brief is made of, and the writing of them
//! as Markdown (pulldown-cmark-to-cmark).

use mdbook_markdown::pulldown_cmark::{CowStr, Event, HeadingLevel, Tag, TagEnd};

/// `events` written as Markdown, ending with a newline.
pub(super) fn written(events: &[Event<'static>]) -> String {
    let mut markdown = String::new();
    let options = pulldown_cmark_to_cmark::Options {
        list_token: '-',
        ..Default::default()
    };
    let written = pulldown_cmark_to_cmark::cmark_with_options(
        events.iter(),
        &mut markdown,
        mdbook_markdown::pulldown_cmark::Options::ENABLE_TABLES
            | mdbook_markdown::pulldown_cmark::Options::ENABLE_HEADING_ATTRIBUTES
            | mdbook_markdown::pulldown_cmark::Options::ENABLE_FOOTNOTES
            | mdbook_markdown::pulldown_cmark::Options::ENABLE_STRIKETHROUGH
            | mdbook_markdown::pulldown_cmark::Options::ENABLE_TASKLISTS,
        options,
    );
    if written.is_err() {
        // Only emphasis the writer cannot spell fails it; without emphasis it cannot fail.
        markdown.clear();
        let plain = events.iter().filter(|e| {
            !matches!(
                e,
                Event::Start(Tag::Emphasis | Tag::Strong)
                    | Event::End(TagEnd::Emphasis | TagEnd::Strong)
            )
        });
        let _ = pulldown_cmark_to_cmark::cmark_with_options(
            plain,
            &mut markdown,
            mdbook_markdown::pulldown_cmark::Options::ENABLE_TABLES
                | mdbook_markdown::pulldown_cmark::Options::ENABLE_HEADING_ATTRIBUTES,
            pulldown_cmark_to_cmark::Options {
                list_token: '-',
                ..Default::default()
            },
        );
    }
    if !markdown.ends_with('\n') {
        markdown.push('\n');
    }
    markdown
}

pub(super) fn shifted(level: HeadingLevel, by: u8) -> HeadingLevel {
    let level = (level as usize + by as usize).min(6);
    HeadingLevel::try_from(level).unwrap_or(HeadingLevel::H6)
}

pub(super) fn text(s: &str) -> Event<'static> {
    Event::Text(CowStr::from(s.to_owned()))
}

pub(super) fn strong(s: &str) -> Vec<Event<'static>> {
    vec![
        Event::InlineHtml(CowStr::Borrowed("<strong>")),
        text(s),
        Event::InlineHtml(CowStr::Borrowed("</strong>")),
    ]
}

/// `s` as text, a `{{` in it written with its first brace as `&#123;` (see `render`).
pub(super) fn shown(s: &str) -> Vec<Event<'static>> {
    let mut events = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find("{{") {
        if i > 0 {
            events.push(text(&rest[..i]));
        }
        events.push(Event::InlineHtml(CowStr::Borrowed("&#123;")));
        rest = &rest[i + 1..];
    }
    if !rest.is_empty() {
        events.push(text(rest));
    }
    events
}

/// A finding's message as it reads: what it writes between backticks as code, the rest as
/// text (all as text when a backtick has no pair).
pub(super) fn with_code_spans(s: &str) -> Vec<Event<'static>> {
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return shown(s);
    }
    let mut events = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 1 {
            events.push(Event::Code(CowStr::from((*part).to_owned())));
        } else if !part.is_empty() {
            events.extend(shown(part));
        }
    }
    events
}

pub(super) fn heading(
    events: &mut Vec<Event<'static>>,
    level: usize,
    id: &str,
    inner: Vec<Event<'static>>,
) {
    let level = HeadingLevel::try_from(level).unwrap_or(HeadingLevel::H6);
    events.push(Event::Start(Tag::Heading {
        level,
        id: Some(CowStr::from(id.to_owned())),
        classes: Vec::new(),
        attrs: Vec::new(),
    }));
    events.extend(inner);
    events.push(Event::End(TagEnd::Heading(level)));
}

pub(super) fn paragraph(events: &mut Vec<Event<'static>>, inner: Vec<Event<'static>>) {
    events.push(Event::Start(Tag::Paragraph));
    events.extend(inner);
    events.push(Event::End(TagEnd::Paragraph));
}
