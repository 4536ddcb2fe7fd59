//! Rules: the contract's obligations with an identity, and what in the code cites them.
//!
//! A rule is a line `r[ID]` (mdbook-spec's and tracey's marker) alone before the paragraph or
//! list item it labels, in a contract chapter. [`Rules::collect`] reads them once the model is
//! collected (an `applies=PROFILE` is checked against the axis whose section holds the
//! marker); `code.rs` reads `r[impl ID]` and `r[verify ID]` in comments of the source tree,
//! in the source index's one pass; `coverage/` puts the two together per built provider.
//! Like the model, this module records what is written and what it cannot take in
//! ([`Rules::problems`]); the checks decide what is wrong, `render` draws the markers and the
//! matrix.
//!
//! To add a key to markers: `marker.rs` parses it, [`Rules::collect`] checks it against the
//! model, and the guide's table of the syntax (`guide/src/reference/rules.md`) says what it means.

pub(crate) mod code;
pub(crate) mod coverage;
pub(crate) mod marker;
mod marker_lines;
pub(crate) mod reported;
pub(crate) mod status;

use marker_lines::labelled_by;
pub(crate) use marker_lines::{MarkerLine, markers};

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::model::Model;
use crate::read::chapter::Chapter;
use crate::read::config::Config;
use crate::util::vocab::Check;

/// How strongly a rule obliges: the strongest RFC 2119 keyword of its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// MAY, OPTIONAL.
    May,
    /// SHOULD, SHOULD NOT, RECOMMENDED.
    Should,
    /// MUST, MUST NOT, SHALL, REQUIRED.
    Must,
}

impl Level {
    /// The keyword as the contract writes it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
            Level::May => "MAY",
        }
    }
}

static KEYWORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(MUST|SHALL|REQUIRED|SHOULD|RECOMMENDED|MAY|OPTIONAL)\b").expect("valid regex")
});

/// How strongly a rule of `level` obliges: 0 for a MAY (it permits), 1 for a SHOULD, 2 for a
/// MUST and for a rule without a keyword (every marker is a requirement).
pub(crate) fn strength(level: Option<Level>) -> u8 {
    match level {
        Some(Level::May) => 0,
        Some(Level::Should) => 1,
        Some(Level::Must) | None => 2,
    }
}

/// The level of a rule as a reader is told it: its keyword, or `required` without one.
pub(crate) fn level_name(level: Option<Level>) -> &'static str {
    level.map_or("required", Level::as_str)
}

/// The strongest RFC 2119 keyword of `text`.
pub(crate) fn level_of(text: &str) -> Option<Level> {
    KEYWORDS
        .find_iter(text)
        .map(|m| match m.as_str() {
            "MUST" | "SHALL" | "REQUIRED" => Level::Must,
            "SHOULD" | "RECOMMENDED" => Level::Should,
            _ => Level::May,
        })
        .max()
}

/// One obligation of the contract.
#[derive(Debug, Clone)]
pub(crate) struct Rule {
    /// Its ID.
    pub id: String,
    /// Its version (1 unless the marker says `+N`).
    pub version: u32,
    /// The strongest RFC 2119 keyword of its text, if it has one.
    pub level: Option<Level>,
    /// `applies=`: the axis whose section holds the marker, and the profile that the rule binds.
    pub applies: Option<(String, String)>,
    /// An `applies=` is written but names no profile here (`malformed-rule` says why): the
    /// rule binds nobody until it does, so its citations are not orphaned and no provider is
    /// told to verify what may not bind it.
    pub applies_unread: bool,
    /// The chapter.
    pub chapter: usize,
    /// The marker, `PREFIX[...]`, after any blockquote prefix, without its line ending.
    pub marker: Range<usize>,
    /// The ID as written in the marker (with its `+N`).
    pub id_range: Range<usize>,
    /// The paragraph, list item or heading that the marker labels.
    pub text: Range<usize>,
}

impl Rule {
    /// The anchor the rendered marker carries, in mdbook-spec's form.
    pub(crate) fn anchor(&self) -> String {
        anchor_of(&self.id)
    }

    /// Whether the rule obliges whom it binds to anything: every rule but a MAY. A marker is a
    /// requirement, as mdbook-spec and tracey count it; only a MAY permits, with nothing to
    /// verify.
    pub(crate) fn obliges(&self) -> bool {
        strength(self.level) >= 1
    }

    /// Whether the rule is required: a MUST, or a marker without an RFC 2119 keyword (counted
    /// like a MUST, shown as `required`).
    pub(crate) fn required(&self) -> bool {
        strength(self.level) == 2
    }

    /// Whether the rule binds `provider` (an index into the model's providers): every rule
    /// does, but one that `applies=` to a profile binds the providers that claim it.
    pub(crate) fn binds(&self, model: &Model, provider: usize) -> bool {
        if self.applies_unread {
            return false;
        }
        match &self.applies {
            None => true,
            Some((axis, profile)) => model
                .claims_of(provider, axis)
                .any(|claim| claim.profile.text == *profile),
        }
    }
}

/// The anchor of the rule `id`: `r-` and the ID, as mdbook-spec writes it.
pub(crate) fn anchor_of(id: &str) -> String {
    format!("r-{id}")
}

/// A marker that cannot be taken in, for the check named.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    /// `malformed-rule` or `duplicate-rule`.
    pub check: Check,
    /// The chapter.
    pub chapter: usize,
    /// What to point at.
    pub range: Range<usize>,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// Reported as a warning at most: a marker outside the contract chapters.
    pub warning: bool,
    /// The rule it clashes with: its chapter and ID range.
    pub first: Option<(usize, Range<usize>)>,
}

/// The rules of the book.
#[derive(Debug, Default)]
pub(crate) struct Rules {
    /// Whether the book has rules at all: book.toml names contract chapters.
    pub enabled: bool,
    /// The rules in document order, each ID once (the first definition).
    pub rules: Vec<Rule>,
    by_id: HashMap<String, usize>,
    /// What could not be taken in.
    pub problems: Vec<Problem>,
    /// The prefixes of the markers (`r`, and any other the contract uses, as tracey's `req`):
    /// citations in code are written with the same.
    pub prefixes: Vec<String>,
}

impl Rules {
    /// Reads the markers of every chapter. Without contract chapters there are no rules and
    /// every marker is left to whoever else reads it (mdbook-spec's `r[...]` in the Rust
    /// Reference), unreported.
    pub(crate) fn collect(chapters: &[Chapter<'_>], model: &Model, config: &Config) -> Rules {
        let mut rules = Rules {
            enabled: !config.contract.is_empty(),
            ..Rules::default()
        };
        if !rules.enabled {
            return rules;
        }
        for (number, chapter) in chapters.iter().enumerate() {
            for found in markers(chapter) {
                let contract = config.is_contract(&chapter.key);
                // Another prefix than `r` makes a marker only where it reads as one: in a
                // contract chapter, with an ID (`a[1]` alone on a line elsewhere is text).
                if found.prefix != "r" && (!contract || marker::parse_marker(found.inner).is_err())
                {
                    continue;
                }
                if !contract {
                    let line = found.line;
                    rules.problems.push(Problem {
                        check: Check::MalformedRule,
                        chapter: number,
                        range: line,
                        message: format!(
                            "a rule marker outside the contract chapters ({}) is left as written",
                            config.contract.join(", ")
                        ),
                        help: Some("rules are defined in the chapters book.toml's `contract` key names; move the marker there, or suppress this warning if it belongs to another preprocessor".to_owned()),
                        warning: true,
                        first: None,
                    });
                    continue;
                }
                if !rules.prefixes.iter().any(|p| p == found.prefix) {
                    rules.prefixes.push(found.prefix.to_owned());
                }
                rules.take(number, chapter, model, &found);
            }
        }
        rules
    }

    /// Takes in the marker `found` of chapter `number`.
    fn take(
        &mut self,
        number: usize,
        chapter: &Chapter<'_>,
        model: &Model,
        found: &MarkerLine<'_>,
    ) {
        let (line, inner, inner_at) = (found.line.clone(), found.inner, found.inner_at);
        let problem = |range: Range<usize>, message: String, help: Option<&str>| Problem {
            check: Check::MalformedRule,
            chapter: number,
            range,
            message,
            help: help.map(str::to_owned),
            warning: false,
            first: None,
        };
        let marker = match marker::parse_marker(inner) {
            Ok(marker) => marker,
            Err((message, range)) => {
                let at = inner_at + range.start..inner_at + range.end;
                let at = if at.is_empty() { line } else { at };
                self.problems.push(problem(at, message, None));
                return;
            }
        };
        for (message, range) in &marker.problems {
            let at = inner_at + range.start..inner_at + range.end;
            self.problems.push(problem(at, message.clone(), None));
        }
        let mut applies_unread = marker.applies_unread;
        let lead = inner.len()
            - inner
                .trim_start_matches(|c: char| c.is_ascii_whitespace())
                .len();
        let id_len = inner.split_ascii_whitespace().next().map_or(0, str::len);
        let id_range = inner_at + lead..inner_at + lead + id_len;
        let Some(text) = labelled_by(chapter, found) else {
            self.problems.push(problem(
                line,
                format!("the marker `r[{}]` labels nothing", marker.rule.id),
                Some("a marker stands alone on the line directly before the paragraph or list item it labels"),
            ));
            return;
        };
        let applies = match marker.applies {
            None => None,
            Some((profile, range)) => {
                let at = inner_at + range.start..inner_at + range.end;
                let applies = self.applies(number, model, &line, profile, at);
                applies_unread |= applies.is_none();
                applies
            }
        };
        let id = marker.rule.id;
        if let Some(&first) = self.by_id.get(&id) {
            let first = &self.rules[first];
            let twice = duplicate(number, id_range, &id, first);
            self.problems.push(twice);
            return;
        }
        let level = level_of(&chapter.content[text.clone()]);
        self.by_id.insert(id.clone(), self.rules.len());
        self.rules.push(Rule {
            id,
            version: marker.rule.version,
            level,
            applies,
            applies_unread,
            chapter: number,
            marker: line,
            id_range,
            text,
        });
    }

    /// The axis and profile of `applies=PROFILE` (its bytes at `at`) in a marker on `line` of
    /// chapter `number`: the axis whose section holds the marker, which must list the profile.
    /// `None`, with a problem, when it cannot be read.
    fn applies(
        &mut self,
        number: usize,
        model: &Model,
        line: &Range<usize>,
        profile: String,
        at: Range<usize>,
    ) -> Option<(String, String)> {
        let mut problem = |message: String, help: String| {
            self.problems.push(Problem {
                check: Check::MalformedRule,
                chapter: number,
                range: at.clone(),
                message,
                help: Some(help),
                warning: false,
                first: None,
            });
        };
        let axis = model
            .axes
            .iter()
            .filter(|a| a.chapter == number && a.section.contains(&line.start))
            .max_by_key(|a| a.section.start);
        let Some(axis) = axis else {
            problem(
                format!("`applies={profile}` stands outside any axis's section"),
                "`applies=PROFILE` is written in the section of the axis whose profile it names; a rule outside one binds every provider".to_owned(),
            );
            return None;
        };
        if axis.profile(&profile).is_none() {
            let names = axis.profiles.iter().map(|p| p.name.as_str());
            let hint = crate::util::suggest::hint(&profile, names.clone());
            let listed = names
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ");
            problem(
                format!(
                    "`applies={profile}` names no profile of the axis `{}`{hint}",
                    axis.code
                ),
                format!("its `Profile` table lists {listed}"),
            );
            return None;
        }
        Some((axis.code.clone(), profile))
    }

    /// The rule with `id`.
    pub(crate) fn get(&self, id: &str) -> Option<&Rule> {
        self.by_id.get(id).map(|&i| &self.rules[i])
    }

    /// Every rule's ID, for suggestions.
    pub(crate) fn ids(&self) -> impl Iterator<Item = &str> + Clone {
        self.rules.iter().map(|r| r.id.as_str())
    }

    /// Whether `fragment` is the anchor of a rule of chapter `chapter` (the rendered marker's
    /// id, which no heading of the source has).
    pub(crate) fn is_anchor_in(&self, chapter: usize, fragment: &str) -> bool {
        fragment
            .strip_prefix("r-")
            .and_then(|id| self.get(id))
            .is_some_and(|rule| rule.chapter == chapter)
    }
}

/// `duplicate-rule`: the rule `id` defined again at `id_range` of chapter `number`.
fn duplicate(number: usize, id_range: Range<usize>, id: &str, first: &Rule) -> Problem {
    Problem {
        check: Check::DuplicateRule,
        chapter: number,
        range: id_range,
        message: format!("the rule `{id}` is defined twice"),
        help: Some("give each obligation its own ID; when a rule changes, keep its ID and raise its version (`r[ID+2]`)".to_owned()),
        warning: false,
        first: Some((first.chapter, first.id_range.clone())),
    }
}
