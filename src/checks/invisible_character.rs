//! `invisible-character`: characters nobody can see, where they change what is read.
//!
//! A bidirectional control (U+202A to U+202E, U+2066 to U+2069) anywhere in a chapter or a
//! companion is an error: normative text whose displayed order differs from its stored order
//! is the "Trojan Source" problem that GitHub and rustc warn about. An invisible character
//! (zero-width space, joiner, word joiner, soft hyphen, see [`crate::util::unicode`]) in a rule's
//! text, a code span or a shortcode is a warning: it makes a code or an ID another word than
//! the one shown. In prose they have uses (a soft hyphen, a joiner in an emoji or between
//! Persian letters), so they are left alone there, and so are joiners next to a character
//! outside ASCII anywhere.

use std::ops::Range;

use super::{Context, Draft, Place};
use crate::util::unicode::{Unseen, describe};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for source in cx.texts() {
        let content = source.content;
        let mut zones: Option<Vec<(Range<usize>, &str)>> = None;
        for (at, c, kind) in crate::util::unicode::find(content) {
            let range = at..at + c.len_utf8();
            match kind {
                Unseen::Bidi => out.push(
                    Draft::at(
                        Check::InvisibleCharacter,
                        source.place.clone(),
                        range,
                        format!(
                            "{}: the text after it is shown in another order than it is stored",
                            describe(c)
                        ),
                    )
                    .help("delete it: a contract reads as it is stored; right-to-left text needs no control, Unicode's bidirectional algorithm orders it"),
                ),
                Unseen::Invisible if !is_joining(content, at, c) => {
                    let Place::Chapter(number) = source.place else {
                        continue;
                    };
                    let zones = zones.get_or_insert_with(|| zones_of(cx, number));
                    let Some((_, what)) = zones.iter().find(|(z, _)| z.contains(&at)) else {
                        continue;
                    };
                    out.push(
                        Draft::at(
                            Check::InvisibleCharacter,
                            source.place.clone(),
                            range,
                            format!(
                                "{} in {what}: it makes the text another one than it shows",
                                describe(c)
                            ),
                        )
                        .help("delete it")
                        .lenient(true),
                    );
                }
                Unseen::Invisible | Unseen::Space => {}
            }
        }
    }
}

/// Whether `c` at `at` is a zero-width joiner or non-joiner next to a character outside
/// ASCII: an emoji sequence, or a script that needs it.
fn is_joining(content: &str, at: usize, c: char) -> bool {
    if !matches!(c, '\u{200C}' | '\u{200D}') {
        return false;
    }
    let before = content[..at].chars().next_back();
    let after = content[at + c.len_utf8()..].chars().next();
    before.is_some_and(|b| !b.is_ascii()) || after.is_some_and(|a| !a.is_ascii())
}

/// Where an invisible character changes what is read in chapter `number`: its rules' markers
/// and texts, its code spans and its shortcodes, each with how a finding names it.
fn zones_of<'c>(cx: &Context<'c>, number: usize) -> Vec<(Range<usize>, &'static str)> {
    let chapter = &cx.chapters[number];
    let mut zones: Vec<(Range<usize>, &'static str)> = Vec::new();
    for rule in cx.rules.rules.iter().filter(|r| r.chapter == number) {
        zones.push((rule.marker.clone(), "a rule marker"));
        zones.push((rule.text.clone(), "a rule's text"));
    }
    // A marker that the character itself made malformed (`r[put\u{200b}.atomic]`) is one too.
    zones.extend(
        cx.rules
            .problems
            .iter()
            .filter(|p| p.chapter == number && p.check == Check::MalformedRule)
            .map(|p| (p.range.clone(), "a rule marker")),
    );
    zones.extend(
        chapter
            .index
            .code_spans
            .iter()
            .map(|s| (s.range.clone(), "a code span")),
    );
    zones.extend(
        chapter
            .scan
            .shortcodes
            .iter()
            .map(|s| (s.range.clone(), "a shortcode")),
    );
    zones.extend(
        chapter
            .scan
            .malformed
            .iter()
            .map(|s| (s.range.clone(), "a shortcode")),
    );
    zones
}
