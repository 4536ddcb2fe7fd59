#!/usr/bin/env bash
# The language server's latency on real books: the median time from an edit to the edited
# chapter's diagnostics, the release binary over stdio (bench/src/bin/lsp_latency.rs), on
#
#   1. this repository's book,
#   2. the Rust Book (a copy of BENCH_RUST_BOOK=DIR, a checkout of rust-lang/book, without its
#      own preprocessors, which `cargo run` packages of its repository),
#   3. the Rust Reference without its own preprocessor (a copy of BENCH_REFERENCE=DIR, a
#      checkout of rust-lang/reference, with `[preprocessor.spec]` left out of book.toml),
#   4. the Rust Reference as its repository configures it: mdbook-spec runs before this one.
#
# The checkouts are not fetched here: give their folders. Book 4 runs the Reference's own
# `[preprocessor.spec]` command as its book.toml gives it, in the checkout, on every save; the
# first run builds it there, which takes minutes. RUNS (default 20) edits per book; with
# RUNS=1000 the line also gives the server's resident memory after 50 edits and at the end.
# MDBOOK_CONTRACT=BINARY measures another build of the server (an older one, say).
# Each book is also run with MODE=typing (an em-dash line typed at the chapter's end and taken
# away again, each edit saved after it: never-reflected edits and findings that vanish at the
# save are counted), and BENCH_BROKER=1 adds the broker fixture with mdbook-mermaid (on the
# PATH) in place of its stand-in.
# Writes target/bench/lsp.md.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --locked --quiet -p mdbook-contract -p mdbook-contract-bench
bin=$PWD/target/release
out=target/bench
mkdir -p "$out"
results=$out/lsp.md
: >"$results"
say() { printf '%s\n' "$*" | tee -a "$results"; }

run() { # NAME DIR CHAPTER
  say "- $1: $(MDBOOK_CONTRACT=${MDBOOK_CONTRACT:-$bin/mdbook-contract} RUNS=${RUNS:-20} "$bin/lsp_latency" "$2" "$3")"
  say "- $1, typing: $(MODE=typing MDBOOK_CONTRACT=${MDBOOK_CONTRACT:-$bin/mdbook-contract} RUNS=${TYPING_RUNS:-12} "$bin/lsp_latency" "$2" "$3")"
}

say "## Language server: diagnostics after an edit"
say ""
run "this repository's book" . book/provider-contract.md
# A copy of a book with the `[preprocessor.*]` tables that match $3 left out of book.toml.
copy_without() { # DIR NAME PATTERN
  local copy=$out/$2
  rm -rf "$copy" && mkdir -p "$copy"
  cp -r "$1/src" "$copy/"
  [ -d "$1/theme" ] && cp -r "$1/theme" "$copy/"
  awk -v pattern="$3" '/^\[/ { skip = ($0 ~ pattern) } !skip' "$1/book.toml" >"$copy/book.toml"
  echo "$copy"
}
if [ -n "${BENCH_RUST_BOOK:-}" ]; then
  run "the Rust Book" "$(copy_without "$BENCH_RUST_BOOK" rust-book '^\\[preprocessor\\.')" src/ch08-02-strings.md
fi
if [ -n "${BENCH_REFERENCE:-}" ]; then
  plain=$(copy_without "$BENCH_REFERENCE" reference-plain '^\\[preprocessor\\.spec\\]')
  run "the Rust Reference without mdbook-spec" "$plain" src/expressions.md
  run "the Rust Reference with mdbook-spec, as configured upstream" "$BENCH_REFERENCE" src/expressions.md
fi
if [ -n "${BENCH_BROKER:-}" ]; then
  broker=$out/broker
  rm -rf "$broker" && cp -r tests/fixtures/broker "$broker"
  sed -i 's/command = "python3 mermaid.py"/command = "mdbook-mermaid"/' "$broker/book.toml"
  run "the broker fixture with mdbook-mermaid and admonitions" "$broker" src/contract.md
fi
say ""
say "load after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
