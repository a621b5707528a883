#!/usr/bin/env bash
# Measures `git memcite graph <root> --max-depth 3` on generated stores of
# 100,000 memories (three links each, 200 folders), listing included:
#   1. every link target resolves by file name (the common case);
#   2. one memory in 50 has a dangling link, which makes the first such
#      target scan every memory's frontmatter id.
#   scripts/bench-graph.sh [RUNS]    (default 15; prints medians)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/git-memcite" ./cmd/git-memcite
go run ./scripts/genrepo -out "$work/clean" -graph
go run ./scripts/genrepo -out "$work/dangling" -graph -graph-dangling 50

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timeit() { # median wall time in ms over $runs runs, a different root each run
  local dir=$1
  for i in $(seq "$runs"); do
    root=$(printf 'mem-%06d' $(( (i * 7919) % 99000 + 1 )))
    s=$(date +%s%N); "$work/git-memcite" graph "$root" --max-depth 3 --repo-root "$dir" >/dev/null; e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | median | awk '{printf "%.1f", $1/1000}'
}
sync # let the generated files reach the disk before timing
"$work/git-memcite" graph mem-000001 --repo-root "$work/clean" >/dev/null # warm the page cache
"$work/git-memcite" graph mem-000001 --repo-root "$work/dangling" >/dev/null
echo "graph --max-depth 3, 100,000 memories, targets by file name: $(timeit "$work/clean") ms (median of $runs)"
echo "same with dangling links (1 in 50 memories):                 $(timeit "$work/dangling") ms"
s=$(date +%s%N); "$work/git-memcite" graph --cycles --repo-root "$work/clean" >/dev/null || true; e=$(date +%s%N)
echo "graph --cycles (reads and parses every memory):              $(( (e - s) / 1000000 )) ms"
