//! `mdbook-contract init [DIR]`: a small, complete contract book that builds at once, for a team
//! to change into its own.
//!
//! [`init`] writes, into a folder without a book.toml: book.toml with the roles, SUMMARY.md, a
//! contract chapter (two axes with their profiles, a MUST, a SHOULD and a MAY rule), the spec
//! template, an appendix with one section per provider (each claiming every axis), the profile
//! matrix and the rule matrix, and a tiny Python source tree (a shared client, one file per
//! provider with an `r[impl ID]`, a conformance test with `r[verify ID]`s); then it runs
//! [`install`](super::install::install) for the stylesheet, the page script and their lines in
//! book.toml. Every file starts with one comment line that says what to change first.
//!
//! The texts are the files of `template/`, with `@noun@`, `@Noun@`, `@provider@`, `@providers@`
//! and the profiles filled in. To change what `init` writes, edit them; the test of the guide's
//! tutorial (`guide/examples/`) shows the result and fails until it is updated. Nothing is
//! written when `init` refuses: every text is made and every path checked first.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};

use crate::model::spec::is_dns_label;

/// The providers of a book when none is named.
pub const DEFAULT_PROVIDERS: &[&str] = &["alpha", "beta"];

/// The noun of a book's domain when none is given: what its providers are.
pub const DEFAULT_NOUN: &str = "backend";

/// The files written, by path relative to the book's root, and their template.
const BOOK_TOML: &str = include_str!("template/book.toml");
const SUMMARY: &str = include_str!("template/SUMMARY.md");
const CONTRACT: &str = include_str!("template/contract.md");
const SPEC_TEMPLATE: &str = include_str!("template/spec-template.md");
const APPENDIX: &str = include_str!("template/appendix.md");
/// One provider's section of the appendix.
const PROVIDER: &str = include_str!("template/provider.md");
const CLIENT: &str = include_str!("template/client.py");
/// One provider's code.
const BACKEND: &str = include_str!("template/backend.py");
const TEST: &str = include_str!("template/test_conformance.py");
const GITIGNORE: &str = include_str!("template/gitignore");

/// The profiles of the two axes, one of each given to the providers in turn, so that the
/// matrices show providers that differ.
const RETRIES: [&str; 2] = ["idempotent", "at-most-once"];
const RATE_LIMIT: [&str; 2] = ["rejects", "queues"];

/// What [`init`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Initialized {
    /// The files written, relative to the book's root folder, in the order written.
    pub written: Vec<PathBuf>,
}

/// Writes a new contract book into `dir` (made when missing) for `providers` (DNS-1123 labels,
/// at least one, each once), in the words of `noun` (lowercase words, such as `storage
/// backend`): see the module docs. Refuses, writing nothing, when `dir` holds a book.toml or
/// any file it would write.
pub fn init(dir: &Path, providers: &[String], noun: &str) -> Result<Initialized> {
    check_noun(noun)?;
    check_providers(providers, noun)?;
    let toml = dir.join("book.toml");
    if toml.exists() {
        bail!(
            "`{}` exists: `init` writes a new book into a folder without one (to set up this book, run `mdbook-contract install` in it)",
            toml.display()
        );
    }
    let files = texts(providers, noun);
    if let Some((path, _)) = files.iter().find(|(path, _)| dir.join(path).exists()) {
        bail!(
            "`{}` exists: `init` writes only new files, and changed nothing",
            dir.join(path).display()
        );
    }
    let targets: Vec<PathBuf> = files
        .iter()
        .map(|(path, _)| dir.join(path))
        .chain([
            dir.join(super::install::CSS_FILE),
            dir.join(super::install::JS_FILE),
        ])
        .collect();
    crate::util::confine::Confinement::of_book(dir)
        .check_writes(targets.iter().map(PathBuf::as_path))?;
    let mut written = Vec::new();
    for (path, text) in &files {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot make the folder `{}`", parent.display()))?;
        }
        std::fs::write(&target, text)
            .with_context(|| format!("cannot write `{}`", target.display()))?;
        written.push(path.clone());
    }
    let installed = super::install::install(dir)?;
    for file in [installed.css, installed.js] {
        written.push(
            file.strip_prefix(dir)
                .map_or(file.clone(), Path::to_path_buf),
        );
    }
    Ok(Initialized { written })
}

/// Every file of the book but the stylesheet and the script, with its text.
fn texts(providers: &[String], noun: &str) -> Vec<(PathBuf, String)> {
    let fill = |template: &str| {
        template
            .replace("@Noun@", &crate::util::capitalised(noun))
            .replace("@noun@", noun)
    };
    let mut appendix = fill(APPENDIX);
    for (number, provider) in providers.iter().enumerate() {
        appendix.push_str(
            &fill(PROVIDER)
                .replace("@provider@", provider)
                .replace("@retries@", RETRIES[number % 2])
                .replace("@rate-limit@", RATE_LIMIT[number % 2]),
        );
    }
    // One blank line at the end of the chapter, not two.
    let appendix = format!("{}\n", appendix.trim_end());
    let listed: Vec<String> = providers.iter().map(|p| format!("\"{p}\"")).collect();
    let mut files = vec![
        (PathBuf::from("book.toml"), fill(BOOK_TOML)),
        (PathBuf::from(".gitignore"), GITIGNORE.to_owned()),
        (PathBuf::from("src/SUMMARY.md"), fill(SUMMARY)),
        (PathBuf::from("src/contract.md"), fill(CONTRACT)),
        (PathBuf::from("src/spec-template.md"), fill(SPEC_TEMPLATE)),
        (PathBuf::from("src/appendix.md"), appendix),
        (PathBuf::from("code/shared/client.py"), fill(CLIENT)),
    ];
    for provider in providers {
        files.push((
            PathBuf::from(format!("code/{provider}/backend.py")),
            fill(BACKEND).replace("@provider@", provider),
        ));
    }
    files.push((
        PathBuf::from("code/conformance/test_conformance.py"),
        fill(TEST).replace("@providers@", &listed.join(", ")),
    ));
    files
}

/// A noun is one to four lowercase words of letters, digits and `-`, as a title and a file
/// name (`new-spec` makes `TYPE-storage-backend-spec.md` of "Storage backend") can hold it.
fn check_noun(noun: &str) -> Result<()> {
    let words: Vec<&str> = noun.split(' ').collect();
    let word = |w: &&str| {
        w.starts_with(|c: char| c.is_ascii_lowercase())
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    if words.len() > 4 || !words.iter().all(word) {
        bail!(
            "`--noun {noun}`: a noun is one to four lowercase words (letters, digits and `-`, one space between words), such as `backend` or `payment gateway`"
        );
    }
    Ok(())
}

/// Each provider is a DNS-1123 label (it names a folder and, for `new-spec`, a file), given
/// once, and not a word of the contract chapter, where every provider's name is banned.
fn check_providers(providers: &[String], noun: &str) -> Result<()> {
    if providers.is_empty() {
        bail!("`init` needs at least one provider (`--provider NAME`)");
    }
    for (number, provider) in providers.iter().enumerate() {
        if !is_dns_label(provider) {
            bail!(
                "`--provider {provider}`: a provider's name is a DNS-1123 label (lowercase letters, digits and `-`, at most 63 characters, starting and ending with a letter or digit), such as `s3`"
            );
        }
        if providers[..number].contains(provider) {
            bail!("`--provider {provider}` is given twice; name each provider once");
        }
        if contract_words(noun).any(|w| w == *provider) {
            bail!(
                "`--provider {provider}`: the contract chapter uses the word `{provider}`, and a provider's name is banned there (`forbidden-term`); choose another name"
            );
        }
    }
    Ok(())
}

/// The words of the contract chapter as written for `noun`, lowercase.
fn contract_words(noun: &str) -> impl Iterator<Item = String> {
    let text = CONTRACT.replace("@Noun@", noun).replace("@noun@", noun);
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>()
        .into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn every_placeholder_is_filled() {
        let placeholder = regex::Regex::new("@[A-Za-z-]+@").unwrap();
        for (path, text) in texts(&names(&["s3", "gcs", "azure"]), "storage backend") {
            assert!(!placeholder.is_match(&text), "{}: {text}", path.display());
        }
    }

    #[test]
    fn the_providers_take_the_profiles_in_turn() {
        let files = texts(&names(&["s3", "gcs", "azure"]), "backend");
        let appendix = &files
            .iter()
            .find(|(p, _)| p == Path::new("src/appendix.md"))
            .unwrap()
            .1;
        assert!(appendix.contains("{{#profile retries idempotent code/s3/backend.py}}"));
        assert!(appendix.contains("{{#profile retries at-most-once code/gcs/backend.py}}"));
        assert!(appendix.contains("{{#profile rate-limit rejects code/azure/backend.py}}"));
        assert!(appendix.ends_with("backend.py}}\n"), "{appendix}");
    }

    #[test]
    fn bad_names_and_nouns_are_refused_with_what_is_expected() {
        let refused = |providers: &[&str], noun: &str| {
            check_noun(noun)
                .and_then(|()| check_providers(&names(providers), noun))
                .unwrap_err()
                .to_string()
        };
        assert!(refused(&["S3"], "backend").contains("DNS-1123 label"));
        assert!(refused(&["x", "x"], "backend").contains("given twice"));
        assert!(refused(&["client"], "backend").contains("banned there"));
        assert!(refused(&["storage"], "storage backend").contains("banned there"));
        assert!(refused(&[], "backend").contains("at least one provider"));
        assert!(refused(&["x"], "Backend").contains("lowercase words"));
        assert!(refused(&["x"], "a  b").contains("lowercase words"));
        assert_eq!(
            crate::util::capitalised("payment gateway"),
            "Payment gateway"
        );
    }
}
