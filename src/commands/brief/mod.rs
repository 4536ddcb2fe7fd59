//! `mdbook-contract brief TYPE`: one self-contained Markdown document for whoever builds the
//! provider that a spec describes (the plan's "a self-contained set of rules for building a
//! new provider").
//!
//! [`brief`] checks the book first and refuses a spec with errors, each told with its place and
//! help (`refusal.rs`; a `cited-symbol` on a code span the template wrote does not block); the
//! book's errors elsewhere
//! (another provider's failing test, a broken link in another chapter) are listed in the brief,
//! which is written all the same. It then takes the book as a
//! build renders it (`pipeline::rendered`), from the chapters as written (another
//! preprocessor's output is never copied: the book is loaded again with mdBook's own
//! preprocessors only, when it has others), and puts together, in this order: the spec's status
//! and its open entries; per axis the profile the spec chose, what it obliges and who tolerates
//! it (the contract's `Profile` row), with the existing providers that chose the same profile;
//! the filled spec; the contract's checklist for adding a provider; those providers' sections
//! that hold the matching claims, and their known gaps; and the whole contract.
//!
//! Each copied part is the chapter's events, parsed again, with its headings moved down a
//! level and given explicit ids made unique by a prefix per part (`contract-`, `spec-`,
//! `checklist-`, `examples-`), and every link rewritten: to the id it leads to inside the
//! brief, else to the published page when `output.html.site-url` is an absolute URL, else to
//! plain text. The whole is written by pulldown-cmark-to-cmark; the same book gives the same
//! bytes.
//!
//! `plan.rs` decides what is copied (the choices, the parts, the ids), `sections.rs` writes the
//! brief's own sections, `copy.rs` the copied parts and their links, `markdown.rs` the events and
//! their writing. A new section is a method in `sections.rs` called in order from
//! [`Writer::write`].

mod copy;
mod markdown;
mod plan;
mod refusal;
mod sections;

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use mdbook_markdown::pulldown_cmark::Event;
use mdbook_preprocessor::PreprocessorContext;
use mdbook_preprocessor::book::Book;

use crate::model::spec::Spec;
use crate::pipeline::{self, Rendered};
use crate::read::markdown::{ChapterIndex, MarkdownOptions};
use crate::report::diagnostic::{Finding, Report};
use crate::util::vocab::Severity;

use markdown::written;

/// A brief, written.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Brief {
    /// The document.
    pub markdown: String,
    /// How many links it holds, each one leading to a heading of the brief or to an absolute
    /// address.
    pub links: usize,
    /// How many errors the book has outside the spec (listed in the brief; a build fails on
    /// them, the brief does not).
    pub errors_elsewhere: usize,
}

/// Why no brief was written.
#[derive(Debug)]
#[non_exhaustive]
pub enum BriefError {
    /// The spec has error findings (the report holds them): a brief copies the spec's answers,
    /// so it is written only from a spec without errors.
    Findings(Report),
    /// Anything else: no spec of that provider, a book that cannot be read.
    Failed(anyhow::Error),
}

impl fmt::Display for BriefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BriefError::Findings(_) => {
                f.write_str(&self.told(&|path| crate::util::paths::slashed(path)))
            }
            BriefError::Failed(error) => write!(f, "{error:#}"),
        }
    }
}

impl BriefError {
    /// What to tell: for a spec with errors, each one with its place (a book path as `shown`
    /// writes it) and what to do.
    pub(crate) fn told(&self, shown: &dyn Fn(&std::path::Path) -> String) -> String {
        match self {
            BriefError::Findings(report) => refusal::blocking(&report.findings, shown),
            BriefError::Failed(error) => format!("{error:#}"),
        }
    }
}

impl std::error::Error for BriefError {}

impl From<anyhow::Error> for BriefError {
    fn from(error: anyhow::Error) -> BriefError {
        BriefError::Failed(error)
    }
}

/// The brief for the provider `provider_type` of `book` (see the module docs).
pub fn brief(
    ctx: &PreprocessorContext,
    book: &Book,
    provider_type: &str,
) -> Result<Brief, BriefError> {
    // The brief is Markdown made from the chapters as written (after `links`), never from what
    // another preprocessor turned them into (mermaid's `<pre>`, HTML of any kind); the book is
    // still refused for what a build of it would report.
    let (rendered, report) = if crate::read::chapter::external_preprocessors(&ctx.config).is_empty()
    {
        pipeline::rendered(ctx, book)?
    } else {
        let report = pipeline::check(ctx, book, std::path::PathBuf::new())?;
        let (mut written_ctx, as_written) = crate::read::load::load_as_written(&ctx.root)?;
        // The settings as given (the command line's among them), not as read again.
        written_ctx.config = ctx.config.clone();
        (pipeline::rendered(&written_ctx, &as_written)?.0, report)
    };
    let spec = rendered.specs.specs.iter().find(|s| {
        s.provider
            .is_some_and(|p| rendered.model.providers[p].name == provider_type)
    });
    let Some(spec) = spec else {
        let known: Vec<String> = rendered
            .specs
            .specs
            .iter()
            .filter_map(|s| {
                s.provider
                    .map(|p| format!("`{}`", rendered.model.providers[p].name))
            })
            .collect();
        let known = if known.is_empty() {
            "it has none".to_owned()
        } else {
            format!("it has {}", known.join(", "))
        };
        return Err(BriefError::Failed(anyhow::anyhow!(
            "no spec of provider `{provider_type}` in this book ({known}); `mdbook-contract new-spec {provider_type}` writes one"
        )));
    };
    // The spec's own errors stop the brief (it copies the spec's answers); the book's other
    // errors, another provider's failing test among them, are listed in it.
    let spec_file =
        std::path::Path::new(&ctx.config.book.src).join(&rendered.chapters[spec.chapter].key);
    // A code span the spec copied from the template names the code still to be written: told
    // with the errors elsewhere, not blocking.
    let (own, elsewhere): (Vec<Finding>, Vec<Finding>) = report
        .findings
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .partition(|f| f.location.path == spec_file && !refusal::from_template(f, &rendered));
    if !own.is_empty() {
        return Err(BriefError::Findings(Report {
            findings: own,
            ..Report::default()
        }));
    }
    let site = ctx
        .config
        .html_config()
        .and_then(|html| html.site_url)
        .filter(|url| url.starts_with("https://") || url.starts_with("http://"));
    let title = ctx.config.book.title.clone().unwrap_or_default();
    let mut writer = Writer::new(&rendered, spec, site, title);
    writer.elsewhere = elsewhere;
    Ok(writer.write(provider_type))
}

struct Writer<'r> {
    rendered: &'r Rendered,
    spec: &'r Spec,
    /// The published book, when its address is absolute: links that lead out of the brief.
    site: Option<String>,
    title: String,
    /// The index of each chapter that is copied from, parsed again from its rendered text.
    indexes: HashMap<usize, ChapterIndex>,
    /// Every heading id of the brief, to resolve links against.
    ids: BTreeSet<String>,
    /// Which prefix the ids of each chapter's copied headings take, by chapter.
    prefixes: HashMap<usize, &'static str>,
    links: usize,
    /// The book's errors outside the spec: listed, not blocking.
    elsewhere: Vec<Finding>,
}

/// The ids of the brief's own headings.
const OWN_IDS: &[&str] = &["brief", "open-entries", "errors", "profiles", "examples"];

impl<'r> Writer<'r> {
    fn new(rendered: &'r Rendered, spec: &'r Spec, site: Option<String>, title: String) -> Self {
        // The chapters copied from: the contract, the spec, the providers' chapters.
        let mut indexes = HashMap::new();
        let copied = (0..rendered.chapters.len()).filter(|&c| {
            rendered.config.is_contract(&rendered.chapters[c].key)
                || c == spec.chapter
                || rendered.model.providers.iter().any(|p| p.chapter == c)
        });
        for chapter in copied {
            let content = &rendered.chapters[chapter].content;
            indexes.insert(chapter, ChapterIndex::parse(content, &rendered.options));
        }
        Writer {
            rendered,
            spec,
            site,
            title,
            indexes,
            ids: OWN_IDS.iter().map(|s| (*s).to_owned()).collect(),
            prefixes: HashMap::new(),
            links: 0,
            elsewhere: Vec::new(),
        }
    }

    fn options(&self) -> &MarkdownOptions {
        &self.rendered.options
    }

    fn index(&self, chapter: usize) -> &ChapterIndex {
        &self.indexes[&chapter]
    }

    fn write(mut self, provider_type: &str) -> Brief {
        let provider = self
            .spec
            .provider
            .expect("a spec with a brief has its provider");
        let (chosen, examples) = self.choices(provider);
        let plan = self.plan(&examples);
        self.collect_ids(&plan, &chosen);
        let noun = self.noun();
        let mut events: Vec<Event<'static>> = Vec::new();
        self.title_and_purpose(&mut events, provider_type, &noun);
        self.not_found(&mut events, &plan);
        self.status(&mut events);
        self.errors_elsewhere(&mut events);
        self.profiles(&mut events, &chosen, &noun);
        self.rules(&mut events, provider, &noun);
        self.copies(&mut events, &plan);
        Brief {
            markdown: written(&events),
            links: self.links,
            errors_elsewhere: self.elsewhere.len(),
        }
    }
}
