//! mdBook's preprocessor protocol: `[context, book]` as JSON on standard input, the book as JSON
//! on standard output.
//!
//! The mdBook version is read from the context and checked against [`SUPPORTED`] before the
//! book is deserialised, so a host of another major version gets one sentence, not a serde
//! error about a missing field. [`finish`] prints the findings once per build and decides
//! whether the run fails; the in-process [`crate::ContractPreprocessor`] ends the same way.

use std::cell::RefCell;
use std::fmt;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{Context as _, Result, bail};
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::Book;
use serde::Deserializer as _;
use serde::de::{self, IgnoredAny, SeqAccess, Visitor};

use crate::pipeline;
use crate::read::config::Config;
use crate::report::diagnostic::Report;

/// The mdBook versions this binary speaks the protocol of.
pub const SUPPORTED: &str = ">=0.5.0, <0.6.0";

const HELP: &str = "this program is meant to be run by mdBook as the `contract` preprocessor; \
see https://rust-lang.github.io/mdBook/for_developers/preprocessors.html";

/// Reads `[context, book]` from `input` in one pass, checking the mdBook version first: the
/// context (small) is read as a plain value and its version checked before the book (large)
/// is deserialised.
pub(crate) fn parse_input(input: &[u8]) -> Result<(PreprocessorContext, Book)> {
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
pub(crate) fn check_version(version: &str) -> Result<()> {
    let range = semver::VersionReq::parse(SUPPORTED).expect("valid version range");
    let parsed = semver::Version::parse(version).with_context(|| {
        format!("mdBook reported version `{version}`, which is not a semantic version")
    })?;
    // A pre-release of a supported version (0.5.0-alpha.1) is accepted too.
    let release = semver::Version::new(parsed.major, parsed.minor, parsed.patch);
    if !range.matches(&release) {
        let advice = if parsed.major == 0 && parsed.minor < 5 {
            "upgrade mdBook to 0.5 (`cargo install mdbook --version ^0.5 --locked`)".to_owned()
        } else {
            format!(
                "use mdBook 0.5, or an mdbook-contract release that supports mdBook {}.{} once there is one",
                parsed.major, parsed.minor
            )
        };
        bail!(
            "mdbook-contract {} supports mdBook {SUPPORTED}, but is being run by mdBook {version}; {advice}",
            env!("CARGO_PKG_VERSION")
        );
    }
    Ok(())
}

/// Prints the findings (on the first renderer's run only) and fails when there are errors,
/// except under `mdbook serve`, where the pages show them instead (see [`crate::render::serve`]).
pub(crate) fn finish(
    ctx: &PreprocessorContext,
    report: &Report,
    stderr: &mut dyn Write,
) -> Result<()> {
    // With a baseline, its count is said even when nothing new is found.
    let something = !report.findings.is_empty() || !report.known.is_empty();
    if reports_for_renderer(ctx) && something {
        let color = std::io::stderr().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        let _ = stderr.write_all(report.render_build(color).as_bytes());
    }
    if report.has_errors() && !pipeline::is_serving(ctx) {
        return Err(ChecksFailed.into());
    }
    Ok(())
}

/// The run fails because of the error findings printed above (with their count): nothing more
/// to say about it.
#[derive(Debug)]
struct ChecksFailed;

impl fmt::Display for ChecksFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the contract checks found errors (listed above)")
    }
}

impl std::error::Error for ChecksFailed {}

/// Whether this run is the one that prints findings: mdBook runs a preprocessor once per
/// renderer, and the findings are the same each time, so only the first renderer's run prints.
fn reports_for_renderer(ctx: &PreprocessorContext) -> bool {
    let restricted = Config::from_book_config(&ctx.config)
        .ok()
        .and_then(|c| c.renderers);
    let mut renderers: Vec<String> = ctx
        .config
        .outputs::<IgnoredAny>()
        .map(|outputs| outputs.into_keys().collect())
        .unwrap_or_default();
    if renderers.is_empty() {
        renderers.push("html".to_owned());
    }
    if let Some(allowed) = restricted {
        renderers.retain(|r| allowed.contains(r));
    }
    // A renderer the book does not list (`mdbook test` runs preprocessors for its own) is a run
    // of its own: it prints.
    renderers.first().is_none_or(|first| *first == ctx.renderer)
        || !renderers.contains(&ctx.renderer)
}

/// Runs the protocol over `input`, writing the book to `stdout`; returns the exit code.
///
/// `input` is dropped as soon as the book is deserialised: the raw JSON is as large as the book
/// and is not needed again.
pub fn run(input: Vec<u8>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let parsed = parse_input(&input);
    drop(input);
    let result = parsed.and_then(|(ctx, book)| {
        let outcome = pipeline::process(&ctx, book, PathBuf::new())?;
        finish(&ctx, &outcome.report, stderr)?;
        Ok(outcome.book)
    });
    let book = match result {
        Ok(book) => book,
        Err(error) => {
            if error.downcast_ref::<ChecksFailed>().is_none() {
                let _ = writeln!(stderr, "mdbook-contract: {error:#}");
            }
            return 1;
        }
    };
    match serde_json::to_writer(&mut *stdout, &book).map_err(std::io::Error::from) {
        Ok(()) => match stdout.flush() {
            Ok(()) => 0,
            Err(error) => write_failed(stderr, &error),
        },
        Err(error) => write_failed(stderr, &error),
    }
}

fn write_failed(stderr: &mut dyn Write, error: &std::io::Error) -> i32 {
    let _ = writeln!(
        stderr,
        "mdbook-contract: could not write the book to standard output: {error}"
    );
    1
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
        assert!(old.contains("upgrade mdBook to 0.5"), "{old}");
        assert!(
            !old.contains("built for mdBook 0.4"),
            "no such build exists: {old}"
        );
        let new = format!("{:#}", check_version("0.6.1").unwrap_err());
        assert!(
            new.contains("use mdBook 0.5, or an mdbook-contract release that supports mdBook 0.6"),
            "{new}"
        );
        assert!(check_version("banana").is_err());
    }

    use mdbook_preprocessor::config::Config as BookConfig;

    fn context(toml: &str, renderer: &str) -> PreprocessorContext {
        let config: BookConfig = toml.parse().expect("valid book.toml");
        PreprocessorContext::new(PathBuf::from("/book"), config, renderer.to_owned())
    }

    #[test]
    fn findings_print_on_the_first_listed_renderer_and_on_unlisted_ones() {
        let two = "[output.html]\n[output.markdown]\n";
        assert!(reports_for_renderer(&context(two, "html")));
        assert!(!reports_for_renderer(&context(two, "markdown")));
        assert!(reports_for_renderer(&context(two, "test")));
        assert!(reports_for_renderer(&context("", "html")));
        let restricted = "[output.html]\n[output.markdown]\n[preprocessor.contract]\nrenderers = [\"markdown\"]\n";
        assert!(reports_for_renderer(&context(restricted, "markdown")));
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
