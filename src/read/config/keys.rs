//! Each key of `[preprocessor.contract]` read by its kind (paths, globs, chapters, text, a
//! version, severities), every mistake a [`Problem`] that names the key, what was found and
//! what was expected. To add a key: its arm in `Config::set` and, for a new kind, a method
//! beside the others.

use std::collections::HashMap;

use serde_json::Value;

use super::{Config, KNOWN_KEYS, KeyPath, MDBOOK_KEYS, Problem, normalise};

use crate::util::suggest;
use crate::util::vocab::{Check, Severity};

pub(super) fn expected(key: &str) -> &'static str {
    KNOWN_KEYS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("a value", |(_, e)| e)
}

pub(super) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a table",
    }
}

/// What a list key expects, for its messages.
pub(super) fn list_of(at: &KeyPath) -> &'static str {
    KNOWN_KEYS
        .iter()
        .find(|(k, _)| Some(*k) == at.top())
        .filter(|_| at.parts.len() == 1)
        .map_or("a list of strings", |(_, e)| e)
}

pub(super) fn wrong_type(at: &KeyPath, what: &str, value: &Value) -> Problem {
    Problem::malformed(
        at.clone(),
        format!("`{at}` must be {what}, found {}", kind(value)),
    )
}

pub(super) fn string(at: &KeyPath, value: &Value, problems: &mut Vec<Problem>) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        other => {
            problems.push(wrong_type(at, expected(at.top().unwrap_or("")), other));
            None
        }
    }
}

/// A list of strings (a lone string is a list of one, as mdBook takes `renderers`): `None`
/// when the value is not a list, else the strings of it with their index in the list, each
/// other item a problem.
pub(super) fn strings(
    at: &KeyPath,
    value: &Value,
    problems: &mut Vec<Problem>,
) -> Option<Vec<(usize, String)>> {
    let what = list_of(at);
    match value {
        Value::String(s) => Some(vec![(0, s.clone())]),
        Value::Array(items) => Some(
            items
                .iter()
                .enumerate()
                .filter_map(|(i, item)| match item {
                    Value::String(s) => Some((i, s.clone())),
                    other => {
                        problems.push(wrong_type(
                            &at.index(i),
                            &format!("a string ({what})"),
                            other,
                        ));
                        None
                    }
                })
                .collect(),
        ),
        other => {
            problems.push(wrong_type(at, what, other));
            None
        }
    }
}

pub(super) fn paths(
    at: &KeyPath,
    value: &Value,
    problems: &mut Vec<Problem>,
) -> Option<Vec<(usize, String)>> {
    strings(at, value, problems)
        .map(|list| list.into_iter().map(|(i, p)| (i, normalise(&p))).collect())
}

/// The items of `list` whose glob (as `glob_of` makes it; `None`: not a glob) compiles, each
/// other one a problem.
pub(super) fn globs(
    at: &KeyPath,
    list: Vec<(usize, String)>,
    problems: &mut Vec<Problem>,
    glob_of: impl Fn(&str) -> Option<String>,
) -> Vec<(usize, String)> {
    let mut valid = Vec::new();
    for (i, item) in list {
        if let Some(pattern) = glob_of(&item)
            && let Err(error) = globset::GlobBuilder::new(&pattern)
                .literal_separator(true)
                .build()
        {
            problems.push(not_a_glob(at, i, &item, &error));
            continue;
        }
        valid.push((i, item));
    }
    valid
}

/// The problem of a key this preprocessor does not read, with the nearest known key.
pub(super) fn not_a_key(at: &KeyPath, key: &str) -> Problem {
    let known = KNOWN_KEYS
        .iter()
        .map(|(k, _)| *k)
        .chain(MDBOOK_KEYS.iter().copied());
    let hint = suggest::hint(key, known);
    Problem::malformed(
        at.clone().naming(),
        format!("`{at}` is not a key of this preprocessor{hint}"),
    )
}

/// The text trimmed, or `None` when nothing but whitespace is left.
pub(super) fn non_blank(text: &str) -> Option<String> {
    (!text.trim().is_empty()).then(|| text.trim().to_owned())
}

pub(super) fn not_a_glob(at: &KeyPath, i: usize, item: &str, error: &globset::Error) -> Problem {
    let at = at.index(i);
    let message = format!("`{at}` is `{item}`, which is not a glob: {}", error.kind());
    Problem::malformed(at, message)
}

pub(super) fn severities(
    at: &KeyPath,
    value: &Value,
    problems: &mut Vec<Problem>,
) -> HashMap<Check, Severity> {
    let mut out = HashMap::new();
    let Value::Object(table) = value else {
        problems.push(wrong_type(
            at,
            "a table of check names to \"error\", \"warning\" or \"off\"",
            value,
        ));
        return out;
    };
    for (name, severity) in table {
        let check_at = at.child(name);
        let Some(check) = Check::from_name(name) else {
            let hint = suggest::hint(name, Check::names());
            problems.push(Problem::malformed(
                check_at.clone().naming(),
                format!("`{check_at}` is not a check{hint}"),
            ));
            continue;
        };
        let parsed = match severity {
            Value::String(s) => Severity::parse(s),
            _ => None,
        };
        let Some(parsed) = parsed else {
            problems.push(Problem::malformed(
                check_at.clone(),
                format!(
                    "`{check_at}` must be \"error\", \"warning\" or \"off\", found {}",
                    match severity {
                        Value::String(s) => format!("\"{s}\""),
                        other => kind(other).to_owned(),
                    }
                ),
            ));
            continue;
        };
        out.insert(check, parsed);
    }
    out
}

impl Config {
    /// Reads one key of the table by the kind of value it takes, each mistake a problem.
    pub(super) fn set(&mut self, key: &str, value: &Value, problems: &mut Vec<Problem>) {
        let at = KeyPath::key(key);
        match key {
            "contract" | "template" | "companions" => self.set_paths(key, &at, value, problems),
            "specs" => self.set_specs(&at, value, problems),
            "version" => self.set_version(&at, value, problems),
            "changed-since" | "source-root" | "baseline" | "brief-checklist"
            | "brief-known-gaps" => self.set_text(key, &at, value, problems),
            "shared-layer" => self.set_shared_layer(&at, value, problems),
            "symbol-files" => {
                if let Some(patterns) = strings(&at, value, problems) {
                    let written = patterns.len();
                    let patterns = globs(&at, patterns, problems, |p| Some(p.to_owned()));
                    // A list whose every item is left out is as if not written: the default,
                    // not "no file".
                    if written == 0 || !patterns.is_empty() {
                        self.symbol_files = Some(self.keep(key, patterns));
                    }
                }
            }
            "test-results" => {
                if let Some(patterns) = strings(&at, value, problems) {
                    let patterns = globs(&at, patterns, problems, |p| Some(p.to_owned()));
                    self.test_results = self.keep(key, patterns);
                }
            }
            "provider-reports" => {
                if let Some(patterns) = strings(&at, value, problems) {
                    let patterns = globs(&at, patterns, problems, |p| Some(p.to_owned()));
                    self.provider_reports = self.keep(key, patterns);
                }
            }
            "test-results-limit" => self.set_results_limit(&at, value, problems),
            "symbol-ignore" => {
                if let Some(words) = strings(&at, value, problems) {
                    self.symbol_ignore = self.keep(key, words);
                }
            }
            "line-reference-patterns" => self.set_line_reference_patterns(&at, value, problems),
            "checks" => {
                let severities = severities(&at, value, problems);
                self.severities.extend(severities);
            }
            "chapters" => self.set_chapters(&at, value, problems),
            "forbidden-terms" => self.set_forbidden_terms(&at, value, problems),
            "provider-paths" => self.set_provider_paths(&at, value, problems),
            "renderers" => {
                self.renderers = strings(&at, value, problems)
                    .map(|list| list.into_iter().map(|(_, r)| r).collect());
            }
            _ if MDBOOK_KEYS.contains(&key) => {}
            _ => problems.push(not_a_key(&at, key)),
        }
    }

    /// Reads a list of paths into `contract`, `template` or `companions`.
    pub(super) fn set_paths(
        &mut self,
        key: &str,
        at: &KeyPath,
        value: &Value,
        problems: &mut Vec<Problem>,
    ) {
        let list = paths(at, value, problems).unwrap_or_default();
        let list = self.keep(key, list);
        match key {
            "contract" => self.contract = list,
            "template" => self.template = list,
            "companions" => self.companions = list,
            _ => {}
        }
    }

    /// Reads `specs`, a list of chapter paths or globs, keeping those that compile as globs.
    pub(super) fn set_specs(&mut self, at: &KeyPath, value: &Value, problems: &mut Vec<Problem>) {
        let mut globs = globset::GlobSetBuilder::new();
        let mut specs = Vec::new();
        for (i, spec) in paths(at, value, problems).into_iter().flatten() {
            let glob = globset::GlobBuilder::new(&spec)
                .literal_separator(true)
                .build();
            match glob {
                Ok(glob) => {
                    globs.add(glob);
                    specs.push((i, spec));
                }
                Err(error) => problems.push(not_a_glob(at, i, &spec, &error)),
            }
        }
        self.spec_globs = globs.build().unwrap_or_else(|_| globset::GlobSet::empty());
        self.specs = self.keep("specs", specs);
    }

    /// Reads `version`, which must be a semantic version.
    pub(super) fn set_version(&mut self, at: &KeyPath, value: &Value, problems: &mut Vec<Problem>) {
        let Some(text) = string(at, value, problems) else {
            return;
        };
        match semver::Version::parse(text.trim()) {
            Ok(version) => self.version = Some(version),
            Err(error) => problems.push(Problem::malformed(
                at.clone(),
                format!("`{at}` is `{text}`, which is not a semantic version ({error}); write it as MAJOR.MINOR.PATCH, such as \"1.2.0\""),
            )),
        }
    }

    /// Reads a key whose value is one string: a revision, a folder, a file or a title.
    pub(super) fn set_text(
        &mut self,
        key: &str,
        at: &KeyPath,
        value: &Value,
        problems: &mut Vec<Problem>,
    ) {
        match (key, string(at, value, problems)) {
            ("source-root", root) => self.source_root = root,
            // An empty value (from the environment, say) means every line.
            ("changed-since", Some(rev)) => self.changed_since = non_blank(&rev),
            ("baseline", Some(file)) => self.baseline = non_blank(&file),
            ("brief-checklist", Some(words)) => self.brief_checklist = words,
            ("brief-known-gaps", Some(title)) => self.brief_known_gaps = title,
            _ => {}
        }
    }

    /// Reads `test-results-limit`, a whole number of MiB from 1 up.
    pub(super) fn set_results_limit(
        &mut self,
        at: &KeyPath,
        value: &Value,
        problems: &mut Vec<Problem>,
    ) {
        match value.as_u64().filter(|&n| (1..=1 << 20).contains(&n)) {
            Some(mib) => self.test_results_limit = mib << 20,
            None => problems.push(Problem::malformed(
                at.clone(),
                format!(
                    "`{at}` must be a whole number of MiB from 1 to 1048576, found {}",
                    match value {
                        Value::Number(n) => n.to_string(),
                        other => kind(other).to_owned(),
                    }
                ),
            )),
        }
    }

    /// Reads `shared-layer`, folders as written without `./` or a trailing `/`.
    pub(super) fn set_shared_layer(
        &mut self,
        at: &KeyPath,
        value: &Value,
        problems: &mut Vec<Problem>,
    ) {
        if let Some(roots) = strings(at, value, problems) {
            let roots = globs(at, roots, problems, |root| {
                let root = root.trim_start_matches("./").trim_end_matches('/');
                crate::read::code::is_glob(root).then(|| root.to_owned())
            });
            self.shared_layer = self.keep("shared-layer", roots);
        }
    }

    /// Reads `line-reference-patterns`, keeping those that compile as regular expressions.
    pub(super) fn set_line_reference_patterns(
        &mut self,
        at: &KeyPath,
        value: &Value,
        problems: &mut Vec<Problem>,
    ) {
        let Some(patterns) = strings(at, value, problems) else {
            return;
        };
        let mut valid = Vec::new();
        for (i, pattern) in patterns {
            match regex::Regex::new(&pattern) {
                Ok(_) => valid.push((i, pattern)),
                Err(error) => problems.push(Problem::malformed(
                    at.index(i),
                    format!(
                        "`{}` is `{pattern}`, which is not a regular expression: {error}",
                        at.index(i)
                    ),
                )),
            }
        }
        self.line_reference_patterns = self.keep("line-reference-patterns", valid);
    }

    /// Reads `chapters`, a table of chapters each with a `checks` table of severities.
    pub(super) fn set_chapters(
        &mut self,
        at: &KeyPath,
        value: &Value,
        problems: &mut Vec<Problem>,
    ) {
        let Value::Object(chapters) = value else {
            problems.push(wrong_type(at, expected("chapters"), value));
            return;
        };
        for (chapter, settings) in chapters {
            let chapter_at = at.child(chapter);
            let Value::Object(settings) = settings else {
                problems.push(wrong_type(
                    &chapter_at,
                    "a table with a `checks` table",
                    settings,
                ));
                continue;
            };
            for (setting, value) in settings {
                if setting != "checks" {
                    let setting_at = chapter_at.child(setting);
                    problems.push(Problem::malformed(
                        setting_at.clone().naming(),
                        format!("`{setting_at}` is not a key; a chapter table has only `checks`"),
                    ));
                    continue;
                }
                let severities = severities(&chapter_at.child("checks"), value, problems);
                self.chapter_severities
                    .entry(normalise(chapter))
                    .or_default()
                    .extend(severities);
            }
        }
    }

    /// Reads `forbidden-terms`, a table of chapters each with a list of terms.
    pub(super) fn set_forbidden_terms(
        &mut self,
        at: &KeyPath,
        value: &Value,
        problems: &mut Vec<Problem>,
    ) {
        let Value::Object(chapters) = value else {
            problems.push(wrong_type(at, expected("forbidden-terms"), value));
            return;
        };
        for (chapter, terms) in chapters {
            if let Some(terms) = strings(&at.child(chapter), terms, problems) {
                self.forbidden_terms.insert(
                    normalise(chapter),
                    terms.into_iter().map(|(_, t)| t).collect(),
                );
            }
        }
    }

    /// Reads `provider-paths`, a table of providers each with a list of folders.
    pub(super) fn set_provider_paths(
        &mut self,
        at: &KeyPath,
        value: &Value,
        problems: &mut Vec<Problem>,
    ) {
        let Value::Object(providers) = value else {
            problems.push(wrong_type(at, expected("provider-paths"), value));
            return;
        };
        for (provider, folders) in providers {
            if let Some(folders) = strings(&at.child(provider), folders, problems) {
                // A glob that does not compile is a problem at its item; it is kept, so that the
                // items after it keep their index, and names nothing.
                let _ = globs(&at.child(provider), folders.clone(), problems, |path| {
                    crate::read::code::is_glob(path).then(|| path.to_owned())
                });
                self.provider_paths.insert(
                    provider.clone(),
                    folders
                        .into_iter()
                        .map(|(_, f)| f.trim_start_matches("./").trim_end_matches('/').to_owned())
                        .collect(),
                );
            }
        }
    }

    /// The items of a list, recording where each was written.
    pub(super) fn keep(&mut self, key: &str, list: Vec<(usize, String)>) -> Vec<String> {
        let (indexes, items) = list.into_iter().unzip();
        self.written_at.insert(key.to_owned(), indexes);
        items
    }
}
