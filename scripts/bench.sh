#!/usr/bin/env bash
# The benchmark of BENCHMARKS.md, in one command. Installs what it needs (hyperfine, ripgrep,
# GNU time and the Go 1.19 sources from Debian; mdBook 0.5.4 into target/tools), writes every
# input under target/bench/ (deterministic, rewritten on each run), and prints medians and ratios
# measured in this run; the summary is also written to target/bench/results.md.
#
#   scripts/bench.sh                  everything (a few minutes)
#   BENCH_RUNS=20 scripts/bench.sh    more runs per command (default 10)
#   BENCH_CALLGRIND=0 ...             skip the instruction counts (valgrind, when installed)
#   BENCH_REAL_BOOK=DIR ...           also time `mdbook build` of a real book (a checkout of, say,
#                                     rust-lang/book): with this preprocessor and with one that does
#                                     nothing, the book's own preprocessors left out
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${BENCH_RUNS:-10}
out=target/bench
go_src=/usr/share/go-1.19/src
mkdir -p "$out"

# --- tools -----------------------------------------------------------------------------------
missing=()
command -v hyperfine >/dev/null || missing+=(hyperfine)
command -v rg >/dev/null || missing+=(ripgrep)
[ -x /usr/bin/time ] || missing+=(time)
[ -d "$go_src" ] || missing+=(golang-1.19-src)
if ((${#missing[@]})); then
  echo "installing ${missing[*]}" >&2
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi
MDBOOK_VERSION=0.5.4
tools="$PWD/target/tools"
if ! "$tools/bin/mdbook" --version 2>/dev/null | grep -qx "mdbook v$MDBOOK_VERSION"; then
  echo "installing mdBook $MDBOOK_VERSION into $tools (a few minutes, once)" >&2
  cargo install mdbook --version "$MDBOOK_VERSION" --locked --root "$tools"
fi
cargo build --release --locked --quiet -p mdbook-contract -p mdbook-contract-bench
bin=target/release
ours=$bin/mdbook-contract

# hyperfine's CSV export has one row per command, the median (seconds) in its fourth column.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
bench() { # name, then hyperfine's commands
  local name=$1
  shift
  hyperfine --style basic --runs "${runs}" --warmup 2 --export-csv "$out/$name.csv" "$@" >"$out/$name.log" 2>&1 ||
    { cat "$out/$name.log" >&2; exit 1; }
}
# The median, over `pairs` runs of the two programs one after the other (alternating which
# goes first), of the ratio time(ours) / time(floor): hyperfine runs all the runs of one command
# before the next, so a change of load on this shared machine between the two blocks moves
# their ratio; a pair shares its moment. Both read `json` and write to /dev/null.
paired() { # ours floor json pairs
  local ours=$1 floor=$2 json=$3 pairs=$4 i t0 t1 t2 ratios=()
  for ((i = 0; i < pairs; i++)); do
    if ((i % 2)); then
      t0=$EPOCHREALTIME; "$floor" <"$json" >/dev/null 2>&1; t1=$EPOCHREALTIME
      "$ours" <"$json" >/dev/null 2>&1; t2=$EPOCHREALTIME
      ratios+=("$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.5f", (c - b) / (b - a) }')")
    else
      t0=$EPOCHREALTIME; "$ours" <"$json" >/dev/null 2>&1; t1=$EPOCHREALTIME
      "$floor" <"$json" >/dev/null 2>&1; t2=$EPOCHREALTIME
      ratios+=("$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.5f", (b - a) / (c - b) }')")
    fi
  done
  printf '%s\n' "${ratios[@]}" | sort -n |
    awk '{ r[NR] = $1 } END { printf "%.2f", (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }'
}

results=$out/results.md
: >"$results"
say() { echo "$*" | tee -a "$results"; }

say "## Machine"
say ""
say "- $(nproc) cores: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
say "- load before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
say "- $runs runs per command (medians), $(awk -F'"' '/^version/ { print "mdbook-contract " $2; exit }' Cargo.toml), $(rustc --version)"
say ""

# --- 1. preprocess vs the floor --------------------------------------------------------------
say "## Preprocess vs the floor"
say ""
say "| chapters | Markdown | input JSON | floor (a) serde | floor (b) + parse | ours | ours / (b) | ours / (b), paired | ours, 1 thread | ours s/MB |"
say "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
declare -A per_mb
for n in 10 100 1000; do
  json=$out/input-$n.json
  $bin/bench_gen contract "$n" "$out/book-$n" "$json"
  md_bytes=$(find "$out/book-$n/src" -name '*.md' ! -name SUMMARY.md -printf '%s\n' | awk '{ s += $1 } END { print s }')
  json_bytes=$(stat -c %s "$json")
  cat "$json" >/dev/null # warm the page cache
  bench "pre-$n" -n serde -n parse -n ours -n ours-1-thread \
    "$bin/floor_serde < $json > /dev/null" \
    "$bin/floor_parse < $json > /dev/null" \
    "$ours < $json > /dev/null 2>&1" \
    "MDBOOK_CONTRACT_THREADS=1 $ours < $json > /dev/null 2>&1"
  csv=$out/pre-$n.csv
  a=$(awk -F, 'NR == 2 { print $4 }' "$csv")
  b=$(awk -F, 'NR == 3 { print $4 }' "$csv")
  o=$(awk -F, 'NR == 4 { print $4 }' "$csv")
  o1=$(awk -F, 'NR == 5 { print $4 }' "$csv")
  per_mb[$n]=$(awk -v t="$o" -v b="$md_bytes" 'BEGIN { printf "%.5f", t / (b / 1e6) }')
  pairs=$((n == 1000 ? runs : runs * 3))
  p=$(paired "$ours" "$bin/floor_parse" "$json" "$pairs")
  say "| $n | $(mb "$md_bytes") MB | $(mb "$json_bytes") MB | $(ms "$a") ms | $(ms "$b") ms | $(ms "$o") ms | **$(ratio "$o" "$b")x** | **${p}x** ($pairs pairs) | $(ms "$o1") ms | ${per_mb[$n]} |"
done
say ""
say "Linearity: time per MB at 1,000 chapters / at 10 chapters = **$(ratio "${per_mb[1000]}" "${per_mb[10]}")** (100 vs 10: $(ratio "${per_mb[100]}" "${per_mb[10]}"))."
say ""

# --- 4. memory (here, since the inputs are there) --------------------------------------------
json=$out/input-100.json
json_bytes=$(stat -c %s "$json")
rss_kb=0
for _ in 1 2 3; do
  /usr/bin/time -v -o "$out/time-v.txt" "$ours" <"$json" >/dev/null 2>"$out/ours-100.err"
  kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$out/time-v.txt")
  ((kb > rss_kb)) && rss_kb=$kb
done
floor_kb=0
for _ in 1 2 3; do
  /usr/bin/time -v -o "$out/time-v.txt" $bin/floor_serde <"$json" >/dev/null
  kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$out/time-v.txt")
  ((kb > floor_kb)) && floor_kb=$kb
done
say "## Memory"
say ""
say "Peak RSS at 100 chapters (largest of 3 runs): ours $(mb $((rss_kb * 1024))) MB, floor (a) $(mb $((floor_kb * 1024))) MB; input JSON $(mb "$json_bytes") MB: ours / input = **$(ratio $((rss_kb * 1024)) "$json_bytes")x**."
say ""

# --- instruction counts (not disturbed by other load) ----------------------------------------
if [ "${BENCH_CALLGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
  json=$out/input-100.json
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null <"$json" |
    awk '/Collected/ { print $NF }'; }
  ia=$(count $bin/floor_serde)
  ib=$(count $bin/floor_parse)
  io=$(count "$ours")
  say "## Instructions (callgrind, 100 chapters, all threads)"
  say ""
  say "| floor (a) | floor (b) | ours | ours / (b) |"
  say "|---:|---:|---:|---:|"
  say "| $(mb "$ia") M | $(mb "$ib") M | $(mb "$io") M | **$(ratio "$io" "$ib")x** |"
  say ""
fi

# --- 2. source index vs grep -----------------------------------------------------------------
lists=$out/golists
$bin/bench_gen go "$go_src" "$out/gobook" "$lists" >/dev/null
cat >"$out/grep-loop.sh" <<EOF
#!/usr/bin/env bash
# The plan's method: one grep per cited word, one test per cited path.
while read -r word; do grep -rqw --include='*.go' -- "\$word" $go_src || echo "missing \$word"; done <$lists/words.txt
while read -r path; do test -e "$go_src/\$path" || echo "missing \$path"; done <$lists/paths.txt
EOF
chmod +x "$out/grep-loop.sh"
"$ours" check "$out/gobook" >/dev/null # fails the script if a citation is not found
rg -q -g '*.go' zzz-warm-the-cache "$go_src" || true
bench go -n ours -n grep-loop -n ripgrep \
  "$ours check $out/gobook --format short" \
  "$out/grep-loop.sh" \
  "rg -wF -f $lists/words.txt -g '*.go' -o -N --no-filename $go_src | sort -u > /dev/null"
o=$(awk -F, 'NR == 2 { print $4 }' "$out/go.csv")
g=$(awk -F, 'NR == 3 { print $4 }' "$out/go.csv")
r=$(awk -F, 'NR == 4 { print $4 }' "$out/go.csv")
go_mb=$(du -sb "$go_src" | cut -f1)
say "## Source index vs grep ($(wc -l <"$lists/words.txt") words of 200 symbols, 100 paths, $(mb "$go_mb") MB of Go sources)"
say ""
say "| ours (\`check\`) | grep loop | one ripgrep pass | ours / ripgrep | grep loop / ours |"
say "|---:|---:|---:|---:|---:|"
say "| $(ms "$o") ms | $(ms "$g") ms | $(ms "$r") ms | **$(ratio "$o" "$r")x** | $(ratio "$g" "$o")x |"
say ""

# --- 2b. source index with rule citations vs one ripgrep pass ------------------------------
# A copy of the Go sources, 500 of whose files cite a rule in a comment, and the Go book with a
# contract chapter defining the 500 rules: the citations are found in the source index's one
# pass, beside the symbols; the floor is one ripgrep pass for the same words and the two verbs.
rules_tree=$out/gosrc-rules
rules_lists=$out/ruleslists
$bin/bench_gen rules "$go_src" "$rules_tree" "$out/rulesbook" "$rules_lists" >/dev/null
"$ours" check "$out/rulesbook" >/dev/null # fails the script if a citation names no rule
rg -q -g '*.go' zzz-warm-the-cache "$rules_tree" || true
bench rules -n ours -n ripgrep \
  "$ours check $out/rulesbook --format short" \
  "rg -F -f $rules_lists/patterns.txt -g '*.go' -o -N --no-filename $rules_tree | sort -u > /dev/null"
o=$(awk -F, 'NR == 2 { print $4 }' "$out/rules.csv")
r=$(awk -F, 'NR == 3 { print $4 }' "$out/rules.csv")
rules_mb=$(du -sb "$rules_tree" | cut -f1)
say "## Source index with 500 rule citations vs one ripgrep pass ($(mb "$rules_mb") MB of Go sources)"
say ""
say "| ours (\`check\`, 500 rules, 200 symbols, 100 paths) | one ripgrep pass (words and verbs) | ours / ripgrep |"
say "|---:|---:|---:|"
say "| $(ms "$o") ms | $(ms "$r") ms | **$(ratio "$o" "$r")x** |"
say ""

# --- 3. whole build --------------------------------------------------------------------------
# The book of this repository, built with the preprocessor, without it, with a preprocessor
# that does nothing (floor (a) again: what running any preprocessor costs), and without one but
# from chapters the preprocessor has already expanded (what rendering its output costs).
for variant in with without null; do
  dir=$out/build-$variant
  rm -rf "$dir"
  mkdir -p "$dir"
  cp -r book "$dir/book"
  cp mdbook-contract.css mdbook-contract.js "$dir/"
  if [ $variant = with ]; then
    # The book alone: its companions (README.md and the like) link to files not copied here.
    grep -v '^companions = ' book.toml >"$dir/book.toml"
  else
    # book.toml without the [preprocessor.contract] tables.
    awk '/^\[/ { skip = ($0 ~ /^\[preprocessor\.contract[].]/) } !skip' book.toml >"$dir/book.toml"
  fi
  if [ $variant = null ]; then
    printf '\n[preprocessor.null]\ncommand = "%s"\n' "$PWD/$bin/floor_serde" >>"$dir/book.toml"
  fi
done
$bin/bench_gen expand . "$out/build-expanded"
cp mdbook-contract.css mdbook-contract.js "$out/build-expanded/"
export PATH="$PWD/$bin:$tools/bin:$PATH"
build_runs=$((runs * 3))
runs=$build_runs bench build -n with -n without -n null -n expanded \
  "mdbook build $out/build-with" \
  "mdbook build $out/build-without" \
  "mdbook build $out/build-null" \
  "mdbook build $out/build-expanded"
w=$(awk -F, 'NR == 2 { print $4 }' "$out/build.csv")
wo=$(awk -F, 'NR == 3 { print $4 }' "$out/build.csv")
wn=$(awk -F, 'NR == 4 { print $4 }' "$out/build.csv")
we=$(awk -F, 'NR == 5 { print $4 }' "$out/build.csv")
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", (a / b - 1) * 100 }'; }
# The preprocessor alone on the same book, through the protocol.
$bin/bench_gen json . "$out/input-repo.json"
bench repo -n ours -n parse \
  "$ours < $out/input-repo.json > /dev/null 2>&1" \
  "$bin/floor_parse < $out/input-repo.json > /dev/null"
ro=$(awk -F, 'NR == 2 { print $4 }' "$out/repo.csv")
rp=$(awk -F, 'NR == 3 { print $4 }' "$out/repo.csv")
say "## Whole build (\`mdbook build\` of this repository's book, $build_runs runs)"
say ""
say "| with the preprocessor | without | with one that does nothing | without, from expanded chapters | added by ours | added by any |"
say "|---:|---:|---:|---:|---:|---:|"
say "| $(ms "$w") ms | $(ms "$wo") ms | $(ms "$wn") ms | $(ms "$we") ms | **$(pct "$w" "$wo")** | $(pct "$wn" "$wo") |"
say ""
say "The preprocessor alone on this book (protocol, $(mb "$(stat -c %s "$out/input-repo.json")") MB of JSON): $(ms "$ro") ms; floor (b) $(ms "$rp") ms."
say ""
# --- 5. whole build of a real book -------------------------------------------------------------
# A real book has no shortcodes: what the preprocessor adds there is reading and checking. The
# book's own preprocessors are left out of both variants (they are not this project's code);
# the checks whose findings a book written in another style trips over (`em-dash`,
# `line-reference`) are turned off, so that the build succeeds as it would for an adopter.
if [ -n "${BENCH_REAL_BOOK:-}" ]; then
  real=$out/real
  rm -rf "$real"
  mkdir -p "$real"
  for variant in with null; do
    dir=$real/$variant
    cp -r "$BENCH_REAL_BOOK" "$dir"
    rm -rf "$dir/.git"
    awk '/^\[/ { skip = ($0 ~ /^\[preprocessor\./) } !skip' "$BENCH_REAL_BOOK/book.toml" >"$dir/book.toml"
    if [ $variant = with ]; then
      printf '\n[preprocessor.contract]\ncommand = "%s"\nafter = ["links"]\n\n[preprocessor.contract.checks]\nem-dash = "off"\nline-reference = "off"\n' "$PWD/$ours" >>"$dir/book.toml"
    else
      printf '\n[preprocessor.null]\ncommand = "%s"\n' "$PWD/$bin/floor_serde" >>"$dir/book.toml"
    fi
  done
  md_bytes=$(find "$real/with/src" -name '*.md' -printf '%s\n' | awk '{ s += $1 } END { print s }')
  runs=$build_runs bench real -n with -n null \
    "mdbook build $real/with" \
    "mdbook build $real/null"
  w=$(awk -F, 'NR == 2 { print $4 }' "$out/real.csv")
  wn=$(awk -F, 'NR == 3 { print $4 }' "$out/real.csv")
  say "## Whole build of a real book (\`$(basename "$BENCH_REAL_BOOK")\`, $(mb "$md_bytes") MB of Markdown, $build_runs runs)"
  say ""
  say "| with the preprocessor | with one that does nothing | added by ours |"
  say "|---:|---:|---:|"
  say "| $(ms "$w") ms | $(ms "$wn") ms | **$(pct "$w" "$wn")** |"
  say ""
fi

# --- 6. the language server ------------------------------------------------------------------
# How long after an edit the edited chapter's diagnostics arrive, on this repository's book
# (the release binary over stdio, driven as an editor drives it; see bench/src/bin/lsp_latency.rs).
say "## Language server (diagnostics after an edit, this repository's book)"
say ""
for chapter in book/provider-contract.md book/providers-existing.md; do
  say "- $(RUNS=20 MDBOOK_CONTRACT=$bin/mdbook-contract $bin/lsp_latency . "$chapter")"
done
say ""

say "load after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(written to $results; hyperfine's logs and CSVs are beside it)" >&2
