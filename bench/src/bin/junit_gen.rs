//! Writes a large JUnit XML report for the broker fixture's Go tree (`tests/fixtures/broker`),
//! for the benchmark of reading test results (`scripts/bench.sh`): the fixture's own tests,
//! each with a subtest per adapter, and `CASES` (default 200,000) more subtests of the tests of
//! its packages (a conformance suite's table of cases), as gotestsum writes them, about 100
//! bytes each.
//!
//! Usage: `junit_gen OUT.xml`; `junit_gen --parse FILE BOOK_DIR` reads FILE as the book's
//! test results would be read and prints how many cases it holds (the time to parse it once).

#![allow(clippy::print_stdout)]

use std::io::Write;

fn main() {
    let mut args = std::env::args().skip(1);
    let first = args.next().expect("OUT.xml, or --parse FILE BOOK_DIR");
    if first == "--parse" {
        let file = args.next().expect("FILE");
        let book = args.next().expect("BOOK_DIR");
        let cases =
            mdbook_contract::fuzzing::read_test_results(std::path::Path::new(&book), &[file]);
        println!("{cases} cases");
        return;
    }
    let cases: usize = std::env::var("CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(200_000);
    let mut out =
        std::io::BufWriter::new(std::fs::File::create(first).expect("the file is written"));
    let package = "example.com/broker/conformance";
    writeln!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>"
    )
    .unwrap();
    writeln!(
        out,
        "  <testsuite name=\"{package}\" timestamp=\"2026-12-05T09:30:00Z\">"
    )
    .unwrap();
    for test in [
        "TestPublishAcknowledged",
        "TestPublishOversized",
        "TestAckAfterHandler",
        "TestTraceHeader",
    ] {
        for adapter in ["kafka", "nats-jetstream", "rabbitmq"] {
            writeln!(out, "    <testcase classname=\"{package}\" name=\"{test}/{adapter}\" time=\"0.10\"></testcase>").unwrap();
        }
    }
    let tests = [
        ("conformance", "TestPublishAcknowledged"),
        ("conformance", "TestTraceHeader"),
        ("adapters/kafka", "TestOrderPerKey"),
        ("adapters/nats", "TestDeadLetterCount"),
        ("adapters/rabbitmq", "TestDrainBeforeCancel"),
    ];
    for i in 0..cases {
        let (package, test) = tests[i % tests.len()];
        let failure = if i % 97 == 0 {
            format!(
                "<failure message=\"Failed\">    generated_test.go:{i}: value {i} is not the one wanted</failure>"
            )
        } else {
            String::new()
        };
        writeln!(out, "    <testcase classname=\"example.com/broker/{package}\" name=\"{test}/case-{i}\" time=\"0.01\">{failure}</testcase>").unwrap();
    }
    writeln!(out, "  </testsuite>\n</testsuites>").unwrap();
}
