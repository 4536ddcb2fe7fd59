//! The floor of `scripts/bench.sh`: what any preprocessor pays to speak mdBook's protocol. Reads
//! `[context, book]` from standard input into one buffer, deserialises it with serde_json into
//! mdBook's own types, and writes the book back to standard output, as a preprocessor that
//! changes nothing would. `floor_serde supports RENDERER` exits 0, so mdBook can run it as a
//! preprocessor too (the whole-build benchmark does).

use std::io::{Read, Write};

use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::Book;

fn main() {
    if std::env::args().nth(1).as_deref() == Some("supports") {
        return;
    }
    let mut input = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut input)
        .expect("read standard input");
    let (_ctx, book): (PreprocessorContext, Book) =
        serde_json::from_slice(&input).expect("`[context, book]` on standard input");
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer(&mut stdout, &book).expect("write the book");
    stdout.flush().expect("write the book");
}
