//! The harness shared by the fuzz targets: it puts fuzzed chapters into a small book that has a
//! contract chapter and a template chapter (so the model has axes to resolve against), runs
//! [`mdbook_contract::process`], and checks the invariants every run must keep:
//!
//! - nothing panics, and the pipeline returns `Ok` for a valid configuration;
//! - no finding is an `internal-error` (a panic in a check or a shortcode's rendering, which
//!   the pipeline catches and reports);
//! - every finding has a line and a column of at least 1, and (in these debug-assertion
//!   builds) every range a check reports is on character boundaries;
//! - the book keeps its chapters, in order, with their names and paths;
//! - a chapter without shortcodes or rule markers comes back byte for byte;
//! - a chapter with some differs only inside the byte ranges of its shortcodes and its rules'
//!   marker lines (under `mdbook serve`, after the findings panel at offset 0). The ranges are
//!   those the pipeline's own reading finds ([`fuzzing::patched_ranges`]), since only it
//!   knows which backslashes mdBook's `links` removed (an escape runs to the last `}}` of its
//!   line there, so a scan that does not know them can miss a real shortcode on that line) and
//!   which markers define a rule. [`scan`] runs the scanner on its own, without that
//!   knowledge, and checks its ranges;
//! - [`mdbook_contract::check`] finds what [`mdbook_contract::process`] finds, without
//!   rendering.

use std::ops::Range;
use std::path::{Component, Path, PathBuf};
use std::str::FromStr as _;
use std::sync::{Arc, Mutex};

use mdbook_contract::fuzzing::{self, ChapterIndex, MarkdownOptions, parse_options};
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::{Book, BookItem, Chapter};
use mdbook_preprocessor::config::Config;

/// The contract chapter of every fuzzed book: two axes and the closing table.
pub const CONTRACT: &str = "# Contract

### `readiness` {.axis}

When may a fresh instance serve traffic? It MUST answer `Provider.Get`.

| Profile | Meaning | Obliges | Tolerated by |
|---|---|---|---|
| `immediate` | Running at once | Get answers Running | every caller |
| `provisioning-window` | Provisioning, then Running | Get answers Provisioning | `reconcileManaged` requeues |

### `create-return` {.axis}

| Profile | Meaning | Tolerated by |
|---|---|---|
| `blocking` | once the instance runs | every caller |
| `submit` | once accepted | `reconcileManaged` polls |

## Closing table

{{#axis-table}}
";

/// The template chapter of every fuzzed book: one answer site per axis.
pub const TEMPLATE: &str = "# Template

## Readiness

{{#answers readiness}}

## Create

{{#answers create-return}}
";

/// The start of the findings panel that `mdbook serve` shows (`src/serve.rs`).
const PANEL_START: &str = "<div class=\"mdbook-contract-findings\"";
/// Its end: the panel escapes `<` in what it shows, so its first `</div>` closes it (it ends
/// with the warnings' `</details>` or the errors' `</ul>`).
const PANEL_END: &str = "</div>\n\n";

/// A configuration with the given contract and template chapters; `serving` adds the
/// live-reload endpoint that `mdbook serve` sets.
pub fn config(contract: &[&str], template: &[&str], serving: bool) -> Config {
    let list = |paths: &[&str]| {
        paths
            .iter()
            .map(|p| format!("\"{}\"", p.replace('\\', "\\\\").replace('"', "\\\"")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut toml = format!(
        "[book]\ntitle = \"Fuzz\"\n\n[preprocessor.contract]\ncontract = [{}]\ntemplate = [{}]\n",
        list(contract),
        list(template)
    );
    if serving {
        toml.push_str("\n[output.html]\nlive-reload-endpoint = \"__livereload\"\n");
    }
    Config::from_str(&toml).expect("the fuzz configuration is valid TOML")
}

/// A context for a book at `root` (a folder that need not exist) and the `html` renderer.
pub fn context(root: &Path, config: Config) -> PreprocessorContext {
    PreprocessorContext::new(root.to_path_buf(), config, "html".to_owned())
}

/// A chapter at `path` (also its source path).
pub fn chapter(name: &str, content: &str, path: &str) -> Chapter {
    Chapter::new(name, content.to_owned(), path, Vec::new())
}

/// The parser options the pipeline uses for `config`.
pub fn options(config: &Config) -> MarkdownOptions {
    parse_options(config)
}

/// Runs the pipeline over `book` and checks every invariant; returns the number of findings.
pub fn run_and_check(ctx: &PreprocessorContext, book: Book) -> usize {
    let serving = ctx
        .config
        .get::<String>("output.html.live-reload-endpoint")
        .ok()
        .flatten()
        .is_some();
    let before: Vec<(String, Option<PathBuf>, String)> = all_chapters(&book)
        .into_iter()
        .map(|c| (c.name.clone(), c.path.clone(), c.content.clone()))
        .collect();
    let ranges = patched_ranges(ctx, &book);
    let checked = mdbook_contract::check(ctx, &book, PathBuf::new())
        .unwrap_or_else(|e| panic!("the checks fail on a valid configuration: {e:#}"));
    let outcome = mdbook_contract::process(ctx, book, PathBuf::new())
        .unwrap_or_else(|e| panic!("the pipeline fails on a valid configuration: {e:#}"));
    if checked != outcome.report {
        let only = |a: &mdbook_contract::Report, b: &mdbook_contract::Report| -> Vec<String> {
            a.findings
                .iter()
                .filter(|f| !b.findings.contains(f))
                .map(|f| format!("{f:?}"))
                .collect()
        };
        panic!(
            "`check` and `process` found different things:\nonly check: {:#?}\nonly process: {:#?}",
            only(&checked, &outcome.report),
            only(&outcome.report, &checked)
        );
    }
    for finding in &outcome.report.findings {
        // A check or a shortcode's rendering that panicked is caught and reported as this
        // finding: for the fuzzer it is the crash it is looking for.
        assert!(
            finding.check != "internal-error",
            "a bug was caught: {}",
            finding.message
        );
        let at = &finding.location;
        assert!(
            at.line >= 1 && at.column >= 1,
            "finding at line {} column {}: {finding:?}",
            at.line,
            at.column
        );
    }
    // Every printer must cope with every finding.
    for format in [
        mdbook_contract::Format::Human,
        mdbook_contract::Format::Short,
        mdbook_contract::Format::Json,
        mdbook_contract::Format::Github,
    ] {
        let _ = outcome.report.render(format, false);
    }
    let after = all_chapters(&outcome.book);
    assert_eq!(before.len(), after.len(), "a chapter was lost or added");
    for (((name, path, input), chapter), ranges) in before.iter().zip(after).zip(&ranges) {
        assert_eq!(name, &chapter.name, "a chapter was renamed");
        assert_eq!(path, &chapter.path, "a chapter moved");
        let output = chapter.content.as_str();
        let checked = changed_only_in(input, output, ranges);
        // Under serve, a chapter with findings starts with the panel. The panel escapes `<`, so
        // its first `PANEL_END` is its end; the input may start like a panel too, so the
        // output is also compared as it is.
        let checked = match output.strip_prefix(PANEL_START) {
            Some(rest) if serving && checked.is_err() => {
                let end = rest.find(PANEL_END).expect("the findings panel is closed");
                let after = &rest[end + PANEL_END.len()..];
                changed_only_in(input, after, ranges).or(checked)
            }
            _ => checked,
        };
        if let Err(message) = checked {
            panic!("{name}: {message}\ninput: {input:?}\noutput: {output:?}");
        }
    }
    outcome.report.findings.len()
}

/// Every chapter of `book` in document order, drafts included ([`Book::chapters`] skips them,
/// but a draft may have content, and then it is read and rendered too).
fn all_chapters(book: &Book) -> Vec<&Chapter> {
    book.iter()
        .filter_map(|item| match item {
            BookItem::Chapter(chapter) => Some(chapter),
            _ => None,
        })
        .collect()
}

/// The byte ranges rendering may change in every chapter of `book` (in [`all_chapters`]
/// order), as the pipeline reads them; empty for a draft without content, which it does not
/// read.
fn patched_ranges(ctx: &PreprocessorContext, book: &Book) -> Vec<Vec<Range<usize>>> {
    let read = fuzzing::patched_ranges(ctx, book).expect("the chapters are read");
    let mut read = read.into_iter();
    all_chapters(book)
        .into_iter()
        .map(|c| {
            if !fuzzing::is_read(c) {
                return Vec::new();
            }
            read.next()
                .expect("a read chapter for each chapter with content")
        })
        .collect()
}

/// Parses `text` and scans it for shortcodes, checking that every range the scan reports lies
/// in the text, on character boundaries, in order and without overlap.
pub fn scan(text: &str, options: &MarkdownOptions) -> fuzzing::Scan {
    let index = ChapterIndex::parse(text, options);
    let scan = fuzzing::scan(text, &index, &|_| false);
    let mut end = 0;
    for s in &scan.shortcodes {
        assert!(s.range.start >= end, "shortcodes overlap: {:?}", scan);
        assert!(text.get(s.range.clone()).is_some(), "bad range {s:?}");
        for arg in s.kind.args() {
            assert!(
                arg.range.start >= s.range.start && arg.range.end <= s.range.end,
                "an argument outside its shortcode: {s:?}"
            );
            assert!(text.get(arg.range.clone()).is_some(), "bad range {arg:?}");
        }
        end = s.range.end;
    }
    for m in &scan.malformed {
        assert!(text.get(m.range.clone()).is_some(), "bad range {m:?}");
    }
    for f in &scan.foreign {
        assert!(text.get(f.range.clone()).is_some(), "bad range {f:?}");
    }
    scan
}

/// Whether `output` equals `input` outside `ranges` (sorted, not overlapping): a chapter
/// without any must be returned unchanged; otherwise the text between the ranges must appear
/// in order, the text before the first as a prefix and after the last as a suffix.
pub fn changed_only_in(input: &str, output: &str, ranges: &[Range<usize>]) -> Result<(), String> {
    let fail = |message: &str| Err(message.to_owned());
    if ranges.is_empty() {
        return if input == output {
            Ok(())
        } else {
            fail("a chapter without shortcodes or rule markers changed")
        };
    }
    let mut pieces = Vec::new();
    let mut at = 0;
    for range in ranges {
        assert!(range.start >= at, "shortcodes overlap: {ranges:?}");
        pieces.push(&input[at..range.start]);
        at = range.end;
    }
    pieces.push(&input[at..]);
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !output.starts_with(first) {
        return fail("the text before the first shortcode changed");
    }
    if !output.ends_with(last) {
        return fail("the text after the last shortcode changed");
    }
    if output.len() < first.len() + last.len() {
        return fail("the output is shorter than the text around the shortcodes");
    }
    let mut cursor = first.len();
    let limit = output.len() - last.len();
    for piece in &pieces[1..pieces.len() - 1] {
        let Some(found) = output[cursor..limit].find(piece) else {
            return fail("text between shortcodes was lost");
        };
        cursor += found + piece.len();
    }
    Ok(())
}

/// Turns fuzzed bytes into a chapter path relative to `src`: `/`-separated components, none
/// empty, `.` or `..` (so nothing points out of the book), no NUL, at most four folders deep.
pub fn chapter_path(raw: &str, fallback: &str) -> String {
    let parts: Vec<String> = Path::new(raw)
        .components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_string_lossy().replace('\0', "")),
            _ => None,
        })
        .filter(|p| !p.is_empty() && p != "." && p != "..")
        .map(|p| p.chars().take(40).collect::<String>())
        .take(5)
        .collect();
    if parts.is_empty() {
        fallback.to_owned()
    } else {
        parts.join("/")
    }
}

/// Wraps `chapter` in a book with the contract and template chapters.
pub fn book_with(items: Vec<BookItem>) -> Book {
    let mut book = Book::new();
    book.push_item(BookItem::Chapter(chapter(
        "Contract",
        CONTRACT,
        "contract.md",
    )));
    book.push_item(BookItem::Chapter(chapter(
        "Template",
        TEMPLATE,
        "template.md",
    )));
    for item in items {
        book.push_item(item);
    }
    book
}

/// Lets a system call that libFuzzer's timer interrupts go on, as it would in the binary.
///
/// libFuzzer's `-timeout` is a SIGALRM every second, its handler installed without
/// `SA_RESTART`, so a blocking call it interrupts fails with EINTR; the standard library retries
/// reads and writes, but not `open` (a diff's `File::create` failed so, a false crash). The
/// binary never gets that signal. Targets that write files or run processes call this on
/// every input; it is cheap and idempotent.
pub fn restart_interrupted_calls() {
    // SAFETY: `sigaction` is called with valid pointers to a zeroed, then filled, struct; the
    // handler libFuzzer installed is kept as it is, with `SA_RESTART` added to its flags.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGALRM, std::ptr::null(), &mut action) == 0
            && action.sa_flags & libc::SA_RESTART == 0
        {
            action.sa_flags |= libc::SA_RESTART;
            libc::sigaction(libc::SIGALRM, &action, std::ptr::null_mut());
        }
    }
}

/// A server's output: cloned into the server as its writer, read by the target once the
/// server is done.
#[derive(Clone, Default)]
pub struct Output(Arc<Mutex<Vec<u8>>>);

impl Output {
    /// What was written so far, taken out.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

impl std::io::Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
