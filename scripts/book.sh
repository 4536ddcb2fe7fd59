#!/usr/bin/env bash
# Builds (or serves) the book at the repository root with the pinned mdBook and this
# preprocessor, installing both into target/tools on first use.
#
#   scripts/book.sh            build the HTML into target/book
#   scripts/book.sh serve      serve it with live reload while editing
#   scripts/book.sh check      run every check without rendering
set -euo pipefail
cd "$(dirname "$0")/.."

MDBOOK_VERSION=0.5.4
tools="$PWD/target/tools"
export PATH="$tools/bin:$PATH"

if ! mdbook --version 2>/dev/null | grep -qx "mdbook v$MDBOOK_VERSION"; then
  echo "installing mdBook $MDBOOK_VERSION into $tools (a few minutes, once)" >&2
  cargo install mdbook --version "$MDBOOK_VERSION" --locked --root "$tools"
fi
# The preprocessor is rebuilt from this checkout each time (fast when nothing changed).
cargo install --path . --locked --root "$tools" --target-dir target --quiet

case "${1:-build}" in
  build) mdbook build ;;
  serve) shift; mdbook serve "$@" ;;
  check) shift; mdbook-contract check . "$@" ;;
  *) echo "usage: scripts/book.sh [build|serve|check]" >&2; exit 2 ;;
esac
