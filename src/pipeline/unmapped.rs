//! The reverse of coverage: the code units (functions, methods, types) of the source tree in
//! which no citation of a rule stands and above which none stands, per provider and for the
//! shared code, with the share of units mapped. Code without a reason in the contract.
//!
//! The units come from the syntax tree of every file with a grammar (`read::code`), read only
//! when asked (`status --unmapped`, `export`); a unit belongs to the providers whose places
//! hold its file, as a citation in it would count ([`crate::model::rules::coverage`]), and to
//! the shared code when none does. Only a citation of a rule of the contract maps a unit. Tests are counted apart from the code they test: a test
//! unit, or any unit of a test file.

use std::collections::BTreeMap;

use serde::Serialize;

use super::analysis::Analysis;
use crate::read::code::UnitKind;

/// Every unmapped unit, per owner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Unmapped {
    /// Each built or proposed provider that owns code, in the book's order, then the shared
    /// code (`owner` empty) when there is any.
    pub owners: Vec<UnmappedOwner>,
}

/// One owner's units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct UnmappedOwner {
    /// The provider, or empty for the shared code (no provider's places hold it).
    pub owner: String,
    /// Units of code (not tests), and how many of them a citation maps.
    pub code_units: usize,
    pub code_mapped: usize,
    /// Units of tests, and how many of them a citation maps.
    pub test_units: usize,
    pub test_mapped: usize,
    /// The unmapped units of code, by file and line.
    pub code: Vec<UnmappedUnit>,
    /// The unmapped units of tests, by file and line.
    pub tests: Vec<UnmappedUnit>,
}

/// A unit no citation maps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct UnmappedUnit {
    /// Its file, relative to `source-root`, `/`-separated.
    pub path: String,
    /// The line of its name.
    pub line: usize,
    /// `function`, `method`, `type` or `test`.
    pub kind: &'static str,
    /// Its name (a test case's title), with what it stands in (`Store.put`).
    pub name: String,
}

/// The unmapped units of an analysis whose source tree was read with its units, if it was.
pub(super) fn unmapped_of(analysis: &Analysis<'_>) -> Option<Unmapped> {
    let source = analysis.source.as_ref()?;
    let model = &analysis.model;
    // Where citations of the contract's rules stand, by file: their lines. A citation of no
    // rule gives no unit a reason.
    let mut cited: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let known = |c: &&crate::model::rules::code::CodeCitation| {
        c.remote.is_none()
            && c.cited
                .as_ref()
                .is_ok_and(|v| analysis.rules.get(&v.id).is_some())
    };
    for citation in analysis.citations.iter().filter(known) {
        cited.entry(&citation.path).or_default().push(citation.line);
    }
    let mut owners: BTreeMap<Option<usize>, UnmappedOwner> = BTreeMap::new();
    for file in &source.units {
        let holders = analysis.coverage.owners(&file.path);
        let keys: Vec<Option<usize>> = if holders.is_empty() {
            vec![None]
        } else {
            holders.into_iter().map(Some).collect()
        };
        let lines = cited.get(file.path.as_str());
        for (unit, span) in &file.units {
            let mapped = lines.is_some_and(|l| l.iter().any(|line| span.contains(line)));
            let test = unit.test || file.test_file;
            for key in &keys {
                let owner = owners.entry(*key).or_insert_with(|| UnmappedOwner {
                    owner: key
                        .map(|p| model.providers[p].name.clone())
                        .unwrap_or_default(),
                    code_units: 0,
                    code_mapped: 0,
                    test_units: 0,
                    test_mapped: 0,
                    code: Vec::new(),
                    tests: Vec::new(),
                });
                owner.count(unit, &file.path, test, mapped);
            }
        }
    }
    // Providers in the book's order (their index), the shared code last; one owner per name.
    let mut out: Vec<UnmappedOwner> = Vec::new();
    let (shared, providers): (Vec<_>, Vec<_>) = owners.into_iter().partition(|(k, _)| k.is_none());
    for (_, owner) in providers.into_iter().chain(shared) {
        match out.iter_mut().find(|o| o.owner == owner.owner) {
            Some(same) => merge(same, owner),
            None => out.push(owner),
        }
    }
    Some(Unmapped { owners: out })
}

impl UnmappedOwner {
    /// Counts `unit` of the file at `path` as code or a test, and lists it when no citation
    /// stands in it (`mapped` false).
    fn count(&mut self, unit: &crate::read::code::Unit, path: &str, test: bool, mapped: bool) {
        let (units, mapped_count, list) = if test {
            (&mut self.test_units, &mut self.test_mapped, &mut self.tests)
        } else {
            (&mut self.code_units, &mut self.code_mapped, &mut self.code)
        };
        *units += 1;
        if mapped {
            *mapped_count += 1;
        } else {
            list.push(UnmappedUnit {
                path: path.to_owned(),
                line: unit.line,
                kind: kind_of(unit),
                name: qualified(unit),
            });
        }
    }
}

fn merge(into: &mut UnmappedOwner, other: UnmappedOwner) {
    into.code_units += other.code_units;
    into.code_mapped += other.code_mapped;
    into.test_units += other.test_units;
    into.test_mapped += other.test_mapped;
    into.code.extend(other.code);
    into.tests.extend(other.tests);
}

fn kind_of(unit: &crate::read::code::Unit) -> &'static str {
    match unit.kind {
        _ if unit.test => "test",
        UnitKind::Function if unit.method => "method",
        UnitKind::Function => "function",
        UnitKind::Type => "type",
        UnitKind::Case => "test",
        UnitKind::Scope | UnitKind::Members => "scope",
    }
}

/// A unit's name with the types it stands in: `Store.put`, `TestStore.test_put`.
fn qualified(unit: &crate::read::code::Unit) -> String {
    match unit.scope.last() {
        Some(outer) if unit.method => format!("{outer}.{}", unit.name),
        _ => unit.name.clone(),
    }
}
