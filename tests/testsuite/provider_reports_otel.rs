//! OpenTelemetry's compliance matrix as a contract (`tests/fixtures/otel`, made by
//! `scripts/otel-fixture.py` from the specification's `spec-compliance-matrix/` at a pinned
//! commit): each feature a rule, each of the twelve languages a provider whose report was made
//! with `report --declared` from its YAML file. What a file marks `+` is *declared*, never
//! *verified*, in the matrix, `status`, `export` and the agent's answers; the book builds and
//! its matrix page stays small. The counts are taken from the YAML files themselves, line by
//! line, not from anything this tool wrote.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{Fixture, matrix_cells, run_in};

/// The twelve providers, each named as its YAML file is (`go` for `go.yaml`).
const PROVIDERS: [&str; 12] = [
    "go", "java", "js", "python", "ruby", "erlang", "php", "rust", "cpp", "dotnet", "swift",
    "kotlin",
];

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/otel")
}

/// How many features the YAML file of `provider` marks `status` (quoted as the files quote
/// it); a `-` with a note (`'[-][py1003]'`) counts as `-`.
pub(crate) fn marked(provider: &str, status: &str) -> usize {
    let path = fixture_dir().join(format!("compliance/{provider}.yaml"));
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("status: "))
        .filter(|said| {
            let said = said.trim_matches('\'');
            said == status || (status == "-" && said.starts_with("[-]["))
        })
        .count()
}

/// The fixture copied into a temporary folder (the build writes beside it).
pub(crate) fn otel() -> Fixture {
    Fixture::copy_of("otel", &[])
}

/// Per provider, how many of its cells have each status.
fn tally<'a>(
    cells: impl Iterator<Item = (&'a str, &'a str)>,
) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut out: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for (provider, status) in cells {
        *out.entry(provider.to_owned())
            .or_default()
            .entry(status.to_owned())
            .or_default() += 1;
    }
    out
}

#[test]
fn twelve_reports_each_declaring_the_plus_cells_of_its_file() {
    let dir = fixture_dir();
    let mut reports: Vec<String> = std::fs::read_dir(dir.join("reports"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    reports.sort();
    assert_eq!(reports.len(), 12, "{reports:?}");
    for provider in PROVIDERS {
        let text = std::fs::read_to_string(dir.join(format!("reports/{provider}.json"))).unwrap();
        let report: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(report["provider"], provider);
        let declared = report["declared"].as_object().unwrap();
        let implemented = declared.values().filter(|v| *v == "implemented").count();
        let plus = marked(provider, "+");
        assert!(plus > 50, "{provider}: {plus} `+` cells");
        assert_eq!(implemented, plus, "{provider}");
        // Declared only: the report cites nothing and read no test result.
        assert_eq!(report["citations"].as_array().unwrap().len(), 0);
    }
}

#[test]
fn declared_is_never_verified_in_the_matrix_status_and_export() {
    let book = otel();
    let (built, out) = book.build();
    built.expect("the book builds");
    let page = out.join("implementations.html");
    let bytes = std::fs::metadata(&page).unwrap().len();
    assert!(bytes < 3_000_000, "the matrix page is {bytes} bytes");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<tr data-rule=").count(), 326);
    assert!(html.contains("class=\"contract-rule-table contract-compact\""));
    let cells = matrix_cells(&html);
    assert_eq!(cells.len(), 326 * 12);
    let seen = tally(
        cells
            .iter()
            .map(|((_, p), c)| (p.as_str(), c.status.as_str())),
    );
    for provider in PROVIDERS {
        let of = &seen[provider];
        assert_eq!(
            of.get("declared"),
            Some(&marked(provider, "+")),
            "{provider}: {of:?}"
        );
        assert_eq!(
            of.get("declared-not-implemented").copied().unwrap_or(0),
            marked(provider, "-"),
            "{provider}: {of:?}"
        );
        for evidence in ["passed", "verified", "implemented", "failed"] {
            assert_eq!(of.get(evidence), None, "{provider}: {of:?}");
        }
    }
    // A compact cell shows its mark; its word is its label and its title says it is a claim.
    let go = &cells[&(
        "traces.tracerprovider.create-tracerprovider".to_owned(),
        "go".to_owned(),
    )];
    assert_eq!(
        (go.text.as_str(), go.label.as_deref()),
        ("\u{25b3}", Some("declared"))
    );
    assert!(
        go.title
            .as_deref()
            .unwrap()
            .contains("a claim, not evidence"),
        "{go:?}"
    );
    let (code, status, stderr) = run_in(book.root(), &["status", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let status: Value = serde_json::from_str(&status).unwrap();
    for provider in status["providers"].as_array().unwrap() {
        let name = provider["provider"].as_str().unwrap();
        assert_eq!(provider["verified"], 0, "{provider}");
        assert_eq!(
            provider["declared"].as_u64().unwrap() as usize,
            marked(name, "+") + marked(name, "-"),
            "{provider}"
        );
        assert_eq!(
            provider["declared_not_implemented"].as_u64().unwrap() as usize,
            marked(name, "-"),
            "{provider}"
        );
        // The summary bar above the matrix counts them as `status` does.
        let said = format!(
            "aria-label=\"{name}: {} declared, {} not implemented, ",
            marked(name, "+"),
            marked(name, "-")
        );
        assert!(html.contains(&said), "{said}");
    }
    let (_, text, _) = run_in(book.root(), &["status"]);
    // Bound: every rule but those its file marks not applicable.
    let bound = 326 - marked("go", "N/A");
    let go = format!(
        "`go`, 0 of {bound} rules verified, 0 implemented only, {} uncovered, {} declared (no evidence; {} of them not implemented)",
        bound - marked("go", "+") - marked("go", "-"),
        marked("go", "+") + marked("go", "-"),
        marked("go", "-")
    );
    assert!(text.contains(&go), "{go} in {text}");
    let (_, export, _) = run_in(book.root(), &["export"]);
    let export: Value = serde_json::from_str(&export).unwrap();
    let coverage = export["coverage"].as_array().unwrap();
    assert_eq!(coverage.len(), 12);
    let exported = tally(coverage.iter().flat_map(|c| {
        let provider = c["provider"].as_str().unwrap();
        c["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(move |r| (provider, r["status"].as_str().unwrap()))
    }));
    for provider in PROVIDERS {
        let of = &exported[provider];
        assert_eq!(of.get("declared"), Some(&marked(provider, "+")), "{of:?}");
        assert_eq!(of.get("verified"), None, "{provider}: {of:?}");
    }
}

/// Every page of `tool`'s answer to `arguments`, following `next_cursor`; each page's JSON
/// under 24 KiB, as the server promises.
fn pages(session: &mut crate::mcp::Session, tool: &str, arguments: &Value) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut arguments = arguments.clone();
    loop {
        let page = session.answer(tool, arguments.clone());
        assert!(
            page.to_string().len() < 32 * 1024,
            "{tool}: a page of {} bytes",
            page.to_string().len()
        );
        let next = page["next_cursor"].as_str().map(str::to_owned);
        out.push(page);
        match next {
            Some(cursor) => arguments["cursor"] = json!(cursor),
            None => return out,
        }
    }
}

#[test]
fn the_agent_is_told_declared_from_verified_for_a_provider_known_by_its_report() {
    let book = otel();
    let mut session = crate::mcp::Session::start(book.root());
    let go = pages(&mut session, "contract_provider", &json!({ "name": "go" }));
    assert!(go.len() > 1, "326 rules come in pages");
    let rules: Vec<&Value> = go
        .iter()
        .flat_map(|page| page["rules"].as_array().unwrap())
        .collect();
    assert_eq!(rules.len(), 326);
    let declared = rules.iter().filter(|r| r["status"] == "declared").count();
    assert_eq!(declared, marked("go", "+"));
    assert!(rules.iter().all(|r| r["status"] != "verified"));
    // No rule is verified: the MUST rules left are counted past the first 20, in the list and
    // in what to do next.
    assert_eq!(
        go[0]["coverage"]["must_short"].as_array().unwrap().len(),
        20
    );
    assert_eq!(go[0]["must_short_more"], 314 - 20);
    assert!(
        go[0]["next"]
            .as_str()
            .unwrap()
            .ends_with(", and 294 more (`contract_uncovered` lists them)"),
        "{}",
        go[0]["next"]
    );
    let report = &go[0]["coverage"]["report"];
    assert_eq!(report["file"], "reports/go.json", "{report:#}");
    assert_eq!(report["older_text"], json!([]), "{report:#}");
    // The rules still waiting for evidence include the declared ones: a claim is not a test.
    let uncovered = pages(
        &mut session,
        "contract_uncovered",
        &json!({ "provider": "go" }),
    );
    let waiting: Vec<&Value> = uncovered
        .iter()
        .flat_map(|page| page["providers"][0]["rules"].as_array().unwrap())
        .collect();
    assert_eq!(
        waiting.iter().filter(|r| r["status"] == "declared").count(),
        marked("go", "+")
    );
    assert_eq!(
        uncovered[0]["providers"][0]["waiting"].as_u64().unwrap() as usize,
        waiting.len()
    );
    // Every provider's, page after page: each provider is named on the pages its rules are
    // on, with its count of them on each.
    let all = pages(&mut session, "contract_uncovered", &json!({}));
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut waiting: BTreeMap<String, usize> = BTreeMap::new();
    for page in &all {
        for of in page["providers"].as_array().unwrap() {
            let name = of["provider"].as_str().unwrap().to_owned();
            *seen.entry(name.clone()).or_default() += of["rules"].as_array().unwrap().len();
            waiting.insert(name, of["waiting"].as_u64().unwrap() as usize);
        }
    }
    assert_eq!(seen.len(), 12, "{seen:?}");
    for (name, n) in &waiting {
        let name = name.as_str();
        assert_eq!(seen[name], *n, "{name}");
        assert!(seen[name] >= marked(name, "+"), "{name}");
    }
}

#[test]
fn the_agent_is_told_of_a_rule_reworded_since_a_report_and_of_a_provider_without_one() {
    let reworded = |t: &str| t.replacen("Create TracerProvider\n", "Create a TracerProvider\n", 1);
    let one_more = |t: &str| format!("{t}\n## `zig` {{.provider}}\n\nNo report yet.\n");
    let book = Fixture::copy_of(
        "otel",
        &[
            ("src/compliance.md", &reworded),
            ("src/implementations.md", &one_more),
        ],
    );
    // In the compact matrix the reworded rule's cells carry a dagger, said in their label.
    let cells = matrix_cells(&book.chapter("implementations.md"));
    let rule = "traces.tracerprovider.create-tracerprovider".to_owned();
    let java = &cells[&(rule.clone(), "java".to_owned())];
    assert_eq!(
        (java.text.as_str(), java.label.as_deref()),
        ("\u{25b3}\u{2020}", Some("declared (older text)"))
    );
    let other = &cells[&(
        "traces.tracerprovider.get-a-tracer".to_owned(),
        "java".to_owned(),
    )];
    assert_eq!(other.label.as_deref(), Some("declared"), "{other:?}");
    let mut session = crate::mcp::Session::start(book.root());
    let result = session.call("contract_provider", json!({ "name": "java" }));
    let java = &result["structuredContent"];
    assert_eq!(
        java["coverage"]["report"]["older_text"],
        json!(["traces.tracerprovider.create-tracerprovider"]),
        "{java:#}"
    );
    assert_eq!(
        java["next"],
        "run `java`'s CI again: its report `reports/java.json` checked an older text of 1 rule"
    );
    let summary = result["content"][1]["text"].as_str().unwrap();
    assert!(
        summary.contains("from its report `reports/java.json` of https://github.com/open-telemetry/opentelemetry-specification at 1377f53b2bc0683c45169b8f20fd973eb4d59419; made against an older text of r[traces.tracerprovider.create-tracerprovider]: run its CI again"),
        "{summary}"
    );
    let zig = session.answer("contract_provider", json!({ "name": "zig" }));
    assert_eq!(zig["coverage"]["no_report"], 326, "{zig:#}");
    assert!(zig["coverage"].get("report").is_none(), "{zig:#}");
    assert!(
        zig["next"]
            .as_str()
            .unwrap()
            .starts_with("download `zig`'s report"),
        "{zig:#}"
    );
    let rules = zig["rules"].as_array().unwrap();
    assert!(rules.iter().all(|r| r["status"] == "no-report"), "{zig:#}");
}
