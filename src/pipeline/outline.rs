//! Where the book's names are written: what an editor needs to complete, explain, find and
//! rename them.
//!
//! [`Outline::of`] reads the model and the chapters once after a check and records, as
//! [`Location`]s in the files as written (includes mapped to the included file): each axis
//! with its heading, the code inside the heading, its question and its profiles; every use of
//! an axis code in a shortcode (`{{#axis}}`, `{{#answers}}`, a claim's axis and profile); every
//! provider and entry heading; the links whose fragment is an axis's id; each rule with what
//! its hover shows, and each `{{#rule}}` and citation of a rule in code. The language
//! server ([`crate::lsp`]) answers from it and never reads the model itself.
//!
//! To offer a new kind of place: record it here from the model or the indexes; the outline
//! decides nothing (no severity, no finding).

use std::ops::Range;

use crate::model::Model;
use crate::model::rules::Rules;
use crate::model::rules::code::CodeCitation;
use crate::model::rules::coverage::{Coverage, Status};
use crate::model::spec::Specs;
use crate::read::chapter::{BookFiles, Chapter};
use crate::read::config::Config;
use crate::read::markdown::ChapterIndex;
use crate::read::shortcode::{Kind, Spanned};
use crate::read::sourcemap::Location;

/// One axis, as the contract defines it.
#[derive(Debug, Clone)]
pub(crate) struct AxisOutline {
    /// Its code.
    pub code: String,
    /// Its whole heading.
    pub heading: Location,
    /// The code inside the heading's backticks.
    pub code_at: Location,
    /// Whether its id is derived from the heading's text (no `{#id}`) and is the code itself,
    /// so that a rename changes the id links use.
    pub id_is_code: bool,
    /// The chapter (its key) that defines it.
    pub chapter: String,
    /// The paragraph right after the heading, as written: the question the axis asks.
    pub question: String,
    /// Its profiles, in the table's order.
    pub profiles: Vec<ProfileOutline>,
}

/// One row of an axis's `Profile` table, its cells as written.
#[derive(Debug, Clone)]
pub(crate) struct ProfileOutline {
    pub name: String,
    pub meaning: Option<String>,
    pub obliges: Option<String>,
    pub tolerated_by: Option<String>,
}

/// A shortcode argument that names an axis: `{{#axis CODE}}`, `{{#answers CODE}}` or a
/// claim's `{{#profile CODE PROFILE ...}}`.
#[derive(Debug, Clone)]
pub(crate) struct AxisUse {
    /// The code as written.
    pub code: String,
    /// The code, without backticks.
    pub at: Location,
    /// For a claim, the profile as written and where.
    pub profile: Option<(String, Location)>,
}

/// A heading worth a symbol: a provider or an entry of the template or a spec.
#[derive(Debug, Clone)]
pub(crate) struct Named {
    pub name: String,
    pub heading: Location,
}

/// A link's fragment that is an axis's id, for a rename.
#[derive(Debug, Clone)]
pub(crate) struct FragmentUse {
    /// The axis code the fragment names.
    pub code: String,
    /// The fragment, without `#`.
    pub at: Location,
}

/// One rule, as its marker defines it.
#[derive(Debug, Clone)]
pub(crate) struct RuleOutline {
    /// Its ID.
    pub id: String,
    /// The ID in its marker (without `+N`).
    pub at: Location,
    /// What the hover shows: its level, version, `applies=`, its text as written and its
    /// coverage per built provider, in Markdown.
    pub about: String,
}

/// A place that names a rule: the ID (without `+N`) of a `{{#rule}}`, or of a citation in
/// code.
#[derive(Debug, Clone)]
pub(crate) struct RuleUse {
    pub id: String,
    pub at: Location,
    /// What a reader of this use should know beside the rule (a `verify` in no test).
    pub note: Option<String>,
}

/// See the module docs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Outline {
    pub axes: Vec<AxisOutline>,
    pub uses: Vec<AxisUse>,
    pub providers: Vec<Named>,
    pub entries: Vec<Named>,
    pub fragments: Vec<FragmentUse>,
    pub rules: Vec<RuleOutline>,
    pub rule_uses: Vec<RuleUse>,
}

/// What the outline reads of the rules.
pub(crate) struct RulesRead<'r> {
    pub rules: &'r Rules,
    pub coverage: &'r Coverage,
    pub citations: &'r [CodeCitation],
    pub config: &'r Config,
}

impl Outline {
    /// Reads the outline of a checked book.
    pub(crate) fn of(
        chapters: &[Chapter<'_>],
        model: &Model,
        specs: &Specs,
        files: &BookFiles,
        rules: &RulesRead<'_>,
    ) -> Outline {
        let mut outline = Outline::default();
        for axis in model.unique_axes() {
            outline.axes.extend(axis_of(axis, chapters, files));
        }
        for chapter in chapters {
            for shortcode in &chapter.scan.shortcodes {
                let located = |s: &Spanned| {
                    let range = inside_backticks(chapter.content, &s.range);
                    (s.text.clone(), chapter.locate(files, range))
                };
                let (code, profile) = match &shortcode.kind {
                    Kind::Axis { code } | Kind::Answers { code } => (code, None),
                    Kind::Profile { axis, profile, .. } => (axis, Some(located(profile))),
                    _ => continue,
                };
                let (code, at) = located(code);
                outline.uses.push(AxisUse { code, at, profile });
            }
        }
        for provider in &model.providers {
            let chapter = &chapters[provider.chapter];
            outline.providers.push(Named {
                name: provider.name.clone(),
                heading: chapter.locate(files, provider.range.clone()),
            });
        }
        let spec_entries = specs.specs.iter().flat_map(|s| &s.entries);
        for entry in specs.template.iter().chain(spec_entries) {
            outline.entries.push(Named {
                name: entry.title.clone(),
                heading: chapters[entry.chapter].locate(files, entry.range.clone()),
            });
        }
        outline.fragments = fragments(chapters, &outline.axes, files);
        outline.rules_of(chapters, model, files, rules);
        outline
    }

    /// Records each rule with what its hover shows, and every `{{#rule}}` and citation in code.
    fn rules_of(
        &mut self,
        chapters: &[Chapter<'_>],
        model: &Model,
        files: &BookFiles,
        read: &RulesRead<'_>,
    ) {
        for (rule, cells) in read.rules.rules.iter().zip(&read.coverage.cells) {
            let chapter = &chapters[rule.chapter];
            let start = rule.id_range.start;
            self.rules.push(RuleOutline {
                id: rule.id.clone(),
                at: chapter.locate(files, start..start + rule.id.len()),
                about: about(rule, chapter, cells, model, read.coverage),
            });
        }
        for chapter in chapters {
            for shortcode in &chapter.scan.shortcodes {
                let Kind::Rule { id } = &shortcode.kind else {
                    continue;
                };
                let range = inside_backticks(chapter.content, &id.range);
                let bare = id.text.split('+').next().unwrap_or(&id.text);
                self.rule_uses.push(RuleUse {
                    id: bare.to_owned(),
                    at: chapter.locate(files, range.start..range.start + bare.len()),
                    note: None,
                });
            }
        }
        // A provider report's citations are in another repository.
        for citation in read.citations.iter().filter(|c| c.remote.is_none()) {
            let Ok(cited) = &citation.cited else {
                continue;
            };
            let mut at = crate::report::resolve::locate_code(files, read.config, citation);
            at.width = cited.id.chars().count();
            let note = (citation.verb == crate::model::rules::code::Verb::Verify).then(|| {
                match &citation.test {
                    Some(test) => format!("This citation verifies the rule in the test `{}`.", test.name),
                    None => "This citation stands in no test (nor directly above one): no test result can be found for it.".to_owned(),
                }
            });
            self.rule_uses.push(RuleUse {
                id: cited.id.clone(),
                at,
                note,
            });
        }
    }

    /// The rule with `id`.
    pub(crate) fn rule(&self, id: &str) -> Option<&RuleOutline> {
        self.rules.iter().find(|r| r.id == id)
    }

    /// The axis with `code`.
    pub(crate) fn axis(&self, code: &str) -> Option<&AxisOutline> {
        self.axes.iter().find(|a| a.code == code)
    }
}

/// The part of `range` inside its backticks (and the one space CommonMark strips beside
/// them), or all of it when it has none.
fn inside_backticks(content: &str, range: &Range<usize>) -> Range<usize> {
    let text = &content[range.clone()];
    let ticks = text.len() - text.trim_start_matches('`').len();
    if ticks == 0 || text.len() < 2 * ticks {
        return range.clone();
    }
    let mut start = range.start + ticks;
    let mut end = range.end - ticks;
    let inner = &content[start..end];
    if inner.len() >= 2 && inner.starts_with(' ') && inner.ends_with(' ') {
        start += 1;
        end -= 1;
    }
    start..end
}

/// The first paragraph after `offset` and before the next heading or table.
pub(crate) fn question(content: &str, index: &ChapterIndex, offset: usize) -> String {
    let next_heading = index
        .headings
        .iter()
        .map(|h| h.range.start)
        .find(|&start| start >= offset)
        .unwrap_or(content.len());
    index
        .paragraphs
        .iter()
        .find(|p| p.start >= offset && p.start < next_heading)
        // A table between the heading and the paragraph: the axis asks no question.
        .filter(|p| {
            !index
                .tables
                .iter()
                .any(|t| t.range.start >= offset && t.range.start < p.start)
        })
        .map(|p| content[p.clone()].trim().to_owned())
        .unwrap_or_default()
}

/// The link fragments, in every chapter, that name an axis by its id where that id is the code
/// itself: `provider-contract.md#readiness`, or `#readiness` in the contract.
fn fragments(
    chapters: &[Chapter<'_>],
    axes: &[AxisOutline],
    files: &BookFiles,
) -> Vec<FragmentUse> {
    let mut out = Vec::new();
    for chapter in chapters {
        for link in &chapter.index.links {
            let Some((path, fragment)) = link.dest.split_once('#') else {
                continue;
            };
            let Some(axis) = axes.iter().find(|a| a.id_is_code && a.code == fragment) else {
                continue;
            };
            let file = path.rsplit('/').next().unwrap_or(path);
            let target = axis.chapter.rsplit('/').next().unwrap_or(&axis.chapter);
            let same = if path.is_empty() {
                chapter.key == axis.chapter
            } else {
                file == target || file == target.replace(".md", ".html")
            };
            if !same {
                continue;
            }
            // The fragment as written, at the end of the destination in the link's text.
            let written = &chapter.content[link.range.clone()];
            let needle = format!("#{fragment}");
            if let Some(at) = written.rfind(&needle) {
                let start = link.range.start + at + 1;
                out.push(FragmentUse {
                    code: axis.code.clone(),
                    at: chapter.locate(files, start..start + fragment.len()),
                });
            }
        }
    }
    out
}

/// What an axis's hover and links read: its heading, its code, its question and its
/// profiles with their cells; `None` for an axis whose heading is gone.
fn axis_of(
    axis: &crate::model::Axis,
    chapters: &[Chapter<'_>],
    files: &BookFiles,
) -> Option<AxisOutline> {
    let chapter = &chapters[axis.chapter];
    let index = &chapter.index;
    let heading = index.headings.iter().find(|h| h.range == axis.range)?;
    let code_range = heading
        .first_code
        .as_ref()
        .map_or(heading.range.clone(), |(_, r)| {
            inside_backticks(chapter.content, r)
        });
    let cell = |row: usize, column: Option<usize>| -> Option<String> {
        let table = index.tables.get(axis.table?)?;
        let cell = table.rows.get(row)?.cells.get(column?)?;
        Some(chapter.content[cell.range.clone()].trim().to_owned())
    };
    let profiles = axis
        .profiles
        .iter()
        .map(|p| ProfileOutline {
            name: p.name.clone(),
            meaning: cell(p.row, axis.columns.meaning),
            obliges: cell(p.row, axis.columns.obliges),
            tolerated_by: cell(p.row, axis.columns.tolerated_by),
        })
        .collect();
    Some(AxisOutline {
        code: axis.code.clone(),
        heading: chapter.locate(files, heading.range.clone()),
        code_at: chapter.locate(files, code_range),
        id_is_code: !heading.explicit_id && heading.id == axis.code,
        chapter: chapter.key.clone(),
        question: question(chapter.content, index, heading.range.end),
        profiles,
    })
}

/// What a rule's hover shows: its ID, level, version and profile, its words, and where it
/// stands for each built provider (`cells`, its row of `coverage`).
fn about(
    rule: &crate::model::rules::Rule,
    chapter: &Chapter<'_>,
    cells: &[Status],
    model: &Model,
    coverage: &Coverage,
) -> String {
    let mut about = format!("**rule `{}`**", rule.id);
    let mut facts = Vec::new();
    facts.push(crate::model::rules::level_name(rule.level).to_owned());
    if rule.version > 1 {
        facts.push(format!("version {}", rule.version));
    }
    if let Some((axis, profile)) = &rule.applies {
        facts.push(format!("binds the providers with `{profile}` on `{axis}`"));
    }
    if !facts.is_empty() {
        about.push_str(&format!(" ({})", facts.join(", ")));
    }
    about.push_str("\n\n");
    about.push_str(chapter.content[rule.text.clone()].trim());
    about.push_str("\n\n");
    let statuses: Vec<String> = coverage
        .providers
        .iter()
        .zip(cells)
        .map(|(&p, status)| {
            let word = hover_word(*status, coverage);
            format!("`{}` {word}", model.providers[p].name)
        })
        .collect();
    if !statuses.is_empty() {
        about.push_str(if coverage.known {
            "Coverage: "
        } else {
            "Coverage unknown without `source-root`: "
        });
        about.push_str(&statuses.join(", "));
        about.push('\n');
    }
    about
}

/// How a rule's hover says where it stands for a provider: the status's word, and a pass on a
/// rerun said as such.
fn hover_word(status: Status, coverage: &Coverage) -> String {
    match status {
        Status::Flaky(..) => format!("{} on a rerun (flaky)", coverage.kind(status).word()),
        _ => coverage.kind(status).word().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backticks_and_their_spaces_are_left_out() {
        let text = "a `readiness` b `` x `` c plain";
        assert_eq!(&text[inside_backticks(text, &(2..13))], "readiness");
        assert_eq!(&text[inside_backticks(text, &(16..23))], "x");
        assert_eq!(&text[inside_backticks(text, &(26..31))], "plain");
    }
}
