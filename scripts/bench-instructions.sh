#!/usr/bin/env bash
# Instructions, not time: the preprocessor through mdBook's protocol on the generated contract
# books of 10 and 100 chapters, counted by callgrind (one figure for the work of every thread,
# which the load of a shared machine does not move), against the floor (read the JSON,
# deserialise, one pulldown-cmark parse per chapter, write back: bench/src/bin/floor_parse.rs)
# and, with BASE=REV, against the build of another revision. Also the medians of the wall time
# (hyperfine, same run) and the median ratio over alternating pairs of runs, whether the book written back is the same bytes as BASE's, and the
# release binary's size (stripped, as the release profile builds it) and start-up.
#
#   scripts/bench-instructions.sh                 # this tree
#   BASE=ee3bf98 scripts/bench-instructions.sh    # and that revision, built in a worktree
#   BASE=ee3bf98 BASE_BIN=path scripts/...        # that revision, built already
#   INPUTS="a.json b.json" scripts/...            # more protocol inputs ([context, book] JSON)
#
# and, for this tree alone, a book over a tree with citations (scripts/bench-mixed.py), cold and
# warm (the cache of what its files yield).
#
# Run it before landing a change to the pipeline and put its table in BENCHMARKS.md with the
# commit. It fails on nothing but a tool that does not run: machines differ, a record does not.
# Writes target/bench/instructions.md.
set -euo pipefail
cd "$(dirname "$0")/.."

out=target/bench
mkdir -p "$out"
missing=()
command -v valgrind >/dev/null || missing+=(valgrind)
command -v hyperfine >/dev/null || missing+=(hyperfine)
if ((${#missing[@]})); then
  echo "installing ${missing[*]}" >&2
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cargo build --release --locked --quiet -p mdbook-contract -p mdbook-contract-bench
bin=target/release
ours=$bin/mdbook-contract
floor=$bin/floor_parse

base_bin=${BASE_BIN:-}
if [ -n "${BASE:-}" ] && [ -z "$base_bin" ]; then
  rev=$(git rev-parse --short "$BASE")
  tree=$out/base-$rev
  [ -d "$tree" ] || git worktree add --detach --quiet "$tree" "$rev"
  CARGO_TARGET_DIR=$PWD/$out/base-target cargo build --release --locked --quiet \
    --manifest-path "$tree/Cargo.toml" -p mdbook-contract
  base_bin=$out/base-target/release/mdbook-contract
fi

inputs=()
for n in 10 100; do
  json=$out/input-$n.json
  [ -s "$json" ] || $bin/bench_gen contract "$n" "$out/book-$n" "$json" >/dev/null
  inputs+=("$json")
done
for extra in ${INPUTS:-}; do inputs+=("$extra"); done

count() { # BINARY INPUT: instructions of every thread, in millions (a book with findings exits 1)
  { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" <"$2" 2>&1 >/dev/null || true; } |
    awk '/Collected/ { printf "%.1f", $NF / 1e6 }'
}
median_ms() { # CSV ROW
  awk -F, -v row="$2" 'NR == row { printf "%.1f", $4 * 1000 }' "$1"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
# The median over PAIRS alternating runs of OURS / FLOOR's time: a change of the machine's
# load moves it less than a ratio of two medians taken one after the other.
paired() { # OURS FLOOR INPUT PAIRS
  local i t0 t1 t2 ratios=()
  for ((i = 0; i < $4; i++)); do
    if ((i % 2)); then
      t0=$EPOCHREALTIME; "$2" <"$3" >/dev/null 2>&1; t1=$EPOCHREALTIME
      "$1" <"$3" >/dev/null 2>&1; t2=$EPOCHREALTIME
      ratios+=("$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.5f", (c - b) / (b - a) }')")
    else
      t0=$EPOCHREALTIME; "$1" <"$3" >/dev/null 2>&1; t1=$EPOCHREALTIME
      "$2" <"$3" >/dev/null 2>&1; t2=$EPOCHREALTIME
      ratios+=("$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.5f", (b - a) / (c - b) }')")
    fi
  done
  printf '%s\n' "${ratios[@]}" | sort -n |
    awk '{ r[NR] = $1 } END { printf "%.3f", (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }'
}

results=$out/instructions.md
: >"$results"
say() { printf '%s\n' "$*" | tee -a "$results"; }
say "## Instructions (callgrind) and wall time, $(git rev-parse --short HEAD)$(git diff --quiet || echo ' with changes')"
say ""
say "$(nproc) cores, $(rustc --version); load before: $(cut -d' ' -f1-3 /proc/loadavg)${BASE:+; BASE is $BASE}"
say ""
header="| input | JSON | floor | ours | ours / floor |"
rule="|---|---:|---:|---:|---:|"
if [ -n "$base_bin" ]; then
  header="$header base | ours / base | same bytes as base |"
  rule="$rule---:|---:|---|"
fi
say "$header wall: floor | wall: ours | wall ours / floor | paired |"
say "$rule---:|---:|---:|---:|"
for json in "${inputs[@]}"; do
  size=$(awk -v b="$(stat -c %s "$json")" 'BEGIN { printf "%.1f MB", b / 1e6 }')
  f=$(count "$floor" "$json")
  o=$(count "$ours" "$json")
  row="| $(basename "$json") | $size | $f M | $o M | $(ratio "$o" "$f") |"
  if [ -n "$base_bin" ]; then
    b=$(count "$base_bin" "$json")
    "$ours" <"$json" >"$out/ours.out" 2>/dev/null || true
    "$base_bin" <"$json" >"$out/base.out" 2>/dev/null || true
    same=$(cmp -s "$out/ours.out" "$out/base.out" && echo yes || echo "**no**")
    row="$row $b M | **$(ratio "$o" "$b")** | $same |"
  fi
  runs=$(($(stat -c %s "$json") > 4000000 ? 20 : 60))
  hyperfine --style none --runs "$runs" --warmup 3 --export-csv "$out/wall.csv" \
    "$floor < $json > /dev/null" "$ours < $json > /dev/null 2>&1" >/dev/null 2>&1
  wf=$(median_ms "$out/wall.csv" 2)
  wo=$(median_ms "$out/wall.csv" 3)
  say "$row $wf ms | $wo ms | $(ratio "$wo" "$wf") | **$(paired "$ours" "$floor" "$json" "$runs")** |"
done
say ""

# A tree with citations (scripts/bench-mixed.py: about 100,000 lines in six languages, one file
# in five citing a rule), its book through the protocol: cold (the cache of what its files
# yield removed first, so every file that needs it is parsed and the cache written) and warm
# (the cache as the cold run left it). The tree is a repository of its own, so its cache is in
# its own git directory, not this repository's.
mixed=$out/mixed
if [ ! -s "$out/input-mixed.json" ]; then
  rm -rf "$mixed"
  python3 scripts/bench-mixed.py "$mixed" >/dev/null
  git init -q "$mixed/tree"
  $bin/bench_gen json "$mixed/book" "$out/input-mixed.json" >/dev/null
fi
rm -rf "$mixed/tree/.git/mdbook-contract"
cold=$(count "$ours" "$out/input-mixed.json")
warm=$(count "$ours" "$out/input-mixed.json")
say "A tree with citations (\`scripts/bench-mixed.py\`, $(find "$mixed/tree" -type f -not -path '*/.git/*' | wc -l) files), its book through the protocol: cold $cold M, warm $warm M instructions."
say ""

size=$(stat -c %s "$ours")
mb_of() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
start=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$ours" supports html 2>&1 |
  awk '/Collected/ { printf "%.2f", $NF / 1e6 }')
hyperfine -N --style none --runs 100 --warmup 5 --export-csv "$out/start.csv" \
  "$ours supports html" >/dev/null 2>&1
tables=""
# The `profiling` build (line tables), when one was made: `cargo build --profile profiling`.
if [ -x target/profiling/mdbook-contract ]; then
  tables="; with line tables (the \`profiling\` profile) $(mb_of "$(stat -c %s target/profiling/mdbook-contract)")"
fi
say "Release binary (stripped): $(mb_of "$size")$tables; gzipped $(mb_of "$(gzip -6 -c "$ours" | wc -c)"); start-up (\`supports html\`): $start M instructions, $(median_ms "$out/start.csv" 2) ms median."
echo "(written to $results)" >&2
