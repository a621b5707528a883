#!/usr/bin/env bash
# bench-backend.sh: verify-all --staged with the in-process object reader
# (a SHA-1 repository) against the git-binary reader (the same content in a
# SHA-256 repository, which go-git cannot read).
#
# It generates the benchmark repository (scripts/genrepo: 10,000 source
# files, 2,000 memories x 5 citations), copies its working tree into two
# fresh repositories, one per object format, each made with one `git add -A`
# and one commit, and prints the median wall time of RUNS runs of
# `git memcite verify-all --staged` in each, interleaved, and their ratio.
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
go run ./scripts/genrepo -out "$work/gen" >/dev/null
for fmt in sha1 sha256; do
  git init -q --object-format=$fmt "$work/$fmt"
  (cd "$work/gen" && git ls-files -z | xargs -0 cp --parents -t "$work/$fmt")
  (cd "$work/$fmt" && git add -A && git commit -q -m import)
done
sync
sleep "${SETTLE:-10}"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for fmt in sha1 sha256; do : >"$work/$fmt.times"; done
for _ in $(seq "$runs"); do
  for fmt in sha1 sha256; do
    s=$(date +%s%N)
    (cd "$work/$fmt" && "$work/git-memcite" verify-all --staged >/dev/null 2>&1 || true)
    e=$(date +%s%N)
    echo $(( (e - s) / 1000 )) >>"$work/$fmt.times"
  done
done
a=$(median <"$work/sha1.times")
b=$(median <"$work/sha256.times")
(cd "$work/sha256" && "$work/git-memcite" verify-all --staged --quiet | tail -1) || true
awk -v a="$a" -v b="$b" 'BEGIN { printf "verify-all --staged, sha1 (go-git in-process): %.1f ms\nverify-all --staged, sha256 (git cat-file):    %.1f ms\nratio sha256 / sha1: %.2f\n", a/1000, b/1000, b/a }'
