//! The provider report as a document: what `mdbook-contract report` writes in a provider's
//! repository and what `provider-reports` reads back in the book's. One set of types for both
//! sides, so the two cannot drift; its JSON Schema is `schema/provider-report.schema.json`.
//!
//! A field added is a minor bump of [`SCHEMA_VERSION`], one removed or retyped a major one; a
//! reader takes every 1.x document (unknown fields are ignored) and refuses another major.

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

/// The version of the document's shape.
pub const SCHEMA_VERSION: &str = "1.0.0";

/// The JSON Schema of the document.
pub const SCHEMA: &str = include_str!("../../../schema/provider-report.schema.json");

/// One provider's evidence, made in its own repository.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ProviderReport {
    pub schema_version: String,
    /// The provider, as the book's provider section names it.
    pub provider: String,
    /// The provider's repository, an https URL, when known.
    pub repository: Option<String>,
    /// The commit the citations were read at, when known.
    pub commit: Option<String>,
    /// The contract the report was made against.
    pub contract: ContractRef,
    /// Whether test results were read (`--test-results`): then a `verify` without a result did
    /// not run, and without them it counts as verified, as in a book without `test-results`.
    #[serde(default)]
    pub tested: bool,
    /// Every citation of a rule in the provider's source tree.
    pub citations: Vec<ReportCitation>,
    /// What the provider states without evidence: rule ID to `implemented`,
    /// `not-implemented` or `not-applicable`.
    #[serde(default)]
    pub declared: std::collections::BTreeMap<String, Declared>,
    /// What the contract's `check` said in the provider's repository.
    pub check: CheckCounts,
}

/// The contract a report was made against: its rules, each with a digest of its text.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ContractRef {
    pub title: Option<String>,
    pub version: Option<String>,
    pub rules: Vec<RuleRef>,
}

/// A rule as the report saw it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct RuleRef {
    pub id: String,
    pub version: u32,
    /// [`digest`] of its ID, version and text.
    pub digest: String,
}

/// A citation of a rule in the provider's code.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ReportCitation {
    pub rule: String,
    /// The version it cites.
    pub version: u32,
    /// `impl`, `verify` or `mentions`.
    pub verb: String,
    /// Under the provider's source root, `/`-separated.
    pub path: String,
    pub line: usize,
    pub column: usize,
    /// The line as written, for a finding's snippet.
    pub line_text: String,
    /// For a `verify`, the test it stands in.
    pub test: Option<TestRef>,
    /// For a `verify`, the results of its test's cases for the provider (empty when none ran).
    #[serde(default)]
    pub results: Vec<CaseResult>,
}

/// The test a `verify` stands in.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct TestRef {
    pub name: String,
    pub line: usize,
}

/// What a run said of one case of a cited test.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CaseResult {
    /// As its report names it.
    pub case: String,
    /// `passed`, `failed` or `skipped`.
    pub outcome: String,
    /// The first line of its failure, or of why it was skipped.
    pub message: Option<String>,
    /// The results file, under the provider's source root.
    pub run: String,
    /// Whether it passed on a rerun after it failed.
    #[serde(default)]
    pub flaky: bool,
    /// Whether its name cannot say it ran for this provider (a case named by position).
    #[serde(default)]
    pub unattributed: bool,
}

/// A status a provider states without evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Declared {
    Implemented,
    NotImplemented,
    NotApplicable,
}

impl Declared {
    /// As written in a `--declared` file and in the report.
    pub(crate) fn parse(text: &str) -> Option<Declared> {
        match text {
            "implemented" => Some(Declared::Implemented),
            "not-implemented" => Some(Declared::NotImplemented),
            "not-applicable" => Some(Declared::NotApplicable),
            _ => None,
        }
    }
}

/// The findings of the contract's `check` in the provider's repository, counted.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct CheckCounts {
    pub errors: usize,
    pub warnings: usize,
    /// Per check's name, how many findings it made.
    #[serde(default)]
    pub by_check: std::collections::BTreeMap<String, usize>,
}

/// The digest of a rule: SHA-256 over its ID, its version and its text (line endings as
/// `\n`, trimmed), as `sha256:` and lowercase hex. A reworded rule has another digest.
pub(crate) fn digest(id: &str, version: u32, text: &str) -> String {
    let text = crate::util::text::lf(text.trim());
    let mut hasher = Sha256::new();
    hasher.update(id.as_bytes());
    hasher.update(b"\n");
    hasher.update(version.to_string().as_bytes());
    hasher.update(b"\n");
    hasher.update(text.as_bytes());
    let bytes = hasher.finalize();
    let mut out = String::from("sha256:");
    for byte in bytes.iter() {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reworded_rule_has_another_digest_and_line_endings_do_not_count() {
        let a = digest("a.b", 1, "X MUST be done.\n");
        assert_eq!(a, digest("a.b", 1, "X MUST be done."));
        assert_eq!(
            digest("a.b", 1, "X MUST\r\nbe done."),
            digest("a.b", 1, "X MUST\nbe done.")
        );
        assert_ne!(a, digest("a.b", 1, "X MUST be done twice."));
        assert_ne!(a, digest("a.b", 2, "X MUST be done."));
        assert!(a.starts_with("sha256:") && a.len() == 7 + 64);
    }
}
