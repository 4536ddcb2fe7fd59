//! The provider each case of a test ran for, with what the test's source says of its rows
//! (`read::code::parameters`): a case its runner names by its row's index alone (nose2's
//! `test_put:2`, PHPUnit's `with data set #1`, Boost.Test's `_1`) ran for the provider that
//! row of the literal list names; with no literal list, for a provider not known
//! ([`Named::Unknown`]), never a guess. And the rows of a parameterised test that a report
//! names alike (TestNG's JUnit reports write every row under its method's name): they are
//! rows, not reruns, and which provider each ran for is not known.

use super::matching::{Found, Matcher, Site};
use super::names::{Named, TitlePattern, named_in};
use crate::read::code::parameters::Parameters;

/// What a case named at index `at` of its test's rows says of its provider, the rows being
/// `parameters` (the test's, as its source lists them): the one provider its row names, else
/// not known (a row that names none may hold a variable that did).
pub(crate) fn at_row(at: usize, parameters: Option<&Parameters>, providers: &[String]) -> Named {
    match parameters {
        Some(Parameters::Rows(rows)) => rows
            .get(at)
            .and_then(|row| named_in(row, providers))
            .map_or(Named::Unknown, Named::provider),
        _ => Named::Unknown,
    }
}

impl Matcher<'_> {
    /// What a case of the test `site` that says `named` as its runner writes it (by its
    /// title or its name) says of its provider with the test's rows: an index is the row's.
    fn resolved(&self, site: &Site<'_>, named: Named) -> Named {
        match named {
            Named::Position(at) => at_row(at, site.parameters, self.providers()),
            // A case of a parameterised test that names none of its rows holds them all or
            // any one (pytest 9 writes a unittest test's subtests as one case; TestNG's JUnit
            // reports every row under the method's name).
            Named::None if site.parameters.is_some() => Named::Unknown,
            named => named,
        }
    }

    /// What case `case`'s name (or, for a `titled` test, its title) says as its runner writes
    /// it, before the test's rows are read; a test `numbered` by an `${index}` in its title
    /// reads the case's index. `pattern` is the test's title, compiled once for its cases.
    fn as_named(
        &self,
        pattern: Option<&TitlePattern>,
        (titled, numbered): (bool, bool),
        case: usize,
    ) -> Named {
        let named = if titled {
            pattern.map_or(Named::None, |p| self.title_named(p, case))
        } else {
            self.named(case)
        };
        match named {
            Named::None if numbered => {
                pattern.map_or(Named::None, |p| self.title_position(p, case))
            }
            named => named,
        }
    }

    /// The index a case of a test named by its title `pattern` is numbered by (Boost.Test's
    /// `_1` of `_${index}`), in any of the forms a report writes a title in its groups.
    fn title_position(&self, pattern: &TitlePattern, case: usize) -> Named {
        let case = &self.results().cases[case];
        let grouped = [Some(&case.classname[..]), case.suite.as_deref()]
            .into_iter()
            .flatten()
            .map(|group| format!("{group} {}", case.name));
        std::iter::once(case.name.clone())
            .chain(grouped)
            .find_map(|form| pattern.position(&form))
            .map_or(Named::None, Named::Position)
    }

    /// The cases of the test `site` found in `found`, each with what it says of its provider;
    /// for a parameterised test, the rows its report names alike are all its cases (not a
    /// rerun's attempts), each of a provider not known.
    pub(crate) fn named_cases(&self, site: &Site<'_>, found: &mut Found) -> Vec<(usize, Named)> {
        let mut kinds: Vec<(usize, Named)> = Vec::with_capacity(found.cases.len());
        let mut rows = Vec::new();
        // What the test is named by, and its title's pattern, worked out once for all its
        // cases.
        let by = (site.titled(), site.name.contains("${index}"));
        let pattern = (by.0 || by.1)
            .then(|| TitlePattern::new(site.scope, site.name))
            .flatten();
        for &case in &found.cases {
            let written = self.as_named(pattern.as_ref(), by, case);
            kinds.push((case, self.resolved(site, written)));
            let alike = match self.attempts.earlier.get(&case) {
                Some(earlier) if site.parameters.is_some() && written == Named::None => earlier,
                _ => continue,
            };
            for &row in alike {
                kinds.push((row, Named::Unknown));
                rows.push(row);
            }
        }
        found.cases.extend(rows);
        kinds
    }
}

#[cfg(test)]
mod alike {
    use super::*;
    use crate::read::results::{Case, Outcome, Results};

    #[test]
    fn a_parameterised_tests_cases_named_alike_are_rows_and_another_tests_a_rerun() {
        let case = |outcome| Case {
            name: "putAtomic".to_owned(),
            classname: "store.ConformanceTest".to_owned(),
            file: None,
            suite: None,
            display: None,
            outcome,
            message: None,
            report: 0,
        };
        let results = Results {
            asked: true,
            cases: vec![
                case(Outcome::Passed),
                case(Outcome::Failed),
                case(Outcome::Skipped),
            ],
            ..Results::default()
        };
        let matcher = Matcher::new(&results, vec!["s3".to_owned(), "gcs".to_owned()]);
        let site = |parameters| Site {
            path: "store/ConformanceTest.java",
            name: "putAtomic",
            scope: &[],
            parameters,
            titled: false,
        };
        // The last attempt counts; with rows, every row is the test's, none a provider's.
        let mut found = Found {
            cases: vec![2],
            unplaced: false,
        };
        let rows = matcher.named_cases(&site(Some(&Parameters::Unlisted)), &mut found);
        assert_eq!(
            rows,
            [
                (2, Named::Unknown),
                (0, Named::Unknown),
                (1, Named::Unknown)
            ]
        );
        assert_eq!(found.cases, [2, 0, 1]);
        // Without, the earlier ones are a rerun's attempts.
        let mut found = Found {
            cases: vec![2],
            unplaced: false,
        };
        assert_eq!(
            matcher.named_cases(&site(None), &mut found),
            [(2, Named::None)]
        );
        assert_eq!(found.cases, [2]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::results::names::Compared;

    #[test]
    fn an_index_is_the_provider_its_row_names_and_else_not_known() {
        let providers: Vec<String> = ["s3", "gcs", "azure-blob"].map(String::from).to_vec();
        let rows = Parameters::Rows(vec!["['s3']".into(), "{\"gcs\"}".into(), "'x'".into()]);
        assert_eq!(
            at_row(1, Some(&rows), &providers),
            Named::Provider(Compared(1))
        );
        assert_eq!(at_row(2, Some(&rows), &providers), Named::Unknown);
        // Past the list, an unlisted source, or no rows at all: never a guess.
        assert_eq!(at_row(3, Some(&rows), &providers), Named::Unknown);
        assert_eq!(
            at_row(0, Some(&Parameters::Unlisted), &providers),
            Named::Unknown
        );
        assert_eq!(at_row(0, None, &providers), Named::Unknown);
    }
}
