#!/usr/bin/env bash
# A change to src/ since the newest release section of CHANGELOG.md comes with at least one
# line under `## [Unreleased]` (run by .ci/run). Refactors need no line of their own, so this
# asks only that the section is not empty once src/ moved on.
set -euo pipefail
cd "$(dirname "$0")/.."

release=$(grep -m1 -oE '^## \[[0-9]+\.[0-9]+\.[0-9]+\]' CHANGELOG.md || true)
if [ -z "$release" ]; then
  echo "CHANGELOG.md has no release section (## [X.Y.Z] - DATE)" >&2
  exit 1
fi
# The commit that wrote the release's heading.
since=$(git log -1 --format=%H -S"$release" -- CHANGELOG.md 2>/dev/null || true)
if [ -z "$since" ]; then
  echo "changelog-check: the commit that wrote \"$release\" is not in this clone's history (a shallow clone?); not checked"
  exit 0
fi
if git diff --quiet "$since" HEAD -- src/; then
  exit 0
fi
unreleased=$(awk '/^## \[Unreleased\]/ { inside = 1; next } /^## / { inside = 0 } inside && /^- /' CHANGELOG.md)
if [ -z "$unreleased" ]; then
  echo "src/ changed since ${release#\#\# } (commit ${since:0:8}) but CHANGELOG.md's [Unreleased] section has no line: say what a user sees change, and its level (major, minor, patch)" >&2
  exit 1
fi
