#!/usr/bin/env bash
# The source index at a monorepo's size, against one ripgrep pass over the same tree in the same
# run: `BENCH_TREE=DIR scripts/bench-monorepo.sh`, DIR a checkout (rust-analyzer's for the
# figures of BENCHMARKS.md, "Source read as code"). The tree is copied into a fresh repository
# (the cache lives in its git directory), given a book.toml at `book/` (its contract chapter and
# `source-root = ".."`), a contract of 50 rules, and one citation (`// r[impl ra.ruleN]`) at the
# top of each of its first 500 Rust files in path order. Measured with hyperfine (medians):
#
#   rg:          `rg -c 'r\['` over the tree, once per run
#   check cold:  the cache removed before each run
#   check warm:  the cache as the last run left it
#   one changed: one cited file given a new last line before each run
#   unmapped:    `status --unmapped` (every file with a grammar parsed), cold and warm
#
# and the peak memory of each (`/usr/bin/time -v`). Needs hyperfine and rg. Writes
# target/bench/monorepo.md. Builds the release binary unless BIN names one.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${BENCH_TREE:?give BENCH_TREE=DIR, a checkout to read}"
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked --quiet -p mdbook-contract
  BIN=$PWD/target/release/mdbook-contract
fi
out=target/bench
mkdir -p "$out"
results=$out/monorepo.md
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tree=$scratch/tree
cp -r "$BENCH_TREE" "$tree"
rm -rf "$tree/.git"
git -C "$tree" init -q .
mkdir -p "$tree/book/src"
printf '[book]\ntitle = "bench"\n[preprocessor.contract]\ncontract = ["contract.md"]\nsource-root = ".."\n' >"$tree/book/book.toml"
python3 - "$tree" <<'EOF'
import os, sys
root = sys.argv[1]
rules = [f"ra.rule{i}" for i in range(50)]
with open(os.path.join(root, "book/src/contract.md"), "w") as f:
    f.write("# Contract\n\n## Rules\n\n")
    for rule in rules:
        f.write(f"r[{rule}]\nThe code MUST do {rule}.\n\n")
with open(os.path.join(root, "book/src/SUMMARY.md"), "w") as f:
    f.write("# Summary\n\n- [Contract](contract.md)\n")
files = sorted(
    os.path.relpath(os.path.join(d, n), root)
    for d, _, names in os.walk(root)
    for n in names
    if n.endswith(".rs") and "/.git" not in d
)
for i, path in enumerate(files[:500]):
    path = os.path.join(root, path)
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(f"// r[impl {rules[i % 50]}]\n".encode() + data)
with open(os.path.join(root, "changed.txt"), "w") as f:
    f.write(os.path.join(root, files[0]))
EOF
changed=$(cat "$tree/changed.txt")
rm "$tree/changed.txt"
cache=$tree/.git/mdbook-contract
book=$tree/book
rs=$(find "$tree" -name '*.rs' -not -path '*/.git/*' | wc -l)
files=$(cd "$tree" && rg --files | wc -l)
lines=$(find "$tree" -name '*.rs' -not -path '*/.git/*' -print0 | xargs -0 cat | wc -l)

: >"$results"
say() { printf '%s\n' "$*" | tee -a "$results"; }
say "## The source index on $(basename "$BENCH_TREE") ($files files, $rs Rust files, $lines lines of Rust)"
say ""
bench() { # NAME PREPARE COMMAND
  local json=$scratch/h.json
  hyperfine --style none --ignore-failure --warmup 2 --runs "${RUNS:-15}" --export-json "$json" \
    --prepare "$2" "rg -c 'r\\[' $tree" "$3" >/dev/null 2>&1
  python3 - "$json" "$1" <<'EOF' | tee -a "$results"
import json, sys
runs = json.load(open(sys.argv[1]))["results"]
rg, ours = (r["median"] * 1000 for r in runs)
user = runs[1]["user"] * 1000
print(f"| {sys.argv[2]} | {ours:.1f} ms | {user:.0f} ms | {rg:.1f} ms | {ours / rg:.1f}x |")
EOF
}
say "| run | median | user (mean) | rg pass, same run | ratio |"
say "|---|---:|---:|---:|---:|"
bench "\`check\` cold" "rm -rf $cache" "$BIN check $book"
bench "\`check\` warm" "true" "$BIN check $book"
bench "\`check\`, one file changed" "echo '// '\$RANDOM >>$changed" "$BIN check $book"
bench "\`status --unmapped\` cold" "rm -rf $cache" "$BIN status --unmapped $book"
bench "\`status --unmapped\` warm" "true" "$BIN status --unmapped $book"
bench "\`check --no-cache\`" "true" "$BIN check --no-cache $book"
say ""
peak() { # NAME PREPARE COMMAND...
  local name=$1 prepare=$2
  shift 2
  bash -c "$prepare"
  /usr/bin/time -v "$@" >/dev/null 2>"$scratch/time.txt" || true
  say "- peak memory, $name: $(awk -F': ' '/Maximum resident/ {printf "%.1f MB", $2 / 1024}' "$scratch/time.txt")"
}
peak "\`check\` cold" "rm -rf $cache" "$BIN" check "$book"
peak "\`check\` warm" "true" "$BIN" check "$book"
peak "\`status --unmapped\` cold" "rm -rf $cache" "$BIN" status --unmapped "$book"
peak "\`status --unmapped\` warm" "true" "$BIN" status --unmapped "$book"
say "- the cache: $(du -sh "$cache" | cut -f1)"
say "- \`status\`, warm: $("$BIN" status "$book" | grep -E 'files read|from the cache' | tr '\n' ' ')"
