//! A chapter that another preprocessor rewrote before this one (mdbook-spec, admonish, mermaid
//! and the like run in `links`' layer): positions through the difference.
//!
//! What `links` alone makes of the file (`expected`, mapped onto the file as usual) is compared
//! with the content received, with the `similar` crate: lines first, then the characters of
//! each changed stretch of a few lines. Text found in both maps to the file exactly; text only
//! in the content was generated, and is reported at the line it replaced (or was inserted
//! at), saying which preprocessor wrote it, never at a line of its own.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffTag, TextDiff, capture_diff_slices_deadline};

use super::{Location, SourceMap};

/// A changed stretch larger than this is not compared character by character (its text is
/// taken as generated), which keeps a diff of a rewritten chapter in milliseconds.
const CHARACTER_DIFF_UP_TO: usize = 1024;

/// How long a diff may take before `similar` settles for a coarser answer.
const DIFF_DEADLINE: Duration = Duration::from_millis(500);

#[derive(Debug)]
pub(super) struct Rewritten {
    /// What `links` alone makes of the chapter's file.
    expected: String,
    /// `expected` mapped onto the files as written.
    map: SourceMap,
    /// How the content was made of `expected`.
    pieces: Arc<Pieces>,
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
    /// How `content` was made of `expected`, to the character. A diff of a chapter that a
    /// preprocessor rewrote at length takes tens of milliseconds; the language server checks
    /// the same chapters again at every keystroke, so the last diffs are kept, by the two
    /// texts' hashes and lengths.
    pub(crate) fn between(expected: &str, content: &str) -> Arc<Pieces> {
        static KEPT: LazyLock<Mutex<HashMap<[u64; 4], Arc<Pieces>>>> =
            LazyLock::new(Mutex::default);
        /// More than a book has rewritten chapters with findings; past it, the cache starts over.
        const KEEP: usize = 1024;
        let hash = |text: &str| {
            let mut hasher = std::hash::DefaultHasher::new();
            text.hash(&mut hasher);
            hasher.finish()
        };
        let key = [
            hash(expected),
            hash(content),
            expected.len() as u64,
            content.len() as u64,
        ];
        let kept = |map: &mut HashMap<_, _>| map.get(&key).cloned();
        if let Some(pieces) = kept(&mut KEPT.lock().unwrap_or_else(|p| p.into_inner())) {
            return pieces;
        }
        let pieces = Arc::new(Pieces::diff(expected, content, true));
        let mut map = KEPT.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= KEEP {
            map.clear();
        }
        map.insert(key, Arc::clone(&pieces));
        pieces
    }

    /// How `content` was made of `expected`, by whole lines: a line changed at all counts as
    /// generated (no character of it is taken for copied by chance).
    pub(crate) fn between_lines(expected: &str, content: &str) -> Pieces {
        Pieces::diff(expected, content, false)
    }

    fn diff(expected: &str, content: &str, characters: bool) -> Pieces {
        let old: Vec<&str> = expected.split_inclusive('\n').collect();
        let new: Vec<&str> = content.split_inclusive('\n').collect();
        let (old_at, new_at) = (offsets(&old), offsets(&new));
        // A line found on one side only cannot be matched: it is left out of the diff, which
        // then runs over the lines the texts share. mdbook-spec appends some 300 KB of
        // generated lines to every chapter; without them the diff takes a millisecond, not 50.
        let in_old: HashSet<&str> = old.iter().copied().collect();
        let in_new: HashSet<&str> = new.iter().copied().collect();
        let old_kept: Vec<usize> = (0..old.len())
            .filter(|&i| in_new.contains(old[i]))
            .collect();
        let new_kept: Vec<usize> = (0..new.len())
            .filter(|&i| in_old.contains(new[i]))
            .collect();
        let old_lines: Vec<&str> = old_kept.iter().map(|&i| old[i]).collect();
        let new_lines: Vec<&str> = new_kept.iter().map(|&i| new[i]).collect();
        let deadline = Instant::now() + DIFF_DEADLINE;
        let ops =
            capture_diff_slices_deadline(Algorithm::Myers, &old_lines, &new_lines, Some(deadline));
        // The lines matched, as line numbers of each side, in order.
        let mut matched: Vec<(usize, usize)> = Vec::new();
        for op in ops.iter().filter(|op| op.tag() == DiffTag::Equal) {
            let (o, n) = (op.old_range(), op.new_range());
            matched.extend(o.zip(n).map(|(a, b)| (old_kept[a], new_kept[b])));
        }
        matched.push((old.len(), new.len()));
        let mut pieces = Vec::new();
        let (mut o, mut n) = (0, 0);
        for (next_o, next_n) in matched {
            // What lies between two matched lines was changed: replaced, put in or taken out.
            let expected_range = old_at[o]..old_at[next_o];
            let content_range = new_at[n]..new_at[next_n];
            if content_range.is_empty() {
                // Nothing of the content is there to locate.
            } else if expected_range.is_empty() || !characters {
                push(&mut pieces, content_range, expected_range, false);
            } else {
                refine(
                    &expected[expected_range.clone()],
                    &content[content_range.clone()],
                    expected_range.start,
                    content_range.start,
                    &mut pieces,
                );
            }
            if next_o < old.len() {
                let line = old_at[next_o]..old_at[next_o + 1];
                push(&mut pieces, new_at[next_n]..new_at[next_n + 1], line, true);
            }
            (o, n) = (next_o + 1, next_n + 1);
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

    /// Where in the content a piece starts or ends at `offset` of `expected`: the place of
    /// whole lines put between two pieces, even next to generated text.
    pub(crate) fn boundary_in_content(&self, offset: usize) -> Option<usize> {
        self.0.iter().find_map(|p| {
            if p.expected.start == offset {
                Some(p.content.start)
            } else if p.expected.end == offset {
                Some(p.content.end)
            } else {
                None
            }
        })
    }

    /// The stretches of `expected` (of `len` bytes) that the content does not copy, each with
    /// the content generated in its place (empty for text taken out), in order.
    pub(crate) fn rewritten(&self, len: usize) -> Vec<(Range<usize>, Range<usize>)> {
        let mut gaps = Vec::new();
        let mut at = 0;
        for piece in self.0.iter().filter(|p| p.same && !p.expected.is_empty()) {
            if piece.expected.start > at {
                gaps.push(at..piece.expected.start);
            }
            at = at.max(piece.expected.end);
        }
        if at < len {
            gaps.push(at..len);
        }
        gaps.into_iter()
            .map(|gap| {
                let generated = self
                    .0
                    .iter()
                    .find(|p| !p.same && p.expected == gap)
                    .map_or(0..0, |p| p.content.clone());
                (gap, generated)
            })
            .collect()
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
