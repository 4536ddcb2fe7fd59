//! The contract as owned data: what `diff` compares between two revisions of a book.
//!
//! [`Snapshot::of`] reads a checked book's model, rules and specs once and keeps, for each
//! axis, profile, rule, provider, claim, spec and template entry, what a reader sees of it (its
//! text as written, trimmed, its line ends `\n` whatever the checkout wrote) and where it is written (`file:line:col` as `check` shows it), and
//! the heading ids of every page. Nothing borrows the book, so two sides can be held at once.
//!
//! To compare something new: record it here, then say in `diff` what a change to it means.

use std::ops::Range;
use std::path::PathBuf;

use crate::model::Model;
use crate::model::rules::Rules;
use crate::model::rules::code::CodeCitation;
use crate::model::rules::coverage::{Coverage, Ran, Status};
use crate::model::rules::status::Kind;
use crate::model::spec::Specs;
use crate::read::chapter::{BookFiles, Chapter};
use crate::read::results::Results;
use crate::util::text::lf;

/// Where something is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    pub path: PathBuf,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = crate::util::paths::slashed(&self.path);
        write!(f, "{path}:{}:{}", self.line, self.column)
    }
}

/// One profile of an axis, its cells as written.
#[derive(Debug, Clone)]
pub(crate) struct ProfileSnap {
    pub name: String,
    pub meaning: String,
    pub obliges: String,
    pub tolerated_by: String,
    pub place: Place,
}

/// One axis.
#[derive(Debug, Clone)]
pub(crate) struct AxisSnap {
    pub code: String,
    /// Its heading's id.
    pub anchor: String,
    /// Its chapter's source path.
    pub chapter: String,
    pub question: String,
    pub place: Place,
    pub profiles: Vec<ProfileSnap>,
}

impl AxisSnap {
    pub(crate) fn profile(&self, name: &str) -> Option<&ProfileSnap> {
        self.profiles.iter().find(|p| p.name == name)
    }
}

/// One rule.
#[derive(Debug, Clone)]
pub(crate) struct RuleSnap {
    pub id: String,
    pub version: u32,
    pub level: Option<crate::model::rules::Level>,
    /// Its text as written, trimmed.
    pub text: String,
    pub applies: Option<(String, String)>,
    pub place: Place,
}

/// One claim of a provider.
#[derive(Debug, Clone)]
pub(crate) struct ClaimSnap {
    pub axis: String,
    pub profile: String,
    pub evidence: Vec<String>,
    pub place: Place,
}

/// One provider section (or spec).
#[derive(Debug, Clone)]
pub(crate) struct ProviderSnap {
    pub name: String,
    /// Built (not proposed, not a spec).
    pub built: bool,
    /// Described by a spec chapter.
    pub spec: bool,
    /// Its heading's id.
    pub anchor: String,
    pub place: Place,
    pub claims: Vec<ClaimSnap>,
}

/// One filled spec.
#[derive(Debug, Clone)]
pub(crate) struct SpecSnap {
    pub provider: String,
    pub status: &'static str,
    /// The titles of its answered entries.
    pub answered: Vec<String>,
    /// Every entry it has, with what each still lacks (nothing: answered).
    pub entries: Vec<(String, Vec<String>)>,
    pub place: Place,
}

/// One entry of the template.
#[derive(Debug, Clone)]
pub(crate) struct EntrySnap {
    pub title: String,
    pub place: Place,
}

/// The heading ids of one page.
#[derive(Debug, Clone)]
pub(crate) struct PageSnap {
    /// The page's path as mdBook renders it (`provider-contract.html`).
    pub page: String,
    pub ids: Vec<String>,
    /// The line of each heading of `ids`, in the file as written.
    pub lines: Vec<usize>,
    /// The start of its chapter's file.
    pub place: Place,
}

/// Where one rule stands for one built provider.
#[derive(Debug, Clone)]
pub(crate) struct CoverageCell {
    pub rule: String,
    pub status: Kind,
    /// The first citation that counts (a test for `verified`), as a path under
    /// `source-root` and a line.
    pub citation: Option<(String, usize)>,
    /// For a citation of a provider's report: its line in the provider's repository at the
    /// report's commit, where the host's form is known.
    pub url: Option<String>,
    /// The result that decided a failed or skipped cell.
    pub result: Option<ResultSnap>,
}

/// A test case's result, as a cell shows it.
#[derive(Debug, Clone)]
pub(crate) struct ResultSnap {
    /// The case as its report names it.
    pub case: String,
    /// The first line of its failure, or of why it was skipped.
    pub message: Option<String>,
    /// The results file, relative to the book root.
    pub run: String,
    /// When the run was, as the report says.
    pub at: Option<String>,
}

/// The coverage of the rules for one built provider.
#[derive(Debug, Clone)]
pub(crate) struct CoverageSnap {
    pub provider: String,
    /// Whether the source tree was read.
    pub known: bool,
    /// Whether test results were read: then a cell is passed, failed, skipped or not run.
    pub results: bool,
    pub rules: Vec<CoverageCell>,
}

/// See the module docs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Snapshot {
    /// The coverage of the rules per built provider (none without rules).
    pub coverage: Vec<CoverageSnap>,
    /// The same for each provider only a spec describes so far, counting only citations in
    /// its own places (none without rules).
    pub pending: Vec<CoverageSnap>,
    /// The contract's version, when book.toml states one (`version`).
    pub version: Option<semver::Version>,
    pub axes: Vec<AxisSnap>,
    pub rules: Vec<RuleSnap>,
    pub providers: Vec<ProviderSnap>,
    pub specs: Vec<SpecSnap>,
    pub entries: Vec<EntrySnap>,
    pub pages: Vec<PageSnap>,
    /// Every citation of a rule in the source tree (when read): the ID it cites and where, so
    /// that a rename can list the citations to update.
    pub cited: Vec<(String, Place)>,
}

impl Snapshot {
    /// Reads the snapshot of a checked book.
    pub(crate) fn of(
        chapters: &[Chapter<'_>],
        model: &Model,
        specs: &Specs,
        rules: &Rules,
        files: &BookFiles,
    ) -> Snapshot {
        let place = |chapter: usize, range: Range<usize>| {
            let at = chapters[chapter].locate(files, range);
            Place {
                path: at.path,
                line: at.line,
                column: at.column,
            }
        };
        Snapshot {
            axes: axes_of(chapters, model, &place),
            rules: rules_of(chapters, rules, &place),
            providers: providers_of(model, &place),
            specs: specs_of(model, specs, &place),
            entries: entries_of(specs, &place),
            pages: pages_of(chapters, &place),
            ..Snapshot::default()
        }
    }

    /// Shows every place's path as `f` makes it (a BASE side's as `REV:path`).
    pub(crate) fn map_paths(&mut self, f: impl Fn(&std::path::Path) -> PathBuf) {
        let each = |place: &mut Place| place.path = f(&place.path);
        for axis in &mut self.axes {
            each(&mut axis.place);
            for profile in &mut axis.profiles {
                each(&mut profile.place);
            }
        }
        for rule in &mut self.rules {
            each(&mut rule.place);
        }
        for provider in &mut self.providers {
            each(&mut provider.place);
            for claim in &mut provider.claims {
                each(&mut claim.place);
            }
        }
        for spec in &mut self.specs {
            each(&mut spec.place);
        }
        for entry in &mut self.entries {
            each(&mut entry.place);
        }
        for page in &mut self.pages {
            each(&mut page.place);
        }
        for (_, place) in &mut self.cited {
            each(place);
        }
    }

    /// Records the coverage of `rules` per built provider.
    pub(crate) fn with_coverage(
        mut self,
        model: &Model,
        rules: &Rules,
        coverage: &Coverage,
        citations: &[CodeCitation],
        results: &Results,
    ) -> Snapshot {
        if rules.rules.is_empty() {
            return self;
        }
        let snap = |p: usize, statuses: &mut dyn Iterator<Item = Status>| CoverageSnap {
            provider: model.providers[p].name.clone(),
            known: coverage.known,
            results: coverage.results,
            rules: rules
                .rules
                .iter()
                .zip(statuses)
                .map(|(rule, cell)| {
                    let (status, at) = (coverage.kind(cell), cell.citation());
                    CoverageCell {
                        rule: rule.id.clone(),
                        status,
                        citation: at
                            .and_then(|i| citations.get(i.0))
                            .map(|c| (c.path.clone(), c.line)),
                        url: at.and_then(|i| citations.get(i.0)?.remote.as_ref()?.link.clone()),
                        result: decided_by(cell, results),
                    }
                })
                .collect(),
        };
        for (column, &p) in coverage.providers.iter().enumerate() {
            let cells = snap(p, &mut coverage.cells.iter().map(|row| row[column]));
            self.coverage.push(cells);
        }
        for (column, &p) in coverage.pending.iter().enumerate() {
            let cells = snap(p, &mut coverage.pending_cells.iter().map(|row| row[column]));
            self.pending.push(cells);
        }
        self
    }

    pub(crate) fn axis(&self, code: &str) -> Option<&AxisSnap> {
        self.axes.iter().find(|a| a.code == code)
    }

    pub(crate) fn rule(&self, id: &str) -> Option<&RuleSnap> {
        self.rules.iter().find(|r| r.id == id)
    }
}

/// Each axis once, with its question and its profiles' cells as written.
fn axes_of(
    chapters: &[Chapter<'_>],
    model: &Model,
    place: &impl Fn(usize, Range<usize>) -> Place,
) -> Vec<AxisSnap> {
    let mut axes = Vec::new();
    for axis in model.unique_axes() {
        let chapter = &chapters[axis.chapter];
        let index = &chapter.index;
        let table = axis.table.and_then(|t| index.tables.get(t));
        let cell = |row: usize, column: Option<usize>| -> String {
            table
                .and_then(|t| t.rows.get(row))
                .and_then(|r| r.cells.get(column?))
                .map(|c| lf(chapter.content[c.range.clone()].trim()).into_owned())
                .unwrap_or_default()
        };
        let profiles = axis
            .profiles
            .iter()
            .map(|p| ProfileSnap {
                name: p.name.clone(),
                meaning: cell(p.row, axis.columns.meaning),
                obliges: cell(p.row, axis.columns.obliges),
                tolerated_by: cell(p.row, axis.columns.tolerated_by),
                place: table.and_then(|t| t.rows.get(p.row)).map_or_else(
                    || place(axis.chapter, axis.range.clone()),
                    |r| place(axis.chapter, r.range.clone()),
                ),
            })
            .collect();
        axes.push(AxisSnap {
            code: axis.code.clone(),
            anchor: axis.anchor.clone(),
            chapter: chapter.key.clone(),
            question: lf(&crate::pipeline::outline::question(
                chapter.content,
                index,
                axis.range.end,
            ))
            .into_owned(),
            place: place(axis.chapter, axis.range.clone()),
            profiles,
        });
    }
    axes
}

/// Each rule with its text as written, trimmed.
fn rules_of(
    chapters: &[Chapter<'_>],
    rules: &Rules,
    place: &impl Fn(usize, Range<usize>) -> Place,
) -> Vec<RuleSnap> {
    let mut snaps = Vec::new();
    for rule in &rules.rules {
        let text = chapters[rule.chapter].content[rule.text.clone()].trim();
        snaps.push(RuleSnap {
            id: rule.id.clone(),
            version: rule.version,
            level: rule.level,
            // A Windows checkout ends its lines with `\r\n`, a revision's blobs with `\n`.
            text: lf(text).into_owned(),
            applies: rule.applies.clone(),
            place: place(rule.chapter, rule.id_range.clone()),
        });
    }
    snaps
}

/// Each provider section with its claims.
fn providers_of(model: &Model, place: &impl Fn(usize, Range<usize>) -> Place) -> Vec<ProviderSnap> {
    let mut snaps = Vec::new();
    for (p, provider) in model.providers.iter().enumerate() {
        let claims = model
            .claims
            .iter()
            .filter(|c| c.provider == p)
            .map(|c| ClaimSnap {
                axis: c.axis.text.clone(),
                profile: c.profile.text.clone(),
                evidence: c.evidence.iter().map(|e| e.text.clone()).collect(),
                place: place(c.chapter, c.range.clone()),
            })
            .collect();
        snaps.push(ProviderSnap {
            name: provider.name.clone(),
            built: !provider.proposed && !provider.spec,
            spec: provider.spec,
            anchor: provider.anchor.clone(),
            place: place(provider.chapter, provider.range.clone()),
            claims,
        });
    }
    snaps
}

/// Each filled spec with its entries and what each still lacks.
fn specs_of(
    model: &Model,
    specs: &Specs,
    place: &impl Fn(usize, Range<usize>) -> Place,
) -> Vec<SpecSnap> {
    let mut snaps = Vec::new();
    for spec in &specs.specs {
        let unanswered = spec.unanswered(model, specs);
        snaps.push(SpecSnap {
            provider: spec
                .provider
                .map(|p| model.providers[p].name.clone())
                .unwrap_or_default(),
            status: spec.status.as_str(),
            answered: unanswered
                .iter()
                .filter(|(_, why)| why.is_empty())
                .map(|(e, _)| e.title.clone())
                .collect(),
            entries: unanswered
                .iter()
                .map(|(e, why)| (e.title.clone(), why.iter().map(|w| w.describe()).collect()))
                .collect(),
            place: place(spec.chapter, 0..0),
        });
    }
    snaps
}

/// Each entry of the template.
fn entries_of(specs: &Specs, place: &impl Fn(usize, Range<usize>) -> Place) -> Vec<EntrySnap> {
    let mut snaps = Vec::new();
    for entry in &specs.template {
        snaps.push(EntrySnap {
            title: entry.title.clone(),
            place: place(entry.chapter, entry.range.clone()),
        });
    }
    snaps
}

/// Each page with the ids and lines of its headings.
fn pages_of(
    chapters: &[Chapter<'_>],
    place: &impl Fn(usize, Range<usize>) -> Place,
) -> Vec<PageSnap> {
    let mut snaps = Vec::new();
    for (number, chapter) in chapters.iter().enumerate() {
        snaps.push(PageSnap {
            page: crate::util::paths::slashed(&chapter.link_path().with_extension("html")),
            place: place(number, 0..0),
            ids: chapter
                .index
                .headings
                .iter()
                .map(|h| h.id.clone())
                .collect(),
            lines: chapter
                .index
                .headings
                .iter()
                .map(|h| place(number, h.range.clone()).line)
                .collect(),
        });
    }
    snaps
}

/// The result of the case that failed or skipped a cell (`None` for any other status).
fn decided_by(status: Status, results: &Results) -> Option<ResultSnap> {
    match status {
        Status::Failed(_, Ran(case))
        | Status::Skipped(_, Ran(case))
        | Status::Unmatched(_, Some(Ran(case))) => results.cases.get(case).map(|case| ResultSnap {
            case: case.name.clone(),
            message: case.message.clone(),
            run: results.files[case.report].shown.clone(),
            at: results.files[case.report].timestamp.clone(),
        }),
        _ => None,
    }
}
