//! `mdbook-contract new-spec TYPE`: the first step of specifying a new provider, as the plan
//! has it ("copy the template to `<type>-provider-spec.md`, fill every Answer line").
//!
//! [`new_spec`] writes the spec chapter from the template chapter (its title replaced by the
//! spec's heading, `**Status:** draft` and `{{#spec-status}}`; everything else the template has
//! before its first entry kept, its header table's empty `Type` filled with the provider's
//! type; every entry kept with its Answer and Evidence empty), lists it in SUMMARY.md right after the
//! template at the same depth, and adds its path to `specs` in book.toml (with `toml_edit`, so
//! comments and layout stay). It changes nothing when it refuses: every new text is made and
//! checked before any file is written.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use toml_edit::{Array, DocumentMut, Item, value};

use crate::model::spec::{STATUS, is_dns_label};
use crate::read::config::{Config, TABLE};

mod place;

use place::Place;

/// What [`new_spec`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NewSpec {
    /// The spec chapter, relative to `src` (`/`-separated).
    pub chapter: String,
    /// The files written, relative to the book's root folder.
    pub written: Vec<PathBuf>,
    /// What was made of the template, one sentence each (the text kept before its first
    /// entry, the `Type` filled or why not).
    pub notes: Vec<String>,
}

/// How the caller of [`new_spec`] was asked: how its user gives a path (the command line's
/// `--path`, a tool's `path` argument) and sees the book's `src` folder.
pub(crate) struct Asked {
    /// The way to give `path`, as a hint: `` `--path x.md` ``.
    pub(crate) give: fn(&str) -> String,
    /// The book's `src` folder as the user sees paths (`book/src`); the book's own spelling
    /// when none.
    pub(crate) src: Option<String>,
}

impl Asked {
    /// Asked on the command line.
    pub(crate) const COMMAND_LINE: Asked = Asked {
        give: |path| format!("`--path {path}`"),
        src: None,
    };
}

/// Writes the spec of provider `provider_type` for the book at `dir` (see the module docs), as
/// `path` (relative to `src`) or beside the template as `<type>-<noun>-spec.md`, the noun the
/// book's template title gives (`provider` for a "Provider spec template").
pub fn new_spec(dir: &Path, provider_type: &str, path: Option<&str>) -> Result<NewSpec> {
    new_spec_asked(dir, provider_type, path, &Asked::COMMAND_LINE)
}

/// [`new_spec`], its messages in the words of the caller's user.
pub(crate) fn new_spec_asked(
    dir: &Path,
    provider_type: &str,
    path: Option<&str>,
    asked: &Asked,
) -> Result<NewSpec> {
    if !is_dns_label(provider_type) {
        bail!(
            "`{provider_type}` is not a provider type: a type is a DNS-1123 label (lowercase letters, digits and `-`, at most 63 characters, starting and ending with a letter or digit), such as `my-backend`"
        );
    }
    let md = crate::read::load::open(dir)?;
    let config = Config::from_book_config(&md.config)?.without_problems()?;
    let src = md.root.join(&md.config.book.src);
    let (template, template_text) = template_of(&config, &src)?;
    let kind = crate::model::spec::spec_kind(&template_text);
    let src_shown =
        (asked.src.clone()).unwrap_or_else(|| crate::util::paths::slashed(&md.config.book.src));
    let place = Place {
        src: &src,
        src_shown: &src_shown,
        template,
        asked,
    };
    // The file is named in the book's own word: an "Adapter spec template" gives
    // `<type>-adapter-spec.md`.
    let default_name = format!("{provider_type}-{}-spec.md", file_word(&kind));
    let chapter = place.chapter(path, &default_name)?;
    let spec_file = src.join(&chapter);
    // A dangling symlink does not exist, yet a write would create its target.
    if spec_file.exists() || spec_file.is_symlink() {
        let shown = match &asked.src {
            Some(src) => format!("{src}/{chapter}"),
            None => crate::util::paths::slashed(&relative(&md.root, &spec_file)),
        };
        bail!("`{shown}` exists; new-spec writes a new spec and never overwrites one");
    }
    let (spec_text, notes) = spec_from_template(&template_text, provider_type, &kind)
        .with_context(|| format!("the template `{template}` cannot be copied"))?;
    let summary_file = src.join("SUMMARY.md");
    let title = format!("{}: {provider_type}", crate::util::capitalised(&kind));
    let summary = with_summary_line(&read(&summary_file)?, template, &title, &chapter)?;
    let toml_file = md.root.join("book.toml");
    let toml = with_spec_key(&read(&toml_file)?, &chapter, &config)?;

    let written = write(
        &md.root,
        [
            (&spec_file, Some(spec_text)),
            (&summary_file, Some(summary)),
            (&toml_file, toml),
        ],
    )?;
    Ok(NewSpec {
        chapter,
        written,
        notes,
    })
}

/// Writes each text of `files` that is there (book.toml's only when its `specs` changed),
/// once every target is known to stay in the book at `root`: the files written, from the
/// book's root.
fn write(root: &Path, files: [(&PathBuf, Option<String>); 3]) -> Result<Vec<PathBuf>> {
    crate::util::confine::Confinement::of_book(root)
        .check_writes(files.iter().map(|(file, _)| file.as_path()))?;
    let mut written = Vec::new();
    for (file, text) in files {
        let Some(text) = text else {
            continue;
        };
        std::fs::write(file, text).with_context(|| format!("cannot write `{}`", file.display()))?;
        written.push(relative(root, file));
    }
    Ok(written)
}

/// The book's noun for a provider as a file name's word: "Adapter" gives `adapter`,
/// "Storage backend" `storage-backend`; `provider` when the noun has other characters.
fn file_word(kind: &str) -> String {
    let noun = crate::model::spec::provider_noun(kind).to_lowercase();
    let word = noun.split_whitespace().collect::<Vec<_>>().join("-");
    if crate::read::shortcode::is_code(&word) {
        word
    } else {
        "provider".to_owned()
    }
}

/// The text of `file`, or why it cannot be read.
fn read(file: &Path) -> Result<String> {
    std::fs::read_to_string(file).with_context(|| format!("cannot read `{}`", file.display()))
}

/// The book's template chapter (its path in `src`) and its text.
fn template_of<'c>(config: &'c Config, src: &Path) -> Result<(&'c str, String)> {
    let Some(template) = config.template.first() else {
        bail!(
            "book.toml names no template chapter (`{TABLE}.template`); new-spec copies the template"
        );
    };
    let text = crate::util::text::read_to_string(&src.join(template))
        .with_context(|| format!("cannot read the template `{template}`"))?;
    Ok((template, text))
}

fn relative(root: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(root).unwrap_or(path).to_path_buf()
}

/// The spec's text from the template's: its title (the first `#` heading) replaced by the
/// spec's heading, status and status box; the rest kept, the first empty `Type` of a header
/// table filled. With what was made of it, for the author.
fn spec_from_template(
    template: &str,
    provider_type: &str,
    kind: &str,
) -> Result<(String, Vec<String>)> {
    let mut offset = 0;
    let mut fenced = false;
    let mut body = None;
    let mut title: Option<std::ops::Range<usize>> = None;
    for line in template.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
        } else if !fenced && trimmed.starts_with("## ") {
            body = Some(offset);
            break;
        } else if !fenced && title.is_none() && trimmed.starts_with("# ") {
            title = Some(offset..offset + line.len());
        }
        offset += line.len();
    }
    let Some(body) = body else {
        bail!("it has no `##` section after its preamble, so it has no entries");
    };
    let mut out = format!(
        "# `{provider_type}` {kind} {{.provider .proposed}}\n\n{STATUS} draft\n\n{{{{#spec-status}}}}\n\n"
    );
    // What the template says before its first entry, but its title.
    let before = match &title {
        Some(t) => format!("{}{}", &template[..t.start], &template[t.end..body]),
        None => template[..body].to_owned(),
    };
    let before = before.trim_start_matches('\n');
    let mut notes = Vec::new();
    if !before.trim().is_empty() {
        let lines = before.trim_end().lines().count();
        notes.push(format!(
            "kept the template's {} before its first entry under the spec's title",
            crate::util::counted(lines, "line")
        ));
    }
    let (filled, typed) = fill_type(&format!("{before}{}", &template[body..]), provider_type);
    out.push_str(&filled);
    notes.push(if typed {
        format!("filled the header's empty `Type` with `{provider_type}`")
    } else {
        "found no empty `Type` in a header table to fill (a row `| Type | |`, or a `Type` column with an empty first cell)".to_owned()
    });
    Ok((out, notes))
}

/// `text` with its first header table's empty `Type` filled: a row `| Type | |`, or the first
/// data cell under a column headed `Type`. Whether one was.
fn fill_type(text: &str, provider_type: &str) -> (String, bool) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len() + provider_type.len() + 2);
    let mut typed = false;
    for (i, line) in lines.iter().enumerate() {
        if !typed {
            if let Some(filled) = fill_type_row(line, provider_type) {
                out.push_str(&filled);
                typed = true;
                continue;
            }
            // A column headed `Type`: the header, its delimiter row, then the cell to fill.
            if i >= 2
                && let Some(column) = type_column(lines[i - 2])
                && cells(lines[i - 1]).is_some_and(|c| {
                    c.iter()
                        .all(|c| c.trim().trim_matches(':').chars().all(|ch| ch == '-'))
                })
                && let Some(filled) = fill_cell(line, column, provider_type)
            {
                out.push_str(&filled);
                typed = true;
                continue;
            }
        }
        out.push_str(line);
    }
    (out, typed)
}

/// `line` with its second cell filled, when it is the header table's `Type` row with that
/// cell empty (`| Type (the `type` of the config block) | |`).
fn fill_type_row(line: &str, provider_type: &str) -> Option<String> {
    let trimmed = line.trim_end();
    let row = cells(line)?;
    let [first, second] = row.as_slice() else {
        return None;
    };
    if !first.trim().starts_with("Type") || !second.trim().is_empty() {
        return None;
    }
    let ending = &line[trimmed.len()..];
    Some(format!("|{first}| `{provider_type}` |{ending}"))
}

/// The cells of a table row `| a | b |`.
fn cells(line: &str) -> Option<Vec<&str>> {
    Some(
        line.trim_end()
            .strip_prefix('|')?
            .strip_suffix('|')?
            .split('|')
            .collect(),
    )
}

/// The index of the column headed `Type` in a header row.
fn type_column(line: &str) -> Option<usize> {
    cells(line)?
        .iter()
        .position(|c| c.trim().starts_with("Type"))
}

/// `line` with its cell `column` filled, when that cell is empty.
fn fill_cell(line: &str, column: usize, provider_type: &str) -> Option<String> {
    let mut row = cells(line)?;
    if !row.get(column)?.trim().is_empty() {
        return None;
    }
    let value = format!(" `{provider_type}` ");
    row[column] = &value;
    let ending = &line[line.trim_end().len()..];
    Some(format!("|{}|{ending}", row.join("|")))
}

/// SUMMARY.md with a line for the spec right after the template's (and its sub-chapters), at
/// the template's depth and with its list marker.
fn with_summary_line(summary: &str, template: &str, title: &str, chapter: &str) -> Result<String> {
    let lines: Vec<&str> = summary.split_inclusive('\n').collect();
    let target = |line: &str| {
        line.split("](").nth(1).is_some_and(|rest| {
            let link = rest.split(')').next().unwrap_or("");
            crate::read::config::normalise(link.split('#').next().unwrap_or(link)) == template
        })
    };
    let Some(at) = lines.iter().position(|l| target(l)) else {
        bail!(
            "SUMMARY.md does not list the template `{template}`, so the spec has no place after it"
        );
    };
    let indent = |line: &str| line.len() - line.trim_start().len();
    let depth = indent(lines[at]);
    let marker = lines[at].trim_start().chars().next().unwrap_or('-');
    let mut after = at + 1;
    while after < lines.len() && !lines[after].trim().is_empty() && indent(lines[after]) > depth {
        after += 1;
    }
    let mut out = String::with_capacity(summary.len() + 80);
    for line in &lines[..after] {
        out.push_str(line);
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "{}{marker} [{title}]({chapter})\n",
        &lines[at][..depth]
    ));
    for line in &lines[after..] {
        out.push_str(line);
    }
    Ok(out)
}

/// book.toml with `chapter` added to `specs`, or `None` when a glob there already covers it.
fn with_spec_key(toml: &str, chapter: &str, config: &Config) -> Result<Option<String>> {
    if config.is_spec(chapter) {
        return Ok(None);
    }
    let mut doc: DocumentMut = toml.parse().context("book.toml is not valid TOML")?;
    let Some(table) = doc
        .get_mut("preprocessor")
        .and_then(Item::as_table_like_mut)
        .and_then(|t| t.get_mut("contract"))
        .and_then(Item::as_table_mut)
    else {
        bail!("book.toml has no `[{TABLE}]` table");
    };
    let specs = table.entry("specs").or_insert_with(|| value(Array::new()));
    let Some(list) = specs.as_array_mut() else {
        bail!("book.toml: `{TABLE}.specs` must be a list of chapter paths");
    };
    list.push(chapter);
    Ok(Some(doc.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_type_row_is_filled_and_nothing_else() {
        assert_eq!(
            fill_type_row("| Type (the `type` of the config block) | |\n", "proxmox").as_deref(),
            Some("| Type (the `type` of the config block) | `proxmox` |\n")
        );
        assert_eq!(fill_type_row("| Type | given |\n", "proxmox"), None);
        assert_eq!(fill_type_row("| Author | |\n", "proxmox"), None);
    }

    #[test]
    fn the_title_is_replaced_and_the_rest_kept() {
        let template = "# Template\n\nCopy me.\n\n```\n## not a heading\n```\n\n## Header\n\n| Field | Value |\n|---|---|\n| Type | |\n\n## Entries\n";
        assert_eq!(crate::model::spec::spec_kind(template), "spec");
        assert_eq!(
            crate::model::spec::spec_kind("# Provider spec template\n"),
            "provider spec"
        );
        assert_eq!(
            crate::model::spec::spec_kind("# Backend spec template\n"),
            "backend spec"
        );
        assert_eq!(crate::model::spec::spec_kind("# Questions\n"), "spec");
        let (spec, notes) = spec_from_template(template, "proxmox", "provider spec").unwrap();
        assert_eq!(
            spec,
            "# `proxmox` provider spec {.provider .proposed}\n\n**Status:** draft\n\n{{#spec-status}}\n\nCopy me.\n\n```\n## not a heading\n```\n\n## Header\n\n| Field | Value |\n|---|---|\n| Type | `proxmox` |\n\n## Entries\n"
        );
        assert_eq!(
            notes,
            [
                "kept the template's 5 lines before its first entry under the spec's title",
                "filled the header's empty `Type` with `proxmox`"
            ]
        );
        assert!(spec_from_template("# Only a title\n", "x", "spec").is_err());
        // A header table whose `Type` is a column, before the first entry.
        let template = "# Backend spec template\n\n| Type | Owner |\n|---|---|\n| | flags team |\n\n## Evaluation\n";
        let (spec, _) = spec_from_template(template, "growthbook", "backend spec").unwrap();
        assert!(
            spec.ends_with("{{#spec-status}}\n\n| Type | Owner |\n|---|---|\n| `growthbook` | flags team |\n\n## Evaluation\n"),
            "{spec}"
        );
    }

    #[test]
    fn the_summary_line_follows_the_template_at_its_depth() {
        let summary = "# Summary\n\n[Intro](intro.md)\n\n- [Contract](c.md)\n- [Template](t.md)\n    - [Part](t/part.md)\n- [Appendix](a.md)\n";
        let out =
            with_summary_line(summary, "t.md", "Provider spec: x", "x-provider-spec.md").unwrap();
        assert_eq!(
            out,
            "# Summary\n\n[Intro](intro.md)\n\n- [Contract](c.md)\n- [Template](t.md)\n    - [Part](t/part.md)\n- [Provider spec: x](x-provider-spec.md)\n- [Appendix](a.md)\n"
        );
        assert!(with_summary_line(summary, "missing.md", "t", "x.md").is_err());
    }
}
