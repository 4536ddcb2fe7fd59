//! The replay of a chapter's file through mdBook's `links`, one directive at a time: the
//! segments of the content that are the file's own text, an included file's, or a directive's
//! output, and the backslashes `links` removed. A directive `links` learns in a new mdBook
//! version is matched here first ([`MDBOOK_DIRECTIVE`]).

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use super::{Origin, Segment, SourceFile, SourceMap};

/// The directive pattern of mdBook's `links` preprocessor, kept identical so that the same
/// spans are found: an escaped directive runs to the last `}}` on its line.
static MDBOOK_DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\\\{\{\#.*\}\}|\{\{\s*\#([a-zA-Z0-9_]+)\s+([^}]+)\}\}").expect("valid regex")
});

impl SourceMap {
    pub(super) fn align(
        &mut self,
        content: &str,
        base_dir: &Path,
        display_of: &dyn Fn(&Path) -> PathBuf,
        expand: &dyn Fn(&str) -> Option<String>,
    ) -> Option<()> {
        let source = std::mem::take(&mut self.files[0].text);
        let result = self.align_text(&source, content, base_dir, display_of, expand);
        self.files[0].text = source;
        result
    }

    fn align_text(
        &mut self,
        source: &str,
        content: &str,
        base_dir: &Path,
        display_of: &dyn Fn(&Path) -> PathBuf,
        expand: &dyn Fn(&str) -> Option<String>,
    ) -> Option<()> {
        let mut c = 0;
        let mut s = 0;
        for caps in MDBOOK_DIRECTIVE.captures_iter(source) {
            let whole = caps.get(0).expect("group 0 always matches");
            let literal = &source[s..whole.start()];
            c = self.copy(content, c, literal, s)?;
            s = whole.start();
            let directive = whole.as_str();
            let rest = &content[c..];
            if let Some(unescaped) = directive.strip_prefix('\\') {
                if rest.starts_with(directive) {
                    c = self.copy(content, c, directive, s)?;
                } else if rest.starts_with(unescaped) {
                    self.escapes.push(c);
                    c = self.copy(content, c, unescaped, s + 1)?;
                } else {
                    return None;
                }
            } else if rest.starts_with(directive) {
                // Left in place: not one of mdBook's, or one that failed.
                c = self.copy(content, c, directive, s)?;
            } else {
                let expansion = expand(directive)?;
                if !rest.starts_with(&expansion) {
                    return None;
                }
                if !expansion.is_empty() {
                    let origin = self.included_origin(&caps, &expansion, s, base_dir, display_of);
                    self.segments.push(Segment {
                        content_start: c,
                        origin,
                    });
                }
                c += expansion.len();
            }
            s = whole.end();
        }
        c = self.copy(content, c, &source[s..], s)?;
        if self.segments.is_empty() {
            self.segments.push(Segment {
                content_start: 0,
                origin: Origin::File {
                    file: 0,
                    offset: 0,
                    included_by: None,
                },
            });
        }
        (c == content.len()).then_some(())
    }

    /// Maps `literal` (at `source_offset` in the chapter file) onto the content at `c`.
    fn copy(
        &mut self,
        content: &str,
        c: usize,
        literal: &str,
        source_offset: usize,
    ) -> Option<usize> {
        if !content[c..].starts_with(literal) {
            return None;
        }
        if !literal.is_empty() {
            self.segments.push(Segment {
                content_start: c,
                origin: Origin::File {
                    file: 0,
                    offset: source_offset,
                    included_by: None,
                },
            });
        }
        Some(c + literal.len())
    }

    fn included_origin(
        &mut self,
        caps: &regex::Captures<'_>,
        expansion: &str,
        directive: usize,
        base_dir: &Path,
        display_of: &dyn Fn(&Path) -> PathBuf,
    ) -> Origin {
        let name = caps.get(1).map_or("", |m| m.as_str());
        let argument = caps
            .get(2)
            .and_then(|m| m.as_str().split_whitespace().next());
        let Some(argument) = argument.filter(|_| {
            matches!(
                name,
                "include" | "rustdoc_include" | "playground" | "playpen"
            )
        }) else {
            return Origin::Included {
                from: self.label.clone(),
                directive,
            };
        };
        let relative = argument.split(':').next().unwrap_or(argument);
        let path = base_dir.join(relative);
        let display = display_of(&path);
        let found = self
            .files
            .iter()
            .position(|f| f.display == display)
            .or_else(|| {
                let text = std::fs::read_to_string(&path).ok()?;
                self.files.push(SourceFile::new(display.clone(), text));
                Some(self.files.len() - 1)
            });
        match found.and_then(|file| Some((file, self.files[file].text.find(expansion)?))) {
            Some((file, offset)) => Origin::File {
                file,
                offset,
                included_by: Some(directive),
            },
            None => Origin::Included {
                from: display,
                directive,
            },
        }
    }
}

/// What mdBook's `links` alone makes of the chapter file `source`: each directive replaced by
/// `expand`'s text (or left as written), the backslash of an escaped one removed.
pub(super) fn links_only(source: &str, expand: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(source.len());
    let mut s = 0;
    for whole in MDBOOK_DIRECTIVE.find_iter(source) {
        out.push_str(&source[s..whole.start()]);
        let directive = whole.as_str();
        match directive.strip_prefix('\\') {
            Some(unescaped) => out.push_str(unescaped),
            None => out.push_str(&expand(directive).unwrap_or_else(|| directive.to_owned())),
        }
        s = whole.end();
    }
    out.push_str(&source[s..]);
    out
}
