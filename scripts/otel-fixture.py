#!/usr/bin/env python3
"""The OpenTelemetry fixture (tests/fixtures/otel): the specification's compliance matrix as a
contract book and twelve provider reports made with `mdbook-contract report --declared`.

    scripts/otel-fixture.py SPEC_CHECKOUT COMMIT OUT_DIR

SPEC_CHECKOUT is a folder holding `spec-compliance-matrix/` of the opentelemetry-specification
repository at COMMIT (`git archive COMMIT spec-compliance-matrix | tar -x -C SPEC_CHECKOUT`).
The binary is `$MDBOOK_CONTRACT`, else `$CARGO_TARGET_DIR/debug/mdbook-contract`, else
`target/debug/mdbook-contract`. Needs PyYAML. Made once and committed; OUT_DIR is replaced.

What it writes:
- `compliance/*.yaml`: the matrix's files as they are (the tests count their `+` cells);
- `src/compliance.md`: every feature of `template.yaml` a rule, under its section and
  heading, its ID made of theirs (`traces.tracerprovider.create-tracerprovider`);
- `src/implementations.md`: `{{#rule-matrix}}` and a provider section per language file;
- `declared/NAME.toml`: each language's statuses, `+` implemented, `-` not implemented,
  `N/A` not applicable; `?` (unknown) and a blank status are left out, so the rule is what
  the report says of it: nothing;
- `reports/NAME.json`: `report --declared` of each, of the specification's repository at
  COMMIT (where the statuses are written: no provider's code is read);
- `SOURCE.md`: where it came from and how it was made.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

SPEC = "https://github.com/open-telemetry/opentelemetry-specification"

# The language files of `template.yaml` as providers: the suffix of each implementation's
# repository name (`opentelemetry-go`), a name a provider section can carry.
PROVIDERS = {
    "Go": "go",
    "Java": "java",
    "JS": "js",
    "Python": "python",
    "Ruby": "ruby",
    "Erlang": "erlang",
    "PHP": "php",
    "Rust": "rust",
    "C++": "cpp",
    ".NET": "dotnet",
    "Swift": "swift",
    "Kotlin": "kotlin",
}

DECLARED = {"+": "implemented", "-": "not-implemented", "N/A": "not-applicable"}

# A link, its text holding at most one level of brackets (`[otel_scope_[attribute] labels]`).
LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)]*)\)")


def plain(text):
    """A name without its Markdown: link texts, no code marks or emphasis."""
    return LINK.sub(r"\1", text).replace("`", "").replace("*", "")


def slug(text, limit=48):
    """Lowercase words joined by `-`, cut at a word boundary within `limit` characters."""
    words = re.findall(r"[a-z0-9]+", plain(text).lower())
    out = ""
    for word in words:
        if out and len(out) + 1 + len(word) > limit:
            break
        out = word if not out else out + "-" + word
    return out or "feature"


def absolute(text, commit):
    """Markdown whose links into the specification's tree point at its files at `commit`."""

    def link(m):
        dest = m.group(2)
        if re.match(r"^[a-z]+:", dest) or dest.startswith("#"):
            return m.group(0)
        return f"[{m.group(1)}]({SPEC}/blob/{commit}/{dest})"

    return LINK.sub(link, " ".join(text.split()))


def features(sections):
    """(section, heading or None, feature dict) of a matrix file, in order."""
    for section in sections:
        for item in section["features"]:
            if "features" in item:
                for feature in item["features"]:
                    yield section["name"], item["heading"], feature
            else:
                yield section["name"], None, item


def rule_ids(template):
    """(section, heading, name) to its rule ID, unique, in the template's order."""
    ids, seen = {}, set()
    for section, heading, feature in features(template["sections"]):
        parts = [slug(section, 30)]
        if heading:
            parts.append(slug(heading, 30))
        base = ".".join(parts + [slug(feature["name"])])
        rule, n = base, 1
        while rule in seen:
            n += 1
            rule = f"{base}-{n}"
        seen.add(rule)
        ids[(section, heading, feature["name"])] = rule
    return ids


def line_text(text):
    """A feature's name as the first words of a paragraph: nothing Markdown reads as a block."""
    if re.match(r"^([#>+\-*|]|\d+[.)])", text):
        return "\\" + text
    return text


def contract(template, ids, commit):
    out = [
        "# Compliance",
        "",
        "The features of the OpenTelemetry specification's compliance matrix",
        f"(`spec-compliance-matrix/template.yaml` at [`{commit[:12]}`]({SPEC}/tree/{commit})),",
        "each a rule: an implementation that has the feature meets the rule.",
    ]
    section_at, heading_at = None, None
    for section, heading, feature in features(template["sections"]):
        if section != section_at:
            out += ["", f"## {section}"]
            section_at, heading_at = section, None
        if heading and heading != heading_at:
            out += ["", f"### {absolute(heading, commit)}"]
            heading_at = heading
        text = line_text(absolute(feature["name"], commit))
        if feature.get("optional") is True:
            text += " (optional in the matrix)"
        out += ["", f"r[{ids[(section, heading, feature['name'])]}]", text]
    return "\n".join(out) + "\n"


def implementations(template, commit):
    out = [
        "# Implementations",
        "",
        "Each language's statuses are those its file in `spec-compliance-matrix/` states at",
        f"`{commit[:12]}`: declared by hand, with no citation or test behind them.",
        "",
        "{{#rule-matrix}}",
    ]
    for language in template["languages"]:
        name = PROVIDERS[language["name"]]
        location = language["location"].lstrip("./")
        out += [
            "",
            f"## `{name}` {{.provider}}",
            "",
            f"The {language['name']} implementation; its statuses: [`{location}`]"
            f"({SPEC}/blob/{commit}/spec-compliance-matrix/{location}).",
        ]
    return "\n".join(out) + "\n"


def declared(data, ids):
    """The `[declared]` table of one language's file, in the contract's order."""
    found = {}
    for section, heading, feature in features(data["sections"]):
        status = str(feature.get("status") or "").strip()
        # `[-][py1003]`: a `-` with a note of the Python file's own.
        status = re.sub(r"^\[([^\]]*)\]\[[^\]]*\]$", r"\1", status)
        if status not in DECLARED:
            continue
        rule = ids.get((section, heading, feature["name"]))
        if rule is None:
            # As the matrix's own script does: a feature under another heading of its section.
            rule = next((r for (s, _, n), r in ids.items() if s == section and n == feature["name"]), None)
        if rule is None:
            sys.exit(f"{section} / {heading} / {feature['name']}: not in template.yaml")
        found[rule] = DECLARED[status]
    order = list(ids.values())
    lines = ["[declared]"]
    for rule in sorted(found, key=order.index):
        lines.append(f'"{rule}" = "{found[rule]}"')
    return "\n".join(lines) + "\n"


def binary():
    if os.environ.get("MDBOOK_CONTRACT"):
        return os.environ["MDBOOK_CONTRACT"]
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    return str(pathlib.Path(target) / "debug" / "mdbook-contract")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    checkout, commit, out = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        sys.exit(f"COMMIT is `{commit}`: give the full 40-digit commit of the checkout")
    matrix = checkout / "spec-compliance-matrix"
    template = yaml.safe_load((matrix / "template.yaml").read_text(encoding="utf-8"))
    ids = rule_ids(template)
    if out.exists():
        shutil.rmtree(out)
    (out / "src").mkdir(parents=True)
    (out / "compliance").mkdir()
    (out / "declared").mkdir()
    (out / "reports").mkdir()
    (out / "book.toml").write_text(
        '[book]\ntitle = "OpenTelemetry compliance"\n\n[preprocessor.contract]\nafter = ["links"]\n'
        'contract = ["compliance.md"]\nprovider-reports = ["reports/*.json"]\n',
        encoding="utf-8",
    )
    (out / "src/SUMMARY.md").write_text(
        "# Summary\n\n- [Compliance](compliance.md)\n- [Implementations](implementations.md)\n",
        encoding="utf-8",
    )
    (out / "src/compliance.md").write_text(contract(template, ids, commit), encoding="utf-8")
    (out / "src/implementations.md").write_text(implementations(template, commit), encoding="utf-8")
    shutil.copy(matrix / "template.yaml", out / "compliance/template.yaml")
    with tempfile.TemporaryDirectory() as empty:
        for language in template["languages"]:
            name = PROVIDERS[language["name"]]
            source = matrix / language["location"]
            shutil.copy(source, out / "compliance" / source.name)
            data = yaml.safe_load(source.read_text(encoding="utf-8"))
            (out / "declared" / f"{name}.toml").write_text(declared(data, ids), encoding="utf-8")
            report = subprocess.run(
                [binary(), "report", "--book", str(out.resolve()), "--provider", name,
                 "--declared", str((out / "declared" / f"{name}.toml").resolve()),
                 "--repository", SPEC, "--commit", commit, "--source-root", "."],
                cwd=empty, capture_output=True, text=True, check=False,
            )
            if report.returncode != 0:
                sys.exit(f"report of `{name}` failed: {report.stderr}")
            (out / "reports" / f"{name}.json").write_text(report.stdout, encoding="utf-8")
            print(f"{name}: {source.name}, {len(data['sections'])} sections")
    (out / "SOURCE.md").write_text(
        "# Where this fixture comes from\n\n"
        f"The compliance matrix of {SPEC} (Apache License 2.0, whose text is\n"
        "this repository's `LICENSE-APACHE`) at commit\n"
        f"`{commit}`: `compliance/` holds its `spec-compliance-matrix/*.yaml` as they are.\n"
        "The book, the `declared/` tables and the `reports/` were made from them by\n"
        f"`scripts/otel-fixture.py CHECKOUT {commit} tests/fixtures/otel`.\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
