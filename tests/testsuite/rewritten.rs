//! A book with another preprocessor before this one, which rewrites chapters (as mdbook-spec,
//! admonish or mermaid do): findings in the author's text keep their place in the file as
//! written; a finding in text the other preprocessor generated names it and the line it
//! replaced. The other preprocessor is a Python script that inserts a block of lines, turns a
//! one-line rule marker into three lines of HTML, and removes a line.

use serde_json::Value;

use crate::common::{Fixture, json_positions, run_in};

/// The fake: besides its rewriting, it notes each run in `runs.txt` (its process id), and a
/// chapter with `SLOW` in it makes it sleep for a minute first.
pub(crate) const FAKE: &str = r##"import json, os, sys, time

if len(sys.argv) > 1 and sys.argv[1] == "supports":
    sys.exit(0)
context, book = json.load(sys.stdin)
with open("runs.txt", "a") as runs:
    runs.write("%d\n" % os.getpid())
if "SLOW" in json.dumps(book):
    time.sleep(60)

def rewrite(text):
    out = []
    for line in text.split("\n"):
        if line.startswith("r[") and line.endswith("]"):
            rule = line[2:-1]
            out += ['<div class="rule" id="r-%s">' % rule, '<a href="#r-%s">[%s]</a>' % (rule, rule), "</div>"]
        elif "REMOVE ME" in line:
            continue
        else:
            out.append(line)
        if line.startswith("# "):
            out += ["", "Generated \u2014 by the fake one.", ""]
    return "\n".join(out)

def walk(items):
    for item in items:
        if isinstance(item, dict) and "Chapter" in item:
            item["Chapter"]["content"] = rewrite(item["Chapter"]["content"])
            walk(item["Chapter"]["sub_items"])

walk(book["items"])
json.dump(book, sys.stdout)
"##;

pub(crate) const CHAPTER: &str = "# Storage contract

r[put.atomic]
A backend MUST make `Put` atomic.

REMOVE ME
Keep \u{2014} this.
See [a page](nowhere.md).
";

pub(crate) fn book() -> Fixture {
    Fixture::new(&[
        (
            "book.toml",
            "[book]\ntitle = \"Storage\"\n\n[preprocessor.fake]\ncommand = \"python3 fake.py\"\n\n[preprocessor.contract]\nafter = [\"links\", \"fake\"]\n",
        ),
        ("fake.py", FAKE),
        ("src/storage.md", CHAPTER),
    ])
}

#[test]
fn findings_keep_their_place_as_written_when_another_preprocessor_rewrote_the_chapter() {
    let book = book();
    let (code, stdout, stderr) = run_in(book.root(), &["check", "--format", "json"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    // The author's em-dash and link, on their lines as written (not 10 and 11, where the
    // rewritten chapter has them).
    let dashes = json_positions(&stdout, "em-dash");
    assert_eq!(
        dashes,
        ["src/storage.md:3:1", "src/storage.md:7:6"],
        "{stdout}"
    );
    assert_eq!(
        json_positions(&stdout, "dangling-link"),
        ["src/storage.md:8:5"],
        "{stdout}"
    );
    let findings: Vec<Value> = serde_json::from_str(&stdout).unwrap();
    let note = |line: u64| {
        findings
            .iter()
            .find(|f| f["check"] == "em-dash" && f["line"] == line)
            .map(|f| f["note"].clone())
            .unwrap()
    };
    assert_eq!(note(7), Value::Null);
    // The fake's own em-dash: in generated text, said so, at the line it was inserted before.
    let generated = note(3);
    let generated = generated.as_str().unwrap();
    assert!(
        generated.contains("inserted") && generated.contains("(`fake`)"),
        "{generated}"
    );

    // The same places in a build by mdBook's code, which runs the script too.
    let (built, _) = book.build();
    let error = format!("{:#}", built.unwrap_err());
    assert!(error.contains("error"), "{error}");
}
