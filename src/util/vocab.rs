//! The words every other module shares: the checks ([`Check`]) and how much their findings
//! matter ([`Severity`]).
//!
//! This module imports nothing of the crate, so anything may import it: book.toml is validated
//! against [`Check::ALL`], the checks report under their [`Check`], suppression comments name
//! them, and the guide documents them (`guide/src/reference/checks.md`, tested). To add a
//! check: a variant here (with its name, default severity and summary), then its file in
//! `checks/` and its arm in `checks::run`, and its section in the guide's reference.

use std::fmt;

use serde::Serialize;

/// The name of the preprocessor, as in `[preprocessor.contract]`.
pub const NAME: &str = "contract";

/// How much a finding of a check matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Not reported.
    Off,
    /// Reported; the build goes on.
    Warning,
    /// Reported; the build fails.
    Error,
}

impl Severity {
    /// The word used in book.toml and in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Off => "off",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// The severity a word of book.toml names (`warn` and `deny` as mdBook users write them).
    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "off" => Some(Severity::Off),
            "warning" | "warn" => Some(Severity::Warning),
            "error" | "deny" => Some(Severity::Error),
            _ => None,
        }
    }
}

macro_rules! checks {
    ($($variant:ident $name:literal $default:ident $summary:literal,)*) => {
        /// One check: a stable kebab-case name, a default severity and what it fires on.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Check {
            $(#[doc = $summary] $variant,)*
        }

        impl Check {
            /// Every check, in the order the guide's reference lists them.
            pub const ALL: &[Check] = &[$(Check::$variant,)*];

            /// The name used in book.toml, in suppression comments and in output.
            pub fn name(self) -> &'static str {
                match self { $(Check::$variant => $name,)* }
            }

            /// The severity when book.toml says nothing.
            pub fn default_severity(self) -> Severity {
                match self { $(Check::$variant => Severity::$default,)* }
            }

            /// What it fires on, in one line.
            pub fn summary(self) -> &'static str {
                match self { $(Check::$variant => $summary,)* }
            }
        }
    };
}

checks! {
    UnknownAxis "unknown-axis" Error
        "a shortcode names an axis that no `.axis` heading defines",
    DuplicateAxis "duplicate-axis" Error
        "two `.axis` headings define one code",
    MalformedSection "malformed-section" Error
        "an `.axis` or `.provider` heading that cannot be read: no code, no `Profile` table, a bad row, an axis outside the contract chapters",
    UnknownProfile "unknown-profile" Error
        "a claim names a profile its axis does not list",
    MissingClaim "missing-claim" Error
        "a provider has no claim for some axis",
    DuplicateClaim "duplicate-claim" Error
        "a provider claims one axis twice",
    MissingEvidence "missing-evidence" Error
        "a claim of a built provider cites no evidence",
    UnknownClaim "unknown-claim" Warning
        "a claim whose profile is `unknown`: a fact not verified yet",
    MissingAnswer "missing-answer" Error
        "an axis has no `{{#answers}}` in the template, or two",
    MalformedShortcode "malformed-shortcode" Error
        "a shortcode of this preprocessor with wrong arguments, in the wrong place, or an unknown name in its family",
    LeftoverDirective "leftover-directive" Error
        "a `{{#...}}` directive left in the content after the preprocessors before this one (mdBook leaves a failed `{{#include}}` in place)",
    EmDash "em-dash" Error
        "U+2014 in prose, including the em-dash that smart punctuation makes of `---`",
    InvisibleCharacter "invisible-character" Error
        "a bidirectional control anywhere (text shown in another order than it is stored); an invisible character (zero-width space, joiner, word joiner, soft hyphen) in a rule's text, a code span or a shortcode, as a warning",
    LineReference "line-reference" Error
        "a source line reference such as `provider.go:120` or `:12-30`, in prose or code spans",
    DanglingLink "dangling-link" Error
        "a link to a page that is not a chapter, to a `#fragment` the target page will not have, or (with `source-root`) out of the book to a file that does not exist",
    MissingChapter "missing-chapter" Error
        "a chapter SUMMARY.md names whose file does not exist: this tool creates no chapter (`mdbook build` does when `build.create-missing` is on)",
    ReadmeLink "readme-link" Error
        "a link to `README.md`, which mdBook turns into `README.html` while it renders the chapter as `index.html`",
    ForbiddenTerm "forbidden-term" Error
        "a term banned in a chapter; every provider's name is banned in contract chapters",
    MustCite "must-cite" Error
        "a sentence or list item with MUST in a contract chapter that cites no path or symbol (of the `shared-layer`, when book.toml sets one)",
    CitedPath "cited-path" Error
        "a code span naming a repository path that does not exist under `source-root` (when set)",
    CitedSymbol "cited-symbol" Error
        "a code span naming an identifier that is not a whole word of the code in the `symbol-files` under `source-root` (when set; by default every language read as code)",
    MalformedSuppression "malformed-suppression" Warning
        "a `<!-- contract: allow ... -->` comment that names no check, or a name that is not one",
    MissingRole "missing-role" Warning
        "book.toml gives no chapter the `contract` or the `template` role while the book defines axes, or a `specs` glob matches no chapter, so the checks of that role do not run",
    DanglingDefinition "dangling-definition" Warning
        "a link reference definition (`[label]: target`) that no link uses, whose target dangles",
    UnansweredEntry "unanswered-entry" Warning
        "an entry of a filled spec without an answer, without a profile (or with `unknown`) for one of its axes, or answered without evidence; an error in an accepted spec",
    SpecDrift "spec-drift" Error
        "a filled spec that has fallen behind the template: an entry missing, twice, unknown to the template or out of order, an `{{#answers}}` missing, a claim in another axis's entry",
    SpecMismatch "spec-mismatch" Warning
        "a built provider whose appendix claim on an axis differs from the answer of its accepted spec",
    DuplicateRule "duplicate-rule" Error
        "two rule markers `r[ID]` define one ID",
    MalformedRule "malformed-rule" Error
        "a rule marker that cannot be read (a bad ID or version, a bad `applies=`, a marker that labels nothing); a warning for a marker outside the contract chapters",
    UnknownRule "unknown-rule" Error
        "a citation `r[impl ID]` or `r[verify ID]` in code, or a `{{#rule ID}}`, naming no rule",
    StaleRule "stale-rule" Warning
        "a citation in code of an older version of a rule than the book's (`r[verify ID]` of a rule now `r[ID+2]`)",
    UnclosedIgnore "unclosed-ignore" Warning
        "a `@tracey:ignore-start` in a comment of the source tree that no `@tracey:ignore-end` closes: every citation after it in its file is ignored",
    SyntaxError "syntax-error" Warning
        "a file of the source tree with a syntax error the parser recovered from, when it holds a citation of a rule or a cited symbol, at the first error",
    UnreadableSource "unreadable-source" Warning
        "a file or folder under `source-root` that could not be read or walked: its citations and symbols are not known",
    UnverifiedRule "unverified-rule" Warning
        "a built provider bound by a rule that no `r[verify ID]` in its tests (or the shared ones) cites, when `source-root` is set",
    FailingRule "failing-rule" Error
        "a built provider bound by a MUST rule whose test failed for it in the test results (a warning for a SHOULD)",
    StaleResults "stale-results" Warning
        "test results older than a change to the tests they report on, or naming a Go test that no longer exists",
    MalformedResults "malformed-results" Error
        "a `test-results` file that is missing, empty, or in none of the formats it reads (JUnit XML, TestNG's and GoogleTest's own, `go test -json`)",
    MissingRule "missing-rule" Warning
        "a sentence or list item with MUST in a contract chapter that no rule marker labels, once the contract has a rule marker",
    OutdatedBaseline "outdated-baseline" Warning
        "a finding the baseline records that no longer occurs: the baseline can shrink",
    MalformedConfig "malformed-config" Error
        "a value of `[preprocessor.contract]` that cannot be used: not a key, the wrong type, a glob or regular expression that does not compile; it is left out and the rest is checked",
    DanglingPath "dangling-path" Error
        "a path of book.toml that leads to nothing: a companion or `source-root` that does not exist, a chapter key or `specs` path that is not a chapter of the book",
    InternalError "internal-error" Error
        "a bug of mdbook-contract: a check or the rendering of a shortcode failed; every other check still ran",
}

impl Check {
    /// The check called `name`.
    pub fn from_name(name: &str) -> Option<Check> {
        Check::ALL.iter().copied().find(|c| c.name() == name)
    }

    /// Whether its findings can follow from another check's (a provider lacks a claim on an
    /// axis because the claim's axis code is mistyped): they are reported after the others,
    /// so that the cause comes first.
    pub fn follows_others(self) -> bool {
        matches!(self, Check::MissingClaim | Check::MissingAnswer)
    }

    /// The names of every check, for suggestions.
    pub fn names() -> impl Iterator<Item = &'static str> + Clone {
        Check::ALL.iter().map(|c| c.name())
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Check {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl PartialEq<str> for Check {
    fn eq(&self, other: &str) -> bool {
        self.name() == other
    }
}

impl PartialEq<&str> for Check {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &check in Check::ALL {
            let name = check.name();
            assert!(seen.insert(name), "{name} twice");
            assert!(
                name.split('-')
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase())),
                "{name}"
            );
            assert_eq!(Check::from_name(name), Some(check));
        }
        assert_eq!(Check::from_name("em-dsh"), None);
        assert_eq!(Check::UnknownClaim.default_severity(), Severity::Warning);
    }
}
