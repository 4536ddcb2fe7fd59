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
    run_script_in(dir.path(), args, before)
}

/// [`run_script`] in `root`; what the script printed on stderr is left in `stderr.txt`.
fn run_script_in(root: &Path, args: &[&str], before: impl FnOnce(&Path)) -> (String, String) {
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
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    // `cargo build` leaves a binary where the script copies it from.
    record(
        "cargo",
        "[ \"$1\" = build ] && mkdir -p target/release && touch target/release/mdbook-contract\nexit 0",
    );
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
    std::fs::write(root.join("stderr.txt"), &output.stderr).unwrap();
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
fn the_preprocessor_build_shows_cargo_progress_asks_no_registry_and_says_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let (calls, _) = run_script_in(dir.path(), &[], |_| {});
    let build = calls
        .lines()
        .find(|l| l.starts_with("cargo "))
        .expect("the preprocessor is built");
    // `cargo install` resolves again and asks the registry every time; `cargo build --locked`
    // with the committed lock does not.
    assert_eq!(
        build, "cargo build --release --locked --bin mdbook-contract",
        "{calls}"
    );
    assert!(
        dir.path()
            .join("target/tools/bin/mdbook-contract")
            .is_file()
    );
    let said = std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap();
    assert!(
        said.contains("target/tools/bin/mdbook-contract; to run it by name")
            && said.contains("export PATH="),
        "{said}"
    );
}
