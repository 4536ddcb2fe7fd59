//! The `[preprocessor.contract]` table of `book.toml`.
//!
//! [`Config::from_book_config`] reads the table as a plain value and validates it key by key, so
//! every mistake names the key, what was found and what was expected, and an unknown key
//! suggests the nearest known one. To add a key: add a field, a line in [`KNOWN_KEYS`] (`known.rs`), and its
//! arm in `Config::set` (`keys.rs`).

mod keys;
mod known;
mod problem;

use std::collections::{BTreeMap, HashMap};

use anyhow::{Result, bail};
use mdbook_preprocessor::config::Config as BookConfig;
use serde_json::Value;

use crate::util::vocab::{Check, NAME, Severity};
use keys::kind;
use known::MDBOOK_KEYS;
pub(crate) use known::{DEFAULT_LINE_REFERENCE_PATTERNS, DEFAULT_RESULTS_LIMIT, KNOWN_KEYS};
pub(crate) use problem::{KeyPart, KeyPath, Problem};

/// The table this preprocessor reads.
pub(crate) const TABLE: &str = "preprocessor.contract";

/// The validated configuration.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// Chapters with the contract role (they define axes and must stay abstract).
    pub contract: Vec<String>,
    /// Chapters with the template role (they hold the answer sites).
    pub template: Vec<String>,
    /// Globs of the chapters that are filled specs, as written.
    pub specs: Vec<String>,
    /// `specs`, compiled.
    spec_globs: globset::GlobSet,
    /// Files outside the book checked with it, relative to the book root.
    pub companions: Vec<String>,
    /// The revision whose merge base with `HEAD` limits findings in companions to the lines
    /// changed since.
    pub changed_since: Option<String>,
    /// `baseline`: the file of known findings, relative to the book root (empty: none).
    pub baseline: Option<String>,
    /// `test-results`: globs of test results (JUnit XML, `go test -json`), relative to the
    /// book root.
    pub test_results: Vec<String>,
    /// `provider-reports`: globs of provider reports (`mdbook-contract report`), relative to
    /// the book root.
    pub provider_reports: Vec<String>,
    /// `test-results-limit`: the largest report read, in bytes.
    pub test_results_limit: u64,
    /// The contract's version, which `diff` holds against the level of a change.
    pub version: Option<semver::Version>,
    /// What the brief looks for in a contract heading to copy its section as the checklist
    /// (`checklist`, in any case).
    pub brief_checklist: String,
    /// The title of a provider's sub-section that the brief copies as its known gaps.
    pub brief_known_gaps: String,
    /// The repository the documents describe, relative to the book root.
    pub source_root: Option<String>,
    /// Roots of the shared layer that a MUST in a contract chapter must cite.
    pub shared_layer: Vec<String>,
    /// Globs of the files searched for cited symbols; by default every source file of a
    /// language the table knows.
    pub symbol_files: Option<Vec<String>>,
    /// Words that are never taken for symbols.
    pub symbol_ignore: Vec<String>,
    /// Regular expressions of source line references.
    pub line_reference_patterns: Vec<String>,
    /// Terms banned per chapter.
    pub forbidden_terms: BTreeMap<String, Vec<String>>,
    /// Folders of the source tree whose rule citations count for a provider, besides those
    /// its claims cite, by provider name.
    pub provider_paths: BTreeMap<String, Vec<String>>,
    /// The renderers this preprocessor runs for, if restricted.
    pub renderers: Option<Vec<String>>,
    /// Whether mdBook runs its `links` preprocessor (includes) before this one, as the order
    /// mdBook derives from the `before` and `after` keys of every preprocessor says.
    pub links_first: bool,
    /// Severities set under `checks`; the rest have their default.
    severities: HashMap<Check, Severity>,
    chapter_severities: HashMap<String, HashMap<Check, Severity>>,
    /// By key, where each item kept of a list is written in book.toml (its index there): an
    /// item left out must not move the place of a later finding to the item before it.
    written_at: HashMap<String, Vec<usize>>,
    /// What cannot be used as written: values left out of the above, and (added once the book
    /// is read) paths that lead to nothing. Reported by the checks they name.
    pub problems: Vec<Problem>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            contract: Vec::new(),
            template: Vec::new(),
            specs: Vec::new(),
            spec_globs: globset::GlobSet::empty(),
            companions: Vec::new(),
            changed_since: None,
            baseline: None,
            test_results: Vec::new(),
            provider_reports: Vec::new(),
            test_results_limit: DEFAULT_RESULTS_LIMIT,
            version: None,
            brief_checklist: "checklist".to_owned(),
            brief_known_gaps: "Known gaps".to_owned(),
            source_root: None,
            shared_layer: Vec::new(),
            symbol_files: None,
            symbol_ignore: Vec::new(),
            line_reference_patterns: DEFAULT_LINE_REFERENCE_PATTERNS
                .iter()
                .map(|p| (*p).to_owned())
                .collect(),
            forbidden_terms: BTreeMap::new(),
            provider_paths: BTreeMap::new(),
            renderers: None,
            links_first: true,
            severities: HashMap::new(),
            chapter_severities: HashMap::new(),
            written_at: HashMap::new(),
            problems: Vec::new(),
        }
    }
}

impl Config {
    /// Reads and validates `[preprocessor.contract]` of a book's configuration. A value that
    /// cannot be used is left out, as if not written, and recorded in [`Config::problems`];
    /// only a table that cannot be read at all is an error.
    pub(crate) fn from_book_config(book: &BookConfig) -> Result<Config> {
        let table = match book.get::<Value>(TABLE) {
            Ok(table) => table,
            Err(error) => bail!("book.toml: `{TABLE}` could not be read: {error:#}"),
        };
        let mut config = match table {
            None => Config::default(),
            Some(value) => Config::from_value(&value)?,
        };
        config.links_first = links_first(book);
        Ok(config)
    }

    /// Validates the table given as a value.
    pub(crate) fn from_value(value: &Value) -> Result<Config> {
        let Value::Object(table) = value else {
            bail!(
                "book.toml: `{TABLE}` must be a table, found {}",
                kind(value)
            );
        };
        let mut config = Config::default();
        let mut problems = Vec::new();
        for (key, value) in table {
            config.set(key, value, &mut problems);
        }
        config.problems = problems;
        Ok(config)
    }

    /// Fails with every problem of the table, for the commands that change the book and so
    /// take no configuration with a mistake in it.
    pub(crate) fn without_problems(self) -> Result<Config> {
        match self.problems.as_slice() {
            [] => Ok(self),
            problems => bail!(
                "{}",
                problems
                    .iter()
                    .map(|p| format!("book.toml: {}", p.message))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        }
    }

    /// Where the `i`th item kept of the list `key` is written.
    pub(crate) fn item_at(&self, key: &str, i: usize) -> KeyPath {
        let written = self.written_at.get(key).and_then(|at| at.get(i));
        KeyPath::key(key).index(written.copied().unwrap_or(i))
    }

    /// Keeps of the list `key` (`contract` or `template`) the chapters `keep` takes.
    pub(crate) fn retain_chapters(&mut self, key: &str, keep: impl Fn(&str) -> bool) {
        let list = match key {
            "contract" => &mut self.contract,
            "template" => &mut self.template,
            _ => return,
        };
        let written = self.written_at.entry(key.to_owned()).or_default();
        let (at, kept): (Vec<usize>, Vec<String>) = std::mem::take(list)
            .into_iter()
            .enumerate()
            .map(|(i, chapter)| (written.get(i).copied().unwrap_or(i), chapter))
            .filter(|(_, chapter)| keep(chapter))
            .unzip();
        *written = at;
        *list = kept;
    }

    /// Records a problem found once the book is read (a path that leads to nothing).
    pub(crate) fn add_problem(&mut self, problem: Problem) {
        self.problems.push(problem);
    }

    /// Whether a problem was found at `key` (a key of the table).
    pub(crate) fn has_problem_at(&self, key: &str) -> bool {
        self.problems.iter().any(|p| p.at.top() == Some(key))
    }

    /// The severity of `check` in the chapter whose source path is `chapter`.
    pub(crate) fn severity(&self, check: Check, chapter: Option<&str>) -> Severity {
        chapter
            .and_then(|c| self.chapter_severities.get(c))
            .and_then(|s| s.get(&check))
            .or_else(|| self.severities.get(&check))
            .copied()
            .unwrap_or_else(|| check.default_severity())
    }

    /// Whether `check` is on anywhere: in the book, or in a chapter that turns it on.
    pub(crate) fn runs(&self, check: Check) -> bool {
        self.severity(check, None) != Severity::Off
            || self
                .chapter_severities
                .values()
                .any(|s| s.get(&check).is_some_and(|&s| s != Severity::Off))
    }

    /// Forgets the settings of `chapter` under `key` (`chapters` or `forbidden-terms`).
    pub(crate) fn forget_chapter(&mut self, key: &str, chapter: &str) {
        match key {
            "chapters" => {
                self.chapter_severities.remove(chapter);
            }
            _ => {
                self.forbidden_terms.remove(chapter);
            }
        }
    }

    /// The chapters named under `chapters`.
    pub(crate) fn chapter_keys(&self) -> impl Iterator<Item = &str> {
        self.chapter_severities.keys().map(String::as_str)
    }

    /// Whether `chapter` (a source path relative to `src`, `/`-separated) has the contract role.
    pub(crate) fn is_contract(&self, chapter: &str) -> bool {
        self.contract.iter().any(|c| c == chapter)
    }

    /// Whether `chapter` has the template role.
    pub(crate) fn is_template(&self, chapter: &str) -> bool {
        self.template.iter().any(|c| c == chapter)
    }

    /// Whether `chapter` is a filled spec (it matches one of `specs`).
    pub(crate) fn is_spec(&self, chapter: &str) -> bool {
        !self.specs.is_empty() && self.spec_globs.is_match(chapter)
    }

    /// The `specs` (their indexes) that `chapter` matches.
    pub(crate) fn specs_matching(&self, chapter: &str) -> Vec<usize> {
        self.spec_globs.matches(chapter)
    }

    /// Whether `chapter` may define axes: a contract chapter, or any chapter when no chapter
    /// is named a contract.
    pub(crate) fn may_define_axes(&self, chapter: &str) -> bool {
        self.contract.is_empty() || self.is_contract(chapter)
    }

    /// Whether `chapter` may hold answer sites: a template or spec chapter, or any chapter
    /// when no chapter is named a template.
    pub(crate) fn may_hold_answers(&self, chapter: &str) -> bool {
        self.template.is_empty() || self.is_template(chapter) || self.is_spec(chapter)
    }
}

/// Whether mdBook runs `links` before this preprocessor. mdBook orders preprocessors in layers
/// (mdbook-driver's `determine_preprocessors`): a preprocessor runs in the layer after the last
/// of those it must follow (`after`, or another's `before`), and within a layer by name. So
/// `links` comes first only if its layer is earlier, since `contract` sorts before `links`.
/// Without mdBook's default preprocessors (`build.use-default-preprocessors = false`) `links`
/// runs only when configured as `[preprocessor.links]`.
fn links_first(book: &BookConfig) -> bool {
    let tables: BTreeMap<String, Value> = book
        .preprocessors::<Value>()
        .map(|tables| tables.into_iter().collect())
        .unwrap_or_default();
    let defaults = book.build.use_default_preprocessors;
    let exists =
        |name: &str| tables.contains_key(name) || (defaults && matches!(name, "links" | "index"));
    if !exists("links") {
        return false;
    }
    // (runs first, runs after) pairs.
    let mut edges: Vec<(String, String)> = Vec::new();
    for (name, table) in &tables {
        let list = |key: &str| -> Vec<String> {
            match table.get(key) {
                Some(Value::Array(items)) => items
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect(),
                Some(Value::String(one)) => vec![one.clone()],
                _ => Vec::new(),
            }
        };
        for later in list("before").into_iter().filter(|n| exists(n)) {
            edges.push((name.clone(), later));
        }
        for earlier in list("after").into_iter().filter(|n| exists(n)) {
            edges.push((earlier, name.clone()));
        }
    }
    // The layer of a preprocessor: one past the deepest of those it follows (a cycle, which
    // mdBook refuses anyway, stops at the number of edges).
    fn layer(name: &str, edges: &[(String, String)], depth: usize) -> usize {
        if depth > edges.len() {
            return depth;
        }
        edges
            .iter()
            .filter(|(_, later)| later == name)
            .map(|(earlier, _)| layer(earlier, edges, depth + 1) + 1)
            .max()
            .unwrap_or(0)
    }
    layer("links", &edges, 0) < layer(NAME, &edges, 0)
}

/// A chapter path as written in book.toml, in the form chapters are compared in: `/`
/// separators, no leading `./`.
pub(crate) fn normalise(path: &str) -> String {
    let path = path.replace('\\', "/");
    path.trim_start_matches("./").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The messages of the problems of the table `value`.
    fn error(value: Value) -> String {
        let config = Config::from_value(&value).unwrap();
        assert!(!config.problems.is_empty(), "{value}");
        config
            .problems
            .iter()
            .map(|p| p.message.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn defaults_and_roles() {
        let config = Config::from_value(&json!({
            "after": ["links"],
            "command": "mdbook-contract",
            "contract": ["./provider-contract.md"],
            "template": "provider-spec-template.md",
        }))
        .unwrap();
        assert!(config.is_contract("provider-contract.md"));
        assert!(config.is_template("provider-spec-template.md"));
        assert_eq!(
            config.severity(Check::UnknownClaim, None),
            Severity::Warning
        );
        assert_eq!(config.severity(Check::UnknownAxis, None), Severity::Error);
    }

    #[test]
    fn a_list_of_only_bad_globs_is_as_if_not_written() {
        let bad = Config::from_value(&json!({ "symbol-files": ["[bad"] })).unwrap();
        assert_eq!(bad.symbol_files, None, "the default, not no file");
        assert_eq!(bad.problems.len(), 1);
        let some = Config::from_value(&json!({ "symbol-files": ["[bad", "*.go"] })).unwrap();
        assert_eq!(some.symbol_files, Some(vec!["*.go".to_owned()]));
        let none = Config::from_value(&json!({ "symbol-files": [] })).unwrap();
        assert_eq!(
            none.symbol_files,
            Some(Vec::new()),
            "written empty: no file"
        );
    }

    #[test]
    fn severities_per_check_and_chapter() {
        let config = Config::from_value(&json!({
            "checks": {"unknown-claim": "error"},
            "chapters": {"draft.md": {"checks": {"unknown-claim": "off"}}},
        }))
        .unwrap();
        assert_eq!(config.severity(Check::UnknownClaim, None), Severity::Error);
        assert_eq!(
            config.severity(Check::UnknownClaim, Some("draft.md")),
            Severity::Off
        );
        assert_eq!(
            config.severity(Check::UnknownClaim, Some("other.md")),
            Severity::Error
        );
        let off = Config::from_value(&json!({
            "checks": {"em-dash": "off", "line-reference": "off"},
            "chapters": {"draft.md": {"checks": {"em-dash": "error"}}},
        }))
        .unwrap();
        assert!(off.runs(Check::EmDash), "on in one chapter");
        assert!(!off.runs(Check::LineReference));
        assert!(off.runs(Check::UnknownAxis));
    }

    #[test]
    fn unknown_keys_suggest_the_nearest() {
        let message = error(json!({"contracts": ["a.md"]}));
        assert!(
            message.contains("`preprocessor.contract.contracts` is not a key"),
            "{message}"
        );
        assert!(message.contains("did you mean `contract`?"), "{message}");
        let message = error(json!({"checks": {"unknown-axes": "error"}}));
        assert!(
            message.contains("did you mean `unknown-axis`?"),
            "{message}"
        );
    }

    #[test]
    fn wrong_types_name_the_key_and_the_type() {
        let message = error(json!({"contract": 3}));
        assert!(
            message.contains("`preprocessor.contract.contract` must be a list of chapter paths"),
            "{message}"
        );
        assert!(message.contains("found a number"), "{message}");
        let message = error(json!({"checks": {"unknown-axis": "fatal"}}));
        assert!(
            message.contains("must be \"error\", \"warning\" or \"off\", found \"fatal\""),
            "{message}"
        );
        let message = error(json!({"template": ["a.md", true]}));
        assert!(
            message.contains("`preprocessor.contract.template[1]` must be a string"),
            "{message}"
        );
        let message = error(json!({"line-reference-patterns": ["("]}));
        assert!(message.contains("not a regular expression"), "{message}");
    }

    #[test]
    fn links_first_follows_the_order_mdbook_derives() {
        let first = |toml: &str| {
            let book: BookConfig = format!("[book]\ntitle = \"T\"\n{toml}").parse().unwrap();
            links_first(&book)
        };
        assert!(!first(""), "`contract` sorts before `links`");
        assert!(!first("[preprocessor.contract]\ncontract = [\"c.md\"]\n"));
        assert!(first("[preprocessor.contract]\nafter = [\"links\"]\n"));
        assert!(first(
            "[preprocessor.links]\nbefore = [\"contract\"]\n[preprocessor.contract]\n"
        ));
        assert!(first(
            "[preprocessor.spec]\nafter = [\"links\"]\n[preprocessor.contract]\nafter = [\"spec\"]\n"
        ));
        assert!(!first(
            "[build]\nuse-default-preprocessors = false\n[preprocessor.contract]\nafter = [\"links\"]\n"
        ));
        assert!(first(
            "[build]\nuse-default-preprocessors = false\n[preprocessor.links]\n[preprocessor.contract]\nafter = [\"links\"]\n"
        ));
    }
}
