//! Paths as this tool writes them, and relative links between chapters, the same on every
//! platform.
//!
//! Every path the tool prints or records (messages, JSON, SARIF, GitHub annotations, the
//! baseline, `diff`) is [`slashed`]: `/` between its components on Windows too, so that one book
//! gives the same bytes on every system and a host that places annotations finds the file.
//! Chapter paths are relative to the book's `src` folder. Links are written with `/` whatever
//! the platform, so the HTML renderer (which turns `.md` into `.html`) and the Markdown
//! renderer both follow them.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

/// `path` with `/` between its components, as the tool prints and records every path. On
/// Windows a `\` can only be a separator and becomes `/` (which Windows reads as one too);
/// elsewhere it is a character of a file name and stays.
pub fn slashed(path: &Path) -> String {
    let text = path.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '\\' {
        text.replace('\\', "/")
    } else {
        text.into_owned()
    }
}

/// [`slashed`], kept as a path (for what holds a `PathBuf` to show).
pub(crate) fn slashed_path(path: &Path) -> PathBuf {
    PathBuf::from(slashed(path))
}

/// serde's `serialize_with` for a path: written [`slashed`].
pub(crate) fn serialize_slashed<S: serde::Serializer>(
    path: &Path,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&slashed(path))
}

/// `file`, given from the working folder, from the folder `base` (also given from the working
/// folder), worked out on the paths as written (no symbolic link followed, the same on every
/// system): under `base`, relative; given relative, relative with a `..` for each folder it
/// climbs; given absolute outside `base`, or on another drive, absolute. [`slashed`].
pub fn from_folder(base: &Path, file: &Path) -> PathBuf {
    let absolute = |p: &Path| lexical(&std::path::absolute(p).unwrap_or_else(|_| p.to_owned()));
    let (base_abs, file_abs) = (absolute(base), absolute(file));
    if let Ok(under) = file_abs.strip_prefix(&base_abs) {
        return slashed_path(under);
    }
    let (from, to): (Vec<Component<'_>>, Vec<Component<'_>>) = (
        base_abs.components().collect(),
        file_abs.components().collect(),
    );
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    // The same drive and root (on Windows, `C:` and `\`), or no relative path leads there.
    let rooted = to
        .iter()
        .take_while(|c| matches!(c, Component::Prefix(_) | Component::RootDir))
        .count();
    if file.is_absolute() || common < rooted {
        return slashed_path(&file_abs);
    }
    let mut relative = PathBuf::new();
    for _ in common..from.len() {
        relative.push("..");
    }
    for part in &to[common..] {
        relative.push(part.as_os_str());
    }
    slashed_path(&relative)
}

/// The `/`-separated components of a chapter path, `.` dropped and `..` applied.
pub(crate) fn components(path: &Path) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop();
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    parts
}

/// `path` with `.` dropped and `..` applied to the part before it, as written (a root or a
/// prefix is kept; a `..` that climbs above the start is kept too): the same file, found
/// without asking the file system.
pub(crate) fn lexical(path: &Path) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                let can_pop = matches!(out.components().next_back(), Some(Component::Normal(_)));
                if can_pop {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The relative link from the chapter at `from` to the file at `to` (both relative to `src`),
/// with `/` separators: `a/b.md` to `c/d.md` is `../c/d.md`.
pub(crate) fn relative(from: &Path, to: &Path) -> String {
    relative_between(&components(from), &components(to))
}

/// [`relative`] between two paths given as their [`components`].
pub(crate) fn relative_between(from: &[String], to: &[String]) -> String {
    let from_dir = &from[..from.len().saturating_sub(1)];
    let common = from_dir.iter().zip(to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; from_dir.len() - common];
    parts.extend(to[common..].iter().map(String::as_str));
    encode(&parts.join("/"))
}

/// A link destination from the chapter at `from` to `anchor` in the chapter at `to` (both
/// given as their [`components`]): just `#anchor` within one chapter.
pub(crate) fn to_anchor(from: &[String], to: &[String], anchor: &str) -> String {
    let anchor = encode(anchor);
    if from == to {
        format!("#{anchor}")
    } else {
        format!("{}#{anchor}", relative_between(from, to))
    }
}

/// Percent-encodes what a Markdown link destination cannot hold bare: spaces and ASCII control
/// characters (a tab, say), brackets, `#`, `|` (which would split a table cell) and `%` itself
/// (so a file named `a%20b.md` is not taken for `a b.md`). Fragments are encoded the same way:
/// browsers match a fragment against ids after decoding it.
pub(crate) fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    encode_into(&mut out, path);
    out
}

/// [`encode`], appended to `out`.
pub(crate) fn encode_into(out: &mut String, path: &str) {
    let mut rest = path;
    while let Some(i) = rest.find(|ch: char| {
        ch.is_ascii_control() || matches!(ch, ' ' | '(' | ')' | '<' | '>' | '#' | '|' | '%')
    }) {
        out.push_str(&rest[..i]);
        let byte = rest.as_bytes()[i];
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        out.push('%');
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 15)]));
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
}

/// Whether a link destination leaves the book's own files: it has a scheme (`https:`,
/// `mailto:`) or is protocol-relative (`//host`).
pub(crate) fn is_external(dest: &str) -> bool {
    if dest.starts_with("//") {
        return true;
    }
    let Some(colon) = dest.find(':') else {
        return false;
    };
    let scheme = &dest[..colon];
    !scheme.is_empty()
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Decodes `%XX` escapes; invalid ones stay as written. Borrows when there is none.
pub(crate) fn percent_decode(text: &str) -> Cow<'_, str> {
    if !text.contains('%') {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).map_or(Cow::Borrowed(text), Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_escapes_are_decoded_and_borrowed_when_absent() {
        assert!(matches!(percent_decode("a b"), Cow::Borrowed("a b")));
        assert_eq!(percent_decode("a%20b"), "a b");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
        // Bytes that are not UTF-8 leave the text as written.
        assert_eq!(percent_decode("%ff"), "%ff");
    }

    #[test]
    fn relative_links_between_folders() {
        assert_eq!(
            relative(Path::new("a/b.md"), Path::new("c/d.md")),
            "../c/d.md"
        );
        assert_eq!(relative(Path::new("a/b.md"), Path::new("a/c.md")), "c.md");
        assert_eq!(
            relative(Path::new("b.md"), Path::new("x/y/z.md")),
            "x/y/z.md"
        );
        assert_eq!(
            relative(Path::new("x/y/z.md"), Path::new("b.md")),
            "../../b.md"
        );
        assert_eq!(
            relative(Path::new("./a/b.md"), Path::new("a/./c d.md")),
            "c%20d.md"
        );
    }

    #[test]
    fn destinations_are_encoded() {
        let encoded = relative(Path::new("x.md"), Path::new("a\tb|c%d(e)<f>#\u{1}é.md"));
        assert_eq!(encoded, "a%09b%7Cc%25d%28e%29%3Cf%3E%23%01é.md");
    }

    #[test]
    fn anchors_within_and_across_chapters() {
        let parts = |p: &str| components(Path::new(p));
        assert_eq!(to_anchor(&parts("a.md"), &parts("./a.md"), "x"), "#x");
        assert_eq!(
            to_anchor(&parts("a/b.md"), &parts("c/d.md"), "x"),
            "../c/d.md#x"
        );
    }

    #[test]
    fn printed_paths_are_slashed_on_every_system() {
        let joined = Path::new("src").join("guide").join("a.md");
        assert_eq!(slashed(&joined), "src/guide/a.md");
        // As text: `Path` equality compares components, whatever the separator.
        assert_eq!(slashed_path(&joined).to_str(), Some("src/guide/a.md"));
        // A backslash is a separator on Windows only; elsewhere it is part of a name.
        let odd = Path::new("odd\\name.txt");
        let expected = if cfg!(windows) {
            "odd/name.txt"
        } else {
            "odd\\name.txt"
        };
        assert_eq!(slashed(odd), expected);
    }

    /// [`from_folder`] as text, to see its separators (paths compare by components).
    fn from(base: &str, file: &str) -> String {
        from_folder(Path::new(base), Path::new(file))
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn a_file_from_a_folder_is_worked_out_on_the_paths_as_written() {
        // Both given from the working folder, whatever it is.
        assert_eq!(from("a/b", "a/b/c/x.txt"), "c/x.txt");
        assert_eq!(from("a/b", "a/c/x"), "../c/x");
        assert_eq!(from(".", "../known.txt"), "../known.txt");
        assert_eq!(from("a/./b/../b", "a/b/sub/../x.txt"), "x.txt");
        // Given absolute outside the folder: kept absolute.
        let outside = std::path::absolute("elsewhere/out.txt").unwrap();
        assert_eq!(from("a/b", &outside.to_string_lossy()), slashed(&outside));
    }

    #[cfg(windows)]
    #[test]
    fn on_windows_another_drive_stays_absolute_and_every_path_is_slashed() {
        assert_eq!(from("C:\\book", "D:\\ci\\known.txt"), "D:/ci/known.txt");
        assert_eq!(from("C:\\book", "C:\\book\\sub\\x.txt"), "sub/x.txt");
        assert_eq!(from("C:\\book", "C:\\other\\..\\known.txt"), "C:/known.txt");
    }

    #[test]
    fn external_destinations() {
        assert!(is_external("https://example.com"));
        assert!(is_external("mailto:a@b"));
        assert!(is_external("//cdn"));
        assert!(!is_external("a.md#b:c"));
        assert!(!is_external("#frag"));
    }
}
