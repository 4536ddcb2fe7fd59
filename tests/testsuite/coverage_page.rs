//! The coverage page as its readers see it, in headless Chromium: the rule matrix of a book
//! with test results (three providers from real `go test` reports, six from a generated one)
//! fits the page at 1280 px, scrolls only in its own box on a phone, leads with a summary whose
//! numbers are `status`'s, finds and filters (the state in the fragment), shows every row with
//! scripts off, labels every control, and passes axe-core's WCAG 2 A/AA rules in a light and a
//! dark theme. The in-page checks are `tests/browser/*.js`: each writes `key=value;...` into the
//! page's title, which `--dump-dom` gives back.
//!
//! Ignored by a plain `cargo test` (they need Chromium); `.ci/run` runs them. axe-core comes
//! from the npm registry into `target/ci-tools` (`.ci/run` installs it), or from `AXE_CORE`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use regex::Regex;
use serde_json::Value;

use crate::common::{Fixture, run_in};

// `generated` writes a book and builds it; `measure` runs Chromium.

/// A check run in a page, as a reader opens it.
struct Run<'r> {
    page: &'r Path,
    check: &'r str,
    width: u32,
    /// The window's height (900 px unless a test says).
    height: u32,
    fragment: &'r str,
    /// Script before the check (its inputs: `const QUERY = ...`).
    prelude: &'r str,
    scripts: bool,
    axe: bool,
}

impl Default for Run<'_> {
    fn default() -> Self {
        Run {
            page: Path::new(""),
            check: "",
            width: 1280,
            height: 900,
            fragment: "",
            prelude: "",
            scripts: true,
            axe: false,
        }
    }
}

const ERRORS: &str = "<script>\naddEventListener('error', (e) => { document.title = 'error=' + e.message + ' at ' + e.lineno; });\n</script>\n";
/// Scripts off: `--blink-settings=scriptEnabled=false` leaves `--dump-dom` empty in Chromium
/// 156, so a Content-Security-Policy blocks every script but the check's.
const NO_SCRIPTS: &str =
    "<meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'nonce-measure'\">";
/// A phone's width is an iframe's (headless Chromium's window is at least 500 px wide), whose
/// page posts its title to the wrapper.
const RELAY: &str = "<script>\nnew MutationObserver(() => parent.postMessage(document.title, '*')).observe(document.querySelector('title'), { childList: true, characterData: true, subtree: true });\n</script>\n";

fn axe_core() -> PathBuf {
    std::env::var_os("AXE_CORE").map_or_else(
        || {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("target/ci-tools/node_modules/axe-core/axe.min.js")
        },
        PathBuf::from,
    )
}

/// What `run`'s check wrote into the page's title.
fn measure(run: &Run<'_>) -> HashMap<String, String> {
    let checks = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let source = std::fs::read_to_string(run.page).unwrap();
    let script = std::fs::read_to_string(checks.join(format!("{}.js", run.check))).unwrap();
    let mut inject = ERRORS.to_owned();
    if run.axe {
        let axe = std::fs::read_to_string(axe_core())
            .unwrap_or_else(|e| panic!("axe-core at {}: {e}", axe_core().display()));
        inject.push_str(&format!("<script>{axe}</script>\n"));
    }
    inject.push_str(&format!("<script>\n{}{script}\n</script>\n", run.prelude));
    let mut source = source;
    if !run.scripts {
        inject = inject.replace("<script>", "<script nonce=\"measure\">");
        source = source.replacen("<head>", &format!("<head>\n{NO_SCRIPTS}"), 1);
    }
    let folder = run.page.parent().unwrap();
    let name = format!("measured-{}.html", run.check);
    let mut url = format!("file://{}/{name}{}", folder.display(), run.fragment);
    let mut window = (run.width, run.height);
    if run.width < 500 {
        inject.push_str(RELAY);
        let wrapper = format!(
            "<!DOCTYPE html><html><head><title></title><style>body {{ margin: 0 }} iframe {{ border: 0 }}</style></head><body><iframe src=\"{name}{}\" width=\"{}\" height=\"900\"></iframe><script>addEventListener('message', (e) => {{ document.title = e.data; }});</script></body></html>",
            run.fragment, run.width
        );
        std::fs::write(folder.join("phone.html"), wrapper).unwrap();
        url = format!("file://{}/phone.html", folder.display());
        window = (800, 920);
    }
    std::fs::write(
        folder.join(&name),
        source.replace("</body>", &format!("{inject}</body>")),
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let output = super::browser::headless(profile.path())
        .arg(format!("--window-size={},{}", window.0, window.1))
        .args(["--virtual-time-budget=8000", "--dump-dom"])
        .arg(&url)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "{} does not run ({e})",
                super::browser::chromium().display()
            )
        });
    let dom = String::from_utf8_lossy(&output.stdout);
    let title = Regex::new(r"<title>([^<]*)</title>").unwrap();
    let text = title
        .captures(&dom)
        .map(|c| {
            c[1].replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
        })
        .unwrap_or_default();
    let values: HashMap<String, String> = text
        .split(';')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    assert!(
        !values.is_empty() && !values.contains_key("error"),
        "{}: not measured ({text}); Chromium said: {}",
        run.check,
        String::from_utf8_lossy(&output.stderr)
    );
    values
}

/// The storage book of the Go runner (three providers, real reports), set up by `install`
/// and built; its folder, and the built page of its matrix.
fn three_providers() -> (Fixture, PathBuf) {
    let book = super::runners::storage("go", "providers", "azure-blob", &["gotestsum-junit.xml"]);
    // A failing obligation is shown in the published matrix, not a failed build (as the
    // README's Pages workflow sets it).
    let toml = book.root().join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace(
            "must-cite = \"off\"\n",
            "must-cite = \"off\"\nfailing-rule = \"warning\"\n",
        ),
    )
    .unwrap();
    built(book, "providers.html")
}

/// `book` set up by `install` (the stylesheet and the script) and built with mdbook-driver;
/// with its built `page`.
fn built(book: Fixture, page: &str) -> (Fixture, PathBuf) {
    let (code, out, err) = run_in(book.root(), &["install"]);
    assert_eq!(code, 0, "{out}{err}");
    let dir = book.root().join("out");
    crate::common::build_into(book.root(), &dir);
    let page = dir.join(page);
    (book, page)
}

/// A contract of 24 rules in four sections and six built providers (one with a long name),
/// each rule's conformance test run with a subtest per provider: every third case failed,
/// every fifth skipped, one provider's cases of one test not run.
fn six_providers() -> (Fixture, PathBuf) {
    generated(&["Put", "Get", "Delete", "Listing"], 6)
}

const PROVIDERS: [&str; 6] = ["s3", "gcs", "azure-blob-storage", "minio", "r2", "b2"];

/// The generated book of [`six_providers`]: `per` rules in each of `sections`.
pub(crate) fn generated(sections: &[&str], per: usize) -> (Fixture, PathBuf) {
    let mut contract = String::from("# Storage contract\n");
    let mut tests = String::from("package conformance\n\nimport \"testing\"\n");
    let mut cases = String::new();
    let mut n = 0;
    for section in sections {
        contract.push_str(&format!("\n## {section}\n"));
        for i in 0..per {
            let word: String = section.split_whitespace().collect();
            let id = format!("{}.rule-number-{i}", word.to_lowercase());
            contract.push_str(&format!(
                "\nr[{id}]\nA provider MUST keep rule {i} of {section}.\n"
            ));
            let function = format!("Test{word}Rule{i}");
            tests.push_str(&format!(
                "\n// r[verify {id}]\nfunc {function}(t *testing.T) {{}}\n"
            ));
            for (p, provider) in PROVIDERS.iter().enumerate() {
                n += 1;
                if i == per - 1 && p == 1 {
                    continue;
                }
                let body = if n % 3 == 0 {
                    format!("<failure message=\"{provider}: lost a write\"></failure>")
                } else if n % 5 == 0 {
                    "<skipped message=\"no emulator\"></skipped>".to_owned()
                } else {
                    String::new()
                };
                cases.push_str(&format!(
                    "<testcase classname=\"example.com/store/conformance\" name=\"{function}/{provider}\">{body}</testcase>\n"
                ));
            }
        }
    }
    let mut providers = String::from("# Providers\n\n{{#rule-matrix}}\n");
    for provider in PROVIDERS {
        providers.push_str(&format!("\n## `{provider}` {{.provider}}\n\nBuilt.\n"));
    }
    let toml = "[book]\ntitle = \"Storage\"\n\n[preprocessor.contract]\nafter = [\"links\"]\ncontract = [\"contract.md\"]\nsource-root = \"code\"\ntest-results = [\"results/junit.xml\"]\n\n[preprocessor.contract.checks]\nmust-cite = \"off\"\nfailing-rule = \"warning\"\n";
    let report = format!(
        "<testsuites><testsuite name=\"example.com/store/conformance\" timestamp=\"2026-12-06T10:00:00Z\">\n{cases}</testsuite></testsuites>\n"
    );
    let book = Fixture::new(&[
        ("book.toml", toml),
        ("src/contract.md", &contract),
        ("src/providers.md", &providers),
        ("code/go.mod", "module example.com/store\n\ngo 1.22\n"),
        ("code/conformance/conformance_test.go", &tests),
        ("results/junit.xml", &report),
    ]);
    built(book, "providers.html")
}

fn wide(m: &HashMap<String, String>, key: &str) -> [u32; 4] {
    let parts: Vec<u32> = m[key].split('/').map(|n| n.parse().unwrap()).collect();
    [parts[0], parts[1], parts[2], parts[3]]
}

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn the_matrix_fits_at_1280_px_with_three_and_six_providers_and_scrolls_only_in_its_box_on_a_phone()
{
    for (book, page) in [three_providers(), six_providers()] {
        let m = measure(&Run {
            page: &page,
            check: "fit",
            ..Run::default()
        });
        let [table, client, scroll, _] = wide(&m, "m0");
        assert_eq!(m["sidebar"], "true", "{m:?}");
        assert!(
            m["page"].parse::<u32>().unwrap() <= m["inner"].parse::<u32>().unwrap(),
            "the page scrolls sideways: {m:?}"
        );
        assert!(
            table <= client && scroll <= client,
            "wider than its box: {m:?}"
        );
        assert_eq!(
            m["badbreaks"], "",
            "a rule ID broken inside a segment: {m:?}"
        );
        // On a phone the page never scrolls sideways; the box may.
        let m = measure(&Run {
            page: &page,
            check: "fit",
            width: 390,
            ..Run::default()
        });
        assert!(
            m["page"].parse::<u32>().unwrap() <= 390,
            "the page scrolls sideways on a phone: {m:?}"
        );
        assert_eq!(
            m["sticky0"], "true",
            "the header and the rule column stay: {m:?}"
        );
        drop(book);
    }
}

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn the_summary_says_what_status_says_and_what_the_cells_count() {
    for (book, page) in [three_providers(), six_providers()] {
        let m = measure(&Run {
            page: &page,
            check: "summary",
            ..Run::default()
        });
        assert_eq!(m["bad"], "", "{m:?}");
        assert!(m["checked"].parse::<u32>().unwrap() >= 21, "{m:?}");
        // The bar's numbers are `status`'s.
        let (_, status, _) = run_in(book.root(), &["status", "--format", "json"]);
        let status: Value = serde_json::from_str(&status).unwrap();
        let html = std::fs::read_to_string(&page).unwrap();
        for provider in status["providers"].as_array().unwrap() {
            let name = provider["provider"].as_str().unwrap();
            let bound = provider["bound"].as_u64().unwrap();
            let passed = provider["verified"].as_u64().unwrap();
            let failed = provider["failed"].as_u64().unwrap();
            let row = Regex::new(&format!(
                r#"data-provider="{}"><span class="contract-summary-name">[^<]*</span><span class="contract-bar" role="img" aria-label="([^"]*)""#,
                regex::escape(name)
            ))
            .unwrap();
            let label = row.captures(&html).map(|c| c[1].to_owned()).unwrap();
            assert!(
                label.ends_with(&format!("of {bound} rules that bind it")),
                "{label}"
            );
            let said = |n: u64, word: &str| n == 0 || label.contains(&format!("{n} {word}"));
            assert!(
                said(passed, "passed") && said(failed, "failed"),
                "{name}: {label} against {provider}"
            );
        }
    }
}

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn finding_failed_leaves_the_failed_rows_and_a_fragment_link_restores_a_filter() {
    let (_book, page) = six_providers();
    let m = measure(&Run {
        page: &page,
        check: "type",
        prelude: "const QUERY = 'failed'; const EXPECT = 'td[data-status=\"failed\"]';\n",
        ..Run::default()
    });
    assert_eq!(m["same"], "true", "{m:?}");
    assert_eq!(m["hash"], "#contract:q=failed", "{m:?}");
    assert_eq!(
        m["live"],
        format!("{} of {} rules", m["shown"], m["total"]),
        "{m:?}"
    );
    assert!(m["shown"].parse::<u32>().unwrap() > 0, "{m:?}");
    let m = measure(&Run {
        page: &page,
        check: "restore",
        fragment: "#contract:status=failed&provider=gcs",
        prelude: "const EXPECT = 'td[data-provider=\"gcs\"][data-status=\"failed\"]';\n",
        ..Run::default()
    });
    assert_eq!(m["same"], "true", "{m:?}");
    assert_eq!(
        (m["provider"].as_str(), m["status"].as_str()),
        ("gcs", "failed"),
        "{m:?}"
    );
}

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn without_scripts_every_row_shows_and_every_control_has_a_label() {
    let (_book, page) = three_providers();
    let m = measure(&Run {
        page: &page,
        check: "nojs",
        fragment: "#contract:q=failed",
        scripts: false,
        ..Run::default()
    });
    assert_eq!(
        (m["js"].as_str(), m["api"].as_str()),
        ("false", "undefined"),
        "{m:?}"
    );
    assert_eq!(m["shown"], m["rows"], "{m:?}");
    assert_eq!(
        (m["hidden"].as_str(), m["controls"].as_str()),
        ("0", "0"),
        "{m:?}"
    );
    let m = measure(&Run {
        page: &page,
        check: "labels",
        ..Run::default()
    });
    assert!(m["controls"].parse::<u32>().unwrap() >= 4, "{m:?}");
    assert_eq!(
        (m["unlabelled"].as_str(), m["unnamed"].as_str()),
        ("", "0"),
        "{m:?}"
    );
    assert_eq!(m["status"], "1", "one live region: {m:?}");
}

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn axe_finds_no_serious_or_critical_violation_in_the_matrix_in_a_light_and_a_dark_theme() {
    let (_book, page) = three_providers();
    for theme in ["light", "coal"] {
        let prelude = format!("const THEME = '{theme}';\n");
        let m = measure(&Run {
            page: &page,
            check: "axe",
            prelude: &prelude,
            axe: true,
            ..Run::default()
        });
        assert!(m["passes"].parse::<u32>().unwrap() > 10, "{m:?}");
        let serious: Vec<&str> = m["matrix"]
            .split(',')
            .filter(|v| v.contains(":serious:") || v.contains(":critical:"))
            .collect();
        assert!(serious.is_empty(), "{theme}: {m:?}");
    }
}

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn twelve_providers_fit_1280_px_beside_the_sidebar_and_scroll_only_in_their_box_on_a_phone() {
    // OpenTelemetry's compliance matrix: 326 rules, twelve providers known by their reports.
    let (_book, page) = built(crate::provider_reports_otel::otel(), "implementations.html");
    let m = measure(&Run {
        page: &page,
        check: "fit",
        height: 800,
        ..Run::default()
    });
    #[allow(clippy::print_stderr)]
    {
        eprintln!("twelve providers measured at 1280x800: {m:?}");
    }
    let [table, client, scroll, _] = wide(&m, "m0");
    assert_eq!(m["sidebar"], "true", "{m:?}");
    assert!(
        m["page"].parse::<u32>().unwrap() <= m["client"].parse::<u32>().unwrap(),
        "the page scrolls sideways: {m:?}"
    );
    assert!(
        table <= client && scroll <= client,
        "the table scrolls sideways in its box: {m:?}"
    );
    let m = measure(&Run {
        page: &page,
        check: "fit",
        width: 390,
        ..Run::default()
    });
    assert!(
        m["page"].parse::<u32>().unwrap() <= 390,
        "the page scrolls sideways on a phone: {m:?}"
    );
    assert_eq!(m["scrolls0"], "xy", "the box scrolls on a phone: {m:?}");
    assert_eq!(m["sticky0"], "true", "{m:?}");
    for theme in ["light", "coal"] {
        let m = measure(&Run {
            page: &page,
            check: "axe",
            prelude: &format!("const THEME = '{theme}';\n"),
            axe: true,
            ..Run::default()
        });
        let serious: Vec<&str> = m["matrix"]
            .split(',')
            .filter(|v| v.contains(":serious:") || v.contains(":critical:"))
            .collect();
        assert!(serious.is_empty(), "{theme}: {m:?}");
    }
    if let Some(file) = std::env::var_os("MDBOOK_CONTRACT_SCREENSHOT") {
        let profile = tempfile::tempdir().unwrap();
        let status = super::browser::headless(profile.path())
            .args(["--window-size=1280,800", "--virtual-time-budget=5000"])
            .arg(format!("--screenshot={}", Path::new(&file).display()))
            .arg(format!("file://{}", page.display()))
            .output()
            .unwrap()
            .status;
        assert!(status.success(), "the screenshot was not taken");
    }
}

/// A spec of the size real ones have (300 rules, six providers with results): its page is
/// far under 1.5 MB of HTML. Needs no browser: the size of what mdBook wrote.
#[test]
fn the_page_of_300_rules_and_six_providers_is_small() {
    let sections: Vec<String> = (0..25).map(|i| format!("Section {i}")).collect();
    let names: Vec<&str> = sections.iter().map(String::as_str).collect();
    let (_book, page) = generated(&names, 12);
    let bytes = std::fs::metadata(&page).unwrap().len();
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<tr data-rule=").count(), 300);
    assert!(bytes < 1_500_000, "{bytes} bytes");
}
