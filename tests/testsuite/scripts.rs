//! `scripts/book.sh` as an author runs it, with stand-ins for `cargo` and `mdbook` that record
//! how they were called: the build starts from an empty `target/book`, serving writes
//! elsewhere (its pages carry the findings panels), and the preprocessor's build is not
//! silenced (the first one takes minutes).

use std::path::Path;
use std::process::Command;

/// A copy of the script in a fresh folder, with stand-ins on the `PATH`; the output and the
/// calls recorded by the stand-ins.
fn run_script(args: &[&str], before: impl FnOnce(&Path)) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("scripts")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/book.sh"),
        root.join("scripts/book.sh"),
    )
    .unwrap();
    let bin = root.join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = root.join("calls.log");
    let record = |name: &str, extra: &str| {
        let path = bin.join(name);
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\necho \"{name} $*\" >> '{}'\n{extra}\n",
                log.display()
            ),
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    };
    record("cargo", "");
    record(
        "mdbook",
        "[ \"$1\" = --version ] && echo 'mdbook v0.5.4'\n[ \"$1\" = build ] && ls target > target.list 2>/dev/null\nexit 0",
    );
    before(root);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let output = Command::new("bash")
        .arg(root.join("scripts/book.sh"))
        .args(args)
        .env("PATH", path)
        .output()
        .expect("bash runs the script");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    let listed = std::fs::read_to_string(root.join("target.list")).unwrap_or_default();
    (calls, listed)
}

#[test]
fn a_build_starts_from_an_empty_target_book() {
    let (calls, listed) = run_script(&[], |root| {
        std::fs::create_dir_all(root.join("target/book")).unwrap();
        std::fs::write(root.join("target/book/stale.html"), "a page from serving").unwrap();
    });
    assert!(calls.contains("mdbook build"), "{calls}");
    assert!(
        !listed.lines().any(|l| l == "book"),
        "target/book is removed before the build: {listed}"
    );
}

#[test]
fn serving_writes_elsewhere_than_what_is_published() {
    let (calls, _) = run_script(&["serve", "--open"], |_| {});
    assert!(
        calls.contains("mdbook serve --dest-dir target/serve --open"),
        "{calls}"
    );
}

#[test]
fn the_preprocessor_build_shows_cargo_progress() {
    let (calls, _) = run_script(&[], |_| {});
    let install = calls
        .lines()
        .find(|l| l.starts_with("cargo install --path ."))
        .expect("the preprocessor is installed");
    assert!(!install.contains("--quiet"), "{install}");
}
