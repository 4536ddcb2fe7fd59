//! `malformed-results`: a `test-results` pattern or file that gives no results: it matches no
//! file, or the file is empty, unreadable, or in none of the formats read (JUnit XML,
//! `testng-results.xml`, GoogleTest's JSON, `go test -json`). A
//! zero read from it would look like tests that never ran.

use super::{Context, Draft, Place};
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    for problem in &cx.results.problems {
        out.push(
            Draft::at(
                Check::MalformedResults,
                Place::Config(cx.config.item_at("test-results", problem.item)),
                0..0,
                problem.message.clone(),
            )
            .help("point `test-results` at the files the test run writes, relative to the folder of book.toml: `go test -json` or `gotestsum --junitfile`, `cargo nextest run` with JUnit, `pytest --junitxml`, Vitest's `junit` reporter (`--outputFile.junit`), Jest with `jest-junit`, Maven Surefire's `target/surefire-reports/*.xml` (the guide's runner page has every runner)"),
        );
    }
}
