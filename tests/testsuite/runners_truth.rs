//! Every runner folder's truth table (`tests/fixtures/runners/*/truth.txt`) against what the
//! binary's `export` says of each report. A truth table names the provider folders (`folders S3
//! GCS AZURE`, relative to the project's `src/`), then blocks `report FILE...` (several files
//! read together), each followed by one line per rule: `RULE s3 gcs azure-blob`, each cell
//! `passed`, `failed`, `skipped`, `not-run` or `unattributed`; and `source FROM TO` where the
//! source tree held, during that block's run, a file of the runner's folder (`FROM`) at `TO`
//! under `src/` that it holds no longer (`run-reports.sh` copied it in for that run alone).
//!
//! Every report holds to what may never happen: a `passed` cell where the runner did not pass
//! that case for that provider, a failure shown as anything but `failed` or `unattributed`, and
//! `check` exiting 0 over a report that holds a failed case. The first block of each runner is
//! also scored: cells equal to the truth, at least 10 of 12 per runner and 95 % over all; the
//! table of cells right per runner is written to `target/tmp/runners-truth.txt`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{Fixture, copy_tree, run_in};
use crate::runners::{CONTRACT, PROVIDERS, cells};

const NAMES: [&str; 3] = ["s3", "gcs", "azure-blob"];

/// The runners whose reports are not read right yet: what is wrong is printed, not asserted,
/// and the 95 % bar waits until this is empty. A runner listed here that holds is an error, so
/// the list only shrinks.
const PENDING: &[&str] = &[];

/// One report block of a truth table: its files, each `rule provider` cell, and the files
/// the source tree held during its run alone (from, to).
struct Block {
    reports: Vec<String>,
    cells: BTreeMap<String, String>,
    sources: Vec<(String, String)>,
}

struct Truth {
    folders: [String; 3],
    blocks: Vec<Block>,
}

fn parse(path: &Path) -> Truth {
    let text = std::fs::read_to_string(path).unwrap();
    let mut folders = None;
    let mut blocks: Vec<Block> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split('#').next().unwrap().split_whitespace().collect();
        let at = format!("{}:{}", path.display(), n + 1);
        match words.as_slice() {
            [] => {}
            ["folders", s3, gcs, azure] => {
                folders = Some([s3.to_string(), gcs.to_string(), azure.to_string()]);
            }
            ["report", files @ ..] if !files.is_empty() => blocks.push(Block {
                reports: files.iter().map(|f| f.to_string()).collect(),
                cells: BTreeMap::new(),
                sources: Vec::new(),
            }),
            ["source", from, to] => blocks
                .last_mut()
                .unwrap_or_else(|| panic!("{at}: no report"))
                .sources
                .push((from.to_string(), to.to_string())),
            [rule, statuses @ ..] if statuses.len() == 3 => {
                let block = blocks
                    .last_mut()
                    .unwrap_or_else(|| panic!("{at}: no report"));
                for (provider, status) in NAMES.iter().zip(statuses) {
                    assert!(
                        ["passed", "failed", "skipped", "not-run", "unattributed"].contains(status),
                        "{at}: `{status}`"
                    );
                    block
                        .cells
                        .insert(format!("{rule} {provider}"), status.to_string());
                }
            }
            _ => panic!("{at}: cannot read `{line}`"),
        }
    }
    Truth {
        folders: folders.unwrap_or_else(|| panic!("{}: no `folders`", path.display())),
        blocks,
    }
}

/// The storage book over `runner`'s project, the providers at `folders`, reading the block's
/// reports (each `reports/...` as the truth table writes it), with the files its run's tree
/// held.
fn book(runner: &Path, folders: &[String; 3], block: &Block) -> Fixture {
    let reports = &block.reports;
    let results: Vec<String> = reports
        .iter()
        .map(|r| format!("\"results/{}\"", r.strip_prefix("reports/").unwrap_or(r)))
        .collect();
    let paths: Vec<String> = NAMES
        .iter()
        .zip(folders)
        .map(|(name, folder)| format!("{name} = [\"{folder}\"]\n"))
        .collect();
    let toml = format!(
        "[book]\ntitle = \"Storage\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\nsource-root = \"code\"\ntest-results = [{}]\n\n[preprocessor.contract.checks]\nmust-cite = \"off\"\n\n[preprocessor.contract.provider-paths]\n{}",
        results.join(", "),
        paths.concat()
    );
    let fixture = Fixture::new(&[
        ("book.toml", &toml),
        ("src/contract.md", CONTRACT),
        ("src/providers.md", PROVIDERS),
    ]);
    copy_tree(&runner.join("src"), &fixture.root().join("code"));
    copy_tree(&runner.join("reports"), &fixture.root().join("results"));
    for (from, to) in &block.sources {
        std::fs::copy(runner.join(from), fixture.root().join("code").join(to)).unwrap();
    }
    fixture
}

/// Whether the block's reports hold a failed case (by the truth, or by the report's text).
fn holds_failure(runner: &Path, block: &Block) -> bool {
    block.cells.values().any(|s| s == "failed")
        || block.reports.iter().any(|r| {
            let text = std::fs::read_to_string(runner.join(r)).unwrap_or_default();
            text.contains("<failure") || text.contains("<error ") || text.contains("<error>")
        })
}

/// The runners' folders that have a truth table, in name order.
fn runners() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/runners");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("truth.txt").is_file())
        .collect();
    out.sort();
    out
}

/// What is wrong in one block's cells that may never be wrong, one line each.
fn violations(name: &str, block: &Block, got: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    for (cell, truth) in &block.cells {
        let shown = got.get(cell).map_or("(none)", String::as_str);
        let wrong = (shown == "passed" && truth != "passed")
            || (truth == "failed" && !["failed", "unattributed", "unmatched"].contains(&shown));
        if wrong {
            out.push(format!(
                "{name} {:?} {cell}: truth {truth}, shown {shown}",
                block.reports
            ));
        }
    }
    out
}

#[test]
fn every_runner_report_against_its_truth_table() {
    let mut table = String::from("runner            right\n");
    let (mut right_all, mut total_all) = (0, 0);
    let mut wrong = Vec::new();
    for runner in runners() {
        let name = runner.file_name().unwrap().to_string_lossy().into_owned();
        let truth = parse(&runner.join("truth.txt"));
        let before = wrong.len();
        for (index, block) in truth.blocks.iter().enumerate() {
            let fixture = book(&runner, &truth.folders, block);
            let got = cells(&fixture);
            wrong.extend(violations(&name, block, &got));
            if holds_failure(&runner, block) {
                let (code, _, _) = run_in(fixture.root(), &["check", "--format", "short"]);
                if code == 0 {
                    wrong.push(format!("{name} {:?}: check exits 0", block.reports));
                }
            }
            if index == 0 {
                let right = block
                    .cells
                    .iter()
                    .filter(|(c, t)| got.get(*c) == Some(t))
                    .count();
                table.push_str(&format!("{name:<18}{right}/{}\n", block.cells.len()));
                for (cell, truth) in &block.cells {
                    let shown = got.get(cell).map_or("(none)", String::as_str);
                    if shown != truth {
                        table.push_str(&format!("    {cell}: truth {truth}, shown {shown}\n"));
                    }
                }
                if right < 10 {
                    wrong.push(format!(
                        "{name}: {right} of {} cells right",
                        block.cells.len()
                    ));
                }
                right_all += right;
                total_all += block.cells.len();
            }
        }
        if PENDING.contains(&name.as_str()) {
            let pending: Vec<String> = wrong.drain(before..).collect();
            if pending.is_empty() {
                wrong.push(format!("{name} is read right: take it out of PENDING"));
            }
            table.push_str(&format!("pending {name}:\n  {}\n", pending.join("\n  ")));
        }
    }
    table.push_str(&format!("all               {right_all}/{total_all}\n"));
    // The table to quote (`target/tmp/runners-truth.txt`): clippy keeps tests off stdout.
    std::fs::write(
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("runners-truth.txt"),
        &table,
    )
    .unwrap();
    if PENDING.is_empty() && right_all * 100 < total_all * 95 {
        wrong.push(format!(
            "{right_all} of {total_all} cells right, under 95 %"
        ));
    }
    assert!(wrong.is_empty(), "{table}\n{}", wrong.join("\n"));
}

/// A test file that does not parse: Vitest writes one failed case named after it, jest-junit
/// (reporting suites that failed to run) one classed `Test suite failed to run`. With the
/// file's test the only one verifying gcs's `delete.idempotent` (the citation in gcs's own
/// test file taken out), that cell is failed by the real report, and `check` fails; by the
/// same run's report without the file (jest-junit's defaults leave it out), nothing of the
/// file ran, and the cell says not run.
#[test]
fn a_file_that_did_not_parse_fails_every_test_it_cites() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/runners");
    let folders = NAMES.map(|n| format!("providers/{n}"));
    for (runner, file, broken, without) in [
        (
            "vitest-each",
            "providers/gcs/broken.test.ts",
            "reports/vitest-junit-broken-file.xml",
            "reports/vitest-junit.xml",
        ),
        (
            "jest-each",
            "providers/gcs/broken.test.js",
            "reports/jest-junit-broken-file-suite-errors.xml",
            "reports/jest-junit-broken-file.xml",
        ),
    ] {
        let runner = root.join(runner);
        let extension = file.rsplit('.').next().unwrap();
        for (report, expected) in [(broken, "failed"), (without, "not-run")] {
            let block = Block {
                reports: vec![report.to_owned()],
                cells: BTreeMap::new(),
                sources: vec![(format!("broken/broken.test.{extension}"), file.to_owned())],
            };
            let fixture = book(&runner, &folders, &block);
            let own = fixture
                .root()
                .join(format!("code/providers/gcs/provider.test.{extension}"));
            let text = std::fs::read_to_string(&own).unwrap();
            assert!(text.contains("// r[verify delete.idempotent]\n"));
            std::fs::write(&own, text.replace("// r[verify delete.idempotent]\n", "")).unwrap();
            let got = cells(&fixture);
            let at = format!("{} {report}", runner.display());
            assert_eq!(got["delete.idempotent gcs"], expected, "{at}");
            // gcs's file fails no other provider.
            assert_ne!(got["delete.idempotent s3"], "failed", "{at}");
            assert_ne!(got["delete.idempotent azure-blob"], "failed", "{at}");
            let (code, out, _) = run_in(fixture.root(), &["check", "--format", "short"]);
            let named = out.lines().any(|l| {
                l.contains("error[failing-rule]")
                    && l.contains(&format!(
                        "`gcs` fails the rule `delete.idempotent`: the file of its test (`{file}`) failed before any test ran"
                    ))
            });
            assert_eq!(named, expected == "failed", "{at}: {out}");
            assert!(
                code != 0,
                "{at}: the report's other failures fail the check"
            );
        }
    }
}
