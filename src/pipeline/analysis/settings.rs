//! The settings of book.toml that name what only the book or the source tree can confirm: a
//! chapter a role or a setting names, a provider of `provider-paths`, a path it gives. Each
//! one that names nothing becomes a `dangling-path` problem at its key or item, and the setting
//! is read as if it were not there. To check another such setting: a function here, called
//! where `mod.rs` has read what it names.

use crate::model::Model;
use crate::read::code::{SourceIndex, is_glob};
use crate::read::config::{Config, KeyPath, Problem};
use crate::util::suggest;

/// Takes out of the roles and settings of `config` every chapter that the book does not have
/// (a typo there would silently turn a role or a setting off), each a `dangling-path`
/// problem with a did-you-mean; likewise a `specs` path without wildcards that names no
/// chapter.
pub(super) fn check_chapter_keys(config: &mut Config, keys: &[String]) {
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    let mut problems = Vec::new();
    let mut dangling = |at: KeyPath, chapter: &str| {
        let hint = suggest::hint(chapter, keys.iter().copied());
        problems.push(Problem::dangling(
            at.clone(),
            format!("`{at}` names `{chapter}`, which is not a chapter of the book{hint}"),
            "chapter paths are relative to the book's `src`, as in SUMMARY.md; the key is checked as if the chapter were not named",
        ));
    };
    let is_chapter = |chapter: &str| keys.contains(&chapter);
    for key in ["contract", "template"] {
        let list = if key == "contract" {
            &config.contract
        } else {
            &config.template
        };
        for (i, chapter) in list.iter().enumerate() {
            if !is_chapter(chapter) {
                dangling(config.item_at(key, i), chapter);
            }
        }
        config.retain_chapters(key, is_chapter);
    }
    for (i, spec) in config.specs.iter().enumerate() {
        if !is_glob(spec) && !is_chapter(spec) {
            dangling(config.item_at("specs", i), spec);
        }
    }
    let named: Vec<(&str, String)> = config
        .forbidden_terms
        .keys()
        .map(|c| ("forbidden-terms", c.clone()))
        .chain(config.chapter_keys().map(|c| ("chapters", c.to_owned())))
        .filter(|(_, chapter)| !is_chapter(chapter))
        .collect();
    for (key, chapter) in named {
        // The finding is about the key's name, the chapter; as written it may differ
        // (`./a.md`), so it is found under its table.
        dangling(KeyPath::key(key).child(&chapter).naming(), &chapter);
        config.forget_chapter(key, &chapter);
    }
    for problem in problems {
        config.add_problem(problem);
    }
}

/// A path of `provider-paths` that names no file or folder of the source tree (a glob that
/// matches nothing) is a `dangling-path` problem at its item: its code would count for
/// everyone.
pub(super) fn check_provider_places(config: &mut Config, source: &SourceIndex) {
    let mut dangling = Vec::new();
    for (name, paths) in &config.provider_paths {
        for (i, path) in paths.iter().enumerate() {
            // A glob that does not compile is already a `malformed-config` problem at its item.
            let invalid = is_glob(path) && crate::read::code::glob(path).is_err();
            if !invalid && !source.path_exists(path) {
                dangling.push((name.clone(), i, path.clone()));
            }
        }
    }
    for (name, i, path) in dangling {
        let at = KeyPath::key("provider-paths").child(&name).index(i);
        let what = if is_glob(&path) {
            "a glob that matches no file or folder"
        } else {
            "no file or folder"
        };
        config.add_problem(Problem::dangling(
            at,
            format!("`provider-paths` gives `{name}` the path `{path}`, {what} under `source-root`"),
            "a path of `provider-paths` is relative to `source-root`: a folder, a file or a glob of the provider's code; a citation in no provider's place counts for every built provider, unless it stands in a folder beside the providers' folders",
        ));
    }
}

/// A provider that `provider-paths` names and the book does not have (built, proposed or
/// only a spec) is a `dangling-path` problem at its key (a typo would give its folders to no
/// one).
pub(super) fn check_provider_paths(config: &mut Config, model: &Model) {
    let names: Vec<&str> = model.providers.iter().map(|p| p.name.as_str()).collect();
    let unknown: Vec<String> = config
        .provider_paths
        .keys()
        .filter(|name| !names.contains(&name.as_str()))
        .cloned()
        .collect();
    for name in unknown {
        let hint = suggest::hint(&name, names.iter().copied());
        let at = KeyPath::key("provider-paths").child(&name).naming();
        config.add_problem(Problem::dangling(
            at,
            format!("`provider-paths` names `{name}`, which is not a provider of the book{hint}"),
            "a key of `provider-paths` is the name of a `.provider` section; its folders count for no one until it matches",
        ));
    }
}
