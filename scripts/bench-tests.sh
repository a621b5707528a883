#!/usr/bin/env bash
# bench-tests.sh: the wall time of the README's test command, `go test
# ./...`, on this tree against BASE, alternated on the same machine.
#
# It clones this repository at BASE into a temporary directory (a local
# clone: some tests need a git checkout of the source), compiles the
# tests of both trees once (so that only running them is timed), then
# runs `go test -count=1 ./...` ROUNDS times in each tree, alternating,
# with a pause between runs (file systems that slow down creating files
# right after many were deleted, as ext4 does, would otherwise charge one
# tree for the other's clean-up). CI and MEMCITE_TEST_LONG are unset: the
# plain suite is timed, as a developer runs it. (Tools installed into
# .cache/ by scripts/ci-deps.sh are not in the clone: a BASE whose plain
# suite ran the hook managers skips those scripts.)
#
# It then times, in this tree, two parts of the suite that no test can
# make cheaper: linking the test binaries and starting each with no test
# to run (`go test -count=1 -run '^$' ./...`), and the end-to-end scripts
# alone (`go test -count=1 -run '^TestScript$' ./cmd/git-memcite`), and
# the two together, beside 60% of the base's median (the target set for
# the suite's wall time).
#
# Usage: scripts/bench-tests.sh [ROUNDS]   (default 3; env BASE, default
#        546e335; PAUSE seconds between runs, default 30)
set -euo pipefail
trap 'echo "bench-tests.sh: failed at line $LINENO" >&2' ERR

ROUNDS=${1:-3}
BASE=${BASE:-546e335}
PAUSE=${PAUSE:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-tests.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset CI MEMCITE_TEST_LONG GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE

git clone -q --no-checkout "$root" "$work/base"
git -C "$work/base" checkout -q --detach "$(git -C "$root" rev-parse "$BASE")"
base_rev=$(git -C "$root" rev-parse --short "$BASE")
this_rev="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . || echo +changes)"
for d in "$work/base" "$root"; do
	(cd "$d" && go test -count=1 -run '^$' ./... >/dev/null)
done

run() { # run the suite in $1 (go test -count=1 ARGS..., default ./...), print its wall time in seconds
	local s e dir=$1
	shift
	[ $# -gt 0 ] || set -- ./...
	s=$(date +%s%N)
	if ! (cd "$dir" && go test -count=1 "$@" >"$work/last.log" 2>&1); then
		echo "go test failed in $dir:" >&2
		grep -v '^ok' "$work/last.log" >&2
		exit 1
	fi
	e=$(date +%s%N)
	awk -v n=$((e - s)) 'BEGIN { printf "%.1f\n", n / 1e9 }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

: >"$work/b" && : >"$work/a"
for i in $(seq "$ROUNDS"); do
	sleep "$PAUSE"
	run "$work/base" >>"$work/b"
	sleep "$PAUSE"
	run "$root" >>"$work/a"
done
b=$(median <"$work/b") && a=$(median <"$work/a")
echo "go test -count=1 ./..., $(nproc) cores, $ROUNDS rounds alternated, ${PAUSE}s apart"
echo "| tree | runs (s) | median |"
echo "| --- | --- | --- |"
echo "| $BASE ($base_rev) | $(paste -sd' ' "$work/b") | $b s |"
echo "| this tree ($this_rev) | $(paste -sd' ' "$work/a") | $a s |"
awk -v a="$a" -v b="$b" 'BEGIN { printf "this tree / base: %.0f%%\n", 100 * a / b }'

: >"$work/links" && : >"$work/scripts" && : >"$work/both"
for i in $(seq "$ROUNDS"); do
	sleep "$PAUSE"
	run "$root" -run '^$' ./... >>"$work/links"
	run "$root" -run '^TestScript$' ./cmd/git-memcite >>"$work/scripts"
	run "$root" -run '^(TestScript)?$' ./... >>"$work/both"
done
echo
echo "| this tree, part of the suite | runs (s) | median |"
echo "| --- | --- | --- |"
echo "| links and starts, no test (-run '^\$') | $(paste -sd' ' "$work/links") | $(median <"$work/links") s |"
echo "| the end-to-end scripts alone (TestScript) | $(paste -sd' ' "$work/scripts") | $(median <"$work/scripts") s |"
echo "| both: every test binary, TestScript the only test | $(paste -sd' ' "$work/both") | $(median <"$work/both") s |"
awk -v b="$b" 'BEGIN { printf "60%% of the base median: %.1f s\n", 0.6 * b }'
