//! Which attempt of each test case counts: the newest. A rerun that passed is passed (flaky),
//! and of two reports of one case the newer (by its time stamp, else its order in
//! `test-results`) wins, the disagreement noted for `status`. To change what makes two cases
//! one, change the key `Attempts::of` groups them by.

use super::{CaseMap, Outcome, Results};

/// Which attempt of each case counts: the newest. A case is known by its classname, name,
/// file and suite (TAP::Formatter::JUnit names each file only in its suite); of its attempts in one report (a rerun), the last; of its reports, the newest (by the
/// report's time stamp, else its order).
#[derive(Debug, Default)]
pub(crate) struct Attempts {
    /// Per case, whether it is the attempt that counts.
    pub(crate) counts: Vec<bool>,
    /// Per case, whether an earlier attempt of it, in the same report, failed (it passed on a
    /// rerun: flaky).
    pub(crate) flaky: Vec<bool>,
    /// Cases whose older report said otherwise: the case that counts, and the other report's.
    pub(crate) disagreements: Vec<(usize, usize)>,
    /// Per case that counts, the earlier cases of its name in its own report: a rerun's
    /// attempts, or the rows of a parameterised test that its report names alike (`rows.rs`
    /// tells them apart by the test's source).
    pub(crate) earlier: super::CaseMap<usize, Vec<usize>>,
}

/// Where a case is: its classname, file and suite.
type Place<'c> = (&'c str, Option<&'c str>, Option<&'c str>);

/// The places of the cases, numbered in the order first seen. A report writes a class's or a
/// suite's cases one after another: a place is looked up when it changes, not per case.
#[derive(Default)]
struct Places<'c> {
    numbers: CaseMap<Place<'c>, u32>,
    last: Option<(Place<'c>, u32)>,
}

impl<'c> Places<'c> {
    fn number(&mut self, case: &'c super::Case) -> u32 {
        let place = (
            case.classname.as_str(),
            case.file.as_deref(),
            case.suite.as_deref(),
        );
        match self.last {
            Some((seen, number)) if seen == place => number,
            _ => {
                let next = u32::try_from(self.numbers.len()).unwrap_or(u32::MAX);
                let number = *self.numbers.entry(place).or_insert(next);
                self.last = Some((place, number));
                number
            }
        }
    }
}

impl Attempts {
    pub(crate) fn of(results: &Results) -> Attempts {
        let n = results.cases.len();
        let mut attempts = Attempts {
            counts: vec![true; n],
            flaky: vec![false; n],
            disagreements: Vec::new(),
            earlier: CaseMap::default(),
        };
        // The first case of each name, and the names run more than once (a rerun, or the
        // same test in two reports): few, so only they get a list.
        // A case is known by its place and its name, so a case hashes its name and a number.
        let mut first: CaseMap<(u32, &str), usize> = CaseMap::default();
        first.reserve(n);
        let mut places = Places::default();
        let mut repeated: CaseMap<usize, Vec<usize>> = CaseMap::default();
        for (i, case) in results.cases.iter().enumerate() {
            let number = places.number(case);
            match first.entry((number, case.name.as_str())) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(i);
                }
                std::collections::hash_map::Entry::Occupied(slot) => {
                    let at = *slot.get();
                    repeated.entry(at).or_insert_with(|| vec![at]).push(i);
                }
            }
        }
        // Times compared as times (`...:45Z` is before `...:45.5Z`, zones count), never as
        // text; within a second, the order decides.
        let stamps: Vec<Option<i64>> = results
            .files
            .iter()
            .map(|f| f.timestamp.as_deref().and_then(super::unix_seconds))
            .collect();
        let newer = |a: usize, b: usize| {
            let (ra, rb) = (results.cases[a].report, results.cases[b].report);
            let stamp = |r: usize| stamps.get(r).copied().flatten();
            match (stamp(ra), stamp(rb)) {
                (Some(x), Some(y)) if x != y => x > y,
                _ => (ra, a) > (rb, b),
            }
        };
        let mut keyed: Vec<Vec<usize>> = repeated.into_values().collect();
        keyed.sort();
        for indexes in keyed {
            let winner = indexes
                .iter()
                .copied()
                .reduce(|best, i| if newer(i, best) { i } else { best })
                .expect("not empty");
            attempts.settle(results, &indexes, winner);
        }
        attempts.disagreements.sort_unstable();
        attempts
    }

    /// An earlier attempt of case `case` (one that counts) in its own report that failed, of
    /// `results` (those this was made of): where tests of several files share its name and the
    /// report names no file, the "attempts" may be those tests (minitest-reporters), and that
    /// failure is no rerun's to hide.
    pub(crate) fn failed_before(&self, results: &Results, case: usize) -> Option<usize> {
        let earlier = self.earlier.get(&case)?;
        earlier
            .iter()
            .copied()
            .find(|&i| i < case && results.cases[i].outcome == Outcome::Failed)
    }

    /// Records of the attempts `indexes` of one case that `winner` counts: the others do
    /// not; those of its own report are earlier; it is flaky when one of them failed and it
    /// passed; another report's last attempt that says otherwise is a disagreement.
    fn settle(&mut self, results: &Results, indexes: &[usize], winner: usize) {
        let report = results.cases[winner].report;
        for &i in indexes {
            self.counts[i] = i == winner;
        }
        let earlier: Vec<usize> = indexes
            .iter()
            .copied()
            .filter(|&i| i != winner && results.cases[i].report == report)
            .collect();
        let outcome = results.cases[winner].outcome;
        self.flaky[winner] = outcome == Outcome::Passed
            && earlier
                .iter()
                .any(|&i| i < winner && results.cases[i].outcome == Outcome::Failed);
        if !earlier.is_empty() {
            self.earlier.insert(winner, earlier);
        }
        // The last attempt of every other report, when it says otherwise.
        let mut reports: Vec<usize> = indexes
            .iter()
            .map(|&i| results.cases[i].report)
            .filter(|&r| r != report)
            .collect();
        reports.sort_unstable();
        reports.dedup();
        for other in reports {
            let last = indexes
                .iter()
                .copied()
                .filter(|&i| results.cases[i].report == other)
                .max()
                .expect("a case of that report");
            if results.cases[last].outcome != outcome {
                self.disagreements.push((winner, last));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Case;
    use super::*;

    #[test]
    fn the_newer_report_by_its_time_not_its_text() {
        let file = |stamp: &str| super::super::ResultsFile {
            path: std::path::PathBuf::new(),
            item: 0,
            shown: String::new(),
            modified: None,
            timestamp: Some(stamp.to_owned()),
        };
        let case = |report: usize, outcome: Outcome| Case {
            name: "TestPut".to_owned(),
            classname: "store".to_owned(),
            file: None,
            suite: None,
            display: None,
            outcome,
            message: None,
            report,
        };
        // 12:00 at +02:00 is 10:00 UTC: before the second report's 11:00 UTC, though its text
        // sorts after it.
        let results = Results {
            asked: true,
            files: vec![
                file("2026-12-06T12:00:00+02:00"),
                file("2026-12-06T11:00:00Z"),
            ],
            cases: vec![case(0, Outcome::Failed), case(1, Outcome::Passed)],
            problems: Vec::new(),
            ..Results::default()
        };
        assert_eq!(Attempts::of(&results).counts, [false, true]);
    }

    #[test]
    fn one_name_in_two_suites_is_two_cases_in_one_suite_a_rerun() {
        let case = |suite: &str, outcome: Outcome| Case {
            name: "1 - get of a missing key".to_owned(),
            classname: String::new(),
            file: None,
            suite: Some(suite.into()),
            display: None,
            outcome,
            message: None,
            report: 0,
        };
        let results = |cases| Results {
            asked: true,
            files: Vec::new(),
            cases,
            problems: Vec::new(),
            ..Results::default()
        };
        // TAP::Formatter::JUnit: each file is a suite, its cases numbered from 1.
        let files = results(vec![
            case("providers_gcs_provider_t", Outcome::Failed),
            case("providers_s3_provider_t", Outcome::Passed),
        ]);
        assert_eq!(Attempts::of(&files).counts, [true, true]);
        let rerun = results(vec![
            case("providers_gcs_provider_t", Outcome::Failed),
            case("providers_gcs_provider_t", Outcome::Passed),
        ]);
        let attempts = Attempts::of(&rerun);
        let failed_before =
            |a: &Attempts, r: &Results| (0..2).map(|i| a.failed_before(r, i)).collect::<Vec<_>>();
        assert_eq!(failed_before(&attempts, &rerun), [None, Some(0)]);
        assert_eq!(failed_before(&Attempts::of(&files), &files), [None, None]);
        assert_eq!(
            (attempts.counts, attempts.flaky),
            (vec![false, true], vec![false, true])
        );
    }
}
