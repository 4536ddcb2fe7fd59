//! `contract_brief`: the brief of a provider with a spec, as `mdbook-contract brief` writes it,
//! whole, one section of it, and in pages when it is long.
//!
//! A section is a part under a second-level heading of the brief, named by its id (`rules`,
//! `spec-...`, `contract-...`); `brief` is the title and what comes before the first one. A page
//! is at most [`PAGE`] bytes (or `page_size`), cut at a line's end; `next_cursor` names the
//! next one, as the protocol pages its lists. The Markdown is in the answer once: its summary
//! says which bytes of which section it holds, not the text again.

use std::ops::Range;

use mdbook_markdown::pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag};
use schemars::JsonSchema;
use serde::Serialize;

use super::{Refusal, Typed, unknown};
use crate::mcp::watch::Loaded;

/// How many bytes of Markdown one answer holds by default: about 4,000 words; as JSON, with
/// the sections and the summary, under 10k tokens (`page_size` sets another).
pub(crate) const PAGE: usize = 24 * 1024;

/// `contract_brief`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct BriefAnswer {
    provider: String,
    /// The brief's sections, in order: each one's id (to ask for it with `section`), title and
    /// size in bytes.
    sections: Vec<Section>,
    /// The section this answer is of; none for the whole brief.
    section: Option<String>,
    /// The Markdown of this page.
    markdown: String,
    /// Where this page starts, in bytes of the section (or the brief), and how long that is.
    offset: usize,
    total: usize,
    /// The cursor of the next page; none on the last.
    next_cursor: Option<String>,
    /// How many errors the book has outside the spec: listed in the brief (section `errors`),
    /// they do not stop it.
    errors_elsewhere: usize,
}

/// A section of the brief.
#[derive(Clone, Serialize, JsonSchema)]
struct Section {
    id: String,
    title: String,
    bytes: usize,
    #[serde(skip)]
    range: Range<usize>,
}

/// `contract_brief`.
pub(crate) fn brief(
    loaded: &Loaded,
    provider: &str,
    section: Option<&str>,
    cursor: Option<&str>,
    page_size: Option<usize>,
) -> Result<Typed<BriefAnswer>, Refusal> {
    let specs = &loaded.agent.status.specs;
    if !specs.iter().any(|s| s.provider == provider) {
        return Err(unknown(
            "provider with a spec",
            provider,
            specs.iter().map(|s| s.provider.as_str()),
        ));
    }
    let written = loaded.brief(provider)?;
    let markdown = written.markdown.as_str();
    let sections = sections_of(markdown);
    let range = match section {
        None => 0..markdown.len(),
        Some(id) => match sections.iter().find(|s| s.id == id) {
            Some(s) => s.range.clone(),
            None => {
                return Err(unknown(
                    "section",
                    id,
                    sections.iter().map(|s| s.id.as_str()),
                ));
            }
        },
    };
    let text = &markdown[range];
    let offset = super::cursor_start(
        cursor,
        |at| at < text.len() && text.is_char_boundary(at),
        "this brief",
        "`section`",
    )?;
    let end = page_end(text, offset, page_size.unwrap_or(PAGE).max(1));
    let page = &text[offset..end];
    let next_cursor = (end < text.len()).then(|| end.to_string());
    let summary = format!(
        "the brief of `{provider}`{}: bytes {offset} to {end} of {}, in `markdown`{}",
        section.map_or_else(String::new, |s| format!(", section `{s}`")),
        text.len(),
        next_cursor
            .as_ref()
            .map_or_else(String::new, |next| format!(
                "; the next page is `cursor` \"{next}\""
            ))
    );
    let value = BriefAnswer {
        provider: provider.to_owned(),
        sections,
        section: section.map(str::to_owned),
        markdown: page.to_owned(),
        offset,
        total: text.len(),
        next_cursor,
        errors_elsewhere: written.errors_elsewhere,
    };
    Ok(Typed::new(value, summary))
}

/// Where the page that starts at `offset` ends: after the last line that fits in [`PAGE`], or
/// at [`PAGE`] (on a character's boundary) when no line end does.
fn page_end(text: &str, offset: usize, page: usize) -> usize {
    let limit = offset + page;
    if limit >= text.len() {
        return text.len();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    // A page smaller than one character still holds it: every page moves on.
    while end == offset || !text.is_char_boundary(end) {
        end += 1;
    }
    match text[offset..end].rfind('\n') {
        Some(at) if at > 0 => offset + at + 1,
        _ => end,
    }
}

/// The brief's sections: what comes before its first second-level heading (`brief`), then
/// each second-level heading and what follows it.
fn sections_of(markdown: &str) -> Vec<Section> {
    let mut starts: Vec<(usize, String, String)> = vec![(0, "brief".to_owned(), String::new())];
    let mut inside: Option<(usize, String, String)> = None;
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_HEADING_ATTRIBUTES | Options::ENABLE_TABLES,
    );
    for (event, range) in parser.into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, id, .. }) if level <= HeadingLevel::H2 => {
                let id = id.map(|i| i.to_string()).unwrap_or_default();
                inside = Some((range.start, id, String::new()));
            }
            Event::Text(t) | Event::Code(t) if inside.is_some() => {
                if let Some((_, _, title)) = &mut inside {
                    title.push_str(&t);
                }
            }
            Event::End(mdbook_markdown::pulldown_cmark::TagEnd::Heading(level))
                if level <= HeadingLevel::H2 =>
            {
                if let Some((start, id, title)) = inside.take() {
                    if start == 0 {
                        starts[0].2 = title;
                    } else {
                        starts.push((start, id, title));
                    }
                }
            }
            _ => {}
        }
    }
    let ends: Vec<usize> = starts
        .iter()
        .skip(1)
        .map(|(start, ..)| *start)
        .chain([markdown.len()])
        .collect();
    starts
        .into_iter()
        .zip(ends)
        .map(|((start, id, title), end)| Section {
            id,
            title,
            bytes: end - start,
            range: start..end,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brief_is_cut_at_its_second_level_headings() {
        let md = "# Brief { #brief }\n\nIntro.\n\n## Open { #open-entries }\n\n- a\n\n### Sub\n\n## Rules { #rules }\n\nText.\n";
        let sections = sections_of(md);
        let ids: Vec<&str> = sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["brief", "open-entries", "rules"]);
        assert_eq!(sections[0].title, "Brief");
        assert!(md[sections[1].range.clone()].contains("### Sub"));
        assert_eq!(sections.iter().map(|s| s.bytes).sum::<usize>(), md.len());
    }

    #[test]
    fn a_page_ends_at_a_line_end_within_the_limit() {
        let line = "x".repeat(99) + "\n";
        let text = line.repeat(1000);
        let end = page_end(&text, 0, PAGE);
        assert!(end <= PAGE && text[..end].ends_with('\n'), "{end}");
        assert_eq!(page_end(&text, text.len() - 50, PAGE), text.len());
        let long = "é".repeat(PAGE);
        let end = page_end(&long, 0, PAGE);
        assert!(long.is_char_boundary(end) && end <= PAGE);
    }
}
