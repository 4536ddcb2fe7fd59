#!/usr/bin/env python3
"""A mixed source tree of about 100,000 lines for the benchmark of reading code as code
(BENCHMARKS.md, "Source read as code"): real files of this machine in six languages (Go's
sources, Python's standard library, C headers, a Rust crate, TypeScript declarations, shell
scripts), one in five with a rule citation in a comment in its own syntax, and a book whose
contract defines the cited rules and names a symbol of each language, with `source-root` the
tree. Also the patterns one ripgrep pass looks for (the two verbs and the symbols).

    scripts/bench-mixed.py OUT_DIR [LINES]

Writes OUT_DIR/tree, OUT_DIR/book and OUT_DIR/patterns.txt; prints the files and lines per
language. Files are taken in sorted order, so the same machine gives the same tree.
"""

import glob
import os
import pathlib
import shutil
import sys

# (language, extension, comment, sources): the first existing folder of each language is used.
LANGUAGES = [
    ("go", ".go", "//", ["/usr/share/go-1.19/src/net", "/usr/lib/go/src/net"]),
    ("python", ".py", "#", ["/usr/lib/python3.11", "/usr/lib/python3"]),
    ("c", ".h", "//", ["/usr/include"]),
    ("rust", ".rs", "//", sorted(glob.glob(os.path.expanduser("~/.cargo/registry/src/*/serde_json-1*/src")))),
    ("typescript", ".ts", "//", ["target/ci-tools/node_modules/typescript/lib"]),
    ("shell", ".sh", "#", ["/usr/share", "/usr/lib"]),
]

SYMBOLS = {"go": "Request", "python": "ValueError", "c": "khronos_float_t", "rust": "Deserializer",
           "typescript": "Promise", "shell": "printf"}


def files_of(root, extension, budget):
    """Files under `root` ending in `extension`, in sorted order, until `budget` lines."""
    taken, lines = [], 0
    for path in sorted(pathlib.Path(root).rglob(f"*{extension}")):
        if lines >= budget:
            break
        try:
            if not path.is_file() or path.stat().st_size > 400_000:
                continue
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        count = text.count("\n")
        if count < 5:
            continue
        taken.append((path, text))
        lines += count
    return taken, lines


def main():
    out = pathlib.Path(sys.argv[1])
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    budget = total // len(LANGUAGES)
    shutil.rmtree(out, ignore_errors=True)
    tree, book = out / "tree", out / "book"
    rules, n = [], 0
    for name, extension, comment, roots in LANGUAGES:
        root = next((r for r in roots if os.path.isdir(r)), None)
        if root is None:
            print(f"{name}: no sources on this machine", file=sys.stderr)
            continue
        taken, lines = files_of(root, extension, budget)
        for i, (path, text) in enumerate(taken):
            if i % 5 == 0:
                rule = f"mixed.rule-{n}"
                rules.append(rule)
                n += 1
                verb = "impl" if i % 3 == 0 else "verify"
                text = f"{comment} r[{verb} {rule}]\n{text}" if not text.startswith("#!") else \
                    text.replace("\n", f"\n{comment} r[{verb} {rule}]\n", 1)
            dest = tree / name / f"{i:05d}-{path.name}"
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(text, encoding="utf-8")
        print(f"{name}: {len(taken)} files, {lines} lines, from {root}")
    (book / "src").mkdir(parents=True)
    contract = ["# Mixed contract\n"]
    contract += [f"\nr[{rule}]\nA provider MUST keep rule {rule}.\n" for rule in rules]
    contract.append("\nThe code names " + ", ".join(f"`{s}`" for s in SYMBOLS.values()) + ".\n")
    (book / "src" / "contract.md").write_text("".join(contract))
    (book / "src" / "SUMMARY.md").write_text("# Summary\n\n- [Contract](contract.md)\n")
    (book / "book.toml").write_text(
        '[book]\ntitle = "Mixed"\n\n[preprocessor.contract]\ncontract = ["contract.md"]\n'
        f'source-root = "../tree"\n\n[preprocessor.contract.checks]\nmust-cite = "off"\n'
    )
    patterns = ["r[verify ", "r[impl "] + list(SYMBOLS.values())
    (out / "patterns.txt").write_text("\n".join(patterns) + "\n")
    print(f"{len(rules)} rules cited")


if __name__ == "__main__":
    main()
