//! The syntax of rules, shared by the book's markers and the citations in code: an ID
//! (`create.idempotent-by-name`, `config.impl.test_include`), an optional version (`ID+2`),
//! and a marker's metadata in tracey's `key=value` form. A marker is `r[...]` alone on its
//! line, or with another prefix of lowercase letters and digits (`req[...]`, which tracey lets
//! a spec choose), at the start of a line or of a blockquote's line.
//!
//! Parsing here only reads text and says what is wrong with it in a sentence; where the text
//! is and which check reports it is the caller's business.

use std::ops::Range;

/// The metadata keys of tracey that a marker may carry and that this preprocessor keeps but
/// does not interpret, so a chapter written for tracey reads here unchanged.
const TRACEY_KEYS: &[&str] = &["status", "level", "since", "until", "tags"];

/// A rule named with its version: `ID` (version 1) or `ID+N`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Versioned {
    /// The ID.
    pub id: String,
    /// Its version, 1 when no `+N` is written.
    pub version: u32,
}

/// What a marker line `r[...]` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Marker {
    /// The rule and its version.
    pub rule: Versioned,
    /// `applies=PROFILE`: the profile, and its bytes in the text given to [`parse_marker`].
    pub applies: Option<(String, Range<usize>)>,
    /// What is wrong with its metadata, each a sentence and the bytes it is about. The marker
    /// still defines its rule: a typo after the ID does not take the ID away from what cites it.
    pub problems: Vec<(String, Range<usize>)>,
    /// An `applies=` is written but cannot be read: the rule binds nobody until it can.
    pub applies_unread: bool,
}

/// Whether `id` is a rule ID: dot-separated segments of ASCII letters, digits, `_` and `-`,
/// as tracey's and mdbook-spec's IDs are (`config.impl.test_include`, `abi.no_mangle`).
pub(crate) fn is_id(id: &str) -> bool {
    !id.is_empty()
        && id.split('.').all(|segment| {
            !segment.is_empty()
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        })
}

/// How a citation writes rule `id` at `version`: `ID`, or `ID+N` past version 1.
pub(crate) fn cited(id: &str, version: u32) -> String {
    if version > 1 {
        format!("{id}+{version}")
    } else {
        id.to_owned()
    }
}

/// Reads `ID` or `ID+N`.
pub(crate) fn parse_versioned(text: &str) -> Result<Versioned, String> {
    let (id, version) = match text.split_once('+') {
        Some((id, version)) => {
            let number = version
                .parse::<u32>()
                .ok()
                .filter(|n| *n >= 1 && !version.starts_with('+'))
                .ok_or_else(|| {
                    format!("`{text}` has the version `+{version}`; a version is `+` and a whole number from 1, as in `{id}+2`")
                })?;
            (id, number)
        }
        None => (text, 1),
    };
    if !is_id(id) {
        return Err(format!(
            "`{id}` is not a rule ID{}: dot-separated segments of letters, digits, `_` and `-`, as in `section.rule-name`",
            crate::util::unicode::hidden_in(id)
        ));
    }
    Ok(Versioned {
        id: id.to_owned(),
        version,
    })
}

/// Reads the text between `r[` and `]` of a marker: `ID`, `ID+N`, then `key=value` words.
/// An error is a sentence and the bytes of `inner` it is about: a marker without a readable
/// ID, or with a shortcode; what is wrong after the ID is in [`Marker::problems`].
pub(crate) fn parse_marker(inner: &str) -> Result<Marker, (String, Range<usize>)> {
    // The whole line becomes the rendered anchor: a shortcode in it would be rendered twice.
    if let Some(at) = inner.find("{{") {
        return Err((
            "a rule marker holds no shortcode: write the ID and `key=value` words only".to_owned(),
            at..at + 2,
        ));
    }
    let mut words = words(inner);
    let Some((first, first_range)) = words.next() else {
        return Err((
            "an empty rule marker: write the rule's ID, as in `r[section.rule-name]`".to_owned(),
            0..inner.len(),
        ));
    };
    let rule = parse_versioned(first).map_err(|message| (message, first_range))?;
    let mut marker = Marker {
        rule,
        applies: None,
        problems: Vec::new(),
        applies_unread: false,
    };
    for (word, range) in words {
        if let Err(problem) = metadata(&mut marker, word, range.clone()) {
            marker.problems.push((problem, range));
        }
    }
    Ok(marker)
}

/// Takes in one `key=value` word of a marker.
fn metadata(marker: &mut Marker, word: &str, range: Range<usize>) -> Result<(), String> {
    let Some((key, value)) = word.split_once('=') else {
        return Err(format!(
            "`{word}` after the ID is not `key=value`; the one key this preprocessor reads is `applies=PROFILE`"
        ));
    };
    if key == "applies" {
        if marker.applies.is_some() || marker.applies_unread {
            marker.applies = None;
            marker.applies_unread = true;
            return Err("a rule applies to one profile: `applies=` is written twice".to_owned());
        }
        if !crate::read::shortcode::is_code(value) {
            marker.applies_unread = true;
            return Err(format!(
                "`applies={value}` names no profile: a profile is a kebab-case code of its axis's `Profile` table"
            ));
        }
        let start = range.start + key.len() + 1;
        marker.applies = Some((value.to_owned(), start..range.end));
    } else if !TRACEY_KEYS.contains(&key) {
        let hint = crate::util::suggest::hint(
            key,
            ["applies"].into_iter().chain(TRACEY_KEYS.iter().copied()),
        );
        return Err(format!(
            "`{key}=` is not a key of a rule marker{hint}; this preprocessor reads `applies=PROFILE` (and keeps tracey's `status`, `level`, `since`, `until`, `tags`)"
        ));
    }
    Ok(())
}

/// The whitespace-separated words of `text` with their byte ranges.
fn words(text: &str) -> impl Iterator<Item = (&str, Range<usize>)> {
    text.split_ascii_whitespace().map(move |word| {
        // `split_ascii_whitespace` yields subslices of `text`, so the offset is exact.
        let start = word.as_ptr() as usize - text.as_ptr() as usize;
        (word, start..start + word.len())
    })
}

/// A marker line: `PREFIX[...]` alone (trailing whitespace and a carriage return allowed),
/// its prefix of lowercase letters and digits starting with a letter (`r`, or tracey's chosen
/// one, `req`). Its prefix, its inside, and the inside's offset in the line; `None` when the
/// line is not one.
pub(crate) fn marker_line(line: &str) -> Option<(&str, &str, usize)> {
    // The prefix is read first, byte by byte: a line of prose is left at its first word's end,
    // never searched whole for a `[` (every line of a contract chapter comes here).
    let bytes = line.as_bytes();
    let open = bytes
        .iter()
        .position(|b| !(b.is_ascii_lowercase() || b.is_ascii_digit()))?;
    if open == 0 || bytes[open] != b'[' || !bytes[0].is_ascii_lowercase() {
        return None;
    }
    let prefix = &line[..open];
    let line = line.trim_end();
    let inner = line[open + 1..].strip_suffix(']')?;
    // `r[a] and r[b]` is prose, not a marker: mdbook-spec reads no `]` inside.
    (!inner.contains(']')).then_some((prefix, inner, open + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_versions() {
        assert!(is_id("create.idempotent-by-name") && is_id("a") && is_id("a1.b-2.c"));
        // What tracey and mdbook-spec accept: underscores, capitals.
        assert!(is_id("config.impl.test_include") && is_id("abi.no_mangle") && is_id("Create.x"));
        for bad in ["", "a..b", "a.", ".a", "é", "a b", "a/b", "a\u{200B}b"] {
            assert!(!is_id(bad), "{bad}");
        }
        assert_eq!(
            parse_versioned("a.b+3").unwrap(),
            Versioned {
                id: "a.b".into(),
                version: 3
            }
        );
        assert_eq!(parse_versioned("a.b").unwrap().version, 1);
        for bad in ["a.b+", "a.b+0", "a.b+x", "a.b++2", "a.b+-1", "a b+2"] {
            assert!(parse_versioned(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn markers_with_metadata() {
        let marker = parse_marker("create.blocking+2 applies=blocking status=stable").unwrap();
        assert_eq!(marker.rule.id, "create.blocking");
        assert_eq!(marker.rule.version, 2);
        let (profile, range) = marker.applies.unwrap();
        assert_eq!(profile, "blocking");
        assert_eq!(
            &"create.blocking+2 applies=blocking status=stable"[range],
            "blocking"
        );
        // What is wrong after the ID leaves the rule defined, with its problem.
        let marker = parse_marker("x applys=a").unwrap();
        assert_eq!(marker.rule.id, "x");
        let (message, range) = &marker.problems[0];
        assert!(message.contains("did you mean `applies`"), "{message}");
        assert_eq!(*range, 2..10);
        for unread in ["x applies=A", "x applies=a applies=b"] {
            let marker = parse_marker(unread).unwrap();
            assert_eq!(marker.problems.len(), 1, "{unread}");
            assert!(
                marker.applies_unread && marker.applies.is_none(),
                "{unread}"
            );
        }
        assert_eq!(parse_marker("x stray").unwrap().problems.len(), 1);
        assert!(parse_marker("x applies=a").unwrap().problems.is_empty());
        // Without an ID there is no rule.
        assert!(parse_marker("  ").is_err());
        assert!(parse_marker("x..y applies=a").is_err());
        assert!(parse_marker("x.y tags={{#rule`x.y`}}").is_err());
    }

    #[test]
    fn marker_lines() {
        assert_eq!(marker_line("r[a.b]"), Some(("r", "a.b", 2)));
        assert_eq!(marker_line("r[a.b]\r"), Some(("r", "a.b", 2)));
        assert_eq!(marker_line("req[a.b]"), Some(("req", "a.b", 4)));
        assert_eq!(marker_line(" r[a.b]"), None);
        assert_eq!(marker_line("r[a] and r[b]"), None);
        assert_eq!(marker_line("r[a] x"), None);
        assert_eq!(marker_line("R[a]"), None);
        assert_eq!(marker_line("2r[a]"), None);
        assert_eq!(marker_line("[a]"), None);
    }
}
