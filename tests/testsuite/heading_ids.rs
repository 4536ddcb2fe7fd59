//! Golden test: the heading ids of [`ChapterIndex::parse`] are exactly the ids real mdBook 0.5
//! renders.
//!
//! Each fixture chapter below is written to a temporary book (without this crate's preprocessor,
//! so mdBook runs only its own), built in-process with `mdbook_driver::MDBook`, once with smart
//! punctuation on (mdBook's default) and once with `[output.html] smart-punctuation = false`. The
//! ids of the rendered `h1`-`h6` and `dt` elements inside `<main>` are then compared with ours:
//!
//! - the sequence of our heading ids (and levels) equals the rendered one, in the order mdBook
//!   prints them (referenced footnote definitions move to the end of the page);
//! - every rendered heading and definition-term id is one of our `anchors`.
//!
//! All disagreements of all chapters are collected and reported together, with the source line,
//! our id and mdBook's id.
//!
//! To add a case, add a block (a line or a few lines of Markdown) to one of the chapter functions
//! (`duplicates`, `unicode`, `inline`, `punctuation`, `blocks`, `attributes`, `footnotes`), or a
//! new chapter to [`chapters`] when the case interacts with the rest of a page (ids are unique per
//! page, so a chapter of its own keeps a failure from shifting the ids of the cases after it).
//!
//! A proptest at the end generates chapters of random headings and checks the same.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::LazyLock;

use mdbook_contract::fuzzing::pulldown_cmark::{Event, Tag};
use mdbook_contract::fuzzing::{ChapterIndex, Heading, MarkdownOptions, parse_options};
use mdbook_driver::MDBook;
use proptest::prelude::*;
use regex::Regex;

/// The fewest headings one build of the fixture must compare, so the test cannot pass vacuously.
const MIN_HEADINGS: usize = 40;

// ---------------------------------------------------------------------------------------------
// Fixture chapters. Each is a list of blocks, joined by blank lines.
// ---------------------------------------------------------------------------------------------

/// Every fixture chapter, as (file name under `src/`, content).
fn chapters() -> Vec<(&'static str, String)> {
    vec![
        ("duplicates.md", page(&duplicates())),
        ("unicode.md", page(&unicode())),
        ("inline.md", page(&inline())),
        ("punctuation.md", page(&punctuation())),
        ("blocks.md", page(&blocks())),
        ("attributes.md", page(&attributes())),
        ("footnotes.md", page(&footnotes())),
        // Two footnote references side by side in a heading.
        (
            "footnote_pair.md",
            page(&[
                "## Two refs[^a][^b]",
                "## Spaced refs[^a] [^b]",
                "[^a]: A.",
                "[^b]: B.",
            ]),
        ),
        // A footnote reference where an image's alt text would be: pulldown-cmark gives the
        // footnote precedence, so no image is parsed and both references are numbered.
        (
            "footnote_in_image.md",
            page(&[
                "## Picture ![alt[^img]](pic.png) then[^c]",
                "## After[^c]",
                "[^img]: In the image.",
                "[^c]: C.",
            ]),
        ),
        // CRLF line endings, which mdBook keeps.
        (
            "crlf.md",
            "## Windows line\r\n\r\nSetext\r\nover two\r\n---\r\n\r\nTerm\r\n: Definition\r\n"
                .to_owned(),
        ),
        // A heading inside a referenced footnote definition written before a page heading with
        // the same text: which one gets `note`?
        (
            "footnote_order.md",
            page(&[
                "Text with a note[^note].",
                "[^note]: The note.\n\n    ## Note",
                "## Note",
            ]),
        ),
        // A heading inside a footnote definition that is never referenced (not rendered).
        (
            "footnote_unused.md",
            page(&[
                "## Before",
                "[^unused]: Never referenced.\n\n    ## Orphan",
                "## Orphan",
            ]),
        ),
        // A heading inside a second definition of the same footnote (not rendered).
        (
            "footnote_duplicate.md",
            page(&[
                "## Uses[^d]",
                "[^d]: First definition.",
                "[^d]: Second definition.\n\n    ## Shadowed",
                "## Shadowed",
            ]),
        ),
    ]
}

fn page(blocks: &[&str]) -> String {
    let mut text = blocks.join("\n\n");
    text.push('\n');
    text
}

fn duplicates() -> Vec<&'static str> {
    vec![
        "# Hello World",
        "## Hello World",
        "### Hello World",
        "## Hello-World-1",
        "## hello world",
        "#### HELLO WORLD",
        "## Hello World-2",
    ]
}

fn unicode() -> Vec<&'static str> {
    vec![
        "# Überschrift mit Umlauten äöü ß",
        "## Café crème brûlée",
        "## Ελληνικά ΚΕΦΑΛΑΙΑ ΣΑΣ",
        "## Русский заголовок",
        "## 中文标题 和 日本語の見出し",
        "## 한국어 제목",
        "## Emoji 🐙 here",
        "## Family 👩\u{200d}👩\u{200d}👧 and flag 🇫🇷 and ❤\u{fe0f}",
        "## مرحبا بالعالم",
        "## שלום עולם",
        "## Combining e\u{301}te\u{301} n\u{303} a\u{30a}",
        "## İstanbul ﬁ ligature",
        "## Zero\u{200b}width and soft\u{ad}hyphen",
        "## Ⅻ roman ²³ superscripts ½ ٣ arabic digit",
        "## Non\u{a0}breaking space",
    ]
}

fn inline() -> Vec<&'static str> {
    vec![
        "## `--passes`: add *more* rustdoc passes",
        "## *Emphasis* and _underscore_ and **strong** and __bold__ and ***both***",
        "## ~~Struck~~ and ~single~ tilde",
        "## A [link](https://example.com) and [another](other.md#frag \"title\")",
        "## Reference [link][ref] and [collapsed][] and [shortcut]",
        "## Broken [reference][nope] stays text",
        "## Autolink <https://example.com/path> and <me@example.com>",
        "## Inline <span>x</span> html",
        "## Comment <!-- hidden --> gone",
        "## Tag <b class=\"c\">bold</b> and <br> and <img alt=\"raw alt\" src=\"a.png\">",
        "## Image ![alt text must not count](pic.png) here",
        "## Image ![`code` in *alt*](pic.png) too",
        "## Linked image [![alt](pic.png) caption](x.md)",
        "## Code `a & b < c` with entities",
        "## ``double `backtick` code``",
        "## Nested *emphasis with `code` and [link *inside*](x.md)*",
        "## Press <kbd>Ctrl</kbd>+<kbd>C</kbd>",
        "## Open <span class=\"x\">tag never closed",
        "## Stray </span> closing tag",
        "## Styled <style>x</style> and <script>y</script> text",
        "## <abbr title=\"HyperText\">HTML</abbr> &amp; <em>raw em</em>",
        "[ref]: https://example.com\n[collapsed]: https://example.com\n[shortcut]: https://example.com",
    ]
}

fn punctuation() -> Vec<&'static str> {
    vec![
        "## a & b < c > d",
        "## 1.2.3 Numbers",
        "## Don't stop believin'",
        "## \"Double\" and 'single' quotes",
        "## A -- B --- C",
        "## Wait... what",
        "## ???",
        "## !!!",
        "## ***",
        "## 42",
        "## 42",
        "##    Leading and trailing spaces    ",
        "##\tTab\tseparated\twords\t",
        "## Multiple   inner   spaces",
        "## Escaped \\*stars\\* and \\# hash and \\\\ backslash and \\`tick\\`",
        "## Entities &amp; &copy; &lt;tag&gt; &#42; &#x41; &mdash; &nbsp;end",
        "## snake_case and kebab-case and CamelCase",
        "## Closing hashes ##",
        "## Trailing backslash\\",
        "## Ends with hash#",
        "## C++ & C# vs. F#",
        "## $ % ^ = + | ~ @",
        "## (parenthesised) [bracketed] {braced}",
        "## -leading-and-trailing-",
        "## Tschüss -- bis --- bald...",
        "## A very long heading that goes on and on with many words, numbers like 12345 and \
         67890, punctuation; colons: and more words until it is far longer than any sensible \
         heading should be, and then it goes on a little more just to be sure it is long",
    ]
}

fn blocks() -> Vec<&'static str> {
    vec![
        "Setext one line\n===============",
        "Setext over\ntwo lines\n---------",
        "Hard  \nbreak\n-----",
        "Backslash\\\nbreak\n---",
        "> ## Quoted heading\n>\n> > ### Nested quote",
        "- ## In a list item\n- item\n\n  ### Nested in item",
        "1. ## Numbered item heading",
        "> [!NOTE]\n> ## Inside a note",
        "<div class=\"wrapper\">\n\n## Inside an HTML div\n\n</div>",
        "<h2>Raw HTML heading</h2>",
        "Term one\n: Its definition",
        "Hello World\n: A term with the text of a heading",
        "## Hello World",
        "`code term` *em*\n: Definition",
        "Term one\n: Again, a duplicate term",
        "## Term one",
    ]
}

fn attributes() -> Vec<&'static str> {
    vec![
        "## Custom heading {#custom}",
        "## custom",
        "## Classes {.axis .other}",
        "## Both {#both-id .axis}",
        "## Key value {data-x=1}",
        "## Id attribute {id=from-attr}",
        "## Attr and id {id=ignored #wins}",
        "## from-attr",
        "## Custom heading",
        "## Unicode id {#ünïcode}",
        "## Explicit duplicate {#custom}",
        "## Amp id {#a&b}",
        "## Empty braces {}",
        "## Not attributes {#}",
        "## `code` {.axis}",
        "Setext with id {#setext-id}\n---",
    ]
}

fn footnotes() -> Vec<&'static str> {
    vec![
        "## Title[^1]",
        "## Title1",
        "## Missing[^nope]",
        "## Again[^1]",
        "[^1]: One.",
    ]
}

// ---------------------------------------------------------------------------------------------
// Building a book with real mdBook.
// ---------------------------------------------------------------------------------------------

/// A chapter as written and as mdBook rendered it.
struct Page {
    name: String,
    content: String,
    html: String,
}

/// A built book: its pages and the parser options read from its book.toml.
struct BuiltBook {
    pages: Vec<Page>,
    options: MarkdownOptions,
}

/// Writes `chapters` to a temporary book (no `[preprocessor.contract]`), builds it with
/// mdbook-driver in-process and reads back every chapter's HTML.
fn build_book(chapters: &[(&str, String)], smart_punctuation: bool) -> BuiltBook {
    let book = tempfile::tempdir().expect("temporary book folder");
    let out = tempfile::tempdir().expect("temporary build folder");
    let root = book.path();
    let mut toml = String::from("[book]\ntitle = \"Heading ids\"\n\n[output.html]\n");
    if !smart_punctuation {
        toml.push_str("smart-punctuation = false\n");
    }
    write(&root.join("book.toml"), &toml);
    let mut summary = String::from("# Summary\n\n");
    for (name, content) in chapters {
        summary.push_str(&format!("- [{name}]({name})\n"));
        write(&root.join("src").join(name), content);
    }
    write(&root.join("src/SUMMARY.md"), &summary);

    let mut md = MDBook::load(root).expect("the fixture book loads");
    md.config.build.build_dir = out.path().to_path_buf();
    md.build().expect("mdBook builds the fixture book");
    let options = parse_options(&md.config);
    assert_eq!(
        options.smart_punctuation, smart_punctuation,
        "book.toml should set smart punctuation"
    );

    let pages = chapters
        .iter()
        .map(|(name, content)| {
            let page = out.path().join(name.replace(".md", ".html"));
            let html = std::fs::read_to_string(&page)
                .unwrap_or_else(|e| panic!("reading {}: {e}", page.display()));
            Page {
                name: (*name).to_owned(),
                content: content.clone(),
                html,
            }
        })
        .collect();
    BuiltBook { pages, options }
}

fn write(path: &Path, text: &str) {
    let parent = path.parent().expect("a file path has a parent folder");
    std::fs::create_dir_all(parent).expect("creating a fixture folder");
    std::fs::write(path, text).expect("writing a fixture file");
}

// ---------------------------------------------------------------------------------------------
// Reading ids from the rendered HTML.
// ---------------------------------------------------------------------------------------------

/// An `h1`-`h6` or `dt` element of the rendered chapter that has an id.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RenderedId {
    /// `h1` to `h6`, or `dt`.
    tag: String,
    /// The id, entities decoded.
    id: String,
    /// The element's text, tags dropped and entities decoded (to show in a report).
    text: String,
}

impl RenderedId {
    /// The heading level, `None` for a `dt`.
    fn level(&self) -> Option<u8> {
        self.tag.strip_prefix('h').and_then(|n| n.parse().ok())
    }
}

static OPEN_TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"<(h[1-6]|dt)(\s[^>]*)?>").expect("valid tag regex"));
static ID_ATTR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?:^|\s)id="([^"]*)""#).expect("valid id regex"));
static ANY_TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"<[^>]*>").expect("valid tag regex"));

/// The ids of the `h1`-`h6` and `dt` elements inside `<main>`, in document order. mdBook
/// escapes attribute values and always quotes them with `"`, so a `>` never occurs inside a tag.
/// Elements without an id (raw HTML headings) are left out.
fn rendered_ids(html: &str) -> Vec<RenderedId> {
    let start = html.find("<main>").expect("the page has a <main>") + "<main>".len();
    let end = html.rfind("</main>").expect("the page has a </main>");
    let main = &html[start..end];
    OPEN_TAG
        .captures_iter(main)
        .filter_map(|caps| {
            let tag = &caps[1];
            let attrs = caps.get(2).map_or("", |m| m.as_str());
            let id = ID_ATTR.captures(attrs)?.get(1)?.as_str();
            // Headings and terms do not nest, so the first closing tag is this element's.
            let inner_start = caps.get(0)?.end();
            let inner_end = main[inner_start..]
                .find(&format!("</{tag}>"))
                .map_or(main.len(), |i| inner_start + i);
            let inner = ANY_TAG.replace_all(&main[inner_start..inner_end], "");
            Some(RenderedId {
                tag: tag.to_owned(),
                id: decode_entities(id),
                text: decode_entities(&inner),
            })
        })
        .collect()
}

/// Decodes the character references mdBook's attribute escaping produces (`&amp;`, `&lt;`,
/// `&gt;`, `&quot;`, `&#39;`, `&#92;`), numeric references in general and a few common names.
fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let decoded = rest.find(';').and_then(|semi| {
            let name = &rest[1..semi];
            let ch = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                _ => {
                    let number = name.strip_prefix('#')?;
                    let code = match number.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok(),
                        None => number.parse().ok(),
                    };
                    code.and_then(char::from_u32)
                }
            };
            ch.map(|ch| (ch, semi + 1))
        });
        match decoded {
            Some((ch, len)) => {
                out.push(ch);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

// ---------------------------------------------------------------------------------------------
// Comparing.
// ---------------------------------------------------------------------------------------------

/// Our headings in the order mdBook prints them. mdBook moves the first definition of each
/// referenced footnote to the end of the page, ordered by footnote number (numbers go to the
/// references in document order; mdBook skips repeated definitions, references in them
/// included). Headings of footnote definitions mdBook does not print are kept, last, so that
/// our index listing one shows up as a difference. (pulldown-cmark never puts a footnote
/// reference inside an image, whose alt text mdBook would otherwise swallow.)
fn in_rendered_order<'a>(
    content: &str,
    options: &MarkdownOptions,
    headings: &'a [Heading],
) -> Vec<&'a Heading> {
    let mut definitions: Vec<(String, Range<usize>)> = Vec::new();
    let mut numbers: HashMap<String, usize> = HashMap::new();
    // Nesting depth inside a repeated footnote definition, whose events mdBook skips.
    let mut skipping: Option<usize> = None;
    for (event, range) in mdbook_markdown::new_cmark_parser(content, options).into_offset_iter() {
        if let Some(depth) = &mut skipping {
            match event {
                Event::Start(_) => *depth += 1,
                Event::End(_) if *depth == 0 => skipping = None,
                Event::End(_) => *depth -= 1,
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::FootnoteDefinition(name)) => {
                if definitions.iter().any(|(n, _)| *n == *name) {
                    skipping = Some(0);
                } else {
                    definitions.push((name.to_string(), range));
                }
            }
            Event::FootnoteReference(name) => {
                let next = numbers.len() + 1;
                numbers.entry(name.to_string()).or_insert(next);
            }
            _ => {}
        }
    }
    let mut ordered: Vec<&Heading> = headings.iter().collect();
    ordered.sort_by_key(|heading| {
        let start = heading.range.start;
        match definitions.iter().find(|(_, r)| r.contains(&start)) {
            None => (0, 0, start),
            Some((name, _)) => match numbers.get(name) {
                Some(number) => (1, *number, start),
                None => (2, 0, start),
            },
        }
    });
    ordered
}

/// What comparing one page found.
#[derive(Default)]
struct Comparison {
    /// Rendered headings (h1-h6) compared.
    headings: usize,
    /// Rendered definition terms compared.
    terms: usize,
    /// Human-readable disagreements.
    problems: Vec<String>,
}

/// Compares our ids for `content` with the ids of `html`, mdBook's rendering of it.
fn compare(name: &str, content: &str, html: &str, options: &MarkdownOptions) -> Comparison {
    let index = ChapterIndex::parse(content, options);
    let rendered = rendered_ids(html);
    let mut result = Comparison::default();

    let theirs: Vec<&RenderedId> = rendered.iter().filter(|r| r.level().is_some()).collect();
    let ours = in_rendered_order(content, options, &index.headings);
    result.headings = theirs.len();
    result.terms = rendered.len() - theirs.len();

    let differences = describe_differences(content, &ours, &theirs);
    if !differences.is_empty() {
        result.problems.push(format!(
            "{name}: heading ids differ (ours {} headings, mdBook {}):\n{}",
            ours.len(),
            theirs.len(),
            differences.join("\n")
        ));
    }

    for r in &rendered {
        if !index.anchors.contains(&r.id) {
            result.problems.push(format!(
                "{name}: mdBook's <{}> id {:?} is not among our anchors",
                r.tag, r.id
            ));
        }
    }
    result
}

/// Describes each heading where ours and mdBook's differ. With as many headings on both sides,
/// they are paired by position; otherwise they are aligned on the longest common subsequence of
/// level and id, and a heading can be one side's only.
fn describe_differences(content: &str, ours: &[&Heading], theirs: &[&RenderedId]) -> Vec<String> {
    let same =
        |i: usize, j: usize| Some(ours[i].level) == theirs[j].level() && ours[i].id == theirs[j].id;
    let describe_ours = |h: &Heading| {
        format!(
            "line {} {:?}: ours h{} {:?}",
            line_of(content, h.range.start),
            source_line(content, h.range.start),
            h.level,
            h.id
        )
    };
    let describe_theirs =
        |t: &RenderedId| format!("mdBook {} {:?} (text {:?})", t.tag, t.id, t.text);
    if ours.len() == theirs.len() {
        let mut lines = Vec::new();
        for (i, (o, t)) in ours.iter().zip(theirs).enumerate() {
            if !same(i, i) {
                lines.push(format!(
                    "  !! {} | {}",
                    describe_ours(o),
                    describe_theirs(t)
                ));
            }
        }
        return lines;
    }
    let mut lines = Vec::new();
    let (mut our_gap, mut their_gap) = (Vec::new(), Vec::new());
    let mut flush = |our_gap: &mut Vec<&Heading>, their_gap: &mut Vec<&RenderedId>| {
        for k in 0..our_gap.len().max(their_gap.len()) {
            lines.push(match (our_gap.get(k), their_gap.get(k)) {
                (Some(o), Some(t)) => format!("  !! {} | {}", describe_ours(o), describe_theirs(t)),
                (Some(o), None) => {
                    format!("  !! {} | mdBook has no heading here", describe_ours(o))
                }
                (None, Some(t)) => {
                    format!("  !! ours has no heading here | {}", describe_theirs(t))
                }
                (None, None) => unreachable!("k is below one of the lengths"),
            });
        }
        our_gap.clear();
        their_gap.clear();
    };
    // lcs[i][j]: length of the longest common subsequence of ours[i..] and theirs[j..].
    let mut lcs = vec![vec![0usize; theirs.len() + 1]; ours.len() + 1];
    for i in (0..ours.len()).rev() {
        for j in (0..theirs.len()).rev() {
            lcs[i][j] = if same(i, j) {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < ours.len() || j < theirs.len() {
        if i < ours.len() && j < theirs.len() && same(i, j) {
            flush(&mut our_gap, &mut their_gap);
            i += 1;
            j += 1;
        } else if j == theirs.len() || (i < ours.len() && lcs[i + 1][j] >= lcs[i][j + 1]) {
            our_gap.push(ours[i]);
            i += 1;
        } else {
            their_gap.push(theirs[j]);
            j += 1;
        }
    }
    flush(&mut our_gap, &mut their_gap);
    lines
}

fn line_of(content: &str, offset: usize) -> usize {
    content[..offset].matches('\n').count() + 1
}

fn source_line(content: &str, offset: usize) -> &str {
    let start = content[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = content[offset..]
        .find('\n')
        .map_or(content.len(), |i| offset + i);
    &content[start..end]
}

/// Builds the fixture book with smart punctuation on or off and compares every chapter.
fn check_fixture(smart_punctuation: bool) {
    let chapters = chapters();
    let book = build_book(&chapters, smart_punctuation);
    let mut headings = 0;
    let mut terms = 0;
    let mut problems = Vec::new();
    for page in &book.pages {
        let result = compare(&page.name, &page.content, &page.html, &book.options);
        headings += result.headings;
        terms += result.terms;
        problems.extend(result.problems);
    }
    assert!(
        headings >= MIN_HEADINGS,
        "only {headings} rendered headings were compared; the fixture should have at least \
         {MIN_HEADINGS}"
    );
    assert!(terms >= 4, "only {terms} definition terms were compared");
    assert!(
        problems.is_empty(),
        "smart punctuation {}: {headings} headings and {terms} definition terms compared, {} \
         disagreement(s) with mdBook:\n\n{}",
        if smart_punctuation { "on" } else { "off" },
        problems.len(),
        problems.join("\n\n")
    );
}

#[test]
fn heading_ids_match_mdbook_with_smart_punctuation() {
    check_fixture(true);
}

#[test]
fn heading_ids_match_mdbook_without_smart_punctuation() {
    check_fixture(false);
}

/// The id extraction itself: entities are decoded and only heading and term ids inside
/// `<main>` count.
#[test]
fn rendered_ids_reads_main_headings_and_terms() {
    let html = "<h1 id=\"chrome\">x</h1><main><h2 id=\"a&amp;b&quot;c&#39;d&#92;&#x41;&#66;&lt;\">\
                <a class=\"header\" href=\"#x\">x</a></h2><dl><dt id=\"term\">t</dt></dl>\
                <h3>raw</h3><p id=\"para\">p</p><h6 class=\"c\" id=\"six\">s</h6></main>";
    let got = rendered_ids(html);
    let ids: Vec<(&str, &str)> = got
        .iter()
        .map(|r| (r.tag.as_str(), r.id.as_str()))
        .collect();
    assert_eq!(
        ids,
        [("h2", "a&b\"c'd\\AB<"), ("dt", "term"), ("h6", "six")]
    );
    assert_eq!(decode_entities("&unknown; & &#xZZ;"), "&unknown; & &#xZZ;");
}

// ---------------------------------------------------------------------------------------------
// Property test: random headings.
// ---------------------------------------------------------------------------------------------

/// Single characters of the generated heading texts.
const ALPHABET: &[char] = &[
    'a', 'b', 'Z', 'é', 'ß', 'Ω', 'ж', '中', 'ب', 'ש', '🐙', '\u{301}', '0', '7', '²', ' ', ' ',
    '\t', '\u{a0}', '`', '*', '_', '&', '<', '>', '-', '.', '\'', '"', '!', '?', ',', ':', ';',
    '(', ')', '[', ']', '#', '~', '\\', '/', '|', '=', '+', '%', '$', '@', '^',
];

/// Whole tokens that are more likely to mean something to the parser than random characters.
const TOKENS: &[&str] = &[
    "`code`",
    "*em*",
    "**strong**",
    "_under_",
    "~~gone~~",
    "&amp;",
    "&copy;",
    "&#42;",
    "<span>",
    "</span>",
    "<span>x</span>",
    "<!-- c -->",
    "--",
    "---",
    "...",
    "[link](x.md)",
    "![alt](p.png)",
    "[^n]",
    "Hello World",
    "\\*",
    " ",
];

/// One heading text: pieces from [`ALPHABET`] and [`TOKENS`], or a text repeated often enough to
/// produce duplicate ids.
fn heading_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => prop::sample::select(ALPHABET).prop_map(String::from),
        1 => prop::sample::select(TOKENS).prop_map(String::from),
    ];
    prop_oneof![
        4 => prop::collection::vec(piece, 1..16).prop_map(|pieces| pieces.concat()),
        1 => prop::sample::select(&["Hello World", "Hello World-1", "a", "???", "42"][..])
            .prop_map(String::from),
    ]
}

proptest! {
    // One book build per case; failures are not persisted to a file next to the test.
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(24)
    })]

    #[test]
    fn generated_headings_match_mdbook(
        texts in prop::collection::vec(heading_text(), 5..=20),
        smart_punctuation in any::<bool>(),
    ) {
        let mut blocks: Vec<String> = texts.iter().map(|t| format!("## {t}")).collect();
        // The definition the `[^n]` token refers to.
        blocks.push("[^n]: A note.".to_owned());
        let content = format!("{}\n", blocks.join("\n\n"));
        let chapters = [("generated.md", content)];
        let book = build_book(&chapters, smart_punctuation);
        let page = &book.pages[0];

        let index = ChapterIndex::parse(&page.content, &book.options);
        let ours: Vec<&str> = index.headings.iter().map(|h| h.id.as_str()).collect();
        let theirs: Vec<String> = rendered_ids(&page.html)
            .into_iter()
            .filter(|r| r.level().is_some())
            .map(|r| r.id)
            .collect();
        // Every `## ` line is a heading, so the comparison covers each generated text.
        prop_assert_eq!(theirs.len(), texts.len(), "mdBook rendered a different number of headings");
        prop_assert_eq!(ours, theirs, "ours (left) and mdBook (right) differ for:\n{}", page.content);
    }
}
