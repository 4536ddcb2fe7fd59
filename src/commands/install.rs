//! `mdbook-contract install`: set a book up for this preprocessor, the way mdBook plugins do
//! (mdbook-admonish's `install` is the model).
//!
//! [`install`] writes the stylesheet of the generated tables ([`CSS`]) and the script of the
//! coverage page ([`JS`]) beside book.toml and edits book.toml with `toml_edit`, so that every
//! comment, blank line and key order stays as the author wrote it: `[preprocessor.contract]`
//! with `after = ["links"]` when the book has no such table, the stylesheet in
//! `output.html.additional-css` and the script in `output.html.additional-js` when they are not
//! listed. Run again, it rewrites both files (a newer version of this program may ship newer
//! ones) and leaves book.toml alone.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use toml_edit::{Array, DocumentMut, Item, Table, value};

/// The stylesheet's file name, beside book.toml.
pub const CSS_FILE: &str = "mdbook-contract.css";

/// The stylesheet of the generated tables. Without it the tables read well too; with it the
/// profile matrix is compact enough for four providers in mdBook's content column, and a cell
/// not verified yet is greyed. Its one source is `mdbook-contract.css` at the repository root,
/// which this repository's book uses too.
pub const CSS: &str = include_str!("../../mdbook-contract.css");

/// The script's file name, beside book.toml.
pub const JS_FILE: &str = "mdbook-contract.js";

/// The script of the coverage page: on a page with a `{{#rule-matrix}}`, a find bar (search,
/// provider, status and level, the state in the URL's fragment), folding of the rule groups,
/// and the matrix's box kept to the window. It only hides and adds controls: without it every
/// row shows. No network, no dependency. Its one source is `mdbook-contract.js` at the
/// repository root.
pub const JS: &str = include_str!("../../mdbook-contract.js");

/// What [`install`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Installed {
    /// The stylesheet written.
    pub css: PathBuf,
    /// The script written.
    pub js: PathBuf,
    /// What changed in book.toml, one line each; empty when it already had everything.
    pub changes: Vec<String>,
}

/// Sets up the book at `dir` (where book.toml is): see the module docs.
pub fn install(dir: &Path) -> Result<Installed> {
    let toml_path = dir.join("book.toml");
    let text = std::fs::read_to_string(&toml_path).with_context(|| {
        format!(
            "`{}` cannot be read; `install` runs in a book's root folder (where book.toml is)",
            toml_path.display()
        )
    })?;
    let mut doc: DocumentMut = text
        .parse()
        .with_context(|| format!("`{}` is not valid TOML", toml_path.display()))?;
    let changes = edit(&mut doc)?;
    let css = dir.join(CSS_FILE);
    let js = dir.join(JS_FILE);
    crate::util::confine::Confinement::of_book(dir).check_writes([
        toml_path.as_path(),
        css.as_path(),
        js.as_path(),
    ])?;
    std::fs::write(&css, CSS).with_context(|| format!("cannot write `{}`", css.display()))?;
    std::fs::write(&js, JS).with_context(|| format!("cannot write `{}`", js.display()))?;
    if !changes.is_empty() {
        std::fs::write(&toml_path, doc.to_string())
            .with_context(|| format!("cannot write `{}`", toml_path.display()))?;
    }
    Ok(Installed { css, js, changes })
}

/// Adds what is missing to book.toml; what it added, one line each.
fn edit(doc: &mut DocumentMut) -> Result<Vec<String>> {
    let mut changes = Vec::new();
    let preprocessor = table_at(doc.as_table_mut(), "preprocessor", true)?;
    if !preprocessor.contains_key("contract") {
        let mut contract = Table::new();
        let mut after = Array::new();
        after.push("links");
        contract.insert("after", value(after));
        preprocessor.insert("contract", Item::Table(contract));
        changes.push("added `[preprocessor.contract]` with `after = [\"links\"]`".to_owned());
    }
    let output = table_at(doc.as_table_mut(), "output", true)?;
    let html = table_at(output, "html", false)?;
    for (key, file) in [("additional-css", CSS_FILE), ("additional-js", JS_FILE)] {
        if list_file(html, key, file)? {
            changes.push(format!("added `{file}` to `output.html.{key}`"));
        }
    }
    Ok(changes)
}

/// Lists `file` in the list `key` of `html` when it is not listed; whether it was added.
fn list_file(html: &mut Table, key: &str, file: &str) -> Result<bool> {
    let list = match html.get_mut(key) {
        None => {
            html.insert(key, value(Array::new()));
            html[key].as_array_mut().expect("just inserted")
        }
        Some(item) => match item.as_array_mut() {
            Some(array) => array,
            None => bail!(
                "book.toml: `output.html.{key}` must be a list of paths, found {}",
                item.type_name()
            ),
        },
    };
    let listed = list.iter().any(|v| {
        v.as_str()
            .is_some_and(|p| p.trim_start_matches("./") == file)
    });
    if !listed {
        list.push(file);
    }
    Ok(!listed)
}

/// The table `key` of `parent`, made when missing (`implicit`: written only through its own
/// sub-tables, as `[preprocessor.x]` makes `preprocessor`).
fn table_at<'t>(parent: &'t mut Table, key: &str, implicit: bool) -> Result<&'t mut Table> {
    if !parent.contains_key(key) {
        let mut table = Table::new();
        table.set_implicit(implicit);
        parent.insert(key, Item::Table(table));
    }
    let item = &mut parent[key];
    let kind = item.type_name();
    match item.as_table_mut() {
        Some(table) => Ok(table),
        None => bail!("book.toml: `{key}` must be a table, found {kind}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edited(text: &str) -> (String, Vec<String>) {
        let mut doc: DocumentMut = text.parse().unwrap();
        let changes = edit(&mut doc).unwrap();
        (doc.to_string(), changes)
    }

    #[test]
    fn a_bare_book_gets_the_table_the_stylesheet_and_the_script() {
        let (text, changes) = edited("[book]\ntitle = \"T\"\n");
        assert_eq!(changes.len(), 3, "{changes:?}");
        let config: toml_edit::DocumentMut = text.parse().unwrap();
        assert_eq!(
            config["preprocessor"]["contract"]["after"]
                .as_array()
                .unwrap()
                .get(0)
                .and_then(|v| v.as_str()),
            Some("links")
        );
        assert_eq!(
            config["output"]["html"]["additional-css"]
                .as_array()
                .unwrap()
                .get(0)
                .and_then(|v| v.as_str()),
            Some(CSS_FILE)
        );
        assert_eq!(
            config["output"]["html"]["additional-js"]
                .as_array()
                .unwrap()
                .get(0)
                .and_then(|v| v.as_str()),
            Some(JS_FILE)
        );
        assert!(!text.contains("[preprocessor]\n"), "{text}");
    }

    #[test]
    fn comments_and_order_are_kept_and_a_second_run_changes_nothing() {
        let original = "# The book.\n[book]\ntitle = \"T\" # inline\n\n[output.html]\n# styles\nadditional-css = [\"a.css\"]  # ours too\nadditional-js = [\"./mdbook-contract.js\"]\n\n[preprocessor.contract]\n# roles\ncontract = [\"c.md\"]\n";
        let (text, changes) = edited(original);
        assert_eq!(
            changes,
            [format!(
                "added `{CSS_FILE}` to `output.html.additional-css`"
            )]
        );
        assert_eq!(
            text,
            original.replace("[\"a.css\"]", &format!("[\"a.css\", \"{CSS_FILE}\"]"))
        );
        let (again, changes) = edited(&text);
        assert!(changes.is_empty());
        assert_eq!(again, text);
    }

    #[test]
    fn a_value_of_the_wrong_type_is_refused() {
        let mut doc: DocumentMut = "[output.html]\nadditional-css = \"a.css\"\n"
            .parse()
            .unwrap();
        let message = format!("{:#}", edit(&mut doc).unwrap_err());
        assert!(
            message.contains("must be a list of paths, found string"),
            "{message}"
        );
    }
}
