//! What the checks need from the book's repository, asked of the `git` command: the lines of a
//! file changed since a revision (`changed-since`), and a file as it was at a revision
//! (`carried-over OLD` with `REV:PATH`).
//!
//! The `git` command, not a library: it is what authors and CI already have, and it reads the
//! repository as they do (worktrees, alternates, safe directories). Every failure is an error
//! that names the revision or file asked for and what git answered; a missing `git` says so.

use std::ffi::OsStr;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Result, bail};

/// The lines of a file that count as changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Changed {
    /// Every line: the file is new (git does not track it).
    All,
    /// These 1-based line ranges (end exclusive), in order.
    Lines(Vec<Range<usize>>),
}

impl Changed {
    /// Whether `line` (1-based) is changed.
    pub(crate) fn contains(&self, line: usize) -> bool {
        match self {
            Changed::All => true,
            Changed::Lines(ranges) => ranges.iter().any(|r| r.contains(&line)),
        }
    }
}

/// What git answered.
struct Answer {
    success: bool,
    stdout: Vec<u8>,
    /// The first line of its standard error, or how it exited.
    said: String,
}

/// Runs `git` with `args` in `dir`; `what` says what it was for, in an error.
fn ask<I, S>(dir: &Path, args: I, what: &str) -> Result<Answer>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let output = Command::new("git")
        .arg("--literal-pathspecs")
        .args(args)
        .current_dir(dir)
        .output();
    let output = match output {
        Ok(output) => output,
        // The folder git runs in is missing: the same error as a missing program.
        Err(_) if !dir.is_dir() => {
            bail!("{what}: the folder `{}` does not exist", dir.display())
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            bail!("{what}: this needs the `git` command, which is not on the PATH")
        }
        Err(error) => bail!("{what}: `git` could not be run: {error}"),
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    let said = match stderr.lines().map(str::trim).find(|l| !l.is_empty()) {
        Some(line) => format!("git said: {line}"),
        None => format!("git exited with {}", output.status),
    };
    Ok(Answer {
        success: output.status.success(),
        stdout: output.stdout,
        said,
    })
}

/// Runs `git` with `args` in `dir` and gives its standard output, or an error with what git
/// said.
fn git<I, S>(dir: &Path, args: I, what: &str) -> Result<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let answer = ask(dir, args, what)?;
    if !answer.success {
        bail!("{what}: {}", answer.said);
    }
    match String::from_utf8(answer.stdout) {
        Ok(text) => Ok(text),
        Err(_) => bail!("{what}: git's answer is not UTF-8"),
    }
}

/// Of `files` (relative to `dir`, in a repository), which changed since `since` (seconds since
/// the Unix epoch), judged by content: changed in a commit after that time, or changed in the
/// working tree from the commit checked out (those with the time they were last written
/// after `since`, since git cannot say when). A file equal to its last commit before `since`
/// is unchanged whatever its file time (`git checkout` rewrites it). `None` when `dir` is in
/// no repository (or git cannot run): then only file times can tell.
pub(crate) fn changed_since_time(dir: &Path, files: &[&str], since: i64) -> Option<Vec<String>> {
    if files.is_empty() {
        return Some(Vec::new());
    }
    let what = "the test files changed since the results";
    let committed = git(
        dir,
        [
            "log",
            "-z",
            "--no-renames",
            "--format=",
            "--name-only",
            "--relative",
        ]
        .into_iter()
        .map(str::to_owned)
        .chain([format!("--since=@{since}"), "--".to_owned()])
        .chain(files.iter().map(|f| (*f).to_owned())),
        what,
    )
    .ok()?;
    let edited = git(
        dir,
        [
            "status",
            "--porcelain",
            "-z",
            "--no-renames",
            "--untracked-files=all",
            "--",
        ]
        .into_iter()
        .map(str::to_owned)
        .chain(files.iter().map(|f| (*f).to_owned())),
        what,
    )
    .ok()?;
    let prefix = prefix(dir).ok()?;
    let prefix = prefix.as_str();
    // With `-z`, paths come as they are, NUL-separated: without it git quotes a name that is
    // not ASCII (`"caf\303\251_test.go"`), which then matched no file.
    let mut out: Vec<String> = committed
        .split('\0')
        .map(|p| p.trim_matches('\n'))
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect();
    for entry in edited.split('\0') {
        // `XY path`, the path from the repository's top.
        let Some(path) = entry.get(3..).filter(|p| !p.is_empty()) else {
            continue;
        };
        let relative = path.strip_prefix(prefix).unwrap_or(path);
        let written = std::fs::metadata(dir.join(relative))
            .and_then(|m| m.modified())
            .ok()
            .and_then(super::epoch_seconds);
        if written.is_none_or(|t| t > since) {
            out.push(relative.to_owned());
        }
    }
    out.sort();
    out.dedup();
    Some(out)
}

/// The merge base of `rev` and `HEAD` in the repository at `dir`.
pub(crate) fn merge_base(dir: &Path, rev: &str) -> Result<String> {
    let what = format!("`changed-since` is `{rev}`");
    let spec = format!("{rev}^{{commit}}");
    let verified = ask(
        dir,
        [
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ],
        &what,
    )?;
    if !verified.success {
        if verified.said.starts_with("git exited") {
            // `--quiet` prints nothing for a revision it does not know.
            bail!(
                "{what}, which git does not know as a revision in `{}` (give a branch, tag or commit of this repository; in CI, fetch it first: `actions/checkout` with `fetch-depth: 0`)",
                if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                }
                .display()
            );
        }
        bail!("{what}: {}", verified.said);
    }
    let base = git(dir, ["merge-base", rev, "HEAD"], &what)?;
    Ok(base.trim().to_owned())
}

/// The lines of `file` (relative to `dir`) added or changed since `base`, in the working tree.
pub(crate) fn changed_lines(dir: &Path, base: &str, file: &Path) -> Result<Changed> {
    let what = format!("the changed lines of `{}`", file.display());
    let tracked = git(
        dir,
        [OsStr::new("ls-files"), OsStr::new("--"), file.as_os_str()],
        &what,
    )?;
    if tracked.trim().is_empty() {
        return Ok(Changed::All);
    }
    let diff = git(
        dir,
        [
            OsStr::new("diff"),
            OsStr::new("--no-color"),
            OsStr::new("--no-ext-diff"),
            OsStr::new("--no-textconv"),
            OsStr::new("--no-renames"),
            OsStr::new("--unified=0"),
            OsStr::new(base),
            OsStr::new("--"),
            file.as_os_str(),
        ],
        &what,
    )?;
    Ok(Changed::Lines(added_lines(&diff)))
}

/// The new-side line ranges of the hunks of a `--unified=0` diff (`@@ -a,b +c,d @@`).
fn added_lines(diff: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    for line in diff.lines() {
        let Some(rest) = line.strip_prefix("@@ ") else {
            continue;
        };
        let Some(new) = rest.split(' ').find_map(|part| part.strip_prefix('+')) else {
            continue;
        };
        let (start, count) = match new.split_once(',') {
            Some((start, count)) => (start.parse::<usize>(), count.parse::<usize>()),
            None => (new.parse::<usize>(), Ok(1)),
        };
        if let (Ok(start), Ok(count)) = (start, count)
            && count > 0
        {
            ranges.push(start..start + count);
        }
    }
    ranges
}

/// The text of `rev_path` (`REV:PATH`, as `git show` takes it) in the repository at `dir`.
pub(crate) fn show(dir: &Path, rev_path: &str) -> Result<String> {
    git(
        dir,
        ["show", "--no-color", "--end-of-options", rev_path],
        &format!("`{rev_path}`"),
    )
}

/// The folder `dir` as a path inside its repository (`book/`; empty at the root).
pub(crate) fn prefix(dir: &Path) -> Result<String> {
    let prefix = git(
        dir,
        ["rev-parse", "--show-prefix"],
        &format!("`{}`", dir.display()),
    )?;
    Ok(prefix.trim().to_owned())
}

/// The commit checked out in the repository at `dir` (`HEAD`, in full).
pub(crate) fn head(dir: &Path) -> Result<String> {
    let sha = git(
        dir,
        ["rev-parse", "--verify", "HEAD^{commit}"],
        &format!("the commit checked out in `{}`", dir.display()),
    )?;
    Ok(sha.trim().to_owned())
}

/// The URL of the remote `origin` of the repository at `dir`, as git has it.
pub(crate) fn origin(dir: &Path) -> Result<String> {
    let url = git(
        dir,
        ["remote", "get-url", "origin"],
        &format!("the remote `origin` of `{}`", dir.display()),
    )?;
    Ok(url.trim().to_owned())
}

/// The path of `dir` from the top of the git work tree that holds it, for output that a
/// repository's host places (GitHub annotations, SARIF): `docs/contract` when `dir` is that
/// folder of the repository, empty at its top; `None` outside a work tree or without git.
pub fn in_repository(dir: &Path) -> Option<PathBuf> {
    prefix(dir).ok().map(PathBuf::from)
}

/// Writes the files of revision `rev` of the repository at `dir` into `dest`, from git's
/// objects (`ls-tree`, then one `cat-file --batch`): nothing is checked out, and neither the
/// working tree nor the index changes. Submodules and symbolic links are left out.
pub(crate) fn write_tree(dir: &Path, rev: &str, dest: &Path) -> Result<()> {
    let what = format!("the revision `{rev}`");
    let spec = format!("{rev}^{{commit}}");
    let verified = ask(
        dir,
        ["rev-parse", "--verify", "--end-of-options", &spec],
        &what,
    )?;
    if !verified.success {
        bail!("{what}: git does not know it ({})", verified.said);
    }
    let listing = ask(dir, ["ls-tree", "-r", "-z", "--full-tree", &spec], &what)?;
    if !listing.success {
        bail!("{what}: {}", listing.said);
    }
    let blobs = blobs_of(&listing.stdout);
    // A crafted tree can name `..`, `.git` or an absolute path: refused before anything is
    // written, as git itself refuses to check such a tree out.
    if let Some((_, path)) = blobs.iter().find(|(_, path)| !is_safe_tree_path(path)) {
        bail!(
            "{what}: its tree names `{}`, which leads outside the folder it would be written to (a `..`, `.git` or absolute part); nothing is written",
            crate::util::escape::plain(path)
        );
    }
    let mut child = Command::new("git")
        .args(["cat-file", "--batch"])
        .current_dir(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        })
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|error| anyhow::anyhow!("{what}: `git cat-file` could not be run: {error}"))?;
    let mut input = child.stdin.take().expect("piped");
    let objects: String = blobs.iter().map(|(o, _)| format!("{o}\n")).collect();
    // Written from another thread: git answers while it reads, and a full pipe would stall both.
    let writer = std::thread::spawn(move || {
        use std::io::Write as _;
        let _ = input.write_all(objects.as_bytes());
    });
    // Each object is written out as it arrives: a revision is never held in memory whole.
    let mut answers = std::io::BufReader::new(child.stdout.take().expect("piped"));
    let written = blobs
        .iter()
        .try_for_each(|(_, path)| write_blob(&mut answers, &dest.join(path), path, &what));
    drop(answers);
    if written.is_err() {
        // Stops git, and with it the writer, whose pipe closes.
        let _ = child.kill();
    }
    let _ = child.wait();
    let _ = writer.join();
    written
}

/// The files of an `ls-tree -r -z` listing, as (object, path): symbolic links and submodules
/// left out.
fn blobs_of(listing: &[u8]) -> Vec<(String, String)> {
    let mut blobs = Vec::new();
    for entry in listing.split(|&b| b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        let mut meta = meta.split(' ');
        let (Some(mode), Some(kind), Some(object)) = (meta.next(), meta.next(), meta.next()) else {
            continue;
        };
        if kind == "blob" && mode != "120000" {
            blobs.push((object.to_owned(), path.to_owned()));
        }
    }
    blobs
}

/// Whether `path`, as a tree lists it, stays inside the folder it is written to: no empty,
/// `.`, `..` or `.git` part, nothing absolute (and on Windows no drive or `\\`).
fn is_safe_tree_path(path: &str) -> bool {
    !path.starts_with('/')
        && path.split('/').all(|part| {
            !part.is_empty()
                && part != "."
                && part != ".."
                && !part.eq_ignore_ascii_case(".git")
                && !(cfg!(windows) && part.contains(['\\', ':']))
        })
}

/// Reads one answer of `git cat-file --batch` from `answers` (a header line `OBJECT blob SIZE`,
/// the bytes, a newline) and writes its bytes to `target`.
fn write_blob(
    answers: &mut impl std::io::BufRead,
    target: &Path,
    path: &str,
    what: &str,
) -> Result<()> {
    use std::io::Read as _;
    let early = || anyhow::anyhow!("{what}: `git cat-file` ended early at `{path}`");
    let mut header = String::new();
    if answers.read_line(&mut header)? == 0 {
        return Err(early());
    }
    let header = header.trim_end();
    let size: u64 = header
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| anyhow::anyhow!("{what}: `git cat-file` said `{header}` for `{path}`"))?;
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut file = std::fs::File::create(target)?;
    let copied = std::io::copy(&mut answers.by_ref().take(size), &mut file)?;
    if copied != size {
        return Err(early());
    }
    let mut newline = [0u8; 1];
    answers.read_exact(&mut newline).map_err(|_| early())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_path_outside_its_folder_is_refused() {
        for good in ["book.toml", "src/a.md", "a/b/.github/x", "..a/b", "a..b"] {
            assert!(is_safe_tree_path(good), "{good}");
        }
        for bad in [
            "../x",
            "a/../../x",
            "/etc/x",
            ".git/config",
            "a/.GIT/hooks/x",
            "a//b",
            "./a",
        ] {
            assert!(!is_safe_tree_path(bad), "{bad}");
        }
    }

    #[test]
    fn hunks_give_the_new_side_lines() {
        let diff = "diff --git a/R.md b/R.md\n--- a/R.md\n+++ b/R.md\n@@ -3 +3 @@ x\n-a\n+b\n@@ -10,0 +11,2 @@\n+c\n+d\n@@ -20,2 +22,0 @@\n-e\n-f\n";
        assert_eq!(added_lines(diff), vec![3..4, 11..13]);
        let changed = Changed::Lines(added_lines(diff));
        assert!(changed.contains(12) && !changed.contains(13) && !changed.contains(22));
        assert!(Changed::All.contains(1));
    }
}
