#!/usr/bin/env bash
# check-packs.sh: reads every object of a clone through git-memcite's own
# pack reader and compares it with what `git cat-file` gives; prints how
# many were read in-process, how many are left to git and why, and the
# time per object.
#
# Usage: scripts/check-packs.sh <clone>
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 <clone>" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
clone=$(cd "$1" && pwd)
cd "$root"
MEMCITE_PACK_REPO="$clone" go test ./internal/gitrepo -run '^TestPackedObjectsOfRepo$' -count=1 -v | grep -v '^=== RUN'
