//! `dangling-link` and `readme-link` against reality: a fixture book full of links, good and
//! bad, is checked and then built with real mdBook code; every link the checks accept must
//! resolve in the rendered HTML (the file exists and has the fragment's id), and every link they
//! reject must not. To add a case, add a link `[Ln](target)` with a new number `n` to a chapter.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::*;
use mdbook_contract::Check;
use regex::Regex;

const TOML: &str = r#"[book]
title = "Links"

[output.html]

[preprocessor.contract]
after = ["links"]

[preprocessor.contract.checks]
# Findings must not stop the build: the test compares them with the rendered pages.
dangling-link = "warning"
readme-link = "warning"
"#;

const SUMMARY: &str = "# Summary

[Intro](README.md)

- [Top](top.md)
- [Guide](guide/index.md)
  - [Deep](guide/deep/page.md)
- [Unicode](uni.md)
";

const README: &str = "# Intro

[L1](top.md) [L2](top.md#first-heading) [L3](top.md#nope) [L4](guide/index.md#guide)
[L5](guide/deep/page.md#deep-page) [L6](#intro) [L7](#missing) [L8](top.html#first-heading)
[L9](missing.md) [L10](guide/README.md) [L11](img/pic.png) [L12](img/none.png)
";

const TOP: &str = "# First heading

## First heading

## Custom {#my-id}

Term
: A definition.

Text with a note[^n].

[^n]: The note.

<div id=\"raw-id\">raw</div>

[L20](#first-heading-1) [L21](#first-heading-2) [L22](#my-id) [L23](#custom)
[L24](#term) [L25](#footnote-n) [L26](#fr-n-1) [L27](#raw-id) [L28](#Raw-Id)
[L29](README.md) [L30](index.md) [L31](./top.md#first-heading) [L32](uni.md#%C3%BCber-uns)
[L33](uni.md#über-uns) [L34](uni.md#uber-uns) [L35](guide/deep/page.md) [L36](top.md?x=1#my-id)
";

const GUIDE: &str = "# Guide

[L40](../top.md#my-id) [L41](deep/page.md#deep-page) [L42](../top.md#nope) [L43](page.md)
[L44](/top.md#first-heading) [L45](deep/../../uni.md) [L46](../README.md) [L47](../index.md)
";

const DEEP: &str = "# Deep page

[L50](../../top.md) [L51](../index.md#guide) [L52](../../guide/index.md#guide)
[L53](../../../outside.md) [L54](../deep/page.md#deep-page) [L55](https://example.com/x.md#y)
";

const UNI: &str = "# Über uns

## Emoji 🐙 here

[L60](#emoji--here) [L61](#emoji-here) [L62](#%C3%BCber-uns)
[L63](guide/deep/page.html#deep-page) [L64](top.md#) [L65](print.html) [L66](uni.md#emoji--here)
[L67](guide/deep/page.html#nope) [L68](guide/index.md#deep-page)
";

/// Link number to target, in each chapter's source.
fn source_links() -> BTreeMap<u32, (String, String)> {
    let link = Regex::new(r"\[L([0-9]+)\]\(([^)]*)\)").unwrap();
    let mut out = BTreeMap::new();
    for (chapter, text) in [
        ("README.md", README),
        ("top.md", TOP),
        ("guide/index.md", GUIDE),
        ("guide/deep/page.md", DEEP),
        ("uni.md", UNI),
    ] {
        for c in link.captures_iter(text) {
            out.insert(c[1].parse().unwrap(), (chapter.to_owned(), c[2].to_owned()));
        }
    }
    out
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(Ok(b)) = text.get(i + 1..i + 3).map(|h| u8::from_str_radix(h, 16))
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn unescape(text: &str) -> String {
    text.replace("&amp;", "&")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
}

/// Whether `href`, found on the rendered page `page` (relative to `out`), leads to an existing
/// page that has the fragment's id.
fn resolves(out: &Path, page: &Path, href: &str) -> bool {
    let (path, fragment) = href
        .split_once('#')
        .map_or((href, None), |(p, f)| (p, Some(f)));
    let path = path.split('?').next().unwrap_or("");
    let target: PathBuf = if path.is_empty() {
        out.join(page)
    } else if let Some(absolute) = path.strip_prefix('/') {
        out.join(decode(absolute))
    } else {
        out.join(page.parent().unwrap()).join(decode(path))
    };
    let Ok(target) = target.canonicalize() else {
        return false;
    };
    if !target.starts_with(out.canonicalize().unwrap()) || !target.is_file() {
        return false;
    }
    let Some(fragment) = fragment else {
        return true;
    };
    let html = std::fs::read_to_string(&target).unwrap_or_default();
    let ids: Vec<String> = Regex::new(r#"\sid="([^"]*)""#)
        .unwrap()
        .captures_iter(&html)
        .map(|c| unescape(&c[1]))
        .collect();
    let wanted = decode(fragment);
    wanted.is_empty() || ids.contains(&wanted)
}

#[test]
fn accepted_links_resolve_and_rejected_links_do_not() {
    let fixture = Fixture::new(&[
        ("book.toml", TOML),
        ("src/SUMMARY.md", SUMMARY),
        ("src/README.md", README),
        ("src/top.md", TOP),
        ("src/guide/index.md", GUIDE),
        ("src/guide/deep/page.md", DEEP),
        ("src/uni.md", UNI),
        ("src/img/pic.png", "not really a picture"),
    ]);
    let report = fixture.check();
    let (result, out) = fixture.build();
    result.expect("the book builds");

    let links = source_links();
    assert!(links.len() >= 52, "{} links", links.len());
    let rendered_link = Regex::new(r#"<a href="([^"]*)">L([0-9]+)</a>"#).unwrap();
    let mut rendered: BTreeMap<u32, (PathBuf, String)> = BTreeMap::new();
    for page in [
        "index.html",
        "top.html",
        "guide/index.html",
        "guide/deep/page.html",
        "uni.html",
    ] {
        let html = fixture.html(&out, page);
        let main = &html[html.find("<main>").unwrap()..];
        for c in rendered_link.captures_iter(main) {
            rendered.insert(
                c[2].parse().unwrap(),
                (PathBuf::from(page), unescape(&c[1])),
            );
        }
    }

    let mut disagreements = Vec::new();
    let mut compared = 0;
    let mut rejections = 0;
    for (number, (chapter, target)) in &links {
        if target.contains("://") || target.starts_with("../../../") {
            // External, or out of the book: not part of the rendered site.
            continue;
        }
        let (page, href) = rendered
            .get(number)
            .unwrap_or_else(|| panic!("L{number} is rendered"));
        let rejected = report.findings.iter().any(|f| {
            matches!(f.check, Check::DanglingLink | Check::ReadmeLink)
                && f.location.path == Path::new("src").join(chapter)
                && f.location.line_text.contains(&format!("[L{number}]("))
                && f.location.line_text[..]
                    .char_indices()
                    .nth(f.location.column - 1)
                    .is_some_and(|(i, _)| {
                        f.location.line_text[i..].starts_with(&format!("[L{number}]"))
                    })
        });
        compared += 1;
        rejections += usize::from(rejected);
        let resolves = resolves(&out, page, href);
        if rejected == resolves {
            disagreements.push(format!(
                "L{number} in {chapter}: `{target}` rendered as `{href}`: the checks {}, but the link {}",
                if rejected { "reject it" } else { "accept it" },
                if resolves { "resolves" } else { "does not resolve" }
            ));
        }
    }
    assert!(compared >= 45, "{compared} links compared");
    assert!(
        (12..compared - 20).contains(&rejections),
        "{rejections} of {compared} links rejected"
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
