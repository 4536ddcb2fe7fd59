//! Source read as text, where no grammar reads it (a language without a row in the table,
//! its feature off, a file too large to parse): the line rules every file was read by before
//! grammars.
//!
//! A citation is in a comment when the text before it on its line has `//`, `/*`, `#` or
//! `--`, or starts with `*` (a block comment's continuation): Go, Rust, TypeScript, C, shell,
//! YAML, SQL, Python and HTML comments alike, without parsing any language. The test a
//! citation stands in is the function declared directly under it, else the nearest declared
//! above it, by one pattern for Go, Rust, Python, Java, Kotlin and JavaScript.

use std::sync::LazyLock;

use regex::Regex;

/// Whether the text before a citation on its line opens a comment.
pub(crate) fn in_comment(before: &[u8]) -> bool {
    let text = String::from_utf8_lossy(before);
    text.contains("//")
        || text.contains("/*")
        || text.contains('#')
        || text.contains("--")
        || text.trim_start().starts_with('*')
}

/// Declarations of a test function: Go, Rust, Python, Java and Kotlin, and JavaScript's named
/// functions.
static DECLARATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:func\s+(?:\([^)]*\)\s*)?(?P<go>\w+)\s*[\[(]|(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\S+\s+)?fn\s+(?P<rust>\w+)|(?:async\s+)?def\s+(?P<python>\w+)\s*\(|(?:(?:public|protected|private|internal|static|final|suspend|override|open)\s+)*(?:void|fun)\s+(?P<java>\w+)\s*\(|(?:export\s+)?(?:async\s+)?function\s*\*?\s*(?P<js>\w+)\s*\()",
    )
    .expect("valid regex")
});

/// The name of the test function that a citation on line `line` (from 1) of `text` stands in.
pub(crate) fn test_function(text: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    // Directly under: past blank lines, comments, attributes and decorators.
    for next in lines.iter().skip(line) {
        let trimmed = next.trim();
        let aside = trimmed.is_empty()
            || trimmed.starts_with("//")
            || trimmed.starts_with("/*")
            || trimmed.starts_with('*')
            || trimmed.starts_with('#')
            || trimmed.starts_with('@');
        if aside {
            continue;
        }
        match declared(next) {
            Some(name) => return Some(name),
            None => break,
        }
    }
    // Around: the nearest declaration above.
    lines
        .iter()
        .take(line.saturating_sub(1))
        .rev()
        .take(5000)
        .find_map(|l| declared(l))
}

fn declared(line: &str) -> Option<String> {
    let captures = DECLARATION.captures(line)?;
    ["go", "rust", "python", "java", "js"]
        .iter()
        .find_map(|name| captures.name(name))
        .map(|m| m.as_str().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_function_under_or_around_a_citation() {
        let go = "package x\n\n// r[verify a.b]\nfunc TestCreate(t *testing.T) {\n\t// r[verify a.c]\n\tcheck(t)\n}\n";
        assert_eq!(test_function(go, 3).as_deref(), Some("TestCreate"));
        assert_eq!(test_function(go, 5).as_deref(), Some("TestCreate"));
        let rust = "/// r[verify a.b]\n#[test]\nfn puts_atomically() {}\n";
        assert_eq!(test_function(rust, 1).as_deref(), Some("puts_atomically"));
        let python =
            "# r[verify a.b]\n@pytest.mark.parametrize('b', ['s3'])\ndef test_put(b):\n    pass\n";
        assert_eq!(test_function(python, 1).as_deref(), Some("test_put"));
        let java = "  // r[verify a.b]\n  @Test\n  public void testPut() {}\n";
        assert_eq!(test_function(java, 1).as_deref(), Some("testPut"));
        assert_eq!(test_function("// r[verify a.b]\nlet x = 1;\n", 1), None);
    }

    #[test]
    fn comments_by_their_opening_on_the_line() {
        assert!(in_comment(b"x := 1 // ") && in_comment(b"  # ") && in_comment(b" * "));
        assert!(!in_comment(b"s := \""));
    }
}
