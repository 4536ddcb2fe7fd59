//! `missing-chapter`: a link of SUMMARY.md to a chapter whose file does not exist, at the
//! link. mdBook's `build.create-missing` would write the file; every load of this tool has it
//! off and reads such a chapter as a draft (`read::load`), so this finding is what tells it.
//! A build with `create-missing` on (mdBook's default) writes the file before this check runs,
//! and one with it off stops before: the check speaks for `check`, the editor and the agent.

use super::{Context, Draft, Place};
use crate::read::code::Spot;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let src = cx.files.src_dir();
    let summary = src.join("SUMMARY.md");
    let Some(text) = cx
        .files
        .read(&summary)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
    else {
        return;
    };
    let text = crate::util::text::without_bom(text);
    let shown = summary
        .strip_prefix(cx.files.root())
        .map_or_else(|_| "SUMMARY.md".to_owned(), crate::util::paths::slashed);
    for (destination, at) in links(&text) {
        // As mdBook reads a location: `%20` is a space, the rest as written.
        let chapter = destination.replace("%20", " ");
        if chapter.is_empty() || chapter.contains("://") || src.join(&chapter).exists() {
            continue;
        }
        let spot = spot_at(&text, at, &shown);
        out.push(
            Draft::at(
                Check::MissingChapter,
                Place::Book(Box::new(spot)),
                0..0,
                format!("SUMMARY.md names the chapter `{chapter}`, which does not exist"),
            )
            .help("write it, or take it out of SUMMARY.md (this tool creates no chapter; `mdbook build` does when `build.create-missing` is on)"),
        );
    }
}

/// Each inline link of `text` with its destination and its range, as mdBook's own parser
/// finds them.
fn links(text: &str) -> Vec<(String, std::ops::Range<usize>)> {
    use mdbook_markdown::pulldown_cmark::{Event, Parser, Tag};
    Parser::new(text)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. }) => Some((dest_url.into_string(), range)),
            _ => None,
        })
        .collect()
}

/// Where `range` of `text` starts, as a spot of the file shown as `shown`: its line, column
/// and width in characters (to the end of the range or of its line).
fn spot_at(text: &str, range: std::ops::Range<usize>, shown: &str) -> Spot {
    let line_start = text[..range.start].rfind('\n').map_or(0, |n| n + 1);
    let line_end = text[range.start..]
        .find('\n')
        .map_or(text.len(), |n| range.start + n);
    let end = range.end.min(line_end);
    Spot {
        path: shown.to_owned(),
        line: text[..range.start].matches('\n').count() + 1,
        column: text[line_start..range.start].chars().count() + 1,
        width: text[range.start..end].chars().count(),
        line_text: text[line_start..line_end].trim_end_matches('\r').to_owned(),
    }
}
