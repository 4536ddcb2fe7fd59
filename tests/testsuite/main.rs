//! The integration tests, in one binary with a module per area (as Cargo's own testsuite), so
//! the dependency tree is linked once. `common` holds the fixture books and the helpers that run
//! them through real mdBook code and the real binary.

mod adoption;
mod architecture;
mod bad_input;
mod beyond;
mod brief;
mod broker;
mod browser;
mod byte_exact;
mod cache;
mod common;
mod coverage_page;
mod diff;
mod editors;
mod export;
mod formats;
mod guide;
mod heading_ids;
mod init;
mod inventory;
mod languages;
mod link_golden;
mod lsp;
mod mcp;
mod mcp_agent;
mod mcp_details;
mod mcp_round;
mod mcp_walkthrough;
mod model_checks;
mod newcomer;
mod no_panic;
mod plan_verification;
mod portable;
mod prose_checks;
mod protocol;
mod provider_reports;
mod provider_reports_book;
mod provider_reports_otel;
mod reading;
mod regressions;
mod rendering;
mod results;
mod untrusted;
// Its fake preprocessor is a Python script run as `python3`.
#[cfg(unix)]
mod rewritten;
mod rules;
mod runners;
mod runners_truth;
// `scripts/book.sh` is a bash script, run with POSIX stand-ins.
#[cfg(unix)]
mod scripts;
mod seams;
mod serve;
mod specs;
mod statuses;
