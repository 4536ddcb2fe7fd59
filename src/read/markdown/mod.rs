//! Markdown as mdBook sees it: one parse per chapter, with byte ranges.
//!
//! The flow is: [`ChapterIndex::parse`] runs pulldown-cmark once over a chapter with the options
//! mdBook's HTML renderer uses ([`parse_options`]) and records what the rest of the crate needs
//! (headings with the ids mdBook gives them, links, code, tables, prose text), each with its byte
//! range in the chapter. [`ids`] holds mdBook's id rules, [`LineIndex`] turns byte offsets into
//! lines and columns, and [`splice`] applies replacements by byte range.
//!
//! This module knows nothing of axes, providers or checks: it describes Markdown only. To record
//! something new, add a field to [`ChapterIndex`] and fill it in the one event loop of `builder/mod.rs`.

// Public for the `fuzzing` surface of lib.rs; without that feature no one outside reaches it.
#![cfg_attr(not(feature = "fuzzing"), allow(unreachable_pub))]

mod builder;
pub(crate) mod ids;
mod index;
mod lines;
pub(crate) mod splice;

pub(crate) use index::Table;
pub use index::{ChapterIndex, Heading};
pub(crate) use lines::LineIndex;
pub use mdbook_markdown::MarkdownOptions;
pub use mdbook_markdown::pulldown_cmark;

use mdbook_preprocessor::config::Config;

/// A shortcode with its arguments, for [`plain`].
static SHORTCODE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"\{\{#[a-z-]+\s*([^}]*)\}\}").expect("valid regex")
});

/// `markdown` as a reader sees it: shortcodes as their words, the text of links and code
/// spans, whitespace collapsed.
pub(crate) fn plain(markdown: &str) -> String {
    use pulldown_cmark::{Event, Parser, TagEnd};
    let words = SHORTCODE.replace_all(markdown, |caps: &regex::Captures<'_>| {
        caps[1].replace('`', "")
    });
    let mut out = String::new();
    for event in Parser::new(&words) {
        match event {
            Event::Text(text) | Event::Code(text) => out.push_str(&text),
            Event::SoftBreak | Event::HardBreak | Event::End(TagEnd::Paragraph) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The byte offset just past the last character of `text` that `boundary` accepts (0 when
/// none does): where the word that ends `text` starts. Counted with the character's own width,
/// since whitespace such as U+00A0 or U+3000 takes more than one byte.
pub(crate) fn after_last(text: &str, boundary: impl Fn(char) -> bool) -> usize {
    text.char_indices()
        .rev()
        .find(|&(_, c)| boundary(c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// The parser options mdBook's HTML renderer uses for this book (`output.html`
/// `smart-punctuation`, `definition-lists`, `admonitions`; all on by default).
pub fn parse_options(config: &Config) -> MarkdownOptions {
    let mut options = MarkdownOptions::default();
    if let Some(html) = config.html_config() {
        options.smart_punctuation = html.smart_punctuation;
        options.definition_lists = html.definition_lists;
        options.admonitions = html.admonitions;
    }
    options
}

#[cfg(test)]
mod tests {
    use super::after_last;

    #[test]
    fn a_word_starts_after_whitespace_of_any_width() {
        assert_eq!(after_last("RFC No.", char::is_whitespace), 4);
        assert_eq!(after_last("RFC\u{a0}No.", char::is_whitespace), 5);
        assert_eq!(after_last("a\u{3000}b", char::is_whitespace), 4);
        assert_eq!(after_last("word", char::is_whitespace), 0);
        assert_eq!(after_last("", char::is_whitespace), 0);
    }
}
