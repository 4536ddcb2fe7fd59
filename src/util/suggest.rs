//! "Did you mean" for names: the nearest candidate by edit distance, else the one that shares
//! most of its words (`retention-policy` for `retention`, `dead-letters` for `dead-letter`);
//! the same whatever the order of the candidates.

/// The Levenshtein distance between `a` and `b`, counted in characters.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

/// The candidate nearest to `word`, if it is near enough to be what was meant: at most a third
/// of the word's length away (and at least one edit allowed); else the candidate that shares
/// most of its words (split at `-`, `_`, `.` and `/`), when they share at least half the words
/// of the longer of the two (`retention-policy` and `retention`).
pub(crate) fn did_you_mean<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let limit = (word.chars().count() / 3).max(1);
    let mut nearest: Option<(usize, &'a str)> = None;
    let mut prefixed: Option<(usize, &'a str)> = None;
    let mut sharing: Option<((usize, std::cmp::Reverse<usize>), &'a str)> = None;
    let words = words_of(word);
    let length = word.chars().count();
    for candidate in candidates {
        let theirs = words_of(candidate);
        let shared = theirs
            .iter()
            .filter(|w| words.iter().any(|o| o.eq_ignore_ascii_case(w)))
            .count();
        let shares = shared > 0 && shared * 2 >= words.len().max(theirs.len());
        // The distance is at least the difference of the lengths: most candidates are too far
        // for the first reading and share too little for the second, and are never measured
        // (an unknown rule among a few hundred).
        // A renamed id that keeps most of the old one at its start (`charge.idempotent` and
        // `charge.idempotency-key`) is what was meant, more than one that shares a word.
        let prefix = common_prefix(word, candidate);
        let extends = prefix < length || candidate[word.len()..].starts_with(['.', '-', '_', '/']);
        if prefix * 4 >= length * 3
            && prefix > first_segment(word)
            && extends
            && prefixed.is_none_or(|(p, c)| {
                prefix > p || (prefix == p && (candidate.len(), candidate) < (c.len(), c))
            })
        {
            prefixed = Some((prefix, candidate));
        }
        if !shares && length.abs_diff(candidate.chars().count()) > limit {
            continue;
        }
        let distance = edit_distance(word, candidate);
        // Ties go to the smaller name, so the answer never depends on the candidates' order
        // (a set's order differs from one run to the next).
        if distance <= limit && nearest.is_none_or(|(d, c)| (distance, candidate) < (d, c)) {
            nearest = Some((distance, candidate));
        }
        let score = (shared, std::cmp::Reverse(distance));
        if shares
            && sharing.is_none_or(|(best, c)| score > best || (score == best && candidate < c))
        {
            sharing = Some((score, candidate));
        }
    }
    // The whole word, extended (`create.idempotent` of `create.idempotent-by-name`), is
    // nearer in meaning than any other name a few edits away.
    prefixed
        .filter(|&(p, _)| p == length)
        .or(nearest)
        .map(|(_, c)| c)
        .or_else(|| prefixed.map(|(_, c)| c))
        .or_else(|| sharing.map(|(_, c)| c))
}

/// How many characters `a` and `b` share at their start.
fn common_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// How many characters the first segment of `name` (up to its first `.`, `-`, `_` or `/`) has,
/// with that separator.
fn first_segment(name: &str) -> usize {
    name.chars()
        .position(|c| matches!(c, '.' | '-' | '_' | '/'))
        .map_or(name.chars().count(), |i| i + 1)
}

/// The words of a name that can tell two names apart: not a file's extension, which many
/// names share.
fn words_of(name: &str) -> Vec<&str> {
    const EXTENSIONS: &[&str] = &[
        "md", "html", "toml", "yaml", "yml", "json", "txt", "rs", "go",
    ];
    name.split(['-', '_', '.', '/'])
        .filter(|w| !w.is_empty() && !EXTENSIONS.contains(w))
        .collect()
}

/// `" (did you mean `x`?)"`, or nothing.
pub(crate) fn hint<'a, I>(word: &str, candidates: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    did_you_mean(word, candidates).map_or_else(String::new, |c| format!("; did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("readiness", "readiness"), 0);
        assert_eq!(edit_distance("readines", "readiness"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn suggestions_are_near_or_absent() {
        let codes = ["readiness", "create-return", "gc-mark"];
        assert_eq!(did_you_mean("readyness", codes), Some("readiness"));
        assert_eq!(did_you_mean("gc-mrk", codes), Some("gc-mark"));
        assert_eq!(did_you_mean("quota", codes), None);
        // By words, when no candidate is a few edits away.
        let anchors = ["retention", "dead-letter", "r-publish.ack", "closing-table"];
        assert_eq!(did_you_mean("retention-policy", anchors), Some("retention"));
        assert_eq!(did_you_mean("dead-letters", anchors), Some("dead-letter"));
        assert_eq!(did_you_mean("quota-limits", anchors), None);
        assert_eq!(did_you_mean("publish", anchors), None);
        assert_eq!(did_you_mean("closing", anchors), Some("closing-table"));
    }

    #[test]
    fn a_renamed_id_that_keeps_the_old_ones_start_is_meant() {
        let rules = [
            "charge.declined",
            "charge.idempotency-key",
            "refund.partial",
        ];
        assert_eq!(
            did_you_mean("charge.idempotent", rules),
            Some("charge.idempotency-key")
        );
        let rules = ["create.idempotent-by-name", "delete.idempotent"];
        assert_eq!(
            did_you_mean("create.idempotent", rules),
            Some("create.idempotent-by-name")
        );
        // The word itself is no suggestion of a longer name that only shares its first part.
        assert_eq!(
            did_you_mean("create.idempotent", ["create.idempotently"]),
            Some("create.idempotently")
        );
    }

    #[test]
    fn a_tie_is_decided_by_the_name_not_the_order() {
        // Found by the book fuzz target: a page's ids in a set, `check` and the build each
        // suggested another of the equally near `anch-N`.
        let ids = ["anch-8", "anch-5", "anch-6"];
        let mut reversed = ids;
        reversed.reverse();
        assert_eq!(did_you_mean("anchor", ids), Some("anch-5"));
        assert_eq!(did_you_mean("anchor", reversed), Some("anch-5"));
        // The same by words: two names as far from the word, sharing as many of its words.
        let words = ["closing-words", "closing-table"];
        let mut reversed = words;
        reversed.reverse();
        assert_eq!(did_you_mean("closing", words), Some("closing-table"));
        assert_eq!(did_you_mean("closing", reversed), Some("closing-table"));
    }
}
