//! How each runner names a test case, read apart: the function a case is of, and the provider
//! it ran for when its name (or its display name) says so.
//!
//! | runner | a case's name | function | provider |
//! |---|---|---|---|
//! | `go test -json`, gotestsum, go-junit-report | `TestPut/s3` | before the first `/` | a subtest segment |
//! | pytest | `test_put[s3-1]` | before `[` | a parameter id part (split at `-` and `,`) |
//! | cargo-nextest (rstest) | `store::tests::put_atomic::case_2_gcs` | the last segment, or the one before `case_N` | the `case_N_` description |
//! | Maven Surefire (JUnit 5) | `putAtomic{String}[2]` | before `{` | the row at that position (from 1) of the test's literal list (`@ValueSource`), else not known |
//! | JUnit Console Launcher | `putAtomic(String)[2]` | before `(` | the `display-name:` its output prints (`[2] gcs`) |
//! | Jest, Vitest | `provider s3 get of a missing key` | the test's title (see [`TitlePattern`]) | a value the title's placeholder took, else a provider named in it |
//! | unittest-xml-reporting | `test_put (store='gcs')` | before ` (` | a provider among the subtest's parameters |
//! | TestNG's `testng-results.xml` | `putAtomic(gcs)` (the reader writes a row's values so) | before `(` | a provider among the values |
//! | nose2 | `test_put:2`, `test_put:2 ('gcs')` | before `:` | the parameter in parentheses, else the row's index (from 1) |
//! | PHPUnit | `testPut with data set "gcs"`, `... #1` | before ` with data set` | a named data set, else the row's index (from 0) |
//! | Boost.Test | `_1` in the suite `conformance.put_atomic` | the title `_${index}` | the sample's index (from 0) |
//!
//! A case named by its row's index alone is [`Named::Position`]: `rows.rs` reads the provider
//! from the test's literal rows, else it is not known.
//!
//! A provider's name is compared without case, with `-`, `_` and a space taken as one (rstest
//! writes `azure-blob` as `azure_blob`, Go a space as `_`).

mod title;

pub(crate) use title::TitlePattern;

/// A provider among those case names are compared with (an index into that list, which is
/// the built providers', not the model's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Compared(pub(crate) usize);

/// What a case's name says of the provider it ran for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Named {
    /// It ran for this provider.
    Provider(Compared),
    /// One case of a parameterised test whose report names it by the index of its row alone
    /// (`[2]`, `case_2`, `:2`, `#1`), from 0: the provider is the one that row of the test's
    /// literal list names (`rows.rs`), else not known.
    Position(usize),
    /// One case of a parameterised test whose provider is not known (named by position only,
    /// and the test's rows are no literal list).
    Unknown,
    /// The case of a test that is no provider's alone.
    None,
}

impl Named {
    /// It ran for the provider at `index` among those compared with.
    pub(crate) fn provider(index: usize) -> Named {
        Named::Provider(Compared(index))
    }
}

/// The function a case of the name `name` is of: the name without what its runner adds.
pub(crate) fn base(name: &str) -> &str {
    let name = name.trim();
    // Once per case of a report (hundreds of thousands): no list of the parts, and bytes
    // rather than chars.
    // A parameter id may hold `::` (`test_addr[::1]`): only what stands before it is a path.
    let head = &name[..memchr::memchr(b'[', name.as_bytes()).unwrap_or(name.len())];
    if let Some((before, last)) = rsplit_path(head) {
        return if is_case(last) {
            rsplit_path(before).map_or(before, |(_, segment)| segment)
        } else {
            last
        };
    }
    name[..function_end(name.as_bytes())].trim()
}

/// Where the function ends in a case's name without a `::` path: at the first `{`, `(`, `[`
/// or `/`, nose2's `:1` (`test_put:1`) or PHPUnit's ` with data set ` (`testPut with data set
/// "s3"`). Each is sought with memchr in what stands before the one found so far: no byte is
/// compared against every separator (a byte loop was a tenth of reading a large report).
fn function_end(bytes: &[u8]) -> usize {
    let mut end = memchr::memchr3(b'{', b'(', b'[', bytes).unwrap_or(bytes.len());
    end = memchr::memchr(b'/', &bytes[..end]).unwrap_or(end);
    let mut at = 0;
    while let Some(found) = memchr::memchr2(b':', b' ', &bytes[at..end]) {
        let i = at + found;
        let ends = match bytes[i] {
            b':' => bytes.get(i + 1).is_some_and(u8::is_ascii_digit),
            _ => bytes[i..].starts_with(DATA_SET),
        };
        if ends {
            return i;
        }
        at = i + 1;
    }
    end
}

/// What PHPUnit puts between a test method and the name or index of its data set.
const DATA_SET: &[u8] = b" with data set ";

/// parameterized's `expand` names: `test_put_0_s3` (a case of `test_put`, index 0, the
/// parameter `s3`) or `test_put_2`: the test's name and what follows the index.
pub(crate) fn expanded(name: &str) -> Option<(&str, &str)> {
    let bytes = name.as_bytes();
    let mut at = 0;
    while let Some(found) = memchr::memchr(b'_', &bytes[at..]) {
        let start = at + found;
        let digits = bytes[start + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let end = start + 1 + digits;
        if digits > 0 && (end == bytes.len() || bytes[end] == b'_') && start > 0 {
            return Some((&name[..start], name.get(end + 1..).unwrap_or("")));
        }
        at = start + 1;
    }
    None
}

/// `name` split at its last `::`, as `rsplit_once("::")`, whose searcher (and memmem's) is
/// set up anew for each call: that was most of the cost of a case's name.
fn rsplit_path(name: &str) -> Option<(&str, &str)> {
    let bytes = name.as_bytes();
    let mut end = bytes.len();
    while let Some(colon) = memchr::memrchr(b':', &bytes[..end]) {
        if colon > 0 && bytes[colon - 1] == b':' {
            return Some((&name[..colon - 1], &name[colon + 1..]));
        }
        end = colon;
    }
    None
}

/// rstest's case name: `case_2` or `case_2_gcs`.
pub(crate) fn is_case(segment: &str) -> bool {
    segment
        .strip_prefix("case_")
        .and_then(|rest| rest.split('_').next())
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `part` names `provider`: the same letters, without case, `-`, `_` and a space one.
pub(crate) fn same(part: &str, provider: &str) -> bool {
    let fold = |b: u8| match b {
        b'_' | b' ' => b'-',
        b => b.to_ascii_lowercase(),
    };
    part.len() == provider.len()
        && part
            .bytes()
            .zip(provider.bytes())
            .all(|(a, b)| fold(a) == fold(b))
}

/// The provider among `providers` that `parts` name, when exactly one does.
fn one_of<'p>(parts: impl Iterator<Item = &'p str>, providers: &[String]) -> Option<usize> {
    let mut found: Option<usize> = None;
    for part in parts {
        if let Some(p) = providers.iter().position(|provider| same(part, provider)) {
            match found {
                Some(other) if other != p => return None,
                _ => found = Some(p),
            }
        }
    }
    found
}

/// What the case named `name` (with the display name its output printed, if any) says of the
/// provider it ran for.
pub(crate) fn named(name: &str, display: Option<&str>, providers: &[String]) -> Named {
    let name = name.trim();
    // cargo-nextest with rstest: `case_2_gcs`, or `case_2` without a description.
    // Each separator sought once, with memchr: this runs for every case of a report.
    let bracket = memchr::memchr(b'[', name.as_bytes());
    let head = &name[..bracket.unwrap_or(name.len())];
    let last = rsplit_path(head).map_or(name, |(_, last)| last);
    if is_case(last) {
        let description = last
            .strip_prefix("case_")
            .and_then(|rest| rest.split_once('_'))
            .map(|(_, d)| d);
        return match description.and_then(|d| one_of(std::iter::once(d), providers)) {
            Some(p) => Named::provider(p),
            None if description.is_none() => position(&last["case_".len()..], 1),
            None => Named::None,
        };
    }
    // JUnit 5: `put{String}[2]` (Surefire), `put(String)[2]` (Console Launcher, with its
    // display name).
    if let Some((before, index)) = bracket.and_then(|_| name.rsplit_once('['))
        && (before.ends_with('}') || before.ends_with(')'))
        && index
            .trim_end_matches(']')
            .bytes()
            .all(|b| b.is_ascii_digit())
    {
        let from_display = display.and_then(|d| one_of(tokens(d), providers));
        return from_display.map_or_else(|| position(index, 1), Named::provider);
    }
    // pytest: `test_put[s3]`, `test_put[azure-blob-1]`, `test_put[store=s3]`,
    // `test_put[s3 [primary region]]`; a provider wherever it stands in the id.
    if let Some(open) = bracket {
        return named_in(&name[open + 1..], providers).map_or(Named::None, Named::provider);
    }
    // unittest's subtest (`test_put (store='gcs')`, as unittest-xml-reporting writes it), a
    // row's values after its method (`putAtomic(gcs)`, TestNG's own report): the parameters
    // in parentheses right after the function.
    if let Some(parameters) = parenthesised(name) {
        return named_in(parameters, providers).map_or(Named::None, Named::provider);
    }
    // Go: `TestPut/s3`, `TestPut/gcs/large`.
    if let Some(slash) = memchr::memchr(b'/', name.as_bytes()) {
        let subtests = name[slash + 1..].split('/');
        return one_of(subtests, providers).map_or(Named::None, Named::provider);
    }
    named_by_row(name, providers)
}

/// What a case's name says of its provider after its function, by the runners that name a
/// parameterised test's row (nose2, PHPUnit, parameterized's `expand`).
fn named_by_row(name: &str, providers: &[String]) -> Named {
    // nose2: `test_put:2` (an index alone), `test_put:2 ('gcs')`.
    if let Some(colon) = memchr::memchr(b':', name.as_bytes())
        && let case = &name[colon + 1..]
        && case.bytes().next().is_some_and(|b| b.is_ascii_digit())
    {
        return named_in(case, providers).map_or_else(|| position(case, 1), Named::provider);
    }
    // PHPUnit: `testPut with data set "gcs"`, `testPut with data set #1` (the searcher set
    // up once: this runs for every case of a report).
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(DATA_SET));
    if let Some(at) = FINDER.find(name.as_bytes()) {
        let set = &name[at + DATA_SET.len()..];
        return match named_in(set, providers) {
            Some(p) => Named::provider(p),
            None if set.starts_with('#') => position(&set[1..], 0),
            None => Named::None,
        };
    }
    // parameterized's `expand`: `test_put_1_gcs`.
    if let Some((_, parameter)) = expanded(name) {
        return named_in(parameter, providers).map_or(Named::None, Named::provider);
    }
    Named::None
}

/// The row at the index `text` starts with, counted from `first` (nose2 and JUnit count from
/// 1, PHPUnit from 0), as an index from 0.
fn position(text: &str, first: usize) -> Named {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    text[..digits]
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(first))
        .map_or(Named::Unknown, Named::Position)
}

/// What stands in parentheses right after a case's function (`(store='gcs')` of
/// `test_put (store='gcs')`), when the name ends there.
fn parenthesised(name: &str) -> Option<&str> {
    // Asked of every case of a report: most end otherwise, and cost no second reading.
    if !name.ends_with(')') {
        return None;
    }
    let function = base(name);
    let rest = name.get(function.len()..)?.trim_start();
    (name.starts_with(function) && rest.starts_with('(') && rest.ends_with(')'))
        .then(|| &rest[1..rest.len() - 1])
}

/// The words of a title or display name: split at spaces and at what a runner puts between
/// its parts.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| {
        c.is_whitespace() || matches!(c, '[' | ']' | '(' | ')' | ',' | ':' | '>' | '/')
    })
    .filter(|t| !t.is_empty())
}

/// The provider a test's own name (as the source writes it) is for: the one it names, when it
/// has no placeholder (`PutAtomic_gcs`, `put on gcs is atomic`; one test per provider). Such a
/// test counts for that provider alone.
pub(crate) fn named_for(name: &str, providers: &[String]) -> Option<Compared> {
    if title::PLACEHOLDER.is_match(name) {
        return None;
    }
    named_in(name, providers).map(Compared)
}

/// The provider among `providers` named in `text` wherever it stands, when exactly one is:
/// compared as [`same`] does, between characters that are not letters or digits
/// (`PutAtomic_s3`, `put on azure-blob is atomic`, `s3[strong]`, `"gcs"`), never inside a
/// word (`tests3`).
pub(crate) fn named_in(text: &str, providers: &[String]) -> Option<usize> {
    let fold = |b: u8| match b {
        b'_' | b' ' => b'-',
        b => b.to_ascii_lowercase(),
    };
    let folded: Vec<u8> = text.bytes().map(fold).collect();
    let mut found: Option<usize> = None;
    for (p, provider) in providers.iter().enumerate() {
        let wanted: Vec<u8> = provider.bytes().map(fold).collect();
        if wanted.is_empty() {
            continue;
        }
        let bounded = |at: usize| {
            let end = at + wanted.len();
            (at == 0 || !folded[at - 1].is_ascii_alphanumeric())
                && folded.get(end).is_none_or(|b| !b.is_ascii_alphanumeric())
        };
        let hit = folded
            .windows(wanted.len())
            .enumerate()
            .any(|(at, w)| w == wanted.as_slice() && bounded(at));
        if hit {
            match found {
                Some(other) if other != p => return None,
                _ => found = Some(p),
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn providers() -> Vec<String> {
        ["s3", "gcs", "azure-blob"].map(String::from).to_vec()
    }

    #[test]
    fn the_last_path_separator_as_rsplit_once() {
        for name in [
            "a::b", "a::b::c", "a:::b", "a::b:c", "a:b", "::a", "a::", "", ":", "::",
        ] {
            assert_eq!(rsplit_path(name), name.rsplit_once("::"), "{name}");
        }
    }

    /// A case's name as each runner writes it, its display name, the function it names and
    /// the provider it names (of [`providers`]).
    const RUNNER_NAMES: &[(&str, Option<&str>, &str, Named)] = &[
        (
            "TestPutAtomic/gcs",
            None,
            "TestPutAtomic",
            Named::Provider(Compared(1)),
        ),
        ("TestPutAtomic", None, "TestPutAtomic", Named::None),
        ("TestPut/empty_key", None, "TestPut", Named::None),
        (
            "test_put_atomic[azure-blob]",
            None,
            "test_put_atomic",
            Named::Provider(Compared(2)),
        ),
        (
            "test_put[s3-1]",
            None,
            "test_put",
            Named::Provider(Compared(0)),
        ),
        ("test_put[empty]", None, "test_put", Named::None),
        (
            "put_atomic::case_3_azure_blob",
            None,
            "put_atomic",
            Named::Provider(Compared(2)),
        ),
        (
            "store::tests::put_atomic::case_2",
            None,
            "put_atomic",
            Named::Position(1),
        ),
        (
            "store::tests::get_missing",
            None,
            "get_missing",
            Named::None,
        ),
        (
            "putAtomic{String}[2]",
            None,
            "putAtomic",
            Named::Position(1),
        ),
        ("putAtomic{String}[0]", None, "putAtomic", Named::Unknown),
        (
            "putAtomic(String)[2]",
            Some("[2] gcs"),
            "putAtomic",
            Named::Provider(Compared(1)),
        ),
        (
            "getMissing()",
            Some("getMissing()"),
            "getMissing",
            Named::None,
        ),
        (
            "test_put[store=s3]",
            None,
            "test_put",
            Named::Provider(Compared(0)),
        ),
        (
            "test_put[azure-blob-1]",
            None,
            "test_put",
            Named::Provider(Compared(2)),
        ),
        (
            "test_put[s3 [primary]]",
            None,
            "test_put",
            Named::Provider(Compared(0)),
        ),
        ("test_put:2", None, "test_put", Named::Position(1)),
        ("test_addr[::1]", None, "test_addr", Named::None),
        (
            "tests::test_addr[s3::1]",
            None,
            "test_addr",
            Named::Provider(Compared(0)),
        ),
        (
            "test_put:1 ('gcs')",
            None,
            "test_put",
            Named::Provider(Compared(1)),
        ),
        (
            "testPut with data set \"gcs\"",
            None,
            "testPut",
            Named::Provider(Compared(1)),
        ),
        (
            "testPut with data set #1",
            None,
            "testPut",
            Named::Position(1),
        ),
        (
            "testPut with data set #0",
            None,
            "testPut",
            Named::Position(0),
        ),
        (
            "test_put_atomic (store='gcs')",
            None,
            "test_put_atomic",
            Named::Provider(Compared(1)),
        ),
        (
            "test_put (path='a/b', store='azure-blob')",
            None,
            "test_put",
            Named::Provider(Compared(2)),
        ),
        (
            "putAtomic(s3)",
            None,
            "putAtomic",
            Named::Provider(Compared(0)),
        ),
        ("test_put (level='strong')", None, "test_put", Named::None),
        ("getMissing()", None, "getMissing", Named::None),
    ];

    #[test]
    fn each_runner_names_the_function_and_the_provider() {
        let p = providers();
        for (name, display, function, provider) in RUNNER_NAMES {
            assert_eq!(base(name), *function, "{name}");
            assert_eq!(named(name, *display, &p), *provider, "{name}");
        }
    }

    #[test]
    fn parameterized_expand_names() {
        assert_eq!(expanded("test_put_0_s3"), Some(("test_put", "s3")));
        assert_eq!(
            expanded("test_get_2_azure_blob"),
            Some(("test_get", "azure_blob"))
        );
        assert_eq!(expanded("test_put_2"), Some(("test_put", "")));
        assert_eq!(expanded("test_put"), None);
        assert_eq!(expanded("test_s3put"), None);
    }

    #[test]
    fn a_provider_named_wherever_it_stands_and_a_test_named_for_one() {
        let p = providers();
        for (text, expected) in [
            ("PutAtomic_azure_blob", Some(2)),
            ("s3[strong]", Some(0)),
            ("store=gcs", Some(1)),
            ("s3 – région", Some(0)),
            ("s3_provider_test.global", Some(0)),
            ("tests3put", None),
            ("s3 and gcs", None),
        ] {
            assert_eq!(named_in(text, &p), expected, "{text}");
        }
        assert_eq!(named_for("put on gcs is atomic", &p), Some(Compared(1)));
        assert_eq!(named_for("put on %s is atomic", &p), None);
        assert_eq!(named_for("test_get_missing", &p), None);
    }
}
