//! A whole book from one input: the bytes are split on `0xFF` into one to four chapters, each
//! `FLAGS PATH \n CONTENT`, added to a book with a fixed contract and template chapter and run
//! through the whole pipeline. See `src/lib.rs` for the invariants checked.
//!
//! The flag byte of a chapter: bits 0-1 nest it that many levels under the chapter before;
//! bit 2 makes it a draft (no path); bit 3 puts a separator and bit 4 a part title before it;
//! bit 5 names its file `README.md` in its folder, rendered as `index.md` as mdBook's `index`
//! preprocessor does. Bits 6 and 7 of the first chapter's flags are for the whole book: serve
//! (the live-reload endpoint is set) and on disk (the chapters are written to files and passed
//! through mdBook's own `links` preprocessor first, so the source map, escapes and includes
//! are exercised). A chapter whose path is `rules.md` has the contract role, so its rule
//! markers define rules.

#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mdbook_contract_fuzz as harness;
use mdbook_driver::builtin_preprocessors::LinkPreprocessor;
use mdbook_preprocessor::Preprocessor as _;
use mdbook_preprocessor::book::{Book, BookItem, Chapter};

/// One fuzzed chapter.
struct Piece {
    depth: u8,
    draft: bool,
    separator: bool,
    part: bool,
    readme: bool,
    path: String,
    content: String,
}

fn pieces(data: &[u8]) -> (bool, bool, Vec<Piece>) {
    let mut serve = false;
    let mut on_disk = false;
    let mut out = Vec::new();
    for (i, chunk) in data.splitn(4, |&b| b == 0xFF).enumerate() {
        let (flags, rest) = chunk.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
        if i == 0 {
            serve = flags & 0x40 != 0;
            on_disk = flags & 0x80 != 0;
        }
        let (raw_path, content) = match rest.iter().position(|&b| b == b'\n') {
            Some(n) => (&rest[..n], &rest[n + 1..]),
            None => (&rest[..0], rest),
        };
        let fallback = format!("ch{i}.md");
        let mut path = harness::chapter_path(&String::from_utf8_lossy(raw_path), &fallback);
        let readme = flags & 0x20 != 0;
        if readme {
            path = match path.rsplit_once('/') {
                Some((dir, _)) => format!("{dir}/README.md"),
                None => "README.md".to_owned(),
            };
        }
        out.push(Piece {
            depth: flags & 0x03,
            draft: flags & 0x04 != 0,
            separator: flags & 0x08 != 0,
            part: flags & 0x10 != 0,
            readme,
            path,
            content: String::from_utf8_lossy(content).into_owned(),
        });
    }
    (serve, on_disk, out)
}

/// The list to push a chapter nested `depth` levels under the last chapter into.
fn parent(items: &mut Vec<BookItem>, depth: u8) -> &mut Vec<BookItem> {
    if depth == 0 || !matches!(items.last(), Some(BookItem::Chapter(_))) {
        return items;
    }
    match items.last_mut() {
        Some(BookItem::Chapter(chapter)) => parent(&mut chapter.sub_items, depth - 1),
        _ => unreachable!("the last item is a chapter"),
    }
}

fn items(pieces: &[Piece]) -> Vec<BookItem> {
    let mut items = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        if piece.depth == 0 && piece.separator {
            items.push(BookItem::Separator);
        }
        if piece.depth == 0 && piece.part {
            items.push(BookItem::PartTitle(format!("Part {i}")));
        }
        let name = format!("Chapter {i}");
        let chapter = if piece.draft {
            let mut draft = Chapter::new_draft(&name, Vec::new());
            draft.content = piece.content.clone();
            draft
        } else if piece.readme {
            let mut chapter = harness::chapter(&name, &piece.content, &piece.path);
            let index = Path::new(&piece.path).with_file_name("index.md");
            chapter.path = Some(index);
            chapter
        } else {
            harness::chapter(&name, &piece.content, &piece.path)
        };
        parent(&mut items, piece.depth).push(BookItem::Chapter(chapter));
    }
    items
}

/// Whether the chapters may be written to disk and handed to mdBook's `links`: no way out of
/// the book (`..`, device files) and at most one file directive per chapter, so that nested
/// includes stay linear (mdBook follows them ten deep).
fn safe_on_disk(pieces: &[Piece]) -> bool {
    pieces.iter().all(|p| {
        let c = &p.content;
        !c.contains("..")
            && !c.contains("/dev")
            && !c.contains("/proc")
            && !c.contains("/sys")
            && c.matches("include").count()
                + c.matches("playground").count()
                + c.matches("playpen").count()
                <= 1
    })
}

/// A folder for on-disk books, made once per process and emptied for each input. libFuzzer
/// ends the process without dropping statics, so it is left behind:
/// `rm -rf /tmp/mdbook-contract-fuzz-*` after a run.
fn book_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        tempfile::Builder::new()
            .prefix("mdbook-contract-fuzz-")
            .tempdir()
            .expect("a temporary folder")
    })
    .path()
}

/// Writes every chapter of `book` under `root/src` and replaces its content with what mdBook
/// would hand over: the file without its BOM, after the `links` preprocessor. `None` when the
/// paths cannot be written (a file and a folder of one name, say).
fn through_disk(
    root: &Path,
    book: Book,
    ctx: &mdbook_preprocessor::PreprocessorContext,
) -> Option<Book> {
    let src = root.join("src");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(&src).ok()?;
    for chapter in book.chapters() {
        if let Some(source) = &chapter.source_path {
            let file: PathBuf = src.join(source);
            std::fs::create_dir_all(file.parent()?).ok()?;
            std::fs::write(&file, &chapter.content).ok()?;
        }
    }
    let mut book = book;
    book.for_each_chapter_mut(|chapter| {
        if let Some(rest) = chapter.content.strip_prefix('\u{feff}') {
            chapter.content = rest.to_owned();
        }
    });
    LinkPreprocessor::new().run(ctx, book).ok()
}

fuzz_target!(|data: &[u8]| {
    harness::restart_interrupted_calls();
    let (serve, on_disk, pieces) = pieces(data);
    // A fuzzed chapter at `rules.md` is a contract chapter too: its markers define rules.
    let config = harness::config(&["contract.md", "rules.md"], &["template.md"], serve);
    let book = harness::book_with(items(&pieces));
    if on_disk && safe_on_disk(&pieces) {
        let root = book_dir();
        let ctx = harness::context(root, config);
        if let Some(book) = through_disk(root, book, &ctx) {
            harness::run_and_check(&ctx, book);
        }
    } else {
        let ctx = harness::context(Path::new("/nonexistent"), config);
        harness::run_and_check(&ctx, book);
    }
});
