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
/// `parameters` (the test's, as its source lists them).
pub(crate) fn at_row(at: usize, parameters: Option<&Parameters>, providers: &[String]) -> Named {
    match parameters {
        Some(Parameters::Rows(rows)) => match rows.get(at) {
            Some(row) => named_in(row, providers).map_or(Named::None, Named::Provider),
            None => Named::Unknown,
        },
        _ => Named::Unknown,
    }
}

impl Matcher<'_> {
    /// What case `case` of the test `site` says of the provider it ran for: by its title or
    /// its name as its runner writes it, an index read through the test's rows.
    pub(crate) fn case_named(&self, site: &Site<'_>, case: usize) -> Named {
        let named = if super::matching::by_title(site.path) {
            self.title_named(site, case)
        } else {
            self.named(case)
        };
        let named = match named {
            Named::None if site.name.contains("${index}") => self.title_position(site, case),
            named => named,
        };
        match named {
            Named::Position(at) => at_row(at, site.parameters, self.providers()),
            named => named,
        }
    }

    /// The index a case of a test named by its title is numbered by (Boost.Test's `_1` of
    /// `_${index}`), in any of the forms a report writes a title in its groups.
    fn title_position(&self, site: &Site<'_>, case: usize) -> Named {
        let Some(pattern) = TitlePattern::new(site.scope, site.name) else {
            return Named::None;
        };
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
        for &case in &found.cases {
            let named = self.case_named(site, case);
            let alike = match self.attempts.earlier.get(&case) {
                Some(earlier) if site.parameters.is_some() && named == Named::None => earlier,
                _ => {
                    kinds.push((case, named));
                    continue;
                }
            };
            kinds.push((case, Named::Unknown));
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
mod tests {
    use super::*;

    #[test]
    fn an_index_is_the_provider_its_row_names_and_else_not_known() {
        let providers: Vec<String> = ["s3", "gcs", "azure-blob"].map(String::from).to_vec();
        let rows = Parameters::Rows(vec!["['s3']".into(), "{\"gcs\"}".into(), "'x'".into()]);
        assert_eq!(at_row(1, Some(&rows), &providers), Named::Provider(1));
        assert_eq!(at_row(2, Some(&rows), &providers), Named::None);
        // Past the list, an unlisted source, or no rows at all: never a guess.
        assert_eq!(at_row(3, Some(&rows), &providers), Named::Unknown);
        assert_eq!(
            at_row(0, Some(&Parameters::Unlisted), &providers),
            Named::Unknown
        );
        assert_eq!(at_row(0, None, &providers), Named::Unknown);
    }
}
