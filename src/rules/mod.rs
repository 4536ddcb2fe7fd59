//! Rules: the contract's obligations with an identity, and what in the code cites them.
//!
//! A rule is a line `r[ID]` (mdbook-spec's and tracey's marker) alone before the paragraph or
//! list item it labels, in a contract chapter. [`Rules::collect`] reads them once the model is
//! collected (an `applies=PROFILE` is checked against the axis whose section holds the
//! marker); `code.rs` reads `r[impl ID]` and `r[verify ID]` in comments of the source tree,
//! in the source index's one pass; `coverage.rs` puts the two together per built provider.
//! Like the model, this module records what is written and what it cannot take in
//! ([`Rules::problems`]); the checks decide what is wrong, `render` draws the markers and the
//! matrix.
//!
//! To add a key to markers: `marker.rs` parses it, [`Rules::collect`] checks it against the
//! model, and the README's table of the syntax says what it means.

pub(crate) mod code;
pub(crate) mod coverage;
pub(crate) mod marker;

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::chapter::Chapter;
use crate::config::Config;
use crate::model::Model;
use crate::vocab::Check;

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
    /// The marker line, without its line ending.
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

    /// Whether the rule obliges whom it binds to anything: a MUST or a SHOULD. A MAY permits,
    /// and a rule without a keyword states no obligation: neither has anything to verify.
    pub(crate) fn obliges(&self) -> bool {
        self.level.is_some_and(|level| level >= Level::Should)
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
            for (line, inner, inner_at) in markers(chapter) {
                if !config.is_contract(&chapter.key) {
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
                rules.take(number, chapter, model, line, inner, inner_at);
            }
        }
        rules
    }

    /// Takes in the marker on `line` of chapter `number`, whose inside `inner` starts at
    /// `inner_at`.
    fn take(
        &mut self,
        number: usize,
        chapter: &Chapter<'_>,
        model: &Model,
        line: Range<usize>,
        inner: &str,
        inner_at: usize,
    ) {
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
        let Some(text) = labelled(chapter, &line) else {
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
            self.problems.push(Problem {
                check: Check::DuplicateRule,
                chapter: number,
                range: id_range,
                message: format!("the rule `{id}` is defined twice"),
                help: Some("give each obligation its own ID; when a rule changes, keep its ID and raise its version (`r[ID+2]`)".to_owned()),
                warning: false,
                first: Some((first.chapter, first.id_range.clone())),
            });
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
            let hint = crate::suggest::hint(&profile, names.clone());
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

/// The marker lines of `chapter` outside code and HTML: each line's range (without its line
/// ending), its inside, and where the inside starts.
pub(crate) fn markers<'c>(
    chapter: &'c Chapter<'_>,
) -> impl Iterator<Item = (Range<usize>, &'c str, usize)> + 'c {
    let content = chapter.content;
    let mut at = 0;
    content.split_inclusive('\n').filter_map(move |line| {
        let start = at;
        at += line.len();
        // Cheap test first: most lines do not start with `r[`.
        if !line.starts_with("r[") || chapter.index.is_verbatim(start) {
            return None;
        }
        let (inner, offset) = marker::marker_line(line)?;
        let end = start + line.trim_end().len();
        Some((start..end, inner, start + offset))
    })
}

/// What the marker on `line` labels: the rest of its paragraph, or the paragraph, list item,
/// heading or table that starts next with nothing but blank lines between.
fn labelled(chapter: &Chapter<'_>, line: &Range<usize>) -> Option<Range<usize>> {
    let content = chapter.content;
    let index = &chapter.index;
    let after = content[line.end..]
        .find('\n')
        .map_or(content.len(), |i| line.end + i + 1);
    if let Some(paragraph) = index.paragraph_at(line.start)
        && paragraph.end > after
        && !content[after..paragraph.end].trim().is_empty()
    {
        return Some(after..paragraph.end);
    }
    let starts = index
        .paragraphs
        .iter()
        .chain(&index.items)
        .chain(index.headings.iter().map(|h| &h.range))
        .chain(index.tables.iter().map(|t| &t.range))
        .filter(|r| r.start >= after)
        .min_by_key(|r| (r.start, std::cmp::Reverse(r.end)))?;
    content[after..starts.start]
        .trim()
        .is_empty()
        .then(|| starts.clone())
}
