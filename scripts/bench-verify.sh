#!/usr/bin/env bash
# Measures verify-all on a generated large repository (10,000 source files,
# 2,000 memories x 5 citations, 10% stale) against the cost of reading the
# cited files with cat, and --staged against the working tree.
#   scripts/bench-verify.sh [RUNS]    (default 15; prints medians)
# FROM=<clone> uses an existing repository instead of the generated source
# files: genrepo -from clones it and adds the memories, citing its files.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-15}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/git-memcite" ./cmd/git-memcite
go run ./scripts/genrepo ${FROM:+-from "$FROM"} -out "$work/repo" -list "$work/cited.txt"
cd "$work/repo"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timeit() { # prints the median wall time in ms of a command over $runs runs
  for _ in $(seq "$runs"); do
    s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | median | awk '{printf "%.1f", $1/1000}'
}
# flush the freshly written repository to disk and let the machine settle:
# for ~20 s after writing 12,000 files, the kernel's writeback work slows
# every read by a third (measured: 156 ms right after generation, 91 ms
# 20 s later, same binary and repository)
sync
sleep "${SETTLE:-30}"
cat $(cat "$work/cited.txt") >/dev/null
for _ in 1 2 3 4 5; do "$work/git-memcite" verify-all >/dev/null 2>&1 || true; done

wt=$(timeit "$work/git-memcite" verify-all)
st=$(timeit "$work/git-memcite" verify-all --staged)
catms=$(timeit sh -c "xargs cat < '$work/cited.txt' > /dev/null")
rss=$( { /usr/bin/time -f 'rss=%M' "$work/git-memcite" verify-all >/dev/null; } 2>&1 | sed -n 's/^rss=//p' || true)
{ "$work/git-memcite" verify-all --quiet || true; } | tail -1
echo "verify-all (working tree): ${wt} ms (median of $runs)"
echo "verify-all --staged:       ${st} ms"
echo "cat of the cited files:    ${catms} ms ($(wc -l < "$work/cited.txt") files)"
echo "peak RSS (working tree):   ${rss} KB"
awk -v w="$wt" -v s="$st" -v c="$catms" 'BEGIN { printf "ratio working tree / cat: %.2f; staged / working tree: %.2f\n", w/c, s/w }'
