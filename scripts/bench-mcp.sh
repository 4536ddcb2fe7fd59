#!/usr/bin/env bash
# The MCP server's latency on real books (bench/src/bin/mcp_latency.rs, the release binary over
# stdio): the first call (the load), each tool's calls once loaded (median, minimum, maximum),
# a call after an edit (the reload) and the resident memory before and after 1,000 calls, on
#
#   1. this repository's book,
#   2. the broker fixture (rules, a spec, a Go tree, its stand-in for mdbook-mermaid),
#   3. the Rust Reference as its repository configures it (a copy of BENCH_REFERENCE=DIR, a
#      checkout of rust-lang/reference): mdbook-spec runs before this one at every load,
#   4. the same Reference with every chapter a contract chapter, this preprocessor ordered
#      before mdbook-spec, so that its 2,800 `r[...]` markers are rules here (mdbook-spec then
#      does not run at a load).
#
# The checkout is not fetched here: give its folder (books 3 and 4 are skipped without it).
# Book 3 runs the Reference's `[preprocessor.spec]` command as its book.toml gives it, in the
# copy; the first run builds it there, which takes minutes. Writes target/bench/mcp.md.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --locked --quiet -p mdbook-contract -p mdbook-contract-bench
bin=$PWD/target/release
out=target/bench
mkdir -p "$out"
results=$out/mcp.md
: >"$results"
say() { printf '%s\n' "$*" | tee -a "$results"; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

run() { # NAME DIR CHAPTER
  say "### $1"
  say ""
  MDBOOK_CONTRACT=$bin/mdbook-contract "$bin/mcp_latency" "$2" "$3" 2>/dev/null | sed 's/^/- /' | tee -a "$results"
  say ""
}

say "## MCP server: tool calls, reloads and memory"
say ""
run "this repository's book" . book/provider-contract.md
cp -r tests/fixtures/broker "$scratch/broker"
run "the broker fixture" "$scratch/broker" src/contract.md
if [ -n "${BENCH_REFERENCE:-}" ]; then
  cp -r "$BENCH_REFERENCE" "$scratch/reference"
  run "the Rust Reference with mdbook-spec" "$scratch/reference" src/expressions.md
  cp -r "$BENCH_REFERENCE" "$scratch/reference-rules"
  chapters=$(grep -o '](\([^)]*\.md\))' "$scratch/reference-rules/src/SUMMARY.md" | sed 's/^](\(.*\))$/"\1"/' | paste -sd, -)
  printf '\n[preprocessor.contract]\nbefore = ["spec"]\ncontract = [%s]\n' "$chapters" >>"$scratch/reference-rules/book.toml"
  run "the Rust Reference, every chapter a contract chapter" "$scratch/reference-rules" src/expressions.md
fi
