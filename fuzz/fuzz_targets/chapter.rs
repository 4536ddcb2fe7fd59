//! One arbitrary chapter (the input as lossy UTF-8) in a small book with a fixed contract and
//! template chapter: parsed and scanned directly, then run through the whole pipeline twice,
//! once as an ordinary chapter and once with the contract role. See `src/lib.rs` for the
//! invariants checked.

#![no_main]

use libfuzzer_sys::fuzz_target;
use mdbook_contract_fuzz as harness;
use mdbook_preprocessor::book::BookItem;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let root = Path::new("/nonexistent");

    // The parser and the scanner on their own, with mdBook's default options.
    let config = harness::config(&["contract.md"], &["template.md"], false);
    let _ = harness::scan(&text, &harness::options(&config));

    // An ordinary chapter in a folder, next to the contract and the template.
    let book = harness::book_with(vec![BookItem::Chapter(harness::chapter(
        "Fuzzed",
        &text,
        "fuzz/chapter.md",
    ))]);
    harness::run_and_check(&harness::context(root, config), book);

    // The same chapter as a second contract chapter: axes, MUST and forbidden terms apply.
    let config = harness::config(&["contract.md", "fuzz/chapter.md"], &["template.md"], false);
    let book = harness::book_with(vec![BookItem::Chapter(harness::chapter(
        "Fuzzed",
        &text,
        "fuzz/chapter.md",
    ))]);
    harness::run_and_check(&harness::context(root, config), book);
});
