#!/usr/bin/env bash
# Builds (or serves) the book at the repository root with the pinned mdBook and this
# preprocessor, installing both into target/tools on first use.
#
#   scripts/book.sh            build the HTML into target/book, from scratch
#   scripts/book.sh serve      serve it with live reload while editing, from target/serve
#   scripts/book.sh check      run every check without rendering
#
# Under `mdbook serve` each page with findings shows a panel at its top; serving writes to
# target/serve, so such pages never end up in target/book, which is what gets published.
set -euo pipefail
cd "$(dirname "$0")/.."

MDBOOK_VERSION=0.5.4
tools="$PWD/target/tools"
export PATH="$tools/bin:$PATH"

if ! mdbook --version 2>/dev/null | grep -qx "mdbook v$MDBOOK_VERSION"; then
  echo "installing mdBook $MDBOOK_VERSION into $tools (a few minutes, once)" >&2
  cargo install mdbook --version "$MDBOOK_VERSION" --locked --root "$tools"
fi
# The preprocessor is built from this checkout each time: `cargo build` with the committed
# lock asks no registry once the crates are downloaded, so a second run needs no network and
# takes seconds when nothing changed (the first time, cargo shows its progress).
cargo build --release --locked --bin mdbook-contract
mkdir -p "$tools/bin"
cp -p target/release/mdbook-contract "$tools/bin/mdbook-contract"
echo "mdbook-contract is $tools/bin/mdbook-contract; to run it by name (\`mdbook-contract new-spec TYPE\`), add its folder to PATH: export PATH=\"$tools/bin:\$PATH\"" >&2

case "${1:-build}" in
  build)
    rm -rf target/book
    mdbook build
    ;;
  serve)
    shift
    # ${1+"$@"}: bash 3.2 (macOS's) takes an empty "$@" for an unset variable under `set -u`.
    mdbook serve --dest-dir target/serve ${1+"$@"}
    ;;
  check)
    shift
    mdbook-contract check . ${1+"$@"}
    ;;
  *)
    echo "usage: scripts/book.sh [build|serve|check]" >&2
    exit 2
    ;;
esac
