//! What a cell of the coverage says, apart from the evidence it points at: one row per kind of
//! status, from which every output takes its name, word, mark and meaning. The page, the
//! export, `status`, the hover, the brief and the MCP answers all read this table, and a test
//! holds the page script's list and the export schema's enum to it.
//!
//! To add a status: a variant of [`Kind`], its row in [`ROWS`] (the order is the order a
//! reader meets them in: failures first), how `Coverage::kind` reaches it from the evidence
//! (`coverage::Status`), then a line of the schema's enum (`schema/contract.schema.json`, with the
//! version it came in) and a colour in `mdbook-contract.css`; the tests name what is missing.

/// The kind of a cell's status, as every output names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Failed,
    Skipped,
    NotRun,
    Unattributed,
    Unmatched,
    Uncovered,
    Implemented,
    Declared,
    DeclaredNotImplemented,
    NoReport,
    ProfileUnknown,
    Unknown,
    Passed,
    Verified,
    Optional,
    NotBound,
}

/// Whether a kind of status binds the provider to the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binds {
    /// It binds and obliges: the rule waits for evidence until it is passed or verified.
    Yes,
    /// It binds and obliges nothing (a MAY).
    Permits,
    /// It does not bind: the rule applies to a profile the provider does not claim.
    No,
    /// Whether it binds is not known: the provider has not stated its profile on the axis.
    NotKnown,
}

/// One kind's row: how every output says it.
pub struct Row {
    pub kind: Kind,
    /// As the export, `status`, the MCP answers and the page's `data-status` name it.
    pub name: &'static str,
    /// As a reader reads it in a sentence or a cell.
    pub word: &'static str,
    /// The one character a cell shows before its word.
    pub mark: &'static str,
    pub binds: Binds,
    /// What it means, after the word: the title of a cell with no citation, the MCP line.
    pub meaning: &'static str,
}

/// Every kind, in the order a reader meets them (failures first).
pub const ROWS: [Row; 16] = [
    row(
        Kind::Failed,
        "failed",
        "failed",
        "\u{2717}",
        Binds::Yes,
        "a test citing it for the provider failed",
    ),
    row(
        Kind::Skipped,
        "skipped",
        "skipped",
        "\u{21b7}",
        Binds::Yes,
        "no test citing it failed, and one was skipped",
    ),
    row(
        Kind::NotRun,
        "not-run",
        "not run",
        "\u{25cb}",
        Binds::Yes,
        "a test cites it, and no report holds a run of it for the provider",
    ),
    row(
        Kind::Unattributed,
        "unattributed",
        "unattributed",
        "\u{25cc}",
        Binds::Yes,
        "its test ran, but the report cannot say for this provider or this file",
    ),
    row(
        Kind::Unmatched,
        "unmatched",
        "unmatched",
        "\u{25cd}",
        Binds::Yes,
        "its test has no case in the report, which holds cases of its file that could not be placed on a test and a provider",
    ),
    row(
        Kind::Uncovered,
        "uncovered",
        "uncovered",
        "!",
        Binds::Yes,
        "no test or code cites the rule",
    ),
    row(
        Kind::Implemented,
        "implemented",
        "implemented",
        "\u{25d0}",
        Binds::Yes,
        "only code cites it (`impl`), no test",
    ),
    row(
        Kind::Declared,
        "declared",
        "declared",
        "\u{25b3}",
        Binds::Yes,
        "the provider's report declares it implemented, with no citation or test result: a claim, not evidence",
    ),
    row(
        Kind::DeclaredNotImplemented,
        "declared-not-implemented",
        "declared not implemented",
        "\u{25bd}",
        Binds::Yes,
        "the provider's report declares it not implemented",
    ),
    row(
        Kind::NoReport,
        "no-report",
        "no report",
        "\u{2205}",
        Binds::Yes,
        "`provider-reports` names no report of this provider, so nothing is known of it",
    ),
    row(
        Kind::ProfileUnknown,
        "profile-unknown",
        "profile unknown",
        "?",
        Binds::NotKnown,
        "the rule binds only if the provider claims a profile it has not stated yet",
    ),
    row(
        Kind::Unknown,
        "unknown",
        "unknown",
        "?",
        Binds::Yes,
        "it binds, and no code was read, so whether anything cites it is not known",
    ),
    row(
        Kind::Passed,
        "passed",
        "passed",
        "\u{2713}",
        Binds::Yes,
        "every test citing it for the provider passed",
    ),
    row(
        Kind::Verified,
        "verified",
        "verified",
        "\u{2713}",
        Binds::Yes,
        "a test cites it (no test results were read)",
    ),
    row(
        Kind::Optional,
        "optional",
        "optional",
        "\u{25c7}",
        Binds::Permits,
        "it permits and obliges nothing, so there is nothing to verify",
    ),
    row(
        Kind::NotBound,
        "not-bound",
        "not bound",
        "\u{2013}",
        Binds::No,
        "the rule applies to a profile the provider has not chosen",
    ),
];

#[rustfmt::skip]
const fn row(kind: Kind, name: &'static str, word: &'static str, mark: &'static str, binds: Binds,
    meaning: &'static str) -> Row {
    Row { kind, name, word, mark, binds, meaning }
}

impl Kind {
    /// The kind a name gives, as [`Row::name`] spells it.
    pub fn named(name: &str) -> Option<Kind> {
        ROWS.iter().find(|r| r.name == name).map(|r| r.kind)
    }

    pub fn row(self) -> &'static Row {
        // The rows are in the variants' order (a test holds them so).
        &ROWS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.row().name
    }

    pub fn word(self) -> &'static str {
        self.row().word
    }

    pub fn mark(self) -> &'static str {
        self.row().mark
    }

    pub fn meaning(self) -> &'static str {
        self.row().meaning
    }

    pub fn binds(self) -> Binds {
        self.row().binds
    }

    /// Whether the rule binds the provider, obliges it, and waits for evidence: neither passed
    /// nor verified.
    pub fn open(self) -> bool {
        self.binds() == Binds::Yes && !matches!(self, Kind::Passed | Kind::Verified)
    }

    /// Whether it binds and obliges the provider, whatever its evidence.
    pub fn obliges(self) -> bool {
        self.binds() == Binds::Yes
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl schemars::JsonSchema for Kind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Status".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = ROWS.iter().map(|r| r.name).collect();
        schemars::json_schema!({ "type": "string", "enum": names })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_the_order_of_the_kinds_and_names_are_one_each() {
        for (i, row) in ROWS.iter().enumerate() {
            assert_eq!(row.kind as usize, i, "{}", row.name);
            assert_eq!(Kind::named(row.name), Some(row.kind));
        }
    }

    #[test]
    fn only_what_binds_and_waits_is_open() {
        assert!(Kind::Unmatched.open());
        assert!(Kind::Declared.open());
        assert!(!Kind::Passed.open());
        assert!(!Kind::ProfileUnknown.open());
        assert!(!Kind::Optional.open());
        assert!(Kind::Optional.binds() == Binds::Permits);
    }
}
