//! The invariants of `ARCHITECTURE.md` that the source itself can show: the modules of `src/`
//! import each other without a cycle, `vocab` imports nothing of the crate, and only the command
//! line and the protocol's writer touch standard output.
//!
//! A module is a file of `src/` or a folder with its `mod.rs`; an import is any `crate::name`
//! in its code (comments left out), so `use` lines and paths written in place both count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use regex::Regex;

/// Every module of the crate (but `lib.rs` and `main.rs`, the surface and the command line)
/// with the modules it names.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let crate_path = Regex::new(r"crate::([a-z_]+)").unwrap();
    let mut graph = BTreeMap::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if name == "lib" || name == "main" {
            continue;
        }
        let files: Vec<_> = if path.is_dir() {
            std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect()
        } else {
            vec![path.clone()]
        };
        let mut names = BTreeSet::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for line in text.lines() {
                let code = line.split("//").next().unwrap_or("");
                for caps in crate_path.captures_iter(code) {
                    if caps[1] != name {
                        names.insert(caps[1].to_owned());
                    }
                }
            }
        }
        graph.insert(name, names);
    }
    graph
}

#[test]
fn the_modules_import_each_other_without_a_cycle() {
    let graph = imports();
    assert!(graph.len() >= 20, "{graph:?}");
    // Depth-first search: a module met again while it is on the path closes a cycle.
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Result<(), String> {
        if let Some(at) = path.iter().position(|m| m == module) {
            return Err(format!("{} -> {module}", path[at..].join(" -> ")));
        }
        if !done.insert(module.to_owned()) {
            return Ok(());
        }
        path.push(module.to_owned());
        for next in graph.get(module).into_iter().flatten() {
            visit(next, graph, path, done)?;
        }
        path.pop();
        Ok(())
    }
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        if let Err(cycle) = visit(module, &graph, &mut Vec::new(), &mut done) {
            panic!("import cycle: {cycle}");
        }
    }
}

#[test]
fn the_vocabulary_is_a_leaf() {
    let graph = imports();
    assert_eq!(graph["vocab"], BTreeSet::new());
    assert!(graph["config"].contains("vocab"));
}

#[test]
fn only_the_command_line_prints() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let print = Regex::new(r"\b(e?print(ln)?!|std::io::stdout\(\))").unwrap();
    let mut found = Vec::new();
    for (module, _) in imports() {
        let path = if src.join(&module).is_dir() {
            src.join(&module).join("mod.rs")
        } else {
            src.join(format!("{module}.rs"))
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        for (number, line) in code.lines().enumerate() {
            // The in-process preprocessor prints its findings with `eprint!`, standard
            // error, which a test harness captures; nothing else prints.
            let allowed = module == "preprocessor" && line.trim_start().starts_with("eprint!(");
            if !allowed && print.is_match(line.split("//").next().unwrap_or("")) {
                found.push(format!("{}:{}: {line}", path.display(), number + 1));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
