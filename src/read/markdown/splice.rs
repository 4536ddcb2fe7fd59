//! Edits by byte range: copy the text between replacements, push each replacement once.

use std::borrow::Cow;
use std::ops::Range;

/// One replacement of `range` in a chapter by `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Patch {
    /// The bytes replaced; must lie on character boundaries.
    pub range: Range<usize>,
    /// What they become.
    pub text: String,
}

/// Applies `patches` to `source` in one forward pass.
///
/// Patches must be sorted by start and must not overlap; the caller (the renderer) produces
/// them in document order from non-overlapping shortcodes. With no patch the source comes back
/// borrowed, byte for byte.
pub(crate) fn apply<'a>(source: &'a str, patches: &[Patch]) -> Cow<'a, str> {
    if patches.is_empty() {
        return Cow::Borrowed(source);
    }
    let grown: usize = patches.iter().map(|p| p.text.len()).sum();
    let mut out = String::with_capacity(source.len() + grown);
    let mut copied = 0;
    for patch in patches {
        debug_assert!(
            patch.range.start >= copied,
            "patches overlap or are unsorted"
        );
        out.push_str(&source[copied..patch.range.start]);
        out.push_str(&patch.text);
        copied = patch.range.end;
    }
    out.push_str(&source[copied..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_patch_borrows() {
        assert!(matches!(apply("abc", &[]), Cow::Borrowed("abc")));
    }

    #[test]
    fn patches_replace_only_their_ranges() {
        let patches = [
            Patch {
                range: 0..1,
                text: "A".into(),
            },
            Patch {
                range: 2..2,
                text: "+".into(),
            },
            Patch {
                range: 3..5,
                text: String::new(),
            },
        ];
        assert_eq!(apply("abcdef", &patches), "Ab+cf");
    }
}
