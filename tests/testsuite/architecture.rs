//! The invariants of `ARCHITECTURE.md` that the source itself can show: the modules of `src/`
//! import each other without a cycle at any level (the top-level modules among themselves, and
//! the modules of each folder among themselves), `vocab` imports nothing of the crate, and only
//! the command line (`main.rs` and the binary's `cli/`) and the protocol's writer touch standard
//! output.
//!
//! A module is a file of `src/` (a folder's `mod.rs` is the folder). An import is any path to
//! another module in a file's code (comments left out): `crate::a::b`, `crate::{a, b}`,
//! `super::x` and `self::x`, so `use` lines and paths written in place both count. A path is
//! taken to the deepest module it names.
//!
//! At the level of a folder, an import from anything inside one of its entries to anything
//! inside another is an arrow between the two entries; the folder's own `mod.rs` is the folder
//! itself, which declares and wires its entries, so its imports of them and theirs of it are no
//! arrow among them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use regex::Regex;

/// A module's path from the crate root: `["checks", "em_dash"]`.
type Module = Vec<String>;

/// Every module of the crate (but `lib.rs` and `main.rs`, the surface and the command line)
/// with its file's code (comments left out).
fn modules() -> BTreeMap<Module, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<Module, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let mut module = prefix.to_vec();
            if path.is_dir() {
                module.push(stem);
                walk(&path, &module, out);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs")
                || (prefix.is_empty() && (stem == "lib" || stem == "main"))
            {
                continue;
            }
            if stem != "mod" {
                module.push(stem);
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code: String = text
                .lines()
                .map(|line| line.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n");
            out.insert(module, code);
        }
    }
    let mut out = BTreeMap::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &[],
        &mut out,
    );
    out
}

/// Every module with the modules it imports.
fn imports() -> BTreeMap<Module, BTreeSet<Module>> {
    let all = modules();
    let path = Regex::new(r"\b(crate|super|self)((?:::[a-z_][a-z0-9_]*)+|::\{[^}]*\})").unwrap();
    let mut graph = BTreeMap::new();
    for (module, code) in &all {
        let mut names = BTreeSet::new();
        for caps in path.captures_iter(code) {
            let base: Module = match &caps[1] {
                "crate" => Vec::new(),
                // A folder is its `mod.rs`, so `super` is the module above either way.
                "super" if module.is_empty() => continue,
                "super" => module[..module.len() - 1].to_vec(),
                _ => module.clone(),
            };
            let rest = &caps[2];
            let paths: Vec<Vec<String>> = match rest.strip_prefix("::{") {
                Some(group) => group
                    .trim_end_matches('}')
                    .split(',')
                    .map(|p| p.trim().split("::").map(str::to_owned).collect())
                    .collect(),
                None => vec![rest[2..].split("::").map(str::to_owned).collect()],
            };
            for tail in paths {
                let mut target = base.clone();
                let mut deepest = None;
                for part in tail {
                    target.push(part);
                    if all.contains_key(&target) {
                        deepest = Some(target.clone());
                    }
                }
                if let Some(target) = deepest
                    && &target != module
                {
                    names.insert(target);
                }
            }
        }
        graph.insert(module.clone(), names);
    }
    graph
}

/// The arrows among the entries of the folder `folder`: entry -> entries it imports.
fn level(
    graph: &BTreeMap<Module, BTreeSet<Module>>,
    folder: &[String],
) -> BTreeMap<String, BTreeSet<String>> {
    let entry = |m: &Module| -> Option<String> {
        (m.len() > folder.len() && m.starts_with(folder)).then(|| m[folder.len()].clone())
    };
    let mut arrows: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in graph {
        let Some(a) = entry(from) else { continue };
        arrows.entry(a.clone()).or_default();
        for to in targets {
            if let Some(b) = entry(to)
                && b != a
            {
                arrows.entry(a.clone()).or_default().insert(b);
            }
        }
    }
    arrows
}

/// The first cycle among `arrows`, as `a -> b -> a`.
fn cycle(arrows: &BTreeMap<String, BTreeSet<String>>) -> Option<String> {
    fn visit(
        node: &str,
        arrows: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Result<(), String> {
        if let Some(at) = path.iter().position(|m| m == node) {
            return Err(format!("{} -> {node}", path[at..].join(" -> ")));
        }
        if !done.insert(node.to_owned()) {
            return Ok(());
        }
        path.push(node.to_owned());
        for next in arrows.get(node).into_iter().flatten() {
            visit(next, arrows, path, done)?;
        }
        path.pop();
        Ok(())
    }
    let mut done = BTreeSet::new();
    arrows
        .keys()
        .find_map(|node| visit(node, arrows, &mut Vec::new(), &mut done).err())
}

#[test]
fn the_modules_import_each_other_without_a_cycle_at_any_level() {
    let graph = imports();
    assert!(graph.len() >= 100, "{} modules read", graph.len());
    let mut folders: BTreeSet<Module> = BTreeSet::new();
    for module in graph.keys() {
        for depth in 0..module.len() {
            folders.insert(module[..depth].to_vec());
        }
    }
    let mut cycles = Vec::new();
    for folder in &folders {
        if let Some(found) = cycle(&level(&graph, folder)) {
            let at = if folder.is_empty() {
                "src/".to_owned()
            } else {
                format!("src/{}/", folder.join("/"))
            };
            cycles.push(format!("{at}: {found}"));
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn an_import_cycle_is_found_inside_a_folder() {
    let module = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Module>();
    let mut graph = BTreeMap::new();
    graph.insert(
        module(&["diff"]),
        BTreeSet::from([module(&["diff", "axes"])]),
    );
    graph.insert(
        module(&["diff", "axes"]),
        BTreeSet::from([module(&["diff", "rules"]), module(&["diff"])]),
    );
    graph.insert(
        module(&["diff", "rules"]),
        BTreeSet::from([module(&["diff", "axes"])]),
    );
    assert_eq!(cycle(&level(&graph, &[])), None);
    assert_eq!(
        cycle(&level(&graph, &module(&["diff"]))).as_deref(),
        Some("axes -> rules -> axes")
    );
}

#[test]
fn the_vocabulary_is_a_leaf() {
    let graph = imports();
    let (vocab, imported) = graph
        .iter()
        .find(|(m, _)| m.last().is_some_and(|n| n == "vocab"))
        .expect("a vocab module");
    assert_eq!(imported, &BTreeSet::new());
    let config = graph
        .iter()
        .find(|(m, _)| m.last().is_some_and(|n| n == "config"))
        .expect("a config module");
    assert!(config.1.contains(vocab));
}

#[test]
fn only_the_command_line_prints() {
    let print = Regex::new(r"\b(e?print(ln)?!|std::io::stdout\(\))").unwrap();
    let mut found = Vec::new();
    // The binary's `cli/` is the command line: it writes each command's answer.
    for (module, code) in modules().into_iter().filter(|(m, _)| m[0] != "cli") {
        let code = code.split("#[cfg(test)]").next().unwrap();
        for (number, line) in code.lines().enumerate() {
            // The in-process preprocessor prints its findings with `eprint!`, standard
            // error, which a test harness captures; nothing else prints.
            let allowed = module.last().is_some_and(|m| m == "preprocessor")
                && line.trim_start().starts_with("eprint!(");
            if !allowed && print.is_match(line) {
                found.push(format!("{}:{}: {line}", module.join("::"), number + 1));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
