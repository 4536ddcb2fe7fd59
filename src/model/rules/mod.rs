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
pub(crate) mod reported;
pub(crate) mod status;

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

/// A marker line of a chapter.
pub(crate) struct MarkerLine<'c> {
    /// The marker, `PREFIX[...]`, after any blockquote prefix and without its line ending.
    pub line: Range<usize>,
    /// Its prefix (`r`, or `req` as tracey lets a spec choose).
    pub prefix: &'c str,
    /// The text between the brackets.
    pub inner: &'c str,
    /// Where `inner` starts.
    pub inner_at: usize,
    /// The blockquote whose first line it is (tracey's form for a rule of several paragraphs):
    /// the rule's text is the rest of the quote.
    pub quote: Option<Range<usize>>,
}

/// The marker lines of `chapter` outside code and HTML, at the start of a line or of a
/// blockquote's line (`> r[ID]`, as in an admonition or tracey's multi-paragraph rules).
pub(crate) fn markers<'c>(chapter: &'c Chapter<'_>) -> impl Iterator<Item = MarkerLine<'c>> + 'c {
    let content = chapter.content;
    let bytes = content.as_bytes();
    // Every chapter is read for markers (one outside the contract chapters is reported), so
    // only the `[`s are visited, not every line: a marker's `[` follows a word of lowercase
    // letters and digits that starts its line (after a blockquote's `>`s).
    memchr::memchr_iter(b'[', bytes).filter_map(move |open| {
        let word = bytes[..open]
            .iter()
            .rposition(|b| !(b.is_ascii_lowercase() || b.is_ascii_digit()))
            .map_or(0, |at| at + 1);
        if word == open {
            return None;
        }
        let start = memchr::memrchr(b'\n', &bytes[..word]).map_or(0, |at| at + 1);
        let end = memchr::memchr(b'\n', &bytes[open..]).map_or(bytes.len(), |at| open + at + 1);
        let line = &content[start..end];
        let quoted = quote_prefix(line);
        let begin = start + quoted;
        if begin != word {
            return None;
        }
        let (prefix, inner, offset) = marker::marker_line(&line[quoted..])?;
        if chapter.index.is_verbatim(begin) {
            return None;
        }
        let end = start + line.trim_end().len();
        let quote = (quoted > 0)
            .then(|| chapter.index.quote_at(begin))
            .flatten()
            .filter(|q| content[q.start..begin].find('\n').is_none());
        Some(MarkerLine {
            line: begin..end,
            prefix,
            inner,
            inner_at: begin + offset,
            quote,
        })
    })
}

/// The length of the blockquote prefix of `line` (`> `, `> > `, up to three spaces before
/// each `>`); 0 when it has none.
fn quote_prefix(line: &str) -> usize {
    let bytes = line.as_bytes();
    let mut at = 0;
    let mut quoted = 0;
    loop {
        let spaces = bytes[at..].iter().take_while(|&&b| b == b' ').count();
        if spaces > 3 || bytes.get(at + spaces) != Some(&b'>') {
            return quoted;
        }
        at += spaces + 1;
        if bytes.get(at) == Some(&b' ') {
            at += 1;
        }
        quoted = at;
    }
}

/// The offset just after the line that `line` (a range within one line) is on.
fn after_line(content: &str, line: &Range<usize>) -> usize {
    content[line.end..]
        .find('\n')
        .map_or(content.len(), |i| line.end + i + 1)
}

/// What the marker on `line` labels: the rest of its paragraph, or the paragraph, list item,
/// heading or table that starts next with nothing but blank lines between.
fn labelled(chapter: &Chapter<'_>, line: &Range<usize>) -> Option<Range<usize>> {
    let content = chapter.content;
    let index = &chapter.index;
    let after = after_line(content, line);
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
    // Between them: blank lines, in a quote blank but for its `>`.
    content[after..starts.start]
        .trim_matches(|c: char| c.is_whitespace() || c == '>')
        .is_empty()
        .then(|| starts.clone())
}

/// What the marker `found` labels: the rest of its quote (tracey's form: a marker on a quote's
/// first line), or the paragraph or item after it; `None` when that is empty.
fn labelled_by(chapter: &Chapter<'_>, found: &MarkerLine<'_>) -> Option<Range<usize>> {
    let line = &found.line;
    match &found.quote {
        Some(quote) => Some(after_line(chapter.content, line)..quote.end).filter(|rest| {
            !chapter.content[rest.clone()]
                .replace('>', "")
                .trim()
                .is_empty()
        }),
        None => labelled(chapter, line),
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
