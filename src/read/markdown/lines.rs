use std::ops::Range;

/// Line starts of one text, built once, so that a byte offset becomes a line and a column by
/// binary search.
///
/// Lines are numbered from 1 and columns count characters from 1, as editors and compilers do.
/// A `\r` before a `\n` belongs to the line it ends.
#[derive(Debug, Clone, Default)]
pub(crate) struct LineIndex {
    /// Byte offset of the first byte of each line; strictly increasing, starting at 0.
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the line starts of `text`.
    pub(crate) fn new(text: &str) -> LineIndex {
        let mut starts = Vec::with_capacity(text.len() / 40 + 1);
        starts.push(0);
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// The 1-based line and 1-based character column of `offset` in `text` (the text this index
    /// was built from). An offset past the end is clamped to the end; an offset inside a
    /// multi-byte character counts as that character.
    pub(crate) fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let start = self.starts[line];
        let column = text[start..]
            .char_indices()
            .take_while(|&(i, _)| start + i < offset)
            .count();
        (line + 1, column + 1)
    }

    /// The byte range of the line (1-based) without its line ending.
    pub(crate) fn line_range(&self, text: &str, line: usize) -> Range<usize> {
        let index = line.saturating_sub(1).min(self.starts.len() - 1);
        let start = self.starts[index];
        let mut end = self
            .starts
            .get(index + 1)
            .map_or(text.len(), |&next| next - 1);
        if end > start && text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        start..end.max(start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(text: &str, offset: usize) -> (usize, usize) {
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        (line, column)
    }

    #[test]
    fn agrees_with_a_naive_scan() {
        let text = "ab\r\ncé\n\nx—y\nlast";
        let index = LineIndex::new(text);
        for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
            assert_eq!(
                index.line_col(text, offset),
                naive(text, offset),
                "offset {offset}"
            );
        }
    }

    #[test]
    fn line_starts_crlf_multibyte_and_eof() {
        let text = "a\r\nbé—c\nd";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 0), (1, 1));
        assert_eq!(index.line_col(text, 3), (2, 1));
        // `—` starts after `b` (1 byte) and `é` (2 bytes).
        assert_eq!(index.line_col(text, 6), (2, 3));
        assert_eq!(index.line_col(text, text.len()), (3, 2));
        assert_eq!(index.line_col(text, text.len() + 10), (3, 2));
        assert_eq!(&text[index.line_range(text, 1)], "a");
        assert_eq!(&text[index.line_range(text, 2)], "bé—c");
        assert_eq!(&text[index.line_range(text, 3)], "d");
    }
}
