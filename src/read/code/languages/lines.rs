//! Test declarations read line by line, for the languages of the table that have no grammar
//! here but whose tests are declared one to a line: Robot Framework's test case names (at the
//! start of a line under `*** Test Cases ***`) and Perl's `subtest 'title' => sub {`
//! (Test::More). A row names its [`LineTests`]; [`test_at`] finds the test a citation stands
//! in by them, as the syntax tree does for a language with a grammar: the test declared
//! directly under its comment (past blank lines, comments and a block's opening line, such as
//! the loop a test is declared in), or, where the row's test bodies are indented, the test
//! whose body holds it.
//!
//! To read another language's declarations this way: a `LineTests` beside these and its row's
//! `line_tests`. A language whose tests are not line-shaped needs a grammar instead.

use std::sync::LazyLock;

use regex::Regex;

use crate::read::code::TestSite;

/// How a language's tests are declared, line by line.
pub(crate) struct LineTests {
    /// A line that declares a test: its title is the first group that matched.
    pub(crate) declaration: LazyLock<Regex>,
    /// The lines between which declarations stand, when not anywhere (Robot's
    /// `*** Test Cases ***` up to the next `***` heading): the opening one and any heading.
    pub(crate) section: Option<(LazyLock<Regex>, LazyLock<Regex>)>,
    /// The start of a comment line (after any indentation).
    pub(crate) comment: &'static str,
    /// Lines passed over between a citation and the test under it, besides blank lines and
    /// comments: a block's opening line (`for my $store (...) {`).
    pub(crate) passed: Option<LazyLock<Regex>>,
    /// A test's body is its indented lines (Robot): an indented citation stands in the test
    /// declared last above it.
    pub(crate) indented_bodies: bool,
}

/// Robot Framework: a test case is a name at the start of a line of the `*** Test Cases ***`
/// (or `*** Tasks ***`) section, up to two spaces or a tab (a keyword may follow); its body
/// is the indented lines under it.
pub(crate) static ROBOT: LineTests = LineTests {
    declaration: LazyLock::new(|| {
        Regex::new(r"^([^\s#.*][^\t]*?)(?:\s{2,}|\t|\s*$)").expect("a valid regex")
    }),
    section: Some((
        LazyLock::new(|| {
            Regex::new(r"(?i)^\*+\s*(?:test\s*cases?|tasks?)\s*\**\s*$").expect("a valid regex")
        }),
        LazyLock::new(|| Regex::new(r"^\*").expect("a valid regex")),
    )),
    comment: "#",
    passed: None,
    indented_bodies: true,
};

/// Perl's Test::More (and Test2): `subtest 'title' => sub {`, `subtest("title", sub {`.
pub(crate) static PERL: LineTests = LineTests {
    declaration: LazyLock::new(|| {
        Regex::new(r#"^\s*subtest\s*\(?\s*(?:'([^']*)'|"([^"]*)")\s*(?:=>|,)"#)
            .expect("a valid regex")
    }),
    section: None,
    comment: "#",
    passed: Some(LazyLock::new(|| {
        Regex::new(r"\{\s*(?:#.*)?$").expect("a valid regex")
    })),
    indented_bodies: false,
};

impl LineTests {
    /// The title a line declares, if it declares a test.
    fn title<'l>(&self, line: &'l str) -> Option<&'l str> {
        let captures = self.declaration.captures(line)?;
        captures.iter().skip(1).flatten().next().map(|m| m.as_str())
    }

    /// Whether the line at `index` (from 0) of `lines` stands where tests are declared.
    fn in_section(&self, lines: &[&str], index: usize) -> bool {
        let Some((open, heading)) = &self.section else {
            return true;
        };
        lines[..=index]
            .iter()
            .rev()
            .find(|l| heading.is_match(l))
            .is_some_and(|l| open.is_match(l))
    }

    fn is_comment(&self, line: &str) -> bool {
        line.trim_start().starts_with(self.comment)
    }
}

/// The test a citation on line `line` (from 1) of `text` stands in, by the declarations of
/// `tests`.
pub(crate) fn test_at(tests: &LineTests, text: &str, line: usize) -> Option<TestSite> {
    let lines: Vec<&str> = text.lines().collect();
    let at = line.checked_sub(1)?;
    let cited = lines.get(at)?;
    let indented = cited.starts_with([' ', '\t']);
    if tests.indented_bodies && indented {
        return (0..at)
            .rev()
            .find(|&i| !lines[i].trim().is_empty() && !lines[i].starts_with([' ', '\t']))
            .and_then(|i| declared(tests, &lines, i));
    }
    let passed = |l: &str| tests.passed.as_ref().is_some_and(|p| p.is_match(l));
    (at + 1..lines.len())
        .find(|&i| {
            let l = lines[i];
            !(l.trim().is_empty() || tests.is_comment(l) || (passed(l) && tests.title(l).is_none()))
        })
        .and_then(|i| declared(tests, &lines, i))
}

/// The test declared at line `index` (from 0), if that line declares one.
fn declared(tests: &LineTests, lines: &[&str], index: usize) -> Option<TestSite> {
    let line = lines[index];
    if tests.is_comment(line) || !tests.in_section(lines, index) {
        return None;
    }
    let title = tests.title(line)?.trim();
    (!title.is_empty()).then(|| TestSite {
        name: title.to_owned(),
        scope: Vec::new(),
        line: index + 1,
        titled: true,
        parameters: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(tests: &LineTests, text: &str, line: usize) -> Option<String> {
        test_at(tests, text, line).map(|t| t.name)
    }

    #[test]
    fn robot_test_cases_under_their_section() {
        let robot = "*** Settings ***\n# r[verify a.x]\nLibrary    X\n\n*** Test Cases ***\n# r[verify a.b]\nPut On s3 Is Atomic\n    [Template]    Put\n    # r[verify a.c]\n    s3\n\n# r[verify a.d]\nGet Missing    Log    x\n\n*** Keywords ***\n# r[verify a.e]\nPut\n    No Operation\n";
        assert_eq!(
            name(&ROBOT, robot, 6).as_deref(),
            Some("Put On s3 Is Atomic")
        );
        assert_eq!(
            name(&ROBOT, robot, 9).as_deref(),
            Some("Put On s3 Is Atomic")
        );
        assert_eq!(name(&ROBOT, robot, 12).as_deref(), Some("Get Missing"));
        // A keyword and a setting are no test cases.
        assert_eq!(name(&ROBOT, robot, 16), None);
        assert_eq!(name(&ROBOT, robot, 2), None);
    }

    #[test]
    fn perl_subtests_under_a_citation_and_a_loop() {
        let perl = "use Test::More;\n# r[verify a.b]\nfor my $s (qw(a b)) {\n    subtest \"put on $s\" => sub {\n    };\n}\n\n# r[verify a.c]\nsubtest('get missing', sub { ok(1) });\n\n# r[verify a.d]\nmy $x = 1;\nsubtest 'later' => sub {};\n";
        assert_eq!(name(&PERL, perl, 2).as_deref(), Some("put on $s"));
        assert_eq!(name(&PERL, perl, 8).as_deref(), Some("get missing"));
        // A statement between the citation and the next subtest: it stands in none.
        assert_eq!(name(&PERL, perl, 11), None);
        assert_eq!(test_at(&PERL, perl, 8).map(|t| t.line), Some(9));
    }
}
