//! `cited-path`: a code span (or claim evidence) that names a repository path that does not
//! exist under `source-root`. Globs and `{a,b}` braces are allowed; each alternative must exist.
//! Runs only when `source-root` is set. A path with a line (`src/a.py:22`) is `line-reference`'s
//! alone when the file exists: one mistake, one finding. A file on disk that git or `.ignore`
//! leaves out of the tree is said to be ignored, not missing.

use super::{Context, Draft};
use crate::read::citation::Citation;
use crate::util::vocab::Check;

pub(super) fn run(cx: &Context<'_>, out: &mut Vec<Draft>) {
    let Some(source) = cx.source else { return };
    for (number, range, citation) in cx.citations() {
        let Citation::Path(path) = citation else {
            continue;
        };
        let file = without_line(path);
        if source.path_exists(path) || (file != path && source.path_exists(file)) {
            continue;
        }
        let root = cx.config.source_root.as_deref().unwrap_or(".");
        let on_disk =
            !crate::read::code::is_glob(path) && ignored_on_disk(&cx.files.root().join(root), path);
        let draft = if on_disk {
            Draft::new(
                Check::CitedPath,
                number,
                range,
                format!(
                    "`{path}` is under the source root `{root}`, but git (`.gitignore`) or an `.ignore` file leaves it out of the source tree"
                ),
            )
            .help("cite a file the repository keeps (the code or test that writes it), or write it as plain text: an ignored file is no part of the code")
        } else {
            Draft::new(
                Check::CitedPath,
                number,
                range,
                format!("`{path}` does not exist under the source root `{root}`"),
            )
            .help("fix the path, or write it as plain text if it names something to be created")
        };
        out.push(draft);
    }
}

/// `path` without a line number after it (`a.py:22`, `a.go:12-30`): `line-reference` reports
/// those.
fn without_line(path: &str) -> &str {
    match path.rsplit_once(':') {
        Some((file, line))
            if !file.is_empty()
                && !line.is_empty()
                && line.bytes().all(|b| b.is_ascii_digit() || b == b'-') =>
        {
            file
        }
        _ => path,
    }
}

/// Whether `path` is a file or folder under `root` on disk, reached without a symbolic link
/// (the walk of the tree follows none): there, and left out only by an ignore file.
fn ignored_on_disk(root: &std::path::Path, path: &str) -> bool {
    let mut at = root.to_path_buf();
    for part in path.trim_end_matches('/').split('/') {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if !meta.file_type().is_symlink() => {}
            _ => return false,
        }
    }
    true
}
