//! The cache of what the source tree's files yield, through the binary: the same bytes out with
//! it, cold or warm, as without it; a changed file read again; a corrupt cache or another
//! version's ignored; `--no-cache` and `MDBOOK_CONTRACT_NO_CACHE` writing nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common::{binary, git, protocol_input, run_binary, run_in, run_in_with};

/// A repository holding the book `init` writes (its code cites the rules): the folder, and the
/// book's root in it.
fn repository() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "."]);
    let (code, _, stderr) = run_in(dir.path(), &["init", "docs"]);
    assert_eq!(code, 0, "{stderr}");
    let root = dir.path().join("docs");
    (dir, root)
}

fn cache_folder(dir: &Path) -> PathBuf {
    dir.join(".git").join("mdbook-contract")
}

/// The cache files of the repository at `dir`.
fn cache_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(cache_folder(dir)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cache"))
        .collect();
    files.sort();
    files
}

/// What the commands that read the source tree print for the book at `root` with the extra
/// arguments `args` (the status without its count of files from the cache), and how many files
/// the first of them, `status --unmapped`, took from the cache.
fn outputs(root: &Path, args: &[&str]) -> (Vec<String>, u64) {
    let mut status: Vec<&str> = vec!["status", "--unmapped", "--format", "json"];
    status.extend_from_slice(args);
    let (code, stdout, stderr) = run_in(root, &status);
    assert_eq!(code, 0, "{stderr}");
    let mut json: Value = serde_json::from_str(&stdout).expect("JSON");
    let from_cache = json["source"]["from_cache"]
        .take()
        .as_u64()
        .expect("a count");
    let mut out = vec![json.to_string()];
    for command in [
        &["check", "--format", "json"][..],
        &["export"][..],
        &["status", "--unmapped"][..],
    ] {
        let mut command = command.to_vec();
        command.extend_from_slice(args);
        let (_, stdout, stderr) = run_in(root, &command);
        let cached = stdout
            .lines()
            .filter(|l| !l.starts_with("  from the cache (unchanged since a run parsed them): "));
        out.push(format!(
            "{}\n{stderr}",
            cached.collect::<Vec<_>>().join("\n")
        ));
    }
    let mut protocol = Command::new(binary());
    protocol.current_dir(root).args(args);
    let (code, book, stderr) = run_binary(&mut protocol, &protocol_input(root));
    out.push(format!("{code}\n{book}\n{stderr}"));
    (out, from_cache)
}

#[test]
fn the_output_is_the_same_without_the_cache_cold_and_warm() {
    let (dir, root) = repository();
    let (without, none) = outputs(&root, &["--no-cache"]);
    assert_eq!(none, 0);
    assert!(
        cache_files(dir.path()).is_empty(),
        "--no-cache wrote a cache"
    );
    let (cold, _) = outputs(&root, &[]);
    assert_eq!(cache_files(dir.path()).len(), 1, "one cache for the tree");
    let (warm, from_cache) = outputs(&root, &[]);
    assert_eq!(cold, without);
    assert_eq!(warm, without);
    // The four Python files with a grammar, every one parsed for its units.
    assert_eq!(from_cache, 4);
    let (_, status, _) = run_in(&root, &["status"]);
    assert!(
        status.contains("  from the cache (unchanged since a run parsed them): 4 files\n"),
        "{status}"
    );
}

#[test]
fn a_changed_file_is_read_again() {
    let (_dir, root) = repository();
    let (before, _) = outputs(&root, &[]);
    let backend = root.join("code/alpha/backend.py");
    let text = std::fs::read_to_string(&backend).unwrap();
    std::fs::write(
        &backend,
        text.replace("r[impl call.errors]", "r[impl call.nowhere]"),
    )
    .unwrap();
    let (after, from_cache) = outputs(&root, &[]);
    assert_ne!(after, before);
    assert_eq!(from_cache, 3, "the changed file was parsed again");
    let (without, _) = outputs(&root, &["--no-cache"]);
    assert_eq!(after, without);
    let (_, check, _) = run_in(&root, &["check"]);
    assert!(check.contains("call.nowhere"), "{check}");
}

#[test]
fn a_corrupt_cache_or_another_versions_is_ignored_and_replaced() {
    let (dir, root) = repository();
    let (without, _) = outputs(&root, &["--no-cache"]);
    outputs(&root, &[]);
    let [file] = &cache_files(dir.path())[..] else {
        panic!("one cache file");
    };
    let kept = std::fs::read_to_string(file).unwrap();
    let (header, entries) = kept.split_once('\n').unwrap();
    // Entries whose values say something else: under another version's first line they are
    // not read; under this one's, a value that is not an entry is a file to parse again.
    let lying: String = entries
        .lines()
        .map(|line| format!("{} {{\"parsed\":true}}\n", &line[..64]))
        .collect();
    for corrupt in [
        "not a cache at all\n\0\u{1}".to_owned(),
        format!("{header}0\n{entries}"),
        format!("{header}\n{lying}"),
        format!("{header}\n{}", &entries[..half(entries)]),
        String::new(),
    ] {
        std::fs::write(file, &corrupt).unwrap();
        let (out, from_cache) = outputs(&root, &[]);
        assert_eq!(out, without, "with the cache {corrupt:?}");
        assert_eq!(from_cache, 0, "with the cache {corrupt:?}");
        let rewritten = std::fs::read_to_string(file).unwrap();
        assert!(rewritten.starts_with(&format!("{header}\n")), "{rewritten}");
    }
}

/// A byte about halfway through `text`, on a character's boundary.
fn half(text: &str) -> usize {
    (0..=text.len() / 2)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

#[test]
fn no_cache_and_the_environment_variable_write_nothing() {
    let (dir, root) = repository();
    let (code, _, stderr) = run_in(&root, &["check", "--no-cache"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run_in_with(
        &root,
        &["status", "--unmapped"],
        &[("MDBOOK_CONTRACT_NO_CACHE", "1")],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(!cache_folder(dir.path()).exists(), "a cache was written");
    // `0` leaves it on.
    run_in_with(&root, &["check"], &[("MDBOOK_CONTRACT_NO_CACHE", "0")]);
    assert_eq!(cache_files(dir.path()).len(), 1);
}

/// A symlink where the cache's folder should be turns the cache off: nothing is written where
/// it leads.
#[cfg(unix)]
#[test]
fn no_write_follows_a_symlink() {
    let (dir, root) = repository();
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), cache_folder(dir.path())).unwrap();
    let (code, _, stderr) = run_in(&root, &["status", "--unmapped"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_dir(elsewhere.path()).unwrap().count(),
        0,
        "the cache was written through the symlink"
    );
}

/// Outside a repository the cache is in the user's cache folder, in a folder of its own,
/// which keeps 16 cache files (the oldest removed first) and nothing of another tool is
/// touched.
#[cfg(target_os = "linux")]
#[test]
fn outside_a_repository_the_cache_is_in_a_folder_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run_in(dir.path(), &["init", "docs"]);
    assert_eq!(code, 0, "{stderr}");
    let caches = tempfile::tempdir().unwrap();
    let other = caches.path().join("0123456789abcdef0123456789abcdef.cache");
    std::fs::write(&other, "another tool's").unwrap();
    let own = caches.path().join("mdbook-contract");
    std::fs::create_dir(&own).unwrap();
    std::fs::write(own.join("notes.cache"), "kept").unwrap();
    // Twenty older caches (other settings: other versions, other citation prefixes).
    for i in 0..20 {
        let file = own.join(format!("{i:032x}.cache"));
        std::fs::write(&file, "old").unwrap();
        let time = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1000 + i);
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(time)
            .unwrap();
    }
    let xdg = caches.path().to_str().unwrap();
    let root = dir.path().join("docs");
    let (code, _, stderr) = run_in_with(&root, &["check"], &[("XDG_CACHE_HOME", xdg)]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "another tool's");
    assert_eq!(
        std::fs::read_to_string(own.join("notes.cache")).unwrap(),
        "kept"
    );
    let mut names: Vec<String> = std::fs::read_dir(&own)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "notes.cache")
        .collect();
    names.sort();
    assert_eq!(names.len(), 16, "{names:?}");
    // The five oldest went; this run's is kept.
    assert!(!names.contains(&format!("{:032x}.cache", 4)), "{names:?}");
    assert!(names.contains(&format!("{:032x}.cache", 5)), "{names:?}");
    let (_, warm, _) = run_in_with(&root, &["status"], &[("XDG_CACHE_HOME", xdg)]);
    assert!(warm.contains("from the cache"), "{warm}");
}

/// The MCP server keeps what each source file gave between reloads, by its length and time: a
/// file edited since (here to the same length) is read again, and its old citation is gone.
#[test]
fn a_server_reads_again_the_source_file_that_changed() {
    let book = crate::broker::broker(&[]);
    // Written long ago, as most of a tree is: kept in memory between reloads.
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    let code = book.root().join("code");
    let mut stack = vec![code.clone()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let file = std::fs::File::options().write(true).open(&path).unwrap();
                file.set_modified(old).unwrap();
            }
        }
    }
    let mut session = crate::mcp::Session::start(book.root());
    let citing = |rule: &Value| -> Vec<String> {
        rule["citations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["path"].as_str().unwrap().to_owned())
            .collect()
    };
    let before = session.answer("contract_rule", serde_json::json!({ "id": "publish.ack" }));
    assert!(
        citing(&before).contains(&"code/adapters/nats/nats.go".to_owned()),
        "{before}"
    );
    // A chapter edited: a reload, every source file as it was.
    let contract = book.root().join("src/contract.md");
    let text = std::fs::read_to_string(&contract).unwrap();
    std::fs::write(&contract, format!("{text}\nOne more line.\n")).unwrap();
    let again = session.answer("contract_rule", serde_json::json!({ "id": "publish.ack" }));
    assert_eq!(citing(&again), citing(&before));
    // One source file edited to the same length: read again.
    let nats = code.join("adapters/nats/nats.go");
    let go = std::fs::read_to_string(&nats).unwrap();
    let edited = go.replacen("// r[impl publish.ack]", "// x[impl publish.ack]", 1);
    assert_eq!(edited.len(), go.len());
    std::fs::write(&nats, edited).unwrap();
    let after = session.answer("contract_rule", serde_json::json!({ "id": "publish.ack" }));
    assert!(
        !citing(&after).contains(&"code/adapters/nats/nats.go".to_owned()),
        "{after}"
    );
    assert_eq!(citing(&after).len() + 1, citing(&before).len(), "{after}");
}
