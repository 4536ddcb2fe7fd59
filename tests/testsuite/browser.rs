//! What readers see, in a real browser: this repository's book with a fourth provider added,
//! built by mdBook with its default theme, opened in headless Chromium at a 1280 px window. The
//! profile matrix must fit its column without horizontal scrolling, and an `unknown` cell must
//! look different from a known one.
//!
//! These tests need Chromium (Debian's `chromium` package), so they are ignored by a plain
//! `cargo test`; `.ci/run` installs Chromium and runs them with `cargo test -- --ignored`.
//! `CHROMIUM` names the browser binary when it is not `chromium` on the `PATH`;
//! `MDBOOK_CONTRACT_SCREENSHOT=PREFIX` also saves a screenshot of each page measured, as
//! `PREFIX-PAGE.png`.

use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;

/// The browser to run.
pub(super) fn chromium() -> PathBuf {
    let configured = std::env::var_os("CHROMIUM").map(PathBuf::from);
    configured.unwrap_or_else(|| PathBuf::from("chromium"))
}

/// Chromium's options for a headless run in a sandbox with no network: its background
/// connections would only be refused, many at a time.
pub(super) fn headless(profile: &Path) -> Command {
    let mut command = Command::new(chromium());
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ]);
    command.arg(format!("--user-data-dir={}", profile.display()));
    command
}

/// The longest profile name of every axis of the contract, in order.
fn longest_profiles(contract: &str) -> Vec<(String, String)> {
    let axis = Regex::new(r"^#+ `([a-z0-9-]+)` \{\.axis\}").unwrap();
    let row = Regex::new(r"^\| `([a-z0-9-]+)` \|").unwrap();
    let mut out: Vec<(String, String)> = Vec::new();
    for line in contract.lines() {
        if let Some(caps) = axis.captures(line) {
            out.push((caps[1].to_owned(), String::new()));
        } else if let (Some(caps), Some((_, longest))) = (row.captures(line), out.last_mut())
            && caps[1].len() > longest.len()
        {
            *longest = caps[1].to_owned();
        }
    }
    out
}

/// This repository's book in a temporary folder (its stylesheet included), its fourth provider
/// (proposed) claiming the longest profile of every axis, built with the preprocessor
/// in-process. The fourth provider is the book's Proxmox spec, answered here, or (should the
/// book carry no spec) a proposed section added to the appendix.
fn built_with_four_providers() -> (tempfile::TempDir, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = super::common::repository_copy();
    let contract = std::fs::read_to_string(root.join("book/provider-contract.md")).unwrap();
    let profiles = longest_profiles(&contract);
    assert!(profiles.len() >= 19, "the contract's axes: {profiles:?}");
    let spec = dir.path().join("book/proxmox-provider-spec.md");
    if spec.exists() {
        // Each axis answered in the entry that asks it.
        let mut text = std::fs::read_to_string(&spec).unwrap();
        for (axis, profile) in &profiles {
            let asked = text
                .find(&format!("{{{{#answers {axis}}}}}"))
                .unwrap_or_else(|| panic!("the spec asks `{axis}`"));
            let answer = asked + text[asked..].find("**Answer:**").expect("an answer line");
            let at = answer + "**Answer:**".len();
            text.insert_str(at, &format!(" {{{{#profile {axis} {profile}}}}}"));
        }
        std::fs::write(&spec, text).unwrap();
    } else {
        let mut section = String::from(
            "\n## `proxmox` {.provider .proposed}\n\nA fourth provider, for width.\n\n",
        );
        for (axis, profile) in &profiles {
            section.push_str(&format!("{{{{#profile {axis} {profile}}}}}\n"));
        }
        let appendix = dir.path().join("book/providers-existing.md");
        let mut text = std::fs::read_to_string(&appendix).unwrap();
        text.push_str(&section);
        std::fs::write(&appendix, text).unwrap();
    }
    let out = build(dir.path());
    (dir, out)
}

/// Builds the book at `root` with the preprocessor in-process; the output folder.
fn build(root: &Path) -> PathBuf {
    let out = root.join("out");
    super::common::build_into(root, &out);
    out
}

/// What the script measures, as `key=value` pairs written into the page's title.
const MEASURE: &str = r#"
<script>
window.addEventListener('load', () => {
  // Codes of the generated tables that the browser broke across lines.
  const broken = [...document.querySelectorAll('.contract-matrix code, .contract-table code')]
    .filter(c => c.getClientRects().length > 1).map(c => c.textContent);
  const codes = document.querySelectorAll('.contract-matrix code, .contract-table code').length;
  // The widest generated block, the text column and the page area beside the sidebar.
  const block = Math.max(...[...document.querySelectorAll('.contract-matrix, .contract-table')]
    .map(b => Math.ceil(b.getBoundingClientRect().width)));
  const widths = ['block=' + block, 'main=' + document.querySelector('main').clientWidth,
    'page=' + document.querySelector('.content').clientWidth];
  const table = document.querySelector('.contract-matrix table');
  if (!table) {
    document.title = ['codes=' + codes, 'broken=' + broken.join(','), ...widths].join(';');
    return;
  }
  const wrapper = table.closest('.table-wrapper') || table.parentElement;
  const main = document.querySelector('main');
  const known = table.querySelector('tbody a code');
  const unknown = [...table.querySelectorAll('tbody em')].find(e => e.textContent === 'unknown');
  const style = e => { if (!e) return 'none'; const s = getComputedStyle(e); return [s.color, s.fontStyle, s.fontFamily].join('/'); };
  document.title = [
    'table=' + Math.ceil(table.getBoundingClientRect().width),
    'scroll=' + wrapper.scrollWidth,
    'client=' + wrapper.clientWidth,
    'columns=' + table.rows[0].cells.length,
    'known=' + style(known),
    'unknown=' + style(unknown),
    'codes=' + codes,
    'broken=' + broken.join(','),
    ...widths,
  ].join(';');
});
</script>
"#;

/// The measurements of the generated tables in `page` of the built book at `out` (of the
/// matrix, when the page has one).
fn measure(out: &Path, page: &str) -> std::collections::HashMap<String, String> {
    measure_with(out, page, MEASURE)
}

/// [`measure`] with another script.
fn measure_with(out: &Path, page: &str, script: &str) -> std::collections::HashMap<String, String> {
    let html = std::fs::read_to_string(out.join(page)).unwrap();
    let measured = out.join("measured.html");
    std::fs::write(
        &measured,
        html.replace("</body>", &format!("{script}</body>")),
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let output = headless(profile.path())
        .args([
            "--window-size=1280,900",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!("file://{}", measured.display()))
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "{} does not run ({e}); install Debian's `chromium` or set CHROMIUM",
                chromium().display()
            )
        });
    let dom = String::from_utf8_lossy(&output.stdout);
    let title = Regex::new(r"<title>([^<]*)</title>").unwrap();
    let text = title
        .captures(&dom)
        .map(|c| c[1].replace("&amp;", "&"))
        .unwrap_or_default();
    let values: std::collections::HashMap<String, String> = text
        .split(';')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    assert!(
        values.contains_key("codes"),
        "the page was not measured; Chromium said: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    if let Some(file) = std::env::var_os("MDBOOK_CONTRACT_SCREENSHOT") {
        let profile = tempfile::tempdir().unwrap();
        let status = headless(profile.path())
            .args(["--window-size=1280,1600", "--virtual-time-budget=5000"])
            .arg(format!(
                "--screenshot={}-{}.png",
                Path::new(&file).display(),
                page.trim_end_matches(".html")
            ))
            .arg(format!("file://{}", out.join(page).display()))
            .output()
            .unwrap()
            .status;
        assert!(status.success(), "the screenshot was not taken");
    }
    values
}

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn four_providers_fit_the_page_and_unknown_looks_different() {
    let (_dir, out) = built_with_four_providers();
    let m = measure(&out, "providers-existing.html");
    let number = |k: &str| m[k].parse::<u32>().unwrap();
    // Shown with `--nocapture`, for the record of how wide the matrix came out.
    #[allow(clippy::print_stderr)]
    {
        eprintln!("matrix measured at 1280 px: {m:?}");
    }
    assert_eq!(
        number("columns"),
        5,
        "an axis column and four providers: {m:?}"
    );
    assert!(
        number("scroll") <= number("client"),
        "the matrix scrolls sideways: {m:?}"
    );
    assert!(
        number("table") <= number("block") && number("block") <= number("page"),
        "the matrix is wider than its block, or the block than the page: {m:?}"
    );
    assert_ne!(
        m["known"], m["unknown"],
        "an unknown cell looks like a known one"
    );
}

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn the_rule_matrix_fits_the_page_with_four_built_providers() {
    // This repository's book with a fourth built provider claiming the longest profile of
    // every axis (so it is bound by the most rules).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = super::common::repository_copy();
    let contract = std::fs::read_to_string(root.join("book/provider-contract.md")).unwrap();
    let mut section =
        String::from("\n## `vsphere` {.provider}\n\nA fourth built provider, for width.\n\n");
    for (axis, profile) in longest_profiles(&contract) {
        section.push_str(&format!(
            "{{{{#profile {axis} {profile} internal/provider/vsphere/vsphere.go}}}}\n"
        ));
    }
    let appendix = dir.path().join("book/providers-existing.md");
    let mut text = std::fs::read_to_string(&appendix).unwrap();
    text.push_str(&section);
    std::fs::write(&appendix, text).unwrap();
    let out = build(dir.path());
    let script = MEASURE.replace(".contract-matrix table", ".contract-rules table");
    let m = measure_with(&out, "providers-existing.html", &script);
    #[allow(clippy::print_stderr)]
    {
        eprintln!("rule matrix measured at 1280 px: {m:?}");
    }
    let number = |k: &str| m[k].parse::<u32>().unwrap();
    assert_eq!(
        number("columns"),
        6,
        "rule, level and four providers: {m:?}"
    );
    assert!(
        number("scroll") <= number("client"),
        "the rule matrix scrolls sideways: {m:?}"
    );
    assert!(number("table") <= number("page"), "{m:?}");
    assert_eq!(m["broken"], "", "codes broken across lines: {m:?}");
}

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn codes_in_the_generated_tables_never_break_inside() {
    let (_dir, out) = built_with_four_providers();
    for page in ["providers-existing.html", "provider-contract.html"] {
        let m = measure(&out, page);
        assert!(m["codes"].parse::<u32>().unwrap() > 20, "{page}: {m:?}");
        assert_eq!(m["broken"], "", "{page}: codes broken across lines: {m:?}");
        // At 1280 px the tables use the room beside the 750 px text column, within the page.
        let number = |k: &str| m[k].parse::<u32>().unwrap();
        assert!(
            number("block") > number("main") + 100 && number("block") <= number("page"),
            "{page}: {m:?}"
        );
    }
}

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn the_storage_books_tables_read_at_a_glance() {
    // Another team's book, set up as a newcomer does: `install`, then `new-spec`, by the binary.
    let book = super::newcomer::storage_book(str::to_owned);
    std::fs::write(
        book.root().join("src/SUMMARY.md"),
        "# Summary\n\n- [Contract](contract.md)\n- [Backend spec template](backend-spec-template.md)\n- [Backends](backends.md)\n",
    )
    .unwrap();
    for args in [&["install"][..], &["new-spec", "gcs"]] {
        let (code, out, err) = super::common::run_in(book.root(), args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
    }
    let mut md = mdbook_driver::MDBook::load(book.root()).expect("the book loads");
    md.with_preprocessor(mdbook_contract::ContractPreprocessor::new());
    let out = book.root().join("out");
    md.config.build.build_dir = out.clone();
    md.build().expect("the book builds");
    let backends = std::fs::read_to_string(out.join("backends.html")).unwrap();
    // Built backends count their known claims; the spec counts what it answers.
    assert!(backends.contains("<td>3 of 3</td>"), "{backends}");
    assert!(backends.contains("<td>0 of 3 answered</td>"), "{backends}");
    for page in ["backends.html", "contract.html"] {
        let m = measure(&out, page);
        assert!(m["codes"].parse::<u32>().unwrap() >= 9, "{page}: {m:?}");
        assert_eq!(m["broken"], "", "{page}: codes broken across lines: {m:?}");
    }
}

#[test]
#[ignore = "needs Chromium: run by .ci/run, or with `cargo test -- --ignored`"]
fn a_failed_obligation_is_seen_at_a_glance() {
    // The broker book with its test results, set up as a newcomer does (`install` writes the
    // stylesheet), built by mdBook's code.
    let book = super::broker::broker(&[("book.toml", &|t: &str| {
        // A published contract shows its failing obligations: they are warnings for the build.
        t.to_owned()
            + "test-results = [\"results/conformance.xml\", \"results/adapters.json\"]\n\n[preprocessor.contract.checks]\nfailing-rule = \"warning\"\n"
    })]);
    let (code, out, err) = super::common::run_in(book.root(), &["install"]);
    assert_eq!(code, 0, "{out}{err}");
    let out = build(book.root());
    let script = r#"
<script>
window.addEventListener('load', () => {
  const table = document.querySelector('.contract-rules table');
  const failed = [...table.querySelectorAll('.contract-failed')];
  const passed = [...table.querySelectorAll('td')].find(td => td.textContent.startsWith('\u2713 passed'));
  const style = e => { if (!e) return 'none'; const s = getComputedStyle(e); return [s.color, s.fontWeight].join('/'); };
  const wrapper = table.closest('.table-wrapper') || table.parentElement;
  document.title = [
    'codes=' + table.querySelectorAll('code').length,
    'failed=' + failed.length,
    'text=' + failed.map(f => f.textContent).join(','),
    'failedstyle=' + style(failed[0]),
    'passedstyle=' + style(passed),
    'scroll=' + wrapper.scrollWidth,
    'client=' + wrapper.clientWidth,
  ].join(';');
});
</script>
"#;
    let m = measure_with(&out, "adapters.html", script);
    #[allow(clippy::print_stderr)]
    {
        eprintln!("rule matrix with results measured at 1280 px: {m:?}");
    }
    assert_eq!(m["failed"], "2", "{m:?}");
    // Without colour, the cross and the word say it.
    assert_eq!(m["text"], "\u{2717} failed,\u{2717} failed", "{m:?}");
    let (color, weight) = m["failedstyle"].split_once('/').unwrap();
    assert!(weight.parse::<u32>().unwrap() >= 700, "{m:?}");
    assert_ne!(m["failedstyle"], m["passedstyle"], "{m:?}");
    assert!(color.starts_with("rgb(198, 40, 40)"), "{m:?}");
    let number = |k: &str| m[k].parse::<u32>().unwrap();
    assert!(
        number("scroll") <= number("client"),
        "the matrix scrolls sideways: {m:?}"
    );
}
