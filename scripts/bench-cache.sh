#!/usr/bin/env bash
# Measures the verification cache (docs/cache.md): verify-all with the
# cache cold (removed before every run), warm (nothing changed since the
# last run: the kept run is replayed), warm with a line added to a cited
# file before every run (the kept run misses: the verification cache
# answers)
# and off (--no-cache), against main's binary, `cat` of the
# cited files and `git status`, on two generated repositories:
#   - the 11k-file corpus: 10,000 source files, 2,000 memories x 5 citations
#   - a 50,000-memory x 5-citation store, where health and graph
#     (--cycles, find-roots: every memory parsed) are measured too, and
#     health and verify-all --rev HEAD with the cache cold as well (the
#     runs that fill it hold the most)
# with the CPU time (user + system) and peak RSS (/usr/bin/time) of one run
# of each command: on a loaded shared machine the CPU time is the steadier
# figure.
#   scripts/bench-cache.sh [RUNS]    (default 7; prints medians)
# BASE=<rev> compares with another revision than main; CORPORA="small"
# measures the 11k-file corpus only ("attrs": the same corpus with a
# .gitattributes like the Go tree's, * -text); RELOCATE=1 adds relocate
# (no --fix) on the 50,000-memory store.
# FROM=<clone> uses an existing repository (a clone of a public one)
# instead of the generated source files: genrepo -from clones it and adds
# the memories (2,000 or 50,000 x 5 citations) citing its files.
# GENFLAGS=-no-snippets writes every citation as a shorthand path:N
# (judged by line identity).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
base=${BASE:-main}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/new" ./cmd/git-memcite
mkdir "$work/base-src"
git archive "$base" | tar -x -C "$work/base-src"
(cd "$work/base-src" && go build -o "$work/old" ./cmd/git-memcite)
from=()
corpora=${CORPORA:-small attrs large}
if [ -n "${FROM:-}" ]; then
  from=(-from "$FROM")
  corpora=${corpora/attrs/} # a clone has the .gitattributes it has
fi
go run ./scripts/genrepo ${GENFLAGS:-} "${from[@]}" -out "$work/small" -list "$work/small.txt" >/dev/null
case " $corpora " in
*" attrs "*) go run ./scripts/genrepo ${GENFLAGS:-} "${from[@]}" -gitattributes -out "$work/attrs" -list "$work/attrs.txt" >/dev/null ;;
esac
case " $corpora " in
*" large "*) go run ./scripts/genrepo ${GENFLAGS:-} "${from[@]}" -out "$work/large" -memories 50000 -citations 5 -list "$work/large.txt" >/dev/null ;;
esac
sync
sleep "${SETTLE:-20}"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# timeit PREP CMD...: median wall ms of CMD over $runs runs, PREP run before each
timeit() {
  local prep=$1; shift
  for _ in $(seq "$runs"); do
    eval "$prep"
    s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | median | awk '{printf "%.1f", $1/1000}'
}
# ratio A B: the median, over 3 x $runs pairs run one right after the
# other, of the wall time of command A over that of command B (each
# evaluated by this shell): a ratio taken moment by moment, which a shared
# machine's drift between two rows does not move (times from bash's clock,
# which forks nothing; bash 5)
ratio() {
  for _ in $(seq $((3 * runs))); do
    s=${EPOCHREALTIME/./}; eval "$1" >/dev/null 2>&1 || true; m=${EPOCHREALTIME/./}
    eval "$2" >/dev/null 2>&1 || true; e=${EPOCHREALTIME/./}
    echo "$(( (m - s) * 1000 / (e - m) ))"
  done | median | awk '{printf "%.2f", $1/1000}'
}
usage() { # CPU seconds (user + system) and peak RSS in MB of one run (after PREP)
  local prep=$1; shift
  eval "$prep"
  /usr/bin/time -o "$work/rss" -f '%U %S %M' "$@" >/dev/null 2>&1 || true
  awk 'NF == 3 && $3 ~ /^[0-9]+$/ {printf "%9.2f | %6.0f", $1 + $2, $3 / 1024}' "$work/rss"
}
row() { # name prep cmd...
  local name=$1 prep=$2; shift 2
  printf "| %-44s | %9s | %s |\n" "$name" "$(timeit "$prep" "$@")" "$(usage "$prep" "$@")"
}
nocold=':'
cold='rm -rf .git/memcite' # the cache and the kept runs
edited='echo >> "$(head -1 "$work/$corpus.txt")"' # a cited file grows a line: the kept run is asked again and misses

for corpus in $corpora; do
  cd "$work/$corpus"
  xargs cat < "$work/$corpus.txt" >/dev/null
  for _ in 1 2 3; do "$work/new" verify-all >/dev/null 2>&1 || true; git status >/dev/null; done
  echo
  echo "### $corpus${FROM:+ (from $(basename "$FROM"))}: $(git ls-files .serena/memories | wc -l) memories, $(wc -l < "$work/$corpus.txt") cited files, $(git ls-files | wc -l) tracked files"
  echo
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| command                                      | median ms |   CPU s | RSS MB |"
  echo "|----------------------------------------------|-----------|---------|--------|"
  row "verify-all ($base's binary)" "$nocold" "$work/old" verify-all
  row "verify-all --no-cache" "$nocold" "$work/new" --no-cache verify-all
  row "verify-all, cache cold" "$cold" "$work/new" verify-all
  "$work/new" verify-all >/dev/null 2>&1 || true
  row "verify-all, cache warm" "$nocold" "$work/new" verify-all
  row "verify-all, a cited file edited ($base's binary)" "$edited" "$work/old" verify-all
  row "verify-all, cache warm, a cited file edited" "$edited" "$work/new" verify-all
  row "verify-all --staged ($base's binary)" "$nocold" "$work/old" verify-all --staged
  row "verify-all --staged, cache warm" "$nocold" "$work/new" verify-all --staged
  row "verify-all --rev HEAD ($base's binary)" "$nocold" "$work/old" verify-all --rev HEAD
  row "verify-all --rev HEAD, cache warm" "$nocold" "$work/new" verify-all --rev HEAD
  row "cat of the cited files" "$nocold" sh -c "xargs cat < '$work/$corpus.txt'"
  row "git status" "$nocold" git status
  echo
  echo "warm verify-all / git status, alternated pair by pair: $(ratio "'$work/new' verify-all" "git status")×;" \
    "/ cat of the cited files: $(ratio "'$work/new' verify-all" "xargs cat < '$work/$corpus.txt'")×"
  echo
  if [ "$corpus" = large ]; then
    row "health ($base's binary)" "$nocold" "$work/old" health
    row "health, cache warm" "$nocold" "$work/new" health
    row "graph --cycles ($base's binary)" "$nocold" "$work/old" graph --cycles
    row "graph --cycles, cache warm" "$nocold" "$work/new" graph --cycles
    row "graph find-roots ($base's binary)" "$nocold" "$work/old" graph find-roots
    row "graph find-roots, cache warm" "$nocold" "$work/new" graph find-roots
    row "health, cache cold" "$cold" "$work/new" health
    row "verify-all --rev HEAD, cache cold" "$cold" "$work/new" verify-all --rev HEAD
    if [ "${RELOCATE:-0}" = 1 ]; then # ~15 s a run: asked for
      row "relocate ($base's binary)" "$nocold" "$work/old" relocate
      row "relocate, cache warm" "$nocold" "$work/new" relocate
      row "relocate, cache cold" "$cold" "$work/new" relocate
    fi
  fi
  echo
  echo "cache: $(du -h .git/memcite/cache | cut -f1)"
done
