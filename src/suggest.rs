//! "Did you mean" for names: the nearest candidate by edit distance.

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
/// of the word's length away (and at least one edit allowed).
pub(crate) fn did_you_mean<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(word, candidate), candidate))
        .filter(|&(distance, _)| distance <= limit)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, candidate)| candidate)
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
    }
}
