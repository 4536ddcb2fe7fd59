//! What a code span cites: a repository path, a symbol, or neither.
//!
//! The plan cites code as "path plus symbol": `internal/gc/gc.go` and `Sweeper.sweep`. These
//! rules decide which code spans are such citations, for `cited-path`, `cited-symbol` and
//! `must-cite`. Axis codes, profile names, keywords and the configured ignore list are never
//! symbols.

/// A citation of the source tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Citation<'a> {
    /// A path relative to the repository root, perhaps a glob (`internal/provider/*.go`,
    /// `internal/provider/{kubernetes,gcp}`).
    Path(&'a str),
    /// An identifier, split at its dots (`Sweeper.sweep` is `["Sweeper", "sweep"]`).
    Symbol(Vec<&'a str>),
}

/// Words that are never taken for symbols: Go keywords and predeclared names, and the RFC 2119
/// keywords.
const NOT_SYMBOLS: &[&str] = &[
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "default",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
    "true",
    "false",
    "nil",
    "iota",
    "MUST",
    "SHOULD",
    "MAY",
    "REQUIRED",
    "OPTIONAL",
];

/// File names without a folder that still name a repository path.
const BARE_FILES: &[&str] = &[
    "Makefile",
    "Dockerfile",
    "go.mod",
    "go.sum",
    "PROJECT",
    "LICENSE",
];

/// File extensions that make a bare name a path (`spechash.go`).
const EXTENSIONS: &[&str] = &[
    "go", "md", "yaml", "yml", "json", "toml", "sh", "mod", "sum", "txt", "proto", "tpl",
];

/// What `text` (the text of a code span) cites, if anything; `is_excluded` names words that are
/// never symbols (axis codes, profile names, the configured ignore list).
pub(crate) fn classify<'a>(
    text: &'a str,
    is_excluded: &dyn Fn(&str) -> bool,
) -> Option<Citation<'a>> {
    let text = text.trim();
    if text.is_empty() || text.contains(char::is_whitespace) || text.contains("://") {
        return None;
    }
    if is_path(text) {
        let path = text.trim_start_matches("./");
        return Some(Citation::Path(path.strip_suffix('/').unwrap_or(path)));
    }
    let symbol = text.strip_suffix("()").unwrap_or(text);
    let parts: Vec<&str> = symbol.split('.').collect();
    let identifier = |part: &&str| {
        let mut chars = part.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !parts.iter().all(identifier) || is_excluded(text) || is_excluded(symbol) {
        return None;
    }
    if parts.len() == 1 && NOT_SYMBOLS.contains(&parts[0]) {
        return None;
    }
    Some(Citation::Symbol(parts))
}

/// Whether a claim's evidence arguments are prose rather than citations: two or more of them
/// are plain words (lowercase ASCII letters only), as in `the AWS docs say so`. One plain word
/// alone is a symbol (`classify`: in Go every unexported function is one lowercase word), which
/// `cited-symbol` looks up when there is a source tree.
pub(crate) fn is_prose<'e>(evidence: impl IntoIterator<Item = &'e str>) -> bool {
    evidence
        .into_iter()
        .filter(|e| is_plain_word(e))
        .nth(1)
        .is_some()
}

/// Whether `evidence` is a plain word: lowercase ASCII letters only.
pub(crate) fn is_plain_word(evidence: &str) -> bool {
    !evidence.is_empty() && evidence.bytes().all(|b| b.is_ascii_lowercase())
}

fn is_path(text: &str) -> bool {
    if text.starts_with(['/', '-', '$', '~', '.']) && !text.starts_with("./") {
        return false;
    }
    if text.contains(['<', '>', '(', ')', '=', '"', '\'', '`', '|', ';']) {
        return false;
    }
    if text.contains('/') {
        return true;
    }
    if BARE_FILES.contains(&text) {
        return true;
    }
    match text.rsplit_once('.') {
        Some((stem, extension)) => {
            !stem.is_empty()
                && EXTENSIONS.contains(&extension)
                && stem
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '*'))
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str) -> bool {
        false
    }

    #[test]
    fn paths() {
        for (text, path) in [
            ("internal/gc/gc.go", "internal/gc/gc.go"),
            ("cmd/main.go", "cmd/main.go"),
            ("internal/provider/*.go", "internal/provider/*.go"),
            (
                "internal/provider/{kubernetes,gcp}",
                "internal/provider/{kubernetes,gcp}",
            ),
            ("config/manager/", "config/manager"),
            ("spechash.go", "spechash.go"),
            ("Makefile", "Makefile"),
            ("./hack/providers-dev.yaml", "hack/providers-dev.yaml"),
        ] {
            assert_eq!(classify(text, &none), Some(Citation::Path(path)), "{text}");
        }
    }

    #[test]
    fn symbols() {
        assert_eq!(
            classify("Sweeper.sweep", &none),
            Some(Citation::Symbol(vec!["Sweeper", "sweep"]))
        );
        assert_eq!(
            classify("reconcileManaged()", &none),
            Some(Citation::Symbol(vec!["reconcileManaged"]))
        );
        assert_eq!(
            classify("provider.Checker", &none),
            Some(Citation::Symbol(vec!["provider", "Checker"]))
        );
    }

    #[test]
    fn prose_is_two_plain_words_or_more() {
        assert!(is_prose(["the", "AWS", "docs", "say", "so"]));
        assert!(is_prose(["see", "docs"]));
        assert!(!is_prose(["classify"]));
        assert!(!is_prose(["internal/quota", "classify"]));
        assert!(!is_prose(["Store.put", "ListObjects", "put_object"]));
        assert!(!is_prose([]));
    }

    #[test]
    fn neither() {
        for text in [
            "/tmp",
            "10m",
            "64Mi",
            "docs/<type>-provider-spec.md",
            "make test-integration-kvm",
            "WithTracing(WithMetrics(...))",
            "https://example.com/a",
            "nil",
            "MUST",
            "--passes",
            "a b",
            "UID == \"\"",
            "<TYPE>_TEST_*",
        ] {
            assert_eq!(classify(text, &none), None, "{text}");
        }
        assert_eq!(classify("readiness", &|w| w == "readiness"), None);
    }
}
