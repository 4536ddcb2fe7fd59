//! Finding this preprocessor's shortcodes in a chapter.
//!
//! [`scan`] looks for `{{#` in the chapter text, skips what is shown verbatim (code spans, code
//! blocks, raw HTML) and what is escaped with a backslash, and parses each occurrence into a
//! [`Shortcode`] (a typed [`Kind`] with spanned arguments), a malformed one, or a directive of
//! some other preprocessor (kept for the `leftover-directive` check). To add a shortcode, add a
//! [`Name`] (its spelling, usage and arity) and a [`Kind`] built from its arguments in `parse`;
//! the model and the renderer then say what it means.

// Public for the `fuzzing` surface of lib.rs; without that feature no one outside reaches it.
#![cfg_attr(not(feature = "fuzzing"), allow(unreachable_pub))]

use std::ops::Range;

use crate::read::markdown::ChapterIndex;
use crate::util::suggest;
use crate::util::unicode::Unseen;

mod name;

pub use name::Name;

/// A word of the chapter and where it was written: a shortcode's argument without its
/// backticks, and its bytes in the chapter, backticks included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned {
    /// The text, without backticks.
    pub text: String,
    /// Its bytes in the chapter, backticks included.
    pub range: Range<usize>,
}

/// What a well-formed shortcode says, with its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// `{{#axis CODE}}`: a link to an axis.
    Axis {
        /// The axis code.
        code: Spanned,
    },
    /// `{{#axis-table}}`: the closing table of all axes.
    AxisTable,
    /// `{{#answers CODE}}`: the allowed answers of an axis, at its template entry.
    Answers {
        /// The axis code.
        code: Spanned,
    },
    /// `{{#profile CODE PROFILE EVIDENCE...}}`: a provider's claim.
    Profile {
        /// The axis code.
        axis: Spanned,
        /// The profile claimed.
        profile: Spanned,
        /// Symbols or repository paths, bare or in backticks.
        evidence: Vec<Spanned>,
    },
    /// `{{#profile-matrix}}`: one row per axis, one column per provider.
    ProfileMatrix,
    /// `{{#spec-status}}`: a spec's status, answered entries out of all, the unanswered ones.
    SpecStatus,
    /// `{{#rule ID}}`: a link to a rule.
    Rule {
        /// The rule ID.
        id: Spanned,
    },
    /// `{{#rule-matrix}}`: one row per rule, one column per built provider.
    RuleMatrix,
}

impl Kind {
    /// Its name.
    pub fn name(&self) -> Name {
        match self {
            Kind::Axis { .. } => Name::Axis,
            Kind::AxisTable => Name::AxisTable,
            Kind::Answers { .. } => Name::Answers,
            Kind::Profile { .. } => Name::Profile,
            Kind::ProfileMatrix => Name::ProfileMatrix,
            Kind::SpecStatus => Name::SpecStatus,
            Kind::Rule { .. } => Name::Rule,
            Kind::RuleMatrix => Name::RuleMatrix,
        }
    }

    /// Its arguments, in the order written.
    #[cfg(feature = "fuzzing")]
    pub fn args(&self) -> Vec<&Spanned> {
        match self {
            Kind::Axis { code } | Kind::Answers { code } => vec![code],
            Kind::Profile {
                axis,
                profile,
                evidence,
            } => [axis, profile].into_iter().chain(evidence).collect(),
            Kind::Rule { id } => vec![id],
            Kind::AxisTable | Kind::ProfileMatrix | Kind::SpecStatus | Kind::RuleMatrix => {
                Vec::new()
            }
        }
    }

    /// The axis it names, if any.
    pub fn axis(&self) -> Option<&Spanned> {
        match self {
            Kind::Axis { code } | Kind::Answers { code } => Some(code),
            Kind::Profile { axis, .. } => Some(axis),
            Kind::AxisTable
            | Kind::ProfileMatrix
            | Kind::SpecStatus
            | Kind::Rule { .. }
            | Kind::RuleMatrix => None,
        }
    }
}

/// A well-formed shortcode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shortcode {
    /// From `{{` to `}}` inclusive.
    pub range: Range<usize>,
    /// What it says.
    pub kind: Kind,
}

/// A shortcode of this preprocessor that cannot be used as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    /// The bytes of the shortcode (or of its start, when it does not close).
    pub range: Range<usize>,
    /// What is wrong.
    pub message: String,
    /// What to do, when it is not the usual (how to show a shortcode as text).
    pub help: Option<String>,
}

/// A `{{#name ...}}` directive of another preprocessor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foreign {
    /// Its bytes.
    pub range: Range<usize>,
    /// The name after `{{#`.
    pub name: String,
}

/// Everything `{{#`-shaped in one chapter, outside code and not escaped.
#[derive(Debug, Default, Clone)]
pub struct Scan {
    /// Well-formed shortcodes, in document order.
    pub shortcodes: Vec<Shortcode>,
    /// Shortcodes of ours that are broken.
    pub malformed: Vec<Malformed>,
    /// Directives of other preprocessors.
    pub foreign: Vec<Foreign>,
}

/// The directives of mdBook's own `links` preprocessor.
pub(crate) const MDBOOK_DIRECTIVES: &[&str] = &[
    "include",
    "rustdoc_include",
    "playground",
    "playpen",
    "title",
];

/// Names close enough to ours to be a typo of one, rather than another preprocessor's.
fn in_our_family(name: &str) -> bool {
    name.starts_with("axis")
        || name.starts_with("profile")
        || name.starts_with("answer")
        || name.starts_with("spec")
        || name.starts_with("rule")
        || suggest::did_you_mean(name, Name::ALL.map(Name::as_str)).is_some()
}

/// Whether `text` is a kebab-case code: lowercase ASCII letters and digits in parts joined by
/// single hyphens.
pub(crate) fn is_code(text: &str) -> bool {
    !text.is_empty()
        && text.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Scans `content` (indexed as `index`); `backslash_removed_at(p)` says whether an escaping
/// backslash before offset `p` was removed by mdBook's `links` preprocessor.
pub fn scan(
    content: &str,
    index: &ChapterIndex,
    backslash_removed_at: &dyn Fn(usize) -> bool,
) -> Scan {
    let mut out = Scan::default();
    let bytes = content.as_bytes();
    let mut from = 0;
    while let Some(start) = find_braces(content, from) {
        from = start + 2;
        let Some((name_start, name_end)) = name_at(content, start) else {
            continue;
        };
        let name = &content[name_start..name_end];
        // mdBook expands its own directives in code too (an include in a fenced block is
        // common), so a leftover one there is still worth reporting; ours are text in code.
        if index.is_verbatim(start) && !MDBOOK_DIRECTIVES.contains(&name) {
            continue;
        }
        let escaped = (start > 0 && bytes[start - 1] == b'\\') || backslash_removed_at(start);
        if escaped {
            continue;
        }
        if let Some(end) = one(content, index, start, name_start..name_end, &mut out) {
            from = end;
        }
    }
    out
}

/// Where the name of the directive whose `{{` is at `start` is, when a `#` and a name follow.
fn name_at(content: &str, start: usize) -> Option<(usize, usize)> {
    let bytes = content.as_bytes();
    let mut cursor = start + 2;
    while cursor < bytes.len() && matches!(bytes[cursor], b' ' | b'\t') {
        cursor += 1;
    }
    if bytes.get(cursor) != Some(&b'#') {
        return None;
    }
    let name_start = cursor + 1;
    let name_end = name_start
        + content[name_start..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
            .count();
    (name_end > name_start).then_some((name_start, name_end))
}

/// Reads the directive at `start` whose name is `name` (a range of `content`) into `out`: a
/// shortcode, a malformed one, or another preprocessor's; the end of what it took, when it
/// closes.
fn one(
    content: &str,
    index: &ChapterIndex,
    start: usize,
    name: std::ops::Range<usize>,
    out: &mut Scan,
) -> Option<usize> {
    let name_end = name.end;
    let name = &content[name];
    let line_end = content[name_end..]
        .find('\n')
        .map_or(content.len(), |i| name_end + i);
    let close = content[name_end..line_end].find("}}").map(|i| name_end + i);
    let known = Name::from_str(name);
    let ours = (known.is_some() || in_our_family(name)) && !MDBOOK_DIRECTIVES.contains(&name);
    let Some(close) = close else {
        if ours {
            out.malformed.push(Malformed {
                range: start..name_end,
                message: format!("`{{{{#{name}` has no closing `}}}}` on its line"),
                help: None,
            });
        }
        return None;
    };
    let range = start..close + 2;
    let end = range.end;
    let Some(known) = known else {
        if ours {
            let hint = suggest::hint(name, Name::ALL.map(Name::as_str));
            out.malformed.push(Malformed {
                range,
                message: format!("unknown shortcode `{{{{#{name}}}}}`{hint}"),
                help: None,
            });
        } else {
            out.foreign.push(Foreign {
                range,
                name: name.to_owned(),
            });
        }
        return Some(end);
    };
    if let Some(malformed) = odd_space(content, known, name_end..close) {
        out.malformed.push(malformed);
        return Some(end);
    }
    match parse(content, index, known, range.clone(), name_end..close) {
        Ok(shortcode) => out.shortcodes.push(shortcode),
        Err(message) => out.malformed.push(Malformed {
            range,
            message,
            help: None,
        }),
    }
    Some(end)
}

/// A space that is not U+0020 among the arguments of shortcode `name` (they are `args` of
/// `content`): it looks like a separator and is read as part of an argument, so it is named,
/// with where it stands.
fn odd_space(content: &str, name: Name, args: Range<usize>) -> Option<Malformed> {
    let text = &content[args.clone()];
    let (at, c, _) =
        crate::util::unicode::find(text).find(|(_, _, kind)| *kind == Unseen::Space)?;
    let before = text[..at].split_ascii_whitespace().next_back();
    let after = text[at + c.len_utf8()..].split_ascii_whitespace().next();
    let between = match (before, after) {
        (Some(b), Some(a)) => format!(" between `{b}` and `{a}`"),
        (Some(b), None) => format!(" after `{b}`"),
        (None, Some(a)) => format!(" before `{a}`"),
        (None, None) => String::new(),
    };
    let start = args.start + at;
    Some(Malformed {
        range: start..start + c.len_utf8(),
        message: format!(
            "`{{{{#{}}}}}` has a {}{between}, which looks like a space but separates no arguments",
            name.as_str(),
            crate::util::unicode::describe(c)
        ),
        help: Some("write a plain space (U+0020) in its place".to_owned()),
    })
}

/// The first `{{` at or after `from`, found with memchr's SIMD substring search (chapters are
/// mostly prose with few braces, and this runs over every byte of every chapter with `{{`).
fn find_braces(content: &str, from: usize) -> Option<usize> {
    let rest = content.as_bytes().get(from..)?;
    memchr::memmem::find(rest, b"{{").map(|i| from + i)
}

fn parse(
    content: &str,
    index: &ChapterIndex,
    name: Name,
    range: Range<usize>,
    args_range: Range<usize>,
) -> Result<Shortcode, String> {
    let args = split_args(content, args_range)?;
    let usage = name.usage();
    if !name.arity_ok(args.len()) {
        return Err(format!(
            "`{{{{#{}}}}}` takes {}; write `{usage}`",
            name.as_str(),
            name.takes()
        ));
    }
    if let Some(bad) = args[..name.codes()].iter().find(|a| !is_code(&a.text)) {
        return Err(format!(
            "`{}` is not a kebab-case code{} (lowercase letters, digits and single hyphens); write `{usage}`",
            bad.text,
            crate::util::unicode::hidden_in(&bad.text)
        ));
    }
    if index.heading_at(range.start).is_some() {
        return Err(
            "shortcodes are not expanded inside headings; write the code as a code span".to_owned(),
        );
    }
    if name.is_block() {
        let alone = index
            .paragraph_at(range.start)
            .is_some_and(|p| content[p].trim() == &content[range.clone()]);
        if !alone {
            return Err(format!(
                "`{{{{#{}}}}}` renders a block and must stand alone in its paragraph, with a blank line before and after",
                name.as_str()
            ));
        }
    }
    let mut args = args.into_iter();
    let mut next = || args.next().expect("the arity was checked");
    let kind = match name {
        Name::Axis => Kind::Axis { code: next() },
        Name::AxisTable => Kind::AxisTable,
        Name::Answers => Kind::Answers { code: next() },
        Name::Profile => {
            let (axis, profile) = (next(), next());
            Kind::Profile {
                axis,
                profile,
                evidence: args.collect(),
            }
        }
        Name::ProfileMatrix => Kind::ProfileMatrix,
        Name::SpecStatus => Kind::SpecStatus,
        Name::Rule => Kind::Rule { id: next() },
        Name::RuleMatrix => Kind::RuleMatrix,
    };
    Ok(Shortcode { range, kind })
}

fn split_args(content: &str, range: Range<usize>) -> Result<Vec<Spanned>, String> {
    let text = &content[range.clone()];
    let bytes = text.as_bytes();
    let mut args = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if bytes[i] == b'`' {
            let ticks = text[i..].bytes().take_while(|&b| b == b'`').count();
            let fence = &text[i..i + ticks];
            let Some(close) = text[i + ticks..].find(fence) else {
                return Err(format!("unclosed {fence} in the arguments"));
            };
            let inner = &text[i + ticks..i + ticks + close];
            i += ticks + close + ticks;
            args.push(Spanned {
                text: inner.trim().to_owned(),
                range: range.start + start..range.start + i,
            });
        } else {
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'`' {
                i += 1;
            }
            args.push(Spanned {
                text: text[start..i].to_owned(),
                range: range.start + start..range.start + i,
            });
        }
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::markdown::MarkdownOptions;

    fn scan_text(text: &str) -> Scan {
        let index = ChapterIndex::parse(text, &MarkdownOptions::default());
        scan(text, &index, &|_| false)
    }

    #[test]
    fn finds_shortcodes_and_their_arguments() {
        let text = "See {{#axis readiness}} and {{#profile create-return blocking `Provider.Create` waitRunning}}.\n\n{{#axis-table}}\n";
        let scan = scan_text(text);
        assert!(scan.malformed.is_empty(), "{:?}", scan.malformed);
        let names: Vec<Name> = scan.shortcodes.iter().map(|s| s.kind.name()).collect();
        assert_eq!(names, [Name::Axis, Name::Profile, Name::AxisTable]);
        let Kind::Profile {
            axis,
            profile,
            evidence,
        } = &scan.shortcodes[1].kind
        else {
            panic!("a claim: {:?}", scan.shortcodes[1]);
        };
        assert_eq!(
            (axis.text.as_str(), profile.text.as_str()),
            ("create-return", "blocking")
        );
        assert_eq!(&text[profile.range.clone()], "blocking");
        let evidence: Vec<&str> = evidence.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(evidence, ["Provider.Create", "waitRunning"]);
        assert_eq!(
            &text[scan.shortcodes[0].range.clone()],
            "{{#axis readiness}}"
        );
    }

    #[test]
    fn code_escapes_and_html_are_left_alone() {
        let text = "`{{#axis a}}` \\{{#axis b}}\n\n```\n{{#axis c}}\n```\n\n<!-- {{#axis d}} -->\n";
        let scan = scan_text(text);
        assert!(scan.shortcodes.is_empty() && scan.malformed.is_empty() && scan.foreign.is_empty());
    }

    #[test]
    fn a_removed_backslash_still_escapes() {
        let text = "x {{#axis a}}\n";
        let index = ChapterIndex::parse(text, &MarkdownOptions::default());
        assert!(scan(text, &index, &|p| p == 2).shortcodes.is_empty());
    }

    #[test]
    fn malformed_shortcodes_say_why() {
        let cases = [
            ("{{#axis}}\n", "takes one axis code"),
            ("{{#axis Readiness}}\n", "not a kebab-case code"),
            ("{{#axes readiness}}\n", "did you mean `axis`"),
            ("{{#profile x}}\n", "an axis code, a profile"),
            ("a {{#axis-table}} b\n", "stand alone"),
            ("## Title {{#axis x}}\n", "inside headings"),
            ("{{#axis x\n", "no closing"),
            ("{{#profile a b `c}}\n", "unclosed"),
        ];
        for (text, expected) in cases {
            let scan = scan_text(text);
            assert_eq!(scan.malformed.len(), 1, "{text:?}: {:?}", scan);
            assert!(
                scan.malformed[0].message.contains(expected),
                "{text:?}: {}",
                scan.malformed[0].message
            );
        }
    }

    #[test]
    fn other_directives_are_foreign() {
        let scan = scan_text("{{#include missing.md}}\n");
        assert_eq!(scan.foreign.len(), 1);
        assert_eq!(scan.foreign[0].name, "include");
    }
}
