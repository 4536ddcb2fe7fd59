//! `contract_new_spec`: a new provider's spec, written as `mdbook-contract new-spec` writes it
//! (the same refusals, the same files). The only tool that writes: the book's next load sees
//! the spec, and the next call says so in `changed`.

use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

use super::{Refusal, Typed};
use crate::mcp::watch::Paths;

/// `contract_new_spec`'s answer.
#[derive(Serialize, JsonSchema)]
pub(crate) struct NewSpecAnswer {
    provider: String,
    /// The spec chapter, from the repository's root.
    chapter: String,
    /// The files written, from the repository's root: the spec, SUMMARY.md, book.toml.
    written: Vec<String>,
    /// What was made of the template, one sentence each.
    notes: Vec<String>,
    /// What to do next, in a sentence.
    next: String,
}

/// `contract_new_spec`: the spec of `name` for the book at `dir`, as `path` (relative to the
/// book's source folder) or where `new-spec` puts it.
pub(crate) fn new_spec(
    dir: &Path,
    paths: &Paths,
    src: &str,
    name: &str,
    path: Option<&str>,
) -> Result<Typed<NewSpecAnswer>, Refusal> {
    // The tool's words: its `path` argument, paths from the repository's root.
    let asked = crate::commands::new_spec::Asked {
        give: |path| format!("`\"path\": \"{path}\"`"),
        src: Some(paths.of_book(src)),
    };
    let made = crate::commands::new_spec::new_spec_asked(dir, name, path, &asked)
        .map_err(|e| format!("{e:#}"))?;
    let chapter = paths.of_book(&format!("{src}/{}", made.chapter));
    let written: Vec<String> = made
        .written
        .iter()
        .map(|p| paths.of_book(&crate::util::paths::slashed(p)))
        .collect();
    let next = format!(
        "answer its entries in `{chapter}` (`contract_provider` with name `{name}` lists the open ones and the rules its profiles bind it to)"
    );
    let mut text = format!("wrote {}", written.join(", "));
    for note in &made.notes {
        text.push('\n');
        text.push_str(note);
    }
    text.push_str("\nnext: ");
    text.push_str(&next);
    let value = NewSpecAnswer {
        provider: name.to_owned(),
        chapter,
        written,
        notes: made.notes,
        next,
    };
    Ok(Typed::new(value, text))
}
