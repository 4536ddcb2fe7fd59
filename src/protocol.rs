//! mdBook's preprocessor protocol: `[context, book]` as JSON on standard input, the book as JSON
//! on standard output.
//!
//! The mdBook version is read from the context and checked against [`SUPPORTED`] before the
//! book is deserialised, so a host of another major version gets one sentence, not a serde
//! error about a missing field.

use std::cell::RefCell;
use std::fmt;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{Context as _, Result, bail};
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::Book;
use serde::Deserializer as _;
use serde::de::{self, SeqAccess, Visitor};

use crate::diagnostic::Format;
use crate::diagnostic::Report;
use crate::json;

/// The mdBook versions this binary speaks the protocol of.
pub const SUPPORTED: &str = ">=0.5.0, <0.6.0";

const HELP: &str = "this program is meant to be run by mdBook as the `contract` preprocessor; \
see https://rust-lang.github.io/mdBook/for_developers/preprocessors.html";

/// Reads `[context, book]` from `input`, checking the mdBook version first.
///
/// The context (small) is read as a plain value and its version checked before the book
/// (large) is deserialised. An input of [`SPLIT_FROM`] bytes or more is split into the book's
/// items first, at every depth ([`json::split_input`]), which are then deserialised on several
/// threads; anything that does not split, or does not read, is read again in one pass, for
/// serde_json's own error.
pub fn parse_input(input: &[u8]) -> Result<(PreprocessorContext, Book)> {
    if let Some(parsed) = parse_split(input, crate::parallel::threads(input.len())) {
        return Ok(parsed);
    }
    parse_in_one_pass(input)
}

/// [`parse_input`] without the split: one pass of serde_json over the whole input.
fn parse_in_one_pass(input: &[u8]) -> Result<(PreprocessorContext, Book)> {
    let refused = RefCell::new(None);
    let mut reader = serde_json::Deserializer::from_slice(input);
    let read = reader
        .deserialize_seq(InputVisitor { refused: &refused })
        .and_then(|parsed| reader.end().map(|()| parsed));
    match (read, refused.into_inner()) {
        (Ok(parsed), _) => Ok(parsed),
        (Err(_), Some(reason)) => Err(reason),
        (Err(error), None) => Err(error).with_context(|| {
            format!("could not read `[context, book]` from standard input ({HELP})")
        }),
    }
}

/// Below this many bytes of input, the book is deserialised in one pass even on several
/// threads: starting a thread for it cost more than it saved. Measured on 2 cores (stage
/// timers, one run each): 1.1 MB, 1.0 to 1.1 ms in one pass against 1.2 to 2.1 ms split;
/// 10.7 MB, 9.8 to 14.7 ms against 8.9 to 11.9 ms; 107 MB, 125 to 155 ms against 66 to 72 ms.
pub const SPLIT_FROM: usize = 4 << 20;

/// `[context, book]` read from the parts [`json::split_input`] finds, the book's items (at every
/// depth) on several threads; `None` below [`SPLIT_FROM`] bytes or for fewer than two
/// `threads` (see [`crate::parallel::threads`]), or for anything that fails.
fn parse_split(input: &[u8], threads: usize) -> Option<(PreprocessorContext, Book)> {
    if input.len() < SPLIT_FROM || threads < 2 {
        return None;
    }
    let split = json::split_input(input)?;
    let context = serde_json::from_slice(split.context).ok()?;
    let context = read_context(context).ok()?;
    let items = json::read_items(&split.items, input.len())?;
    Some((context, Book::new_with_items(items)))
}

/// The preprocessor context, once its `mdbook_version` is found supported.
fn read_context(context: serde_json::Value) -> Result<PreprocessorContext> {
    let Some(version) = context
        .get("mdbook_version")
        .and_then(serde_json::Value::as_str)
    else {
        bail!("the context on standard input has no `mdbook_version` string ({HELP})");
    };
    check_version(version)?;
    serde_json::from_value(context)
        .context("could not read the preprocessor context from standard input")
}

/// Reads `[context, book]`; a refusal (wrong mdBook version, a bad context) is put in
/// `refused` so that it reaches the user as written, without serde's position suffix.
struct InputVisitor<'a> {
    refused: &'a RefCell<Option<anyhow::Error>>,
}

impl<'de> Visitor<'de> for InputVisitor<'_> {
    type Value = (PreprocessorContext, Book);

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("`[context, book]`")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let refuse = |reason: anyhow::Error| {
            *self.refused.borrow_mut() = Some(reason);
            de::Error::custom("refused")
        };
        let context: serde_json::Value = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let context = read_context(context).map_err(refuse)?;
        let book: Book = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok((context, book))
    }
}

/// Fails with one sentence unless `version` is in [`SUPPORTED`].
pub fn check_version(version: &str) -> Result<()> {
    let range = semver::VersionReq::parse(SUPPORTED).expect("valid version range");
    let parsed = semver::Version::parse(version).with_context(|| {
        format!("mdBook reported version `{version}`, which is not a semantic version")
    })?;
    // A pre-release of a supported version (0.5.0-alpha.1) is accepted too.
    let release = semver::Version::new(parsed.major, parsed.minor, parsed.patch);
    if !range.matches(&release) {
        bail!(
            "mdbook-contract {} supports mdBook {SUPPORTED}, but is being run by mdBook {version}; \
             install an mdbook-contract built for mdBook {}.{}",
            env!("CARGO_PKG_VERSION"),
            parsed.major,
            parsed.minor
        );
    }
    Ok(())
}

/// Whether the build is `mdbook serve` (the context carries a live-reload endpoint).
pub fn is_serving(ctx: &PreprocessorContext) -> bool {
    ctx.config
        .get::<String>("output.html.live-reload-endpoint")
        .ok()
        .flatten()
        .is_some()
}

/// Prints the findings (on the first renderer's run only) and fails when there are errors,
/// except under `mdbook serve`, where the pages show them instead (see [`crate::serve`]).
pub fn finish(ctx: &PreprocessorContext, report: &Report, stderr: &mut dyn Write) -> Result<()> {
    if crate::reports_for_renderer(ctx) && !report.findings.is_empty() {
        let color = std::io::stderr().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        let _ = stderr.write_all(report.render(Format::Human, color).as_bytes());
    }
    if report.has_errors() && !is_serving(ctx) {
        bail!("the contract checks found {}", report.summary());
    }
    Ok(())
}

/// Runs the protocol over `input`, writing the book to `stdout`; returns the exit code.
///
/// `input` is dropped as soon as the book is deserialised: the raw JSON is as large as the book
/// and is not needed again.
pub fn run(input: Vec<u8>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let parsed = parse_input(&input);
    drop(input);
    let result = parsed.and_then(|(ctx, book)| {
        let prepared = crate::prepare(&ctx, book, PathBuf::new())?;
        finish(&ctx, &prepared.report, stderr)?;
        Ok(prepared)
    });
    match result {
        Ok(prepared) => match prepared.write_json(&mut *stdout) {
            Ok(()) => {
                let _ = stdout.flush();
                0
            }
            Err(error) => {
                let _ = writeln!(
                    stderr,
                    "mdbook-contract: could not write the book to standard output: {error}"
                );
                1
            }
        },
        Err(error) => {
            let _ = writeln!(stderr, "mdbook-contract: {error:#}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_in_and_out_of_range() {
        assert!(check_version("0.5.0").is_ok());
        assert!(check_version("0.5.4").is_ok());
        assert!(check_version("0.5.0-alpha.1").is_ok());
        let old = format!("{:#}", check_version("0.4.52").unwrap_err());
        assert!(
            old.contains("supports mdBook >=0.5.0, <0.6.0, but is being run by mdBook 0.4.52"),
            "{old}"
        );
        assert!(check_version("0.6.0").is_err());
        assert!(check_version("banana").is_err());
    }

    use mdbook_preprocessor::book::BookItem;

    /// A `[context, book]` input of more than [`SPLIT_FROM`] bytes, so that
    /// [`parse_input`] splits it.
    fn large_input(version: &str) -> serde_json::Value {
        let ctx = PreprocessorContext::new(
            "/book".into(),
            mdbook_preprocessor::config::Config::default(),
            "html".into(),
        );
        let mut context = serde_json::to_value(&ctx).unwrap();
        context["mdbook_version"] = version.into();
        let content = "Text with \"quotes\", \\ and {{#axis x}}.\n".repeat(2000);
        let mut items = Vec::new();
        for i in 0..60 {
            let name = format!("c{i}");
            let mut chapter = mdbook_preprocessor::book::Chapter::new(
                &name,
                content.clone(),
                format!("{name}.md"),
                Vec::new(),
            );
            chapter.sub_items.push(BookItem::Separator);
            items.push(BookItem::Chapter(chapter));
            items.push(BookItem::PartTitle(name));
        }
        serde_json::json!([context, Book::new_with_items(items)])
    }

    #[test]
    fn a_split_input_reads_as_one_pass_reads_it() {
        let input = serde_json::to_vec_pretty(&large_input("0.5.4")).unwrap();
        assert!(input.len() > SPLIT_FROM);
        assert!(parse_split(&input, 2).is_some(), "large enough to be split");
        assert!(parse_split(&input, 1).is_none(), "not split for one thread");
        let small =
            serde_json::to_vec(&serde_json::json!([large_input("0.5.4")[0], Book::new()])).unwrap();
        assert!(
            parse_split(&small, 2).is_none(),
            "not split below SPLIT_FROM"
        );
        let (ctx, book) = parse_input(&input).unwrap();
        let (one_ctx, one_book) = parse_in_one_pass(&input).unwrap();
        assert_eq!(book, one_book);
        assert_eq!(book.iter().count(), 180);
        assert_eq!(
            serde_json::to_value(&ctx).unwrap(),
            serde_json::to_value(&one_ctx).unwrap()
        );
    }

    #[test]
    fn a_large_input_that_fails_gets_the_one_pass_message() {
        let mut wrong_version = large_input("0.4.52");
        let refused = format!(
            "{:#}",
            parse_input(&serde_json::to_vec(&wrong_version).unwrap()).unwrap_err()
        );
        assert!(
            refused.contains("is being run by mdBook 0.4.52"),
            "{refused}"
        );
        wrong_version[0]["mdbook_version"] = "0.5.4".into();
        wrong_version[1]["items"][7] = serde_json::json!({"Chapter": {"name": 3}});
        let input = serde_json::to_vec(&wrong_version).unwrap();
        assert!(parse_split(&input, 2).is_none());
        let split = format!("{:#}", parse_input(&input).unwrap_err());
        let one_pass = format!("{:#}", parse_in_one_pass(&input).unwrap_err());
        assert_eq!(split, one_pass);
        assert!(split.contains("line 1 column"), "{split}");
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        for input in [
            &b""[..],
            b"{",
            b"[1,2]",
            b"[{}, {}]",
            b"[{\"mdbook_version\": \"0.5.4\"}",
        ] {
            assert!(
                parse_input(input).is_err(),
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
    }
}
