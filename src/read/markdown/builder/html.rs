//! Raw HTML in a chapter, as mdBook renders it as written: the ids and `<a name>`s it defines
//! (anchors a link may name) and the `<a href>`s it holds (links the checks follow). To read
//! another attribute: a regex beside these, behind a test as cheap as theirs.

use std::sync::LazyLock;

use regex::Regex;

use crate::read::markdown::index::{ChapterIndex, Link, LinkOrigin};

static HTML_ID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\sid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"#).expect("valid regex")
});
/// Whether `haystack` contains `needle` (ASCII), ignoring ASCII case.
fn contains_ascii_nocase(haystack: &str, needle: &str) -> bool {
    haystack
        .as_bytes()
        .windows(needle.len())
        .any(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Whether `html` holds `<a` or `<A` followed by whitespace, as [`HTML_A_NAME`] and
/// [`HTML_HREF`] require.
fn has_anchor_tag(html: &str) -> bool {
    html.match_indices('<').any(|(i, _)| {
        let mut rest = html[i + 1..].chars();
        matches!(rest.next(), Some('a' | 'A')) && rest.next().is_some_and(char::is_whitespace)
    })
}

static HTML_A_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)<a\s[^>]*?\bname\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"#)
        .expect("valid regex")
});
static HTML_HREF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)<a\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"#)
        .expect("valid regex")
});

fn first_group<'h>(caps: &regex::Captures<'h>) -> Option<regex::Match<'h>> {
    caps.get(1).or_else(|| caps.get(2)).or_else(|| caps.get(3))
}

/// Records the anchors and links of `html`, a raw HTML event at byte `offset` of the chapter.
pub(super) fn raw_html(index: &mut ChapterIndex, html: &str, offset: usize) {
    // Most raw HTML in a book is a comment or a tag such as `<br>`: the regexes, compiled on
    // first use, are not even compiled for it. Both tests are necessary conditions of a
    // match (`id` then `=`; `<a` then whitespace), so nothing they skip could match.
    let attribute = contains_ascii_nocase(html, "id") && html.contains('=');
    let anchor = has_anchor_tag(html);
    if !attribute && !anchor {
        return;
    }
    let ids = attribute.then(|| HTML_ID.captures_iter(html));
    let names = anchor.then(|| HTML_A_NAME.captures_iter(html));
    for caps in ids.into_iter().flatten().chain(names.into_iter().flatten()) {
        if let Some(id) = first_group(&caps) {
            index.anchors.insert(id.as_str().to_owned());
        }
    }
    if !anchor {
        return;
    }
    for caps in HTML_HREF.captures_iter(html) {
        if let (Some(whole), Some(href)) = (caps.get(0), first_group(&caps)) {
            let start = offset + whole.start();
            index.links.push(Link {
                range: start..start + whole.len(),
                dest: href.as_str().to_owned(),
                origin: LinkOrigin::Html,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::markdown::MarkdownOptions;

    fn parse(text: &str) -> ChapterIndex {
        ChapterIndex::parse(text, &MarkdownOptions::default())
    }

    #[test]
    fn raw_html_ids_names_and_hrefs_are_read_and_other_html_skipped() {
        let index = parse(
            "<span ID = \"x\">a</span> <A\thref='y.md'>b</A> <a name=z></a>\n\n\
             <div class=\"valid\" data-x=1>\n\n<br> <!-- an idea --> <abbr>c</abbr>\n",
        );
        let mut anchors: Vec<&str> = index.anchors.iter().map(String::as_str).collect();
        anchors.sort();
        assert_eq!(anchors, ["x", "z"]);
        let dests: Vec<&str> = index.links.iter().map(|l| l.dest.as_str()).collect();
        assert_eq!(dests, ["y.md"]);
        assert!(contains_ascii_nocase("a <P iD=1>", "id"));
        assert!(!contains_ascii_nocase("<br>", "id"));
        assert!(has_anchor_tag("x <a\nhref=q>"));
        assert!(has_anchor_tag("<A name=q>"));
        assert!(!has_anchor_tag("<abbr> <a> <br>"));
    }
}
