#!/usr/bin/env bash
# Counts the product Go lines of a revision (default: the working tree as
# committed, HEAD): .go files that are not tests, outside test support
# (internal/testing/, scripts/). Used to compare two revisions:
#   scripts/product-lines.sh [REV ...]
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 0 ] && set -- HEAD
for rev in "$@"; do
  n=$(git ls-tree -r --name-only "$rev" | grep '\.go$' | grep -v '_test\.go$' | grep -v '^internal/testing/\|^scripts/' |
    sed "s|^|$rev:|" | xargs git show | wc -l)
  printf '%s\t%s\n' "$rev" "$n"
done
