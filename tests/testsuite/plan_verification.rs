//! The plan's verification list (`plan/provider-docs-split-plan.md`, "Verification", steps 1 to
//! 8), run on the book's sources and on the HTML that a real build renders; and steps 6, 7 and 9
//! where they reach past the four documents (README.md, CLAUDE.md, docs/architecture.md, the
//! added lines of those three, and the pre-split blueprint in git history), run on the fixture
//! repository in the operator's layout (`tests/fixtures/operator`, see `beyond.rs`).
//!
//! These checks are written again here, from the plan's greps, with nothing but `regex` and the
//! standard library, so that a bug in one of the preprocessor's checks cannot hide a defect in
//! the book. The operator's source tree is not in this repository: steps 2 and 3 check every
//! cited path and symbol against the plan, whose facts were verified against the code, and
//! against a checkout too when `PROVIDER_DOCS_SOURCE_ROOT` names one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;

const FOUR_FILES: [&str; 4] = [
    "providers.md",
    "provider-contract.md",
    "provider-spec-template.md",
    "providers-existing.md",
];

/// The shared layer the contract may cite (the plan's "Conventions for all four files").
const SHARED_LAYER: [&str; 9] = [
    "internal/provider/",
    "internal/provider/registry",
    "internal/controller",
    "internal/gc",
    "internal/providerhealth",
    "internal/tracing",
    "cmd/main.go",
    "config/manager",
    "api/v1alpha1",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn source(chapter: &str) -> String {
    std::fs::read_to_string(root().join("book").join(chapter)).expect("chapter exists")
}

fn plan() -> String {
    std::fs::read_to_string(root().join("plan/provider-docs-split-plan.md"))
        .expect("the plan is in the repository")
}

/// The book rendered by mdBook with the preprocessor, once per test binary.
fn rendered(page: &str) -> String {
    static BUILT: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    let out = BUILT.get_or_init(|| {
        let out = tempfile::tempdir().expect("temporary folder");
        let mut md = mdbook_driver::MDBook::load(root()).expect("the book loads");
        md.with_preprocessor(mdbook_contract::ContractPreprocessor::new());
        md.config.build.build_dir = out.path().to_path_buf();
        md.build().expect("the book builds");
        out
    });
    let html = std::fs::read_to_string(out.path().join(page)).expect("page rendered");
    main_content(&html).to_owned()
}

/// The chapter's own content: the `<main>` element, without mdBook's navigation.
fn main_content(html: &str) -> &str {
    let start = html.find("<main>").expect("a <main> element");
    let end = html[start..]
        .find("</main>")
        .map_or(html.len(), |i| start + i);
    &html[start..end]
}

/// Text outside fenced code blocks and inline code, line by line with line numbers.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let inline_code = Regex::new("`[^`]*`").unwrap();
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((i + 1, inline_code.replace_all(line, "").into_owned()));
        }
    }
    out
}

/// Paragraphs and list items: the units in which a MUST must name its caller.
fn units(text: &str) -> Vec<(usize, String)> {
    let item = Regex::new(r"^\s*(?:[-*+]|[0-9]+\.)\s").unwrap();
    let mut units: Vec<(usize, String)> = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let starts = line.trim().is_empty()
            || item.is_match(line)
            || line.starts_with('#')
            || line.starts_with('|');
        if starts {
            units.extend(current.take());
        }
        if line.starts_with('|') {
            units.push((i + 1, line.to_owned()));
            continue;
        }
        if !line.trim().is_empty() {
            match &mut current {
                Some((_, unit)) => {
                    unit.push('\n');
                    unit.push_str(line);
                }
                None => current = Some((i + 1, line.to_owned())),
            }
        }
    }
    units.extend(current);
    units
}

/// Step 1: every MUST names a caller (a shared-layer path or a symbol in backticks).
#[test]
fn step_1_every_must_names_a_caller() {
    let contract = source("provider-contract.md");
    let must = Regex::new(r"\bMUST\b").unwrap();
    let code = Regex::new("`([^`]+)`").unwrap();
    let symbol = Regex::new(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\(\))?$").unwrap();
    let mut musts = 0;
    let mut missing = Vec::new();
    for (line, unit) in units(&contract) {
        if !must.is_match(&code.replace_all(&unit, "")) {
            continue;
        }
        musts += 1;
        let cites = code.captures_iter(&unit).any(|c| {
            let span = &c[1];
            SHARED_LAYER.iter().any(|root| span.starts_with(root))
                || (symbol.is_match(span)
                    && span.chars().any(|c| c.is_ascii_uppercase() || c == '.'))
        });
        if !cites {
            missing.push(format!(
                "provider-contract.md:{line}: {}",
                unit.lines().next().unwrap_or("")
            ));
        }
    }
    assert!(
        musts >= 20,
        "the contract states its rules with MUST ({musts} found)"
    );
    assert!(
        missing.is_empty(),
        "MUST without a caller:\n{}",
        missing.join("\n")
    );
}

/// The paths the four files cite, with where.
fn cited_paths() -> BTreeMap<String, Vec<String>> {
    let path = Regex::new(
        r"\b(?:internal|cmd|config|docs|api|hack|test)/[A-Za-z0-9_./{},*<>-]*[A-Za-z0-9_}*>]",
    )
    .unwrap();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for chapter in FOUR_FILES {
        for (i, line) in source(chapter).lines().enumerate() {
            for m in path.find_iter(line) {
                out.entry(m.as_str().to_owned())
                    .or_default()
                    .push(format!("{chapter}:{}", i + 1));
            }
        }
    }
    out
}

/// Whether `path` is stated by the plan: itself, a file under a folder the plan names with a
/// file name the plan gives (`provider.go` under `internal/provider/*.go`), or a placeholder.
fn plan_states_path(plan: &str, path: &str) -> bool {
    if plan.contains(path) || path.contains('<') {
        return true;
    }
    // `internal/provider/{kubernetes,gcp,kvm}` in the plan states each of the three.
    let braces = Regex::new(r"([A-Za-z0-9_./-]+)/\{([^}]*)\}").unwrap();
    let stated_in_braces = braces.captures_iter(plan).any(|c| {
        c[2].split(',').any(|alternative| {
            let stated = format!("{}/{}", &c[1], alternative.trim());
            path == stated || path.starts_with(&format!("{stated}/"))
        })
    });
    if stated_in_braces {
        return true;
    }
    if let Some((folder, file)) = path.rsplit_once('/') {
        let globbed = format!("{folder}/*.{}", file.rsplit('.').next().unwrap_or(""));
        if plan.contains(&globbed)
            && Regex::new(&format!(r"\b{}\b", regex::escape(file)))
                .unwrap()
                .is_match(plan)
        {
            return true;
        }
        // A folder the plan names, cited with braces or a glob of names the plan gives.
        if file.starts_with('{') || file.starts_with('*') {
            return plan.contains(folder);
        }
    }
    // A folder that is a prefix of a path the plan names (`internal/health`).
    plan.contains(&format!("{path}/"))
        || plan.contains(&format!("{path} "))
        || plan.contains(&format!("{path},"))
}

/// Step 2: every cited path exists (here: is one the plan states; in a checkout: exists).
#[test]
fn step_2_every_cited_path_is_known() {
    let plan = plan();
    let checkout = std::env::var_os("PROVIDER_DOCS_SOURCE_ROOT").map(PathBuf::from);
    let mut unknown = Vec::new();
    let paths = cited_paths();
    assert!(paths.len() >= 10, "the documents cite paths: {paths:?}");
    for (path, places) in &paths {
        if !plan_states_path(&plan, path) {
            unknown.push(format!("{path} (at {})", places.join(", ")));
        }
        if let Some(checkout) = &checkout
            && !path.contains(['<', '*', '{'])
            && !checkout.join(path).exists()
        {
            unknown.push(format!("{path} does not exist in {}", checkout.display()));
        }
    }
    assert!(
        unknown.is_empty(),
        "paths the plan does not state:\n{}",
        unknown.join("\n")
    );
}

/// Step 3: every cited symbol exists (here: occurs in the plan as a whole word; in a checkout:
/// occurs in a `*.go`, `Makefile` or `*.yaml` file).
#[test]
fn step_3_every_cited_symbol_is_known() {
    let plan = plan();
    let code = Regex::new("`([^`]+)`").unwrap();
    let identifier =
        Regex::new(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\(\))?$").unwrap();
    // Axis codes and profile names are the documents' own vocabulary, not symbols.
    let contract = source("provider-contract.md");
    let vocabulary: BTreeSet<String> = Regex::new(r"(?m)^\| `([a-z0-9-]+)` \|")
        .unwrap()
        .captures_iter(&contract)
        .map(|c| c[1].to_owned())
        .chain(
            Regex::new(r"(?m)^### `([a-z0-9-]+)` \{\.axis\}")
                .unwrap()
                .captures_iter(&contract)
                .map(|c| c[1].to_owned()),
        )
        .chain(["unknown", "kubernetes", "gcp", "kvm"].map(String::from))
        .collect();
    let mut unknown = BTreeSet::new();
    let mut symbols = 0;
    for chapter in FOUR_FILES {
        let text = source(chapter);
        for c in code.captures_iter(&text) {
            let span = c[1].trim();
            if !identifier.is_match(span) || vocabulary.contains(span) {
                continue;
            }
            symbols += 1;
            let symbol = span.trim_end_matches("()");
            for part in symbol.split('.') {
                let word = Regex::new(&format!(r"\b{}\b", regex::escape(part))).unwrap();
                if !word.is_match(&plan) {
                    unknown.insert(format!("{chapter}: `{span}` (`{part}` is not in the plan)"));
                }
            }
        }
    }
    assert!(symbols >= 30, "the documents cite symbols ({symbols})");
    assert!(
        unknown.is_empty(),
        "symbols the plan does not state:\n{}",
        unknown.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// Step 4: the contract is abstract.
#[test]
fn step_4_the_contract_names_no_provider() {
    let banned = Regex::new(r"(?i)kubernetes|gcp|kvm|libvirt|squid|google|compute engine|internal/provider/(kubernetes|gcp|kvm)").unwrap();
    let contract = source("provider-contract.md");
    let hits: Vec<String> = contract
        .lines()
        .enumerate()
        .filter(|(_, l)| banned.is_match(l))
        .map(|(i, l)| format!("{}: {l}", i + 1))
        .collect();
    assert!(hits.is_empty(), "{hits:#?}");
    let html = rendered("provider-contract.html");
    assert!(
        !banned.is_match(&html),
        "the rendered contract names a provider"
    );
}

/// The axis codes of the contract's section 4 headings.
fn axis_codes() -> Vec<String> {
    let contract = source("provider-contract.md");
    Regex::new(r"(?m)^### `([a-z0-9-]+)` \{\.axis\}\s*$")
        .unwrap()
        .captures_iter(&contract)
        .map(|c| c[1].to_owned())
        .collect()
}

/// Step 5: the profiles line up one to one.
#[test]
fn step_5_profiles_line_up_one_to_one() {
    let codes = axis_codes();
    assert_eq!(codes.len(), 19, "the plan names nineteen axes: {codes:?}");
    let template = source("provider-spec-template.md");
    let appendix_html = rendered("providers-existing.html");
    let template_html = rendered("provider-spec-template.html");
    // The appendix's profile table: its first table, one row per code.
    let table_start = appendix_html
        .find("<table>")
        .expect("the profile matrix is rendered");
    let table = &appendix_html
        [table_start..table_start + appendix_html[table_start..].find("</table>").unwrap()];
    let rows: Vec<String> =
        Regex::new(r#"<tr><td><a href="provider-contract.html#([a-z0-9-]+)"><code>"#)
            .unwrap()
            .captures_iter(table)
            .map(|c| c[1].to_owned())
            .collect();
    assert_eq!(rows, codes, "one matrix row per axis, in order");
    for code in &codes {
        let answers = format!("{{{{#answers {code}}}}}");
        assert_eq!(
            template.matches(&answers).count(),
            1,
            "the template asks `{code}` once"
        );
        assert!(
            template_html.contains(&format!("provider-contract.html#{code}")),
            "the template links `{code}`"
        );
        for provider in ["kubernetes", "gcp", "kvm"] {
            let section = provider_section(provider);
            let claims = Regex::new(&format!(r"\{{\{{#profile {} ", regex::escape(code))).unwrap();
            assert_eq!(
                claims.find_iter(&section).count(),
                1,
                "`{provider}` claims `{code}` once"
            );
        }
    }
}

fn provider_section(provider: &str) -> String {
    let appendix = source("providers-existing.md");
    let start = appendix
        .find(&format!("## `{provider}` {{.provider}}"))
        .expect("a section per provider");
    let end = appendix[start + 3..]
        .find("\n## ")
        .map_or(appendix.len(), |i| start + 3 + i);
    appendix[start..end].to_owned()
}

/// An anchor as the plan's step 6 slugifies headings: lowercase, spaces to hyphens, other
/// punctuation dropped.
fn slug(heading: &str) -> String {
    let heading = Regex::new(r"\s*\{[^}]*\}\s*$")
        .unwrap()
        .replace(heading, "");
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// A link of a document to a file of the repository, as the plan's step 6 extracts it.
struct DocLink {
    /// Its line in the document.
    line: usize,
    /// The destination as written.
    target: String,
    /// The file it names, from the document's folder (the document itself for `#fragment`).
    path: PathBuf,
    /// Its fragment.
    anchor: Option<String>,
}

/// The `](target)` links of `text` outside code, other sites left out; paths are taken from
/// `folder`, and an empty one is `this`.
fn relative_links(text: &str, folder: &Path, this: &Path) -> Vec<DocLink> {
    let link = Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    let mut out = Vec::new();
    for (line, text) in prose_lines(text) {
        for c in link.captures_iter(&text) {
            let target = &c[1];
            if target.contains("://") {
                continue;
            }
            let (file, anchor) = target
                .split_once('#')
                .map_or((target, None), |(f, a)| (f, Some(a.to_owned())));
            let path = if file.is_empty() {
                this.to_path_buf()
            } else {
                folder.join(file)
            };
            out.push(DocLink {
                line,
                target: target.to_owned(),
                path,
                anchor,
            });
        }
    }
    out
}

/// The plan's slugs of the headings of the Markdown file at `path`.
fn heading_slugs(path: &Path) -> BTreeSet<String> {
    let heading = Regex::new(r"(?m)^#{1,6} (.+)$").unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    heading.captures_iter(&text).map(|h| slug(&h[1])).collect()
}

/// Step 6: links resolve: file targets exist and anchors match slugified headings, and the
/// rendered pages have the ids.
#[test]
fn step_6_links_resolve() {
    let book = root().join("book");
    let mut problems = Vec::new();
    let mut checked = 0;
    for chapter in FOUR_FILES.iter().chain(&["authoring.md"]) {
        for link in relative_links(&source(chapter), &book, &book.join(chapter)) {
            checked += 1;
            let (at, target) = (format!("{chapter}:{}", link.line), &link.target);
            if !link.path.is_file() {
                problems.push(format!("{at}: `{target}`: no file"));
                continue;
            }
            let Some(anchor) = &link.anchor else { continue };
            if !heading_slugs(&link.path).contains(anchor) {
                problems.push(format!(
                    "{at}: `{target}`: no heading slugifies to `{anchor}`"
                ));
            }
            let page = link
                .path
                .strip_prefix(&book)
                .unwrap()
                .with_extension("html");
            let html = rendered(&page.to_string_lossy());
            if !html.contains(&format!("id=\"{anchor}\"")) {
                problems.push(format!(
                    "{at}: `{target}`: the rendered page has no id `{anchor}`"
                ));
            }
        }
    }
    assert!(
        checked >= 10,
        "the documents link to each other ({checked} links)"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Step 7: no em-dashes, in the sources or in what smart punctuation renders.
#[test]
fn step_7_no_em_dashes() {
    for chapter in FOUR_FILES.iter().chain(&["authoring.md"]) {
        let text = source(chapter);
        let lines: Vec<usize> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains('\u{2014}'))
            .map(|(i, _)| i + 1)
            .collect();
        assert!(lines.is_empty(), "{chapter}: em-dash on lines {lines:?}");
        let html = rendered(&Path::new(chapter).with_extension("html").to_string_lossy());
        assert!(
            !html.contains('\u{2014}') && !html.contains("&mdash;"),
            "{chapter}: rendered em-dash"
        );
    }
}

/// Step 8: no line references.
#[test]
fn step_8_no_line_references() {
    let pattern = Regex::new(r"\.go:[0-9]+|:[0-9]+-[0-9]+").unwrap();
    for chapter in FOUR_FILES {
        let hits: Vec<String> = source(chapter)
            .lines()
            .enumerate()
            .filter(|(_, l)| pattern.is_match(l))
            .map(|(i, l)| format!("{}: {l}", i + 1))
            .collect();
        assert!(hits.is_empty(), "{chapter}: {hits:#?}");
    }
}

/// The fixture repository's four documents and three edited files (the plan's step 6 list).
const FOUR_IN_DOCS: [&str; 4] = [
    "docs/providers.md",
    "docs/provider-contract.md",
    "docs/provider-spec-template.md",
    "docs/providers-existing.md",
];
const EDITED: [&str; 3] = ["README.md", "CLAUDE.md", "docs/architecture.md"];

fn git_output(dir: &Path, args: &[&str]) -> String {
    let output = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(output.status.success(), "git {args:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// Step 6 beyond the book: the links of the four files plus README, CLAUDE.md and
/// architecture.md resolve, each from its own folder: file targets exist and anchors match
/// slugified headings. The preprocessor agrees.
#[test]
fn step_6_links_resolve_in_the_operator_repository() {
    let repo = super::beyond::operator_repo();
    let root = repo.path();
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in FOUR_IN_DOCS.iter().chain(&EDITED) {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let folder = root.join(file).parent().unwrap().to_path_buf();
        for link in relative_links(&text, &folder, &root.join(file)) {
            checked += 1;
            let (at, target) = (format!("{file}:{}", link.line), &link.target);
            if !link.path.exists() {
                problems.push(format!("{at}: `{target}`: no file"));
                continue;
            }
            if let Some(anchor) = &link.anchor
                && !heading_slugs(&link.path).contains(anchor)
            {
                problems.push(format!("{at}: `{target}`: no heading `{anchor}`"));
            }
        }
    }
    assert!(checked >= 12, "{checked} links");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let (code, out, _) = super::beyond::run(root, &["check", "--format", "short"]);
    assert!(!out.contains("[dangling-link]"), "{out}");
    assert_eq!(code, 1, "the README's old em-dash, see step 7");
}

/// Step 7 beyond the book: no em-dash in the four files, nor in the lines the split added to
/// the three edited files (`git diff main`); the README's old tagline keeps its own. The
/// preprocessor, told `--changed-since main`, agrees.
#[test]
fn step_7_no_em_dashes_in_the_added_lines_of_the_edited_files() {
    let repo = super::beyond::operator_repo();
    let root = repo.path();
    for file in FOUR_IN_DOCS {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        assert!(!text.contains('\u{2014}'), "{file}");
    }
    let mut added = 0;
    for file in EDITED {
        let diff = git_output(root, &["diff", "--unified=0", "main", "--", file]);
        for line in diff.lines() {
            if line.starts_with('+') && !line.starts_with("+++") {
                added += 1;
                assert!(!line.contains('\u{2014}'), "{file}: {line}");
            }
        }
    }
    assert!(added >= 3, "each edited file has an added line");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains('\u{2014}'),
        "an old em-dash outside the added lines"
    );
    let (code, out, _) = super::beyond::run(root, &["check", "--changed-since", "main"]);
    assert_eq!((code, out.trim()), (0, "mdbook-contract: no findings"));
}

/// Step 9: nothing lost: every gap and proposal bullet of the blueprint (`git show
/// main:docs/providers.md`) has its backticked keywords in the appendix or in the contract's
/// known limits (section 13). `carried-over` agrees.
#[test]
fn step_9_nothing_lost() {
    let repo = super::beyond::operator_repo();
    let root = repo.path();
    let old = git_output(root, &["show", "main:docs/providers.md"]);
    let section = old
        .split("\n## ")
        .find(|s| s.to_lowercase().contains("gaps and proposed features"))
        .expect("the blueprint's gaps and proposals");
    let bullets: Vec<&str> = section.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(bullets.len(), 5);
    let appendix = std::fs::read_to_string(root.join("docs/providers-existing.md")).unwrap();
    let contract = std::fs::read_to_string(root.join("docs/provider-contract.md")).unwrap();
    let limits = contract
        .split("\n## ")
        .find(|s| s.starts_with("Known limits"))
        .expect("the contract's known limits");
    let keyword = Regex::new("`([^`]+)`").unwrap();
    for bullet in &bullets {
        for word in keyword.captures_iter(bullet) {
            let word = &word[1];
            let whole = Regex::new(&format!(r"(^|[^\w]){}([^\w]|$)", regex::escape(word))).unwrap();
            assert!(
                whole.is_match(&appendix) || whole.is_match(limits),
                "`{word}` of \"{bullet}\" is lost"
            );
        }
    }
    let (code, out, err) = super::beyond::run(
        root,
        &[
            "carried-over",
            "main:docs/providers.md",
            "--section",
            "Gaps and proposed features",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
}
