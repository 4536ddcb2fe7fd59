//! A chapter that another preprocessor rewrote before this one (mdbook-spec, admonish, mermaid
//! and the like run in `links`' layer): positions through the difference.
//!
//! What `links` alone makes of the file (`expected`, mapped onto the file as usual) is compared
//! with the content received, with the `similar` crate: lines first, then the characters of
//! each changed stretch of a few lines. Text found in both maps to the file exactly; text only
//! in the content was generated, and is reported at the line it replaced (or was inserted
//! at), saying which preprocessor wrote it, never at a line of its own.

use std::ops::Range;
use std::time::Duration;

use similar::{Algorithm, DiffTag, TextDiff};

use super::{Location, SourceMap};

/// A changed stretch larger than this is not compared character by character (its text is
/// taken as generated), which keeps a diff of a rewritten chapter in milliseconds.
const CHARACTER_DIFF_UP_TO: usize = 8 * 1024;

/// How long a diff may take before `similar` settles for a coarser answer.
const DIFF_DEADLINE: Duration = Duration::from_millis(500);

#[derive(Debug)]
pub(super) struct Rewritten {
    /// What `links` alone makes of the chapter's file.
    expected: String,
    /// `expected` mapped onto the files as written.
    map: SourceMap,
    /// How the content was made of `expected`.
    pieces: Pieces,
    /// The preprocessors that may have rewritten the chapter, as a reader names them.
    by: String,
}

/// How a text (the content) was made of another (expected): cut into pieces, in order, each
/// copied from the other text or generated.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pieces(Vec<Piece>);

#[derive(Debug, Clone)]
struct Piece {
    content: Range<usize>,
    expected: Range<usize>,
    /// Whether the content's text is `expected`'s (else it was generated in its place).
    same: bool,
}

impl Pieces {
    /// How `content` was made of `expected`, to the character.
    pub(crate) fn between(expected: &str, content: &str) -> Pieces {
        Pieces::diff(expected, content, true)
    }

    /// How `content` was made of `expected`, by whole lines: a line changed at all counts as
    /// generated (no character of it is taken for copied by chance).
    pub(crate) fn between_lines(expected: &str, content: &str) -> Pieces {
        Pieces::diff(expected, content, false)
    }

    fn diff(expected: &str, content: &str, characters: bool) -> Pieces {
        let mut pieces = Vec::new();
        let lines = TextDiff::configure()
            .algorithm(Algorithm::Myers)
            .timeout(DIFF_DEADLINE)
            .diff_lines(expected, content);
        let (old, new) = (offsets(lines.old_slices()), offsets(lines.new_slices()));
        for op in lines.ops() {
            let (o, n) = (op.old_range(), op.new_range());
            let expected_range = old[o.start]..old[o.end];
            let content_range = new[n.start]..new[n.end];
            match op.tag() {
                DiffTag::Equal => push(&mut pieces, content_range, expected_range, true),
                // Nothing of the content is there to locate.
                DiffTag::Delete => {}
                DiffTag::Insert => push(&mut pieces, content_range, expected_range, false),
                DiffTag::Replace if !characters => {
                    push(&mut pieces, content_range, expected_range, false);
                }
                DiffTag::Replace => refine(
                    &expected[expected_range.clone()],
                    &content[content_range.clone()],
                    expected_range.start,
                    content_range.start,
                    &mut pieces,
                ),
            }
        }
        Pieces(pieces)
    }

    /// The range of the content that was copied from `range` of `expected`, when all of it was
    /// (an empty range: an insertion point inside or at the edge of copied text).
    pub(crate) fn to_content(&self, range: Range<usize>) -> Option<Range<usize>> {
        self.0
            .iter()
            .filter(|p| p.same)
            .find(|p| p.expected.start <= range.start && range.end <= p.expected.end)
            .map(|p| {
                let shift = |at: usize| p.content.start + (at - p.expected.start);
                shift(range.start)..shift(range.end)
            })
    }

    fn piece(&self, offset: usize) -> Option<&Piece> {
        let i = self.0.partition_point(|p| p.content.start <= offset);
        let piece = self.0.get(i.checked_sub(1)?)?;
        // The end of the content belongs to the last piece.
        (offset < piece.content.end || i == self.0.len()).then_some(piece)
    }
}

/// Adds a piece, merged into the last one when both are copied and follow on in both texts.
fn push(pieces: &mut Vec<Piece>, content: Range<usize>, expected: Range<usize>, same: bool) {
    if let Some(last) = pieces.last_mut()
        && last.same
        && same
        && last.content.end == content.start
        && last.expected.end == expected.start
    {
        last.content.end = content.end;
        last.expected.end = expected.end;
        return;
    }
    pieces.push(Piece {
        content,
        expected,
        same,
    });
}

impl Rewritten {
    pub(super) fn new(content: &str, expected: String, map: SourceMap, by: String) -> Rewritten {
        let pieces = Pieces::between(&expected, content);
        Rewritten {
            expected,
            map,
            pieces,
            by,
        }
    }

    /// The offset in `expected` that content `offset` was copied from, if it was.
    fn expected_offset(&self, offset: usize) -> Option<usize> {
        let piece = self.pieces.piece(offset).filter(|p| p.same)?;
        Some(piece.expected.start + (offset - piece.content.start))
    }

    /// Whether `links` removed a backslash right before content `offset`.
    pub(super) fn backslash_removed_at(&self, offset: usize) -> bool {
        self.expected_offset(offset)
            .is_some_and(|at| self.map.backslash_removed_at(at))
    }

    /// Where `range` of the content was written.
    pub(super) fn locate(&self, range: Range<usize>) -> Location {
        let Some(piece) = self.pieces.piece(range.start) else {
            return self.map.locate(&self.expected, 0..0);
        };
        if piece.same {
            let start = piece.expected.start + (range.start - piece.content.start);
            let len = range
                .len()
                .min(piece.content.end.saturating_sub(range.start));
            return self.map.locate(&self.expected, start..start + len);
        }
        let mut at = self.map.locate(&self.expected, piece.expected.clone());
        let generated = if piece.expected.is_empty() {
            format!(
                "this text was inserted before this place by a preprocessor that ran before this one ({}); it is not in the file",
                self.by
            )
        } else {
            format!(
                "this text was generated in place of the text marked here by a preprocessor that ran before this one ({}); it is not in the file",
                self.by
            )
        };
        at.note = Some(match at.note.take() {
            Some(note) => format!("{generated}; {note}"),
            None => generated,
        });
        at
    }
}

/// Compares a changed stretch character by character, when it is small enough.
fn refine(
    expected: &str,
    content: &str,
    expected_start: usize,
    content_start: usize,
    pieces: &mut Vec<Piece>,
) {
    if expected.len().max(content.len()) > CHARACTER_DIFF_UP_TO {
        push(
            pieces,
            content_start..content_start + content.len(),
            expected_start..expected_start + expected.len(),
            false,
        );
        return;
    }
    let chars = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .timeout(DIFF_DEADLINE)
        .diff_chars(expected, content);
    let (old, new) = (offsets(chars.old_slices()), offsets(chars.new_slices()));
    for op in chars.ops() {
        let (o, n) = (op.old_range(), op.new_range());
        let content = content_start + new[n.start]..content_start + new[n.end];
        let expected = expected_start + old[o.start]..expected_start + old[o.end];
        if !content.is_empty() {
            push(pieces, content, expected, op.tag() == DiffTag::Equal);
        }
    }
}

/// The byte offset where each token starts, and the end.
fn offsets(tokens: &[&str]) -> Vec<usize> {
    let mut at = Vec::with_capacity(tokens.len() + 1);
    let mut sum = 0;
    at.push(0);
    for token in tokens {
        sum += token.len();
        at.push(sum);
    }
    at
}
