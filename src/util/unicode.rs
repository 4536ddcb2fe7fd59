//! Characters nobody can see: bidirectional controls, zero-width and other invisible
//! characters, and spaces that are not U+0020. Each is named as Unicode names it, so that a
//! finding says which character it is and a reader can search for it.
//!
//! To add a character: its row in [`TABLE`], with the kind that decides who reports it
//! (`invisible-character` for the bidirectional and invisible ones, `malformed-shortcode` for
//! a space inside a shortcode).

/// What kind of character nobody sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unseen {
    /// A bidirectional control: text displays in another order than it is stored (the
    /// "Trojan Source" characters that rustc's `text_direction_codepoint_in_literal` names).
    Bidi,
    /// A character with no width: it changes what a word or code is without showing.
    Invisible,
    /// A space other than U+0020: it looks like one, and splits nothing that splits at spaces.
    Space,
}

/// Every character of [`Unseen`], with its kind and Unicode name.
const TABLE: &[(char, Unseen, &str)] = &[
    ('\u{00A0}', Unseen::Space, "NO-BREAK SPACE"),
    ('\u{00AD}', Unseen::Invisible, "SOFT HYPHEN"),
    ('\u{061C}', Unseen::Invisible, "ARABIC LETTER MARK"),
    ('\u{1680}', Unseen::Space, "OGHAM SPACE MARK"),
    ('\u{180E}', Unseen::Invisible, "MONGOLIAN VOWEL SEPARATOR"),
    ('\u{2000}', Unseen::Space, "EN QUAD"),
    ('\u{2001}', Unseen::Space, "EM QUAD"),
    ('\u{2002}', Unseen::Space, "EN SPACE"),
    ('\u{2003}', Unseen::Space, "EM SPACE"),
    ('\u{2004}', Unseen::Space, "THREE-PER-EM SPACE"),
    ('\u{2005}', Unseen::Space, "FOUR-PER-EM SPACE"),
    ('\u{2006}', Unseen::Space, "SIX-PER-EM SPACE"),
    ('\u{2007}', Unseen::Space, "FIGURE SPACE"),
    ('\u{2008}', Unseen::Space, "PUNCTUATION SPACE"),
    ('\u{2009}', Unseen::Space, "THIN SPACE"),
    ('\u{200A}', Unseen::Space, "HAIR SPACE"),
    ('\u{200B}', Unseen::Invisible, "ZERO WIDTH SPACE"),
    ('\u{200C}', Unseen::Invisible, "ZERO WIDTH NON-JOINER"),
    ('\u{200D}', Unseen::Invisible, "ZERO WIDTH JOINER"),
    ('\u{200E}', Unseen::Invisible, "LEFT-TO-RIGHT MARK"),
    ('\u{200F}', Unseen::Invisible, "RIGHT-TO-LEFT MARK"),
    ('\u{2028}', Unseen::Space, "LINE SEPARATOR"),
    ('\u{2029}', Unseen::Space, "PARAGRAPH SEPARATOR"),
    ('\u{202A}', Unseen::Bidi, "LEFT-TO-RIGHT EMBEDDING"),
    ('\u{202B}', Unseen::Bidi, "RIGHT-TO-LEFT EMBEDDING"),
    ('\u{202C}', Unseen::Bidi, "POP DIRECTIONAL FORMATTING"),
    ('\u{202D}', Unseen::Bidi, "LEFT-TO-RIGHT OVERRIDE"),
    ('\u{202E}', Unseen::Bidi, "RIGHT-TO-LEFT OVERRIDE"),
    ('\u{202F}', Unseen::Space, "NARROW NO-BREAK SPACE"),
    ('\u{205F}', Unseen::Space, "MEDIUM MATHEMATICAL SPACE"),
    ('\u{2060}', Unseen::Invisible, "WORD JOINER"),
    ('\u{2061}', Unseen::Invisible, "FUNCTION APPLICATION"),
    ('\u{2062}', Unseen::Invisible, "INVISIBLE TIMES"),
    ('\u{2063}', Unseen::Invisible, "INVISIBLE SEPARATOR"),
    ('\u{2064}', Unseen::Invisible, "INVISIBLE PLUS"),
    ('\u{2066}', Unseen::Bidi, "LEFT-TO-RIGHT ISOLATE"),
    ('\u{2067}', Unseen::Bidi, "RIGHT-TO-LEFT ISOLATE"),
    ('\u{2068}', Unseen::Bidi, "FIRST STRONG ISOLATE"),
    ('\u{2069}', Unseen::Bidi, "POP DIRECTIONAL ISOLATE"),
    ('\u{3000}', Unseen::Space, "IDEOGRAPHIC SPACE"),
    ('\u{FEFF}', Unseen::Invisible, "ZERO WIDTH NO-BREAK SPACE"),
];

/// The kind and name of `c`, when nobody can see it.
pub(crate) fn unseen(c: char) -> Option<(Unseen, &'static str)> {
    // Every character of the table is outside ASCII and below U+10000: most text is skipped
    // by the first test.
    if c.is_ascii() {
        return None;
    }
    TABLE
        .binary_search_by_key(&c, |(t, _, _)| *t)
        .ok()
        .map(|i| (TABLE[i].1, TABLE[i].2))
}

/// `c` as a finding names it: `U+00A0 NO-BREAK SPACE`.
pub(crate) fn describe(c: char) -> String {
    match unseen(c) {
        Some((_, name)) => format!("U+{:04X} {name}", u32::from(c)),
        None => format!("U+{:04X}", u32::from(c)),
    }
}

/// A clause naming the first character of `text` nobody can see, for a message that says the
/// text is not what it should be: ` (it holds U+200B ZERO WIDTH SPACE, which does not show)`.
pub(crate) fn hidden_in(text: &str) -> String {
    find(text)
        .next()
        .map(|(_, c, _)| format!(" (it holds {}, which does not show)", describe(c)))
        .unwrap_or_default()
}

/// Every character nobody can see in `text`, with its byte offset, kind and name.
pub(crate) fn find(text: &str) -> impl Iterator<Item = (usize, char, Unseen)> + '_ {
    // Every character of the table starts with one of six lead bytes in UTF-8: two vectorised
    // byte searches find the places worth decoding, and text between them (most of a chapter,
    // whatever its script) is never walked char by char.
    let bytes = text.as_bytes();
    let mut first = memchr::memchr3_iter(0xC2, 0xE2, 0xEF, bytes).peekable();
    let mut second = memchr::memchr3_iter(0xD8, 0xE1, 0xE3, bytes).peekable();
    std::iter::from_fn(move || match (first.peek(), second.peek()) {
        (Some(&a), Some(&b)) if b < a => second.next(),
        (Some(_), _) => first.next(),
        (None, _) => second.next(),
    })
    .filter_map(move |at| {
        // A lead byte never continues another character, so `at` is a boundary.
        let c = text[at..].chars().next()?;
        unseen(c).map(|(kind, _)| (at, c, kind))
    })
}

/// The lead bytes in UTF-8 of the table's characters, which [`find`] searches for.
#[cfg(test)]
const LEAD_BYTES: [u8; 6] = [0xC2, 0xD8, 0xE1, 0xE2, 0xE3, 0xEF];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_outside_ascii() {
        assert!(TABLE.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(TABLE.iter().all(|(c, _, _)| !c.is_ascii()));
    }

    #[test]
    fn every_character_of_the_table_starts_with_a_searched_lead_byte() {
        for (c, _, name) in TABLE {
            let mut buf = [0; 4];
            let lead = c.encode_utf8(&mut buf).as_bytes()[0];
            assert!(LEAD_BYTES.contains(&lead), "{name} starts with {lead:#X}");
        }
    }

    #[test]
    fn find_gives_every_unseen_character_in_order_among_other_scripts() {
        let text = "a\u{00A0}é’\u{061C}x\u{1680}\u{2028}中\u{3000}\u{FEFF}\u{202E}";
        let found: Vec<(usize, char)> = find(text).map(|(at, c, _)| (at, c)).collect();
        let expected: Vec<(usize, char)> = text
            .char_indices()
            .filter(|(_, c)| unseen(*c).is_some())
            .collect();
        assert_eq!(found, expected);
        assert_eq!(found.len(), 7);
        assert_eq!(find("plain ASCII and é’中 only").count(), 0);
    }

    #[test]
    fn characters_are_named() {
        assert_eq!(describe('\u{00A0}'), "U+00A0 NO-BREAK SPACE");
        assert_eq!(describe('\u{202E}'), "U+202E RIGHT-TO-LEFT OVERRIDE");
        assert_eq!(
            unseen('\u{2066}'),
            Some((Unseen::Bidi, "LEFT-TO-RIGHT ISOLATE"))
        );
        assert_eq!(unseen('a'), None);
        assert_eq!(unseen('\u{00E9}'), None);
        let found: Vec<(usize, char, Unseen)> = find("a\u{200B}b\u{202E}").collect();
        assert_eq!(
            found,
            [
                (1, '\u{200B}', Unseen::Invisible),
                (5, '\u{202E}', Unseen::Bidi)
            ]
        );
    }
}
