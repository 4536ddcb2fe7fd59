//! Every key of the `[preprocessor.contract]` table with what it expects, as an unknown key's
//! did-you-mean, a wrong type's message and the guide's configuration reference say it, and
//! the defaults of the keys whose default is a value. A new key is a line of [`KNOWN_KEYS`].

/// Keys mdBook itself reads from every preprocessor table.
pub(super) const MDBOOK_KEYS: &[&str] = &["command", "before", "after", "optional", "renderers"];

/// Keys of this preprocessor, with what each expects.
pub(crate) const KNOWN_KEYS: &[(&str, &str)] = &[
    (
        "contract",
        "a list of chapter paths relative to the book's `src`",
    ),
    (
        "template",
        "a list of chapter paths relative to the book's `src`",
    ),
    (
        "specs",
        "a list of chapter paths or globs relative to the book's `src`",
    ),
    (
        "companions",
        "a list of file paths relative to the folder of book.toml",
    ),
    ("changed-since", "a git revision, such as \"origin/main\""),
    (
        "version",
        "the contract's version, a semantic version such as \"1.2.0\"",
    ),
    (
        "brief-checklist",
        "words of the contract heading that the brief copies as its checklist",
    ),
    (
        "brief-known-gaps",
        "the title of the sub-heading of a provider's section that the brief copies as its known gaps",
    ),
    ("source-root", "a path relative to the book root"),
    (
        "test-results",
        "a list of globs relative to the book root, of JUnit XML files or `go test -json` output",
    ),
    (
        "provider-reports",
        "a list of globs relative to the book root, of the JSON reports `mdbook-contract report` wrote in providers' repositories",
    ),
    (
        "test-results-limit",
        "the largest test report read, in MiB (a whole number; 256 by default)",
    ),
    (
        "baseline",
        "a file path relative to the book root, written by `mdbook-contract check --write-baseline FILE`",
    ),
    ("shared-layer", "a list of repository paths or globs"),
    ("symbol-files", "a list of file name globs"),
    ("symbol-ignore", "a list of words"),
    ("line-reference-patterns", "a list of regular expressions"),
    (
        "checks",
        "a table of check names to \"error\", \"warning\" or \"off\"",
    ),
    (
        "chapters",
        "a table of chapter paths to tables with a `checks` table",
    ),
    (
        "forbidden-terms",
        "a table of chapter paths to lists of terms",
    ),
    (
        "provider-paths",
        "a table of provider names to lists of repository folders",
    ),
];

/// The largest test report read unless `test-results-limit` says otherwise: 256 MiB.
pub(crate) const DEFAULT_RESULTS_LIMIT: u64 = 256 << 20;

/// The default patterns of `line-reference`: a file name followed by a line number, and a bare
/// `:12-30` line range, as the plan's verification grep finds them.
pub(crate) const DEFAULT_LINE_REFERENCE_PATTERNS: &[&str] = &[
    r#"[^\s:()\[\]<>"'`,;|]+\.[A-Za-z]{1,5}:[0-9]+(?:-[0-9]+)?(?-u:\b)"#,
    r":[0-9]+-[0-9]+(?-u:\b)",
];
