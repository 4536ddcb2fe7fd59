//! The implementer's brief: what it holds, that every link in it resolves inside it (parsed
//! with pulldown-cmark, ids as mdBook gives them: explicit `{#id}` verbatim), that no shortcode
//! is left outside code, and that it is refused for a book with errors. Also on a copy of this
//! repository's book, its Proxmox spec filled in here.

use std::collections::BTreeSet;

use mdbook_contract::fuzzing::pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::common::run_in as run;
use crate::common::*;

const TOML: &str = r#"[book]
title = "Briefs"

[preprocessor.contract]
after = ["links"]
contract = ["contract.md"]
template = ["template.md"]
specs = ["*-provider-spec.md"]
"#;

const TEMPLATE: &str = "# Template

Copy it.

## Entries

### Readiness

{{#answers readiness}}

**Answer:**

**Evidence:**

### Create

{{#answers create-return}}

**Answer:**

**Evidence:**
";

/// Two built providers: `pods` (ready at once, submits) and `metal` (provisions, submits, with
/// known gaps); `vms` is proposed.
fn appendix() -> String {
    format!(
        "{APPENDIX}
## `metal` {{.provider}}

### Boot

Metal boots for minutes: {{{{#profile readiness provisioning-window internal/provider/metal Get}}}}.
Create submits: {{{{#profile create-return submit internal/provider/metal Create}}}}.

### Known gaps

- The boot is not bounded, see [the contract](../contract.md#readiness).
"
    )
}

/// `rack` chose `immediate` (as `pods` did) and `blocking` (as no one did).
const SPEC: &str = "# `rack` provider spec {.provider .proposed}

**Status:** accepted

{{#spec-status}}

## Entries

### Readiness

{{#answers readiness}}

**Answer:** At once: {{#profile readiness immediate}}. See the [template](template.md) and
[the appendix](appendix/existing.md#metal).

**Evidence:** The vendor's documentation.

### Create

{{#answers create-return}}

**Answer:** {{#profile create-return blocking}}

**Evidence:** An experiment.
";

fn book(spec: &str, toml: &str) -> Fixture {
    Fixture::new(&[
        ("book.toml", toml),
        ("src/contract.md", CONTRACT),
        ("src/template.md", TEMPLATE),
        (
            "src/appendix/existing.md",
            Box::leak(appendix().into_boxed_str()),
        ),
        (
            "src/rack-provider-spec.md",
            Box::leak(spec.to_owned().into_boxed_str()),
        ),
    ])
}

fn brief_of(fixture: &Fixture) -> mdbook_contract::Brief {
    let (ctx, book) = mdbook_contract::load(fixture.root(), "html").unwrap();
    mdbook_contract::brief(&ctx, &book, "rack").unwrap_or_else(|e| panic!("{e}"))
}

/// The brief parsed as mdBook parses it: its heading ids, its link destinations, and its text
/// outside code.
struct Parsed {
    ids: BTreeSet<String>,
    links: Vec<String>,
    text: String,
}

fn parse(markdown: &str) -> Parsed {
    let mut options = Options::all();
    options.remove(Options::ENABLE_SMART_PUNCTUATION);
    let mut parsed = Parsed {
        ids: BTreeSet::new(),
        links: Vec::new(),
        text: String::new(),
    };
    let mut in_heading = false;
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(Tag::Heading { id, .. }) => {
                in_heading = true;
                let id = id
                    .expect("every heading of the brief has its id written")
                    .to_string();
                assert!(parsed.ids.insert(id.clone()), "the id `{id}` twice");
            }
            Event::End(TagEnd::Heading(_)) => in_heading = false,
            Event::Start(Tag::Link { dest_url, .. }) => parsed.links.push(dest_url.to_string()),
            Event::Start(Tag::Image { dest_url, .. }) => parsed.links.push(dest_url.to_string()),
            Event::Text(text) => {
                parsed.text.push_str(&text);
                parsed.text.push('\n');
            }
            _ => {}
        }
    }
    let _ = in_heading;
    parsed
}

/// Every link of `parsed` leads to one of its headings or to an absolute address.
fn assert_links_resolve(parsed: &Parsed) -> usize {
    for link in &parsed.links {
        if let Some(id) = link.strip_prefix('#') {
            let id = percent_decode(id);
            assert!(
                parsed.ids.contains(&id),
                "`{link}` leads to no heading of the brief"
            );
        } else {
            assert!(
                link.starts_with("https://")
                    || link.starts_with("http://")
                    || link.starts_with("mailto:"),
                "`{link}` leads out of the brief to a file the reader does not have"
            );
        }
    }
    parsed.links.len()
}

fn percent_decode(text: &str) -> String {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(byte) = text
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn the_brief_holds_the_spec_the_profiles_the_examples_and_the_contract() {
    let fixture = book(SPEC, TOML);
    let brief = brief_of(&fixture);
    let md = &brief.markdown;
    let parsed = parse(md);
    // The parts.
    for id in [
        "brief",
        "profiles",
        "profile-readiness",
        "profile-create-return",
        "spec-rack-provider-spec",
        "spec-readiness",
        "examples",
        "examples-of-pods",
        "contract-contract",
        "contract-readiness",
        "contract-create-return",
    ] {
        assert!(
            parsed.ids.contains(id),
            "no heading `{id}`: {:?}",
            parsed.ids
        );
    }
    // `readiness`: `immediate`, as `pods` chose, with what it obliges and who tolerates it.
    let readiness =
        &md[md.find("### `readiness`").unwrap()..md.find("### `create-return`").unwrap()];
    assert!(
        readiness.contains("### `readiness`: `immediate`"),
        "{readiness}"
    );
    assert!(
        readiness.contains("**Obliges:**") || readiness.contains("<strong>Obliges:</strong>"),
        "{readiness}"
    );
    assert!(
        readiness.contains("Get answers Running at once"),
        "{readiness}"
    );
    assert!(readiness.contains("every caller"), "{readiness}");
    assert!(
        readiness.contains("[`pods`](#examples-create)"),
        "{readiness}"
    );
    assert!(!readiness.contains("metal"), "{readiness}");
    // `create-return`: `blocking`, which no one chose.
    let create = &md[md.find("{ #profile-create-return }").unwrap()..];
    let create = &create[..create.find("\n## ").unwrap()];
    assert!(
        create.contains("No existing provider chose this profile."),
        "{create}"
    );
    // The examples: `pods`'s section that holds the claim, with its evidence; `metal` chose
    // neither profile and is not quoted.
    let examples =
        &md[md.find("{ #examples }").unwrap()..md.find("{ #contract-contract }").unwrap()];
    assert!(
        examples.contains("`newWithClient`"),
        "the evidence: {examples}"
    );
    assert!(!examples.contains("metal"), "{examples}");
    // The accepted spec has no open entries.
    assert!(!parsed.ids.contains("open-entries"));
    let count = assert_links_resolve(&parsed);
    assert_eq!(count, brief.links, "the brief counts the links it holds");
    assert!(
        !parsed.text.contains("{{#"),
        "a shortcode left outside code"
    );
}

#[test]
fn known_gaps_of_a_provider_quoted_as_an_example_come_with_it() {
    let spec = SPEC.replace(
        "{{#profile readiness immediate}}",
        "{{#profile readiness provisioning-window}}",
    );
    let brief = brief_of(&book(&spec, TOML));
    let md = &brief.markdown;
    let examples =
        &md[md.find("{ #examples }").unwrap()..md.find("{ #contract-contract }").unwrap()];
    assert!(examples.contains("{ #examples-of-metal }"), "{examples}");
    assert!(examples.contains("{ #examples-known-gaps }"), "{examples}");
    assert!(
        examples.contains("The boot is not bounded, see [the contract](#contract-readiness)"),
        "{examples}"
    );
    assert!(!examples.contains("{ #examples-of-pods }"), "{examples}");
    assert_links_resolve(&parse(md));
}

#[test]
fn links_out_of_the_brief_are_absolute_with_a_site_url_and_text_without_one() {
    let md = brief_of(&book(SPEC, TOML)).markdown;
    // The template and the appendix's `metal` are not in the brief (no example is).
    assert!(md.contains("See the template and\nthe appendix."), "{md}");
    let toml = format!("{TOML}\n[output.html]\nsite-url = \"https://example.org/docs/\"\n");
    let md = brief_of(&book(SPEC, &toml)).markdown;
    assert!(
        md.contains("[template](https://example.org/docs/template.html)"),
        "{md}"
    );
    assert!(
        md.contains("[the appendix](https://example.org/docs/appendix/existing.html#metal)"),
        "{md}"
    );
    assert_links_resolve(&parse(&md));
}

#[test]
fn a_draft_lists_its_open_entries_at_the_top() {
    let spec = SPEC
        .replace("**Status:** accepted", "**Status:** draft")
        .replace(
            "**Answer:** {{#profile create-return blocking}}",
            "**Answer:**",
        );
    let md = brief_of(&book(&spec, TOML)).markdown;
    let open = md.find("{ #open-entries }").expect("the open entries");
    assert!(open < md.find("{ #profiles }").unwrap());
    assert!(
        md.contains("- [Create](#spec-create): no answer yet"),
        "{md}"
    );
    assert!(
        md.contains("The spec is a <strong>draft</strong>: 1 of 2 entries answered."),
        "{md}"
    );
}

#[test]
fn the_same_book_gives_the_same_bytes() {
    let fixture = book(SPEC, TOML);
    assert_eq!(brief_of(&fixture).markdown, brief_of(&fixture).markdown);
}

#[test]
fn a_book_with_errors_gets_no_brief() {
    let spec = SPEC.replace(
        "{{#profile create-return blocking}}",
        "{{#profile create-return eventually}}",
    );
    let fixture = book(&spec, TOML);
    let out = fixture.root().join("brief.md");
    let (code, stdout, stderr) = run(fixture.root(), &["brief", "rack", ".", "-o", "brief.md"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(!out.exists(), "nothing is written");
    // The findings as `check` prints them.
    assert!(
        stderr.contains("error[unknown-profile]: axis `create-return` has no profile `eventually`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("--> src/rack-provider-spec.md:"),
        "{stderr}"
    );
    assert!(stderr.contains("no brief written"), "{stderr}");
}

#[test]
fn a_provider_without_a_spec_is_named() {
    let fixture = book(SPEC, TOML);
    let (code, _, stderr) = run(fixture.root(), &["brief", "proxmox"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("no spec of provider `proxmox` in this book (it has `rack`); `mdbook-contract new-spec proxmox` writes one"),
        "{stderr}"
    );
}

/// This repository's book, with its Proxmox spec answered in the test: profiles that the
/// appendix's providers chose too, so that the brief quotes their sections.
#[test]
fn the_brief_of_this_repositorys_book_with_its_spec_filled() {
    let dir = super::common::repository_copy();
    let spec_path = dir.path().join("book/proxmox-provider-spec.md");
    if !spec_path.exists() {
        let (code, _, stderr) = run(dir.path(), &["new-spec", "proxmox"]);
        assert_eq!(code, 0, "{stderr}");
    }
    // Every entry answered with evidence; the axes with the profiles kvm and gcp chose where
    // the appendix knows them, else the first profile of the axis.
    let contract = std::fs::read_to_string(dir.path().join("book/provider-contract.md")).unwrap();
    let chosen = [
        ("readiness", "provisioning-window"),
        ("create-return", "blocking"),
        ("provisioning-state", "blocked-in-create"),
    ];
    let mut spec = std::fs::read_to_string(&spec_path).unwrap();
    spec = spec.replace(
        "**Evidence:**\n",
        "**Evidence:** Stated here for the test.\n",
    );
    let mut at = 0;
    while let Some(found) = spec[at..].find("**Answer:**\n") {
        let start = at + found;
        // The axes the entry asks, between its heading and its answer.
        let heading = spec[..start].rfind("\n#").unwrap_or(0);
        let asked: Vec<String> = spec[heading..start]
            .match_indices("{{#answers ")
            .map(|(i, _)| {
                let rest = &spec[heading + i + "{{#answers ".len()..];
                rest[..rest.find("}}").unwrap()].to_owned()
            })
            .collect();
        let mut answer = String::from("**Answer:** Answered for the test.");
        for axis in asked {
            let profile = chosen
                .iter()
                .find(|(a, _)| *a == axis)
                .map(|(_, p)| (*p).to_owned())
                .unwrap_or_else(|| {
                    let section =
                        &contract[contract.find(&format!("### `{axis}` {{.axis}}")).unwrap()..];
                    let row = &section[section.find("\n| `").unwrap() + 4..];
                    row[..row.find('`').unwrap()].to_owned()
                });
            answer.push_str(&format!(" {{{{#profile {axis} {profile}}}}}"));
        }
        answer.push('\n');
        spec.replace_range(start..start + "**Answer:**\n".len(), &answer);
        at = start + answer.len();
    }
    let spec = spec.replace("**Status:** draft", "**Status:** accepted");
    std::fs::write(&spec_path, spec).unwrap();

    let (code, _, stderr) = run(dir.path(), &["brief", "proxmox", ".", "-o", "brief.md"]);
    assert_eq!(code, 0, "{stderr}");
    let md = std::fs::read_to_string(dir.path().join("brief.md")).unwrap();
    let parsed = parse(&md);
    let links = assert_links_resolve(&parsed);
    assert!(
        !parsed.text.contains("{{#"),
        "a shortcode left outside code"
    );
    // kvm's `blocking` and `blocked-in-create`, gcp's and kvm's `provisioning-window`.
    for id in ["examples-of-kvm", "examples-of-gcp"] {
        assert!(parsed.ids.contains(id), "{id}: {:?}", parsed.ids);
    }
    assert!(
        parsed
            .ids
            .contains("checklist-12-checklist-for-adding-a-provider")
    );
    assert!(
        !parsed.ids.contains("open-entries"),
        "the spec is accepted and answered"
    );
    // The rules that bind it: every rule without `applies=`, and those of the profiles its
    // spec chose (`blocking` on `create-return`), not of the others (`submit`).
    let rules = &md[md.find("## The rules that bind this provider").unwrap()..];
    let rules = &rules[..rules.find("\n## ").unwrap()];
    assert!(
        rules.contains(
            "- `create.idempotent-by-name` (MUST): `r[verify create.idempotent-by-name]`"
        ),
        "{rules}"
    );
    assert!(rules.contains("- `create-return.blocking-cancel` (MUST), for `blocking` on `create-return`: `r[verify create-return.blocking-cancel]`"), "{rules}");
    assert!(
        !rules.contains("create-return.submit-provisioning"),
        "{rules}"
    );
    assert!(
        !rules.contains("if it chooses"),
        "every axis is answered: {rules}"
    );
    // For the record: the size of the brief and the links checked in it.
    let stated = stderr
        .split(" links")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse::<usize>().ok());
    assert_eq!(stated, Some(links), "{stderr}");
    assert!(
        md.len() > 50_000 && links > 100,
        "{} bytes, {links} links",
        md.len()
    );
    // Shown with `--nocapture`, for the record.
    #[allow(clippy::print_stderr)]
    {
        eprintln!(
            "the brief of this book: {} bytes, {links} links, all resolved",
            md.len()
        );
    }
}
