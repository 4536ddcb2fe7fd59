//! A matrix of bad and unusual input. Every case runs the real `mdbook-contract` binary (through
//! mdBook's JSON protocol, as mdBook runs it, or as `mdbook-contract check`) on a fixture book
//! and asserts the exit code, what the user is told (the message and its `file:line:col`), that
//! no chapter is lost, and that nothing panics or hangs (every run has a deadline).
//!
//! The file proves that
//!
//! - huge input completes and round-trips: a chapter of tens of megabytes, a 10 MB line, 10,000
//!   nested lists and 10,000 nested blockquotes;
//! - broken and unusual text is reported at the right place: a shortcode left open at the end of
//!   a file, a BOM, CRLF line endings, tabs, NUL bytes, right-to-left and combining characters;
//! - an unusual book comes through whole: drafts, part titles and separators in SUMMARY.md, a
//!   chapter that is nothing but a shortcode;
//! - an unusual source tree gets a clear message or a correct result: a `source-root` that does
//!   not exist or is a file, a symlink loop, a symbol file that is not UTF-8.
//!
//! What `protocol.rs` already covers is not repeated here: empty, malformed and truncated
//! JSON, invalid UTF-8 on standard input, mdBook 0.4 and 0.6 hosts, a version that is not
//! semver, unknown and wrongly typed configuration keys, and byte-exact output for chapters
//! without shortcodes (CRLF, BOM and tabs included).

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Fixture, binary, contract_book};
use mdbook_preprocessor::book::{Book, BookItem};

/// How long one run of the binary may take before it counts as a hang. Generous, for debug
/// builds on a busy machine; the slowest case here takes a few seconds.
const DEADLINE: Duration = Duration::from_secs(120);

/// What a run of the binary left behind.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// Asserts the marks of a controlled outcome: no panic message, no backtrace hint.
    fn assert_no_panic(&self) {
        for output in [&self.stdout, &self.stderr] {
            assert!(!output.contains("panicked"), "a panic: {}", self.stderr);
            assert!(
                !output.contains("RUST_BACKTRACE"),
                "a panic: {}",
                self.stderr
            );
        }
    }

    /// The book the protocol printed on standard output.
    fn book(&self) -> Book {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "standard output is a book ({e}); stderr: {}",
                head(&self.stderr)
            )
        })
    }
}

/// The first 2,000 characters of `text`, for assertion messages about huge output.
fn head(text: &str) -> &str {
    let end = text
        .char_indices()
        .nth(2_000)
        .map_or(text.len(), |(i, _)| i);
    &text[..end]
}

/// Runs the binary with `args` in `dir`, `stdin` on its standard input, and fails the test if
/// it does not finish within [`DEADLINE`] or ends by a signal (a stack overflow aborts).
fn run(dir: &Path, args: &[&str], stdin: Vec<u8>) -> Run {
    let mut child = Command::new(binary())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the mdbook-contract binary starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&stdin);
    });
    let mut out = child.stdout.take().expect("stdout is piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = out.read_to_end(&mut bytes);
        bytes
    });
    let mut err = child.stderr.take().expect("stderr is piped");
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = err.read_to_end(&mut bytes);
        bytes
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mdbook-contract {args:?} hung: still running after {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    writer.join().expect("the stdin writer finishes");
    let stdout = reader.join().expect("the stdout reader finishes");
    let stderr = err_reader.join().expect("the stderr reader finishes");
    let stderr = String::from_utf8(stderr).expect("standard error is UTF-8");
    let code = status
        .code()
        .unwrap_or_else(|| panic!("ended by a signal ({status}), not an exit code: {stderr}"));
    Run {
        code,
        stdout: String::from_utf8(stdout).expect("standard output is UTF-8"),
        stderr,
    }
}

/// Runs the protocol over the book at `root`, as mdBook hands it over for `html`.
fn protocol(root: &Path) -> (Book, Run) {
    let (ctx, book) = mdbook_contract::load(root, "html").expect("the fixture loads");
    let input = serde_json::to_vec(&(&ctx, &book)).expect("the input serialises");
    let run = run(root, &[], input);
    run.assert_no_panic();
    (book, run)
}

/// Runs `mdbook-contract check . --format short` in the book at `root`.
fn check(root: &Path) -> Run {
    let run = run(root, &["check", ".", "--format", "short"], Vec::new());
    run.assert_no_panic();
    run
}

/// The content of the chapter read from `src/<path>`.
fn content_of(book: &Book, path: &str) -> String {
    book.chapters()
        .find(|c| {
            c.source_path
                .as_ref()
                .is_some_and(|p| p.to_string_lossy().replace('\\', "/") == path)
        })
        .map(|c| c.content.clone())
        .unwrap_or_else(|| panic!("the book has a chapter `{path}`"))
}

/// The contract book plus the chapter `src/<path>` holding `content`.
fn book_with(path: &str, content: &str) -> Fixture {
    let mut files = contract_book();
    let path = format!("src/{path}");
    files.push((&path, content));
    Fixture::new(&files)
}

/// The link `{{#axis readiness}}` renders to from a chapter in `src/`.
const READINESS_LINK: &str = "[`readiness`](contract.md#readiness)";

/// Asserts that `output` is `input` with every `{{#axis readiness}}` replaced by its link.
fn assert_only_links_rendered(input: &str, output: &str) {
    let expected = input.replace("{{#axis readiness}}", READINESS_LINK);
    assert!(
        output == expected,
        "the chapter changed outside its shortcodes (lengths {} and {}); first difference at \
         byte {:?}",
        output.len(),
        expected.len(),
        output
            .bytes()
            .zip(expected.bytes())
            .position(|(a, b)| a != b)
    );
}

/// The short-format line of the finding of `check` at `at` (`src/x.md:1:2`), if any.
fn finding<'a>(stdout: &'a str, at: &str, check: &str) -> Option<&'a str> {
    stdout
        .lines()
        .find(|l| l.starts_with(&format!("{at}: ")) && l.contains(&format!("[{check}]")))
}

/// Asserts that `check` printed the finding of `check` at `at`, and that it says `message`.
fn assert_finding(run: &Run, at: &str, check: &str, message: &str) {
    let line = finding(&run.stdout, at, check).unwrap_or_else(|| {
        panic!(
            "no {check} finding at {at} in:\n{}{}",
            head(&run.stdout),
            head(&run.stderr)
        )
    });
    assert!(line.contains(message), "{line}");
}

// 1. size

/// Prose, headings, a list, a table, code and escapes: every kind of block, repeated, with no
/// shortcode (so the chapter must come back byte for byte) and no finding.
const BLOCK: &str = "## A section about readiness\n\n\
    Some *prose* with `code`, a [link](#a-section-about-readiness) and an escaped \\{{#axis x}}.\n\n\
    - an item\n  - a nested item\n\n\
    | a | b |\n|---|---|\n| c | d |\n\n\
    ```text\n{{#axis not-expanded-in-code}}\n```\n\n";

/// A chapter of at least `bytes` bytes made of [`BLOCK`]s.
fn large_chapter(bytes: usize) -> String {
    let mut text = String::from("# Large\n\n");
    while text.len() < bytes {
        text.push_str(BLOCK);
    }
    text
}

/// Runs a chapter of `bytes` bytes through the protocol and asserts it comes back unchanged.
fn assert_large_chapter_round_trips(bytes: usize) {
    let text = large_chapter(bytes);
    let fixture = book_with("large.md", &text);
    let (input, run) = protocol(fixture.root());
    assert_eq!(run.code, 0, "{}", head(&run.stderr));
    let output = run.book();
    assert_eq!(
        output.chapters().count(),
        input.chapters().count(),
        "no chapter lost"
    );
    // mdBook's `links` removed the backslash of the escape; that is what must round-trip.
    let handed_over = content_of(&input, "large.md");
    assert!(
        handed_over.len() > bytes / 100 * 99,
        "{} bytes handed over",
        handed_over.len()
    );
    assert!(
        content_of(&output, "large.md") == handed_over,
        "the large chapter changed"
    );
    assert!(
        run.stderr.starts_with(
            "warning[unknown-claim]: the profile of `vms` on axis `create-return` is not verified yet\n  --> src/appendix/existing.md:16:48\n"
        ),
        "only the fixture's own warning: {}",
        head(&run.stderr)
    );
    assert!(
        run.stderr.ends_with("\nmdbook-contract: 1 warning\n"),
        "{}",
        head(&run.stderr)
    );
    assert!(!run.stderr.contains("large.md"), "{}", head(&run.stderr));
}

/// A chapter of 20 MB through the protocol. The 100 MB case below took 79 s in a debug build
/// (the JSON and the Markdown parser are unoptimised there), more than the ~60 s a test of
/// `cargo test` may take, so it is `#[ignore]`d; 20 MB exercises the same code in about 13 s.
/// (Before the fix in `src/markdown/ids.rs`, the repeated heading made this hang: see
/// `regressions.rs`.)
#[test]
fn a_chapter_of_20_mb_round_trips() {
    assert_large_chapter_round_trips(20_000_000);
}

/// A chapter of 100 MB through the protocol (8 s in release). Run it with:
///
/// ```sh
/// cargo test --release --test bad_input -- --ignored a_chapter_of_100_mb_round_trips
/// ```
#[test]
#[ignore = "100 MB takes over a minute in a debug build; run in release, see the doc comment"]
fn a_chapter_of_100_mb_round_trips() {
    assert_large_chapter_round_trips(100_000_000);
}

#[test]
fn a_line_of_10_mb_is_located_by_character_column() {
    let prefix = "word ".repeat(2_000_000);
    let text = format!("{prefix}{{{{#axis nope}}}} and {{{{#axis readiness}}}}");
    assert!(text.len() > 10_000_000);
    let fixture = book_with("line.md", &text);

    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}", head(&run.stderr));
    // An unknown axis is reported at its code, after the 8 characters of `{{#axis `.
    let at = format!("src/line.md:1:{}", prefix.len() + 9);
    assert_finding(&run, &at, "unknown-axis", "`nope`");

    // Through the protocol, the error fails the run and the human report is printed; a valid
    // shortcode on the same line renders and the rest of the line is kept.
    let (_, run) = protocol(fixture.root());
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "", "no book after an error");
    assert!(run.stderr.contains(&at), "{}", head(&run.stderr));
    assert!(run.stderr.contains("error[unknown-axis]"));

    let valid = format!("{prefix}{{{{#axis readiness}}}}");
    let fixture = book_with("line.md", &valid);
    let (_, run) = protocol(fixture.root());
    assert_eq!(run.code, 0, "{}", head(&run.stderr));
    assert_only_links_rendered(&valid, &content_of(&run.book(), "line.md"));
}

// 2. depth

/// A chapter whose last line opens `depth` containers with `opener` before a shortcode.
fn nested(opener: &str, depth: usize, tail: &str) -> String {
    format!("# Deep\n\n{}{tail}\n\nAfter.\n", opener.repeat(depth))
}

#[test]
fn ten_thousand_nested_lists() {
    let text = nested("- ", 10_000, "{{#axis readiness}}");
    let fixture = book_with("lists.md", &text);
    let (input, run) = protocol(fixture.root());
    assert_eq!(run.code, 0, "{}", head(&run.stderr));
    let output = run.book();
    assert_eq!(output.chapters().count(), input.chapters().count());
    assert_only_links_rendered(&text, &content_of(&output, "lists.md"));

    let bad = nested("- ", 10_000, "{{#axis nope}}");
    let fixture = book_with("lists.md", &bad);
    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_finding(&run, "src/lists.md:3:20009", "unknown-axis", "`nope`");
}

#[test]
fn ten_thousand_nested_blockquotes() {
    let text = nested(">", 10_000, " {{#axis readiness}}");
    let fixture = book_with("quotes.md", &text);
    let (input, run) = protocol(fixture.root());
    assert_eq!(run.code, 0, "{}", head(&run.stderr));
    let output = run.book();
    assert_eq!(output.chapters().count(), input.chapters().count());
    assert_only_links_rendered(&text, &content_of(&output, "quotes.md"));

    let bad = nested("> ", 10_000, "{{#axis nope}}");
    let fixture = book_with("quotes.md", &bad);
    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_finding(&run, "src/quotes.md:3:20009", "unknown-axis", "`nope`");
}

// 3. text

#[test]
fn a_shortcode_left_open_at_the_end_of_a_file() {
    let fixture = book_with("open.md", "# Open\n\nSee {{#axis readiness");
    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_finding(
        &run,
        "src/open.md:3:5",
        "malformed-shortcode",
        "`{{#axis` has no closing `}}` on its line",
    );

    // Through the protocol the run fails with the same message, and nothing is printed on
    // standard output.
    let (_, run) = protocol(fixture.root());
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("error[malformed-shortcode]"));
    assert!(run.stderr.contains("src/open.md:3:5"), "{}", run.stderr);
}

#[test]
fn a_bom_is_not_counted_in_columns() {
    let text = "\u{feff}See {{#axis nope}} on line 1.\n\nAnd {{#axis readiness}} on line 3.\n";
    let fixture = book_with("bom.md", text);
    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}", run.stderr);
    // `nope` is the 13th character of the line as the author sees it: the BOM is not one.
    assert_finding(&run, "src/bom.md:1:13", "unknown-axis", "`nope`");
    assert_eq!(
        run.stdout.matches("src/bom.md").count(),
        1,
        "the valid shortcode on line 3 resolves: {}",
        run.stdout
    );

    // mdBook strips the BOM; the rest comes back with only the valid shortcode rendered.
    let text = "\u{feff}See {{#axis readiness}}.\n";
    let fixture = book_with("bom.md", text);
    let (_, run) = protocol(fixture.root());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_only_links_rendered(&text[3..], &content_of(&run.book(), "bom.md"));
}

#[test]
fn crlf_positions_and_bytes() {
    let text =
        "# CRLF\r\n\r\nFirst {{#axis readiness}} line.\r\n\r\n- item\r\n- item {{#axis nope}}\r\n";
    let fixture = book_with("crlf.md", text);
    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_finding(&run, "src/crlf.md:6:16", "unknown-axis", "`nope`");

    let good = text.replace("nope", "readiness");
    let fixture = book_with("crlf.md", &good);
    let (_, run) = protocol(fixture.root());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let output = content_of(&run.book(), "crlf.md");
    assert_only_links_rendered(&good, &output);
    assert_eq!(output.matches("\r\n").count(), 6, "CRLF kept: {output:?}");
}

#[test]
fn tabs_count_as_one_column() {
    // A tab is one character of the line, wherever its tab stop is; a line indented by a tab
    // after a blank line is a code block, where nothing is expanded.
    let text = "a\tb\t{{#axis nope}}\n\n\t{{#axis nope}} is code\n\n-\titem\t{{#axis nope}}\n";
    let fixture = book_with("tabs.md", text);
    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_finding(&run, "src/tabs.md:1:13", "unknown-axis", "`nope`");
    assert_finding(&run, "src/tabs.md:5:16", "unknown-axis", "`nope`");
    assert_eq!(
        run.stdout.matches("src/tabs.md").count(),
        2,
        "nothing in the code block: {}",
        run.stdout
    );
}

#[test]
fn nul_bytes_are_kept_and_skipped_in_positions() {
    let text = "# N\0L\n\na\0b {{#axis nope}}\0\n";
    let fixture = book_with("nul.md", text);
    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_finding(&run, "src/nul.md:3:13", "unknown-axis", "`nope`");

    let good = text.replace("nope", "readiness");
    let fixture = book_with("nul.md", &good);
    let (_, run) = protocol(fixture.root());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let output = content_of(&run.book(), "nul.md");
    assert_only_links_rendered(&good, &output);
    assert_eq!(output.matches('\0').count(), 3);
}

/// A contract whose axis headings hold right-to-left text and combining characters.
const RTL_CONTRACT: &str = "# Contract

### `readiness` \u{5e9}\u{5dc}\u{5d5}\u{5dd} {.axis}

| Profile | Meaning | Tolerated by |
|---|---|---|
| `immediate` | at once | every caller |

### `create-return` \u{645}\u{631}\u{62d}\u{628}\u{627} e\u{301}te\u{301} \u{915}\u{94d}\u{937} {.axis}

| Profile | Meaning | Tolerated by |
|---|---|---|
| `blocking` | once it runs | every caller |

{{#axis-table}}
";

/// The ids of the headings in the `<main>` of a rendered page, in order.
fn heading_ids(html: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let main = html.split("<main>").nth(1).expect("the page has a <main>");
    let mut rest = main.split("</main>").next().unwrap_or_default();
    while let Some(at) = rest.find("<h") {
        rest = &rest[at + 2..];
        if !rest.starts_with(|c: char| ('1'..='6').contains(&c)) {
            continue;
        }
        let tag_end = rest.find('>').unwrap_or(rest.len());
        if let Some(id) = rest[..tag_end].split("id=\"").nth(1) {
            ids.push(id.split('"').next().unwrap_or_default().to_owned());
        }
    }
    ids
}

#[test]
fn right_to_left_and_combining_characters_in_headings() {
    let links = "See {{#axis readiness}} and {{#axis create-return}}.\n\n\
                 \u{5e9}\u{5dc}\u{5d5}\u{5dd} e\u{301} {{#axis nope}}\n";
    let fixture = Fixture::new(&[
        ("src/contract.md", RTL_CONTRACT),
        ("src/template.md", crate::common::TEMPLATE),
        ("src/links.md", links),
    ]);
    // The unknown axis is found at its column in characters: four Hebrew letters, a space, an
    // `e` and a combining accent, a space, then `{{#axis ` before the code.
    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_finding(&run, "src/links.md:3:17", "unknown-axis", "`nope`");
    assert_eq!(
        run.stdout.lines().count(),
        2,
        "the links resolve and no dangling-link fires (one finding and the count): {}",
        run.stdout
    );

    // mdBook gives the headings the ids the rendered links point at.
    let fixed = links.replace("{{#axis nope}}", "");
    std::fs::write(fixture.root().join("src/links.md"), &fixed).expect("the chapter is written");
    let (built, out) = fixture.build();
    built.expect("the book builds");
    let ids = heading_ids(&fixture.html(&out, "contract.html"));
    let readiness = "readiness-\u{5e9}\u{5dc}\u{5d5}\u{5dd}";
    // Combining marks (the acute accents, the Devanagari virama) are not alphanumeric: mdBook
    // drops them from ids, and so must the links.
    let create = "create-return-\u{645}\u{631}\u{62d}\u{628}\u{627}-ete-\u{915}\u{937}";
    assert_eq!(ids, ["contract", readiness, create], "mdBook's ids");
    let html = fixture.html(&out, "links.html");
    for id in [readiness, create] {
        assert!(
            html.contains(&format!("href=\"contract.html#{id}\"")),
            "the link to `{id}` in {html}"
        );
    }
}

// 4. book structure

/// A SUMMARY.md with a prefix chapter, part titles, separators and drafts.
const SUMMARY: &str = "# Summary

[Intro](intro.md)

---

# Part one

- [Contract](contract.md)
- [A draft]()
- [Template](template.md)
  - [A nested draft]()

---

# Part two

- [Appendix](appendix/existing.md)

---

[Outro](outro.md)
";

#[test]
fn drafts_part_titles_and_separators_are_kept() {
    let mut files = contract_book();
    files.extend([
        ("src/SUMMARY.md", SUMMARY),
        ("src/intro.md", "# Intro\n\nSee {{#axis readiness}}.\n"),
        ("src/outro.md", "# Outro\n"),
    ]);
    let fixture = Fixture::new(&files);
    let (input, run) = protocol(fixture.root());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("warning[unknown-claim]"),
        "the checks ran: {}",
        run.stderr
    );
    let output = run.book();

    let shape = |book: &Book| -> Vec<String> {
        book.iter()
            .map(|item| match item {
                BookItem::Chapter(c) => format!("chapter {} {:?}", c.name, c.path),
                BookItem::Separator => "separator".to_owned(),
                BookItem::PartTitle(title) => format!("part {title}"),
            })
            .collect()
    };
    let (before, after) = (shape(&input), shape(&output));
    assert_eq!(before, after, "the same items in the same order");
    assert_eq!(
        before.iter().filter(|i| i.starts_with("chapter")).count(),
        7,
        "five chapters and two drafts: {before:?}"
    );
    assert_eq!(before.iter().filter(|i| *i == "separator").count(), 3);
    assert_eq!(before.iter().filter(|i| i.starts_with("part ")).count(), 2);
    assert_eq!(
        output
            .iter()
            .filter(|i| matches!(i, BookItem::Chapter(c) if c.is_draft_chapter()))
            .count(),
        2,
        "the drafts are still drafts"
    );
    assert_only_links_rendered(
        &content_of(&input, "intro.md"),
        &content_of(&output, "intro.md"),
    );
    assert!(content_of(&output, "appendix/existing.md").contains("(../contract.md#readiness)"));

    let run = check(fixture.root());
    assert_eq!(run.code, 0, "{}", run.stdout);
}

#[test]
fn a_chapter_that_is_only_a_shortcode() {
    let fixture = book_with("table.md", "{{#axis-table}}");
    let (_, run) = protocol(fixture.root());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let table = content_of(&run.book(), "table.md");
    assert!(
        table.starts_with("<div class=\"contract-table\">\n\n|"),
        "the table's block from the first byte: {table:?}"
    );
    assert!(!table.contains("{{#"), "{table}");
    assert!(
        table.contains("[`readiness`](contract.md#readiness)"),
        "{table}"
    );
    assert!(
        table.contains("[`create-return`](contract.md#create-return)"),
        "{table}"
    );

    let fixture = book_with("link.md", "{{#axis readiness}}");
    let (_, run) = protocol(fixture.root());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(content_of(&run.book(), "link.md"), READINESS_LINK);
}

// 5. source tree

/// The contract book with `source-root = "{root}"` and a chapter citing `cited`.
fn book_with_source_root(root: &str, cited: &str) -> Fixture {
    let toml = format!("{}source-root = \"{root}\"\n", crate::common::BOOK_TOML);
    let chapter = format!("# Cites\n\nSee {cited}.\n");
    let mut files = contract_book();
    files.push(("book.toml", &toml));
    files.push(("src/cites.md", &chapter));
    Fixture::new(&files)
}

/// Makes the source tree `code/` of a fixture from [`book_with_source_root`], with what the
/// contract book itself cites (so only the chapter `cites.md` can have findings).
fn source_tree(fixture: &Fixture) -> std::path::PathBuf {
    let code = fixture.root().join("code");
    let pods = code.join("internal/provider/pods");
    std::fs::create_dir_all(&pods).expect("folders");
    std::fs::write(
        pods.join("pods.go"),
        "package pods\n\nfunc reconcileManaged() {}\nfunc newWithClient() {}\nfunc Create() {}\n",
    )
    .expect("a source file");
    code
}

/// The findings `check` printed for the chapter `cites.md`.
fn cites_findings(run: &Run) -> Vec<&str> {
    run.stdout
        .lines()
        .filter(|l| l.starts_with("src/cites.md:"))
        .collect()
}

/// A `source-root` that is not there is a finding at the key: the two checks that read the
/// tree do not run, every other one does, and the build fails with it among the rest.
#[test]
fn a_source_root_that_does_not_exist() {
    let fixture = book_with_source_root("no-such-folder", "`internal/x.go`");
    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    assert!(
        run.stdout.contains(
            "book.toml:8:15: error[dangling-path]: `preprocessor.contract.source-root` is \
             `no-such-folder`, which does not exist: there is no `no-such-folder` in `.`, the \
             folder of book.toml\n"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("warning[unknown-claim]"),
        "{}",
        run.stdout
    );
    assert!(cites_findings(&run).is_empty(), "{}", run.stdout);

    let (_, run) = protocol(fixture.root());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("error[dangling-path]: "),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("--> book.toml:8:15\n"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("warning[unknown-claim]"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_source_root_that_is_a_file() {
    let fixture = book_with_source_root("book.toml", "`internal/x.go`");
    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "book.toml:8:15: error[dangling-path]: `preprocessor.contract.source-root` is \
             `book.toml`, which is not a folder (`book.toml`)\n"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("warning[unknown-claim]"),
        "{}",
        run.stdout
    );
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_in_the_source_tree_ends() {
    use std::os::unix::fs::symlink;
    let cited = "`code/real/gc.go`, `Sweeper.sweep`, `loop/real/gc.go` and `real/gc.go`";
    let fixture = book_with_source_root("code", cited);
    let code = source_tree(&fixture);
    std::fs::create_dir_all(code.join("real/deeper")).expect("folders");
    std::fs::write(
        code.join("real/gc.go"),
        "package gc\n\ntype Sweeper struct{}\n\nfunc (s *Sweeper) sweep() {}\n",
    )
    .expect("a source file");
    // A loop to the root, a loop to the parent, and a pair of links pointing at each other.
    symlink(".", code.join("loop")).expect("a symlink");
    symlink("..", code.join("real/deeper/up")).expect("a symlink");
    symlink("b", code.join("a")).expect("a symlink");
    symlink("a", code.join("b")).expect("a symlink");

    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    // Symlinks are not followed: the real file and its symbol are found, the path through the
    // loop is not a path of the tree, and a path relative to the wrong folder is reported.
    assert_eq!(cites_findings(&run).len(), 2, "{}", run.stdout);
    assert_finding(
        &run,
        "src/cites.md:3:5",
        "cited-path",
        "`code/real/gc.go` does not exist under the source root `code`",
    );
    let column = "See ".len() + cited.find("`loop").expect("the loop path") + 1;
    assert_finding(
        &run,
        &format!("src/cites.md:3:{column}"),
        "cited-path",
        "`loop/real/gc.go` does not exist",
    );
    assert!(
        !run.stdout.contains("`real/gc.go` does not exist") && !run.stdout.contains("Sweeper"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_symbol_file_that_is_not_utf8() {
    let fixture = book_with_source_root("code", "`Sweeper.sweep` and `Missing`");
    let code = source_tree(&fixture);
    let mut bytes = b"package gc\n// \xff\xfe Latin-1: caf\xe9\n".to_vec();
    bytes.extend_from_slice(b"type Sweeper struct{}\n\xc3(\nfunc (s *Sweeper) sweep() {}\n");
    std::fs::write(code.join("gc.go"), bytes).expect("a source file");
    assert!(
        std::fs::read_to_string(code.join("gc.go")).is_err(),
        "not UTF-8"
    );

    // `Sweeper` and `sweep` are found between the invalid bytes; `Missing` is reported, so the
    // check did run.
    let run = check(fixture.root());
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(cites_findings(&run).len(), 1, "{}", run.stdout);
    assert_finding(
        &run,
        "src/cites.md:3:25",
        "cited-symbol",
        "`Missing` is not found in the source",
    );
}
