#!/usr/bin/env bash
# bench-backend.sh: the index and refs read in-process against
# MEMCITE_BACKEND=git (git's commands read them: git ls-files, git
# rev-parse, git diff-index), and a SHA-256 repository, for
# `git memcite verify-all --staged` and `git memcite relocate`. Objects
# are read through git cat-file --batch in all three.
#
# It generates the benchmark repository (scripts/genrepo: 10,000 source
# files, 2,000 memories x 5 citations), copies its working tree into two
# fresh repositories, one per object format, each made with one `git add -A`
# and one commit, and prints the median wall time of RUNS runs of each
# command in three setups, interleaved: SHA-1 with the index and refs read
# in-process, SHA-1 with MEMCITE_BACKEND=git, SHA-256 (in-process), and
# the ratio of each to the first.
# FROM=<clone> uses an existing repository's files instead of generated
# ones (genrepo -from clones it and adds the memories).
#
# Usage: scripts/bench-backend.sh [RUNS]   (default 11)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
go build -o "$work/git-memcite" ./cmd/git-memcite
go run ./scripts/genrepo ${FROM:+-from "$FROM"} -out "$work/gen" >/dev/null
for fmt in sha1 sha256; do
  git init -q --object-format=$fmt "$work/$fmt"
  (cd "$work/gen" && git ls-files -z | xargs -0 cp --parents -t "$work/$fmt")
  (cd "$work/$fmt" && git add -A && git commit -q -m import)
done
sync
sleep "${SETTLE:-10}"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
setups=("sha1 in-process" "sha1 git" "sha256 in-process")
for cmd in "verify-all --staged" "relocate"; do
  for i in 0 1 2; do : >"$work/times.$i"; done
  for _ in $(seq "$runs"); do
    for i in 0 1 2; do
      set -- ${setups[$i]}
      backend=
      [ "$1" = sha1 ] && [ "$2" = git ] && backend=git
      s=$(date +%s%N)
      # shellcheck disable=SC2086 # $cmd is a command and its flags
      (cd "$work/$1" && MEMCITE_BACKEND=$backend "$work/git-memcite" $cmd >/dev/null 2>&1 || true)
      e=$(date +%s%N)
      echo $(( (e - s) / 1000 )) >>"$work/times.$i"
    done
  done
  base=$(median <"$work/times.0")
  for i in 0 1 2; do
    t=$(median <"$work/times.$i")
    awk -v c="$cmd" -v s="${setups[$i]}" -v t="$t" -v b="$base" 'BEGIN { printf "%-20s %-12s %8.1f ms  %.2fx\n", c, s, t/1000, t/b }'
  done
done
