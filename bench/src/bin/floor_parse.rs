//! The second floor of `scripts/bench.sh`: [`floor_serde`](floor_serde.rs) plus one
//! pulldown-cmark parse of every chapter with mdBook's parser and default options, the iterator
//! drained with byte offsets. A preprocessor that reads the Markdown cannot do less.

use std::io::{Read, Write};

use mdbook_markdown::{MarkdownOptions, new_cmark_parser};
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::Book;

fn main() {
    let mut input = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut input)
        .expect("read standard input");
    let (_ctx, book): (PreprocessorContext, Book) =
        serde_json::from_slice(&input).expect("`[context, book]` on standard input");
    let options = MarkdownOptions::default();
    let mut events = 0usize;
    for chapter in book.chapters() {
        for (_event, range) in new_cmark_parser(&chapter.content, &options).into_offset_iter() {
            events += 1;
            std::hint::black_box(range);
        }
    }
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer(&mut stdout, &book).expect("write the book");
    stdout.flush().expect("write the book");
    std::hint::black_box(events);
}
