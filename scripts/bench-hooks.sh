#!/usr/bin/env bash
# bench-hooks.sh: measure what the installed pre-commit hook adds to
# 'git commit'.
#
# It builds git-memcite, generates a repository of FILES source files and
# MEMORIES memory files with CITES citations each (all valid), installs the
# hooks, then times RUNS commits of a one-line change with the hook and RUNS
# with --no-verify, interleaved. It prints both medians and their difference
# (the hook's overhead) in milliseconds.
#
# Usage: scripts/bench-hooks.sh [RUNS]     (default 15; env FILES, MEMORIES,
#        CITES, KEEP=1 to keep the generated repository, STALE=1 to make one
#        citation stale at HEAD so that every commit also reads HEAD's tree
#        to tell old stale citations from new ones, NOSNIPPET=1 to write the
#        citations without snippets, so that every commit also asks git
#        which files it changes, to warn about citations it shifts,
#        FROM=<clone> to use an existing repository instead of generated
#        files: genrepo -from clones it and adds MEMORIES x CITES
#        citations of its files; STALE and NOSNIPPET do not apply)
set -euo pipefail
# built as the release archives are (no cgo: a static binary, whose start
# skips the dynamic loader)
export CGO_ENABLED=0

RUNS=${1:-15}
FILES=${FILES:-5000}
MEMORIES=${MEMORIES:-200}
CITES=${CITES:-5}
STALE=${STALE:-0}
NOSNIPPET=${NOSNIPPET:-0}
LINES=40 # lines per source file

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-hooks.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then trap 'rm -rf "$work"' EXIT; fi

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$work/gitconfig"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE MEMCITE SKIP
printf "[gc]\n\tauto = 0\n" >"$GIT_CONFIG_GLOBAL" # no background gc racing the timings

mkdir -p "$work/bin"
(cd "$root" && go build -o "$work/bin/git-memcite" ./cmd/git-memcite)
export PATH="$work/bin:$PATH"

repo="$work/repo"
if [ -n "${FROM:-}" ]; then
	(cd "$root" && go run ./scripts/genrepo -from "$FROM" -out "$repo" -memories "$MEMORIES" -citations "$CITES" -stale 0 >/dev/null)
	cd "$repo"
	echo "scratch 0" >scratch.txt
	commits_before=$(git rev-list --count HEAD)
else
git init -q -b main "$repo"
cd "$repo"
commits_before=0

# Source files: src/pNN/fNNNNN.go, each line unique.
awk -v files="$FILES" -v lines="$LINES" 'BEGIN {
	for (f = 0; f < files; f++) {
		dir = sprintf("src/p%02d", f % 50)
		if (!(dir in made)) { system("mkdir -p " dir); made[dir] = 1 }
		path = sprintf("%s/f%05d.go", dir, f)
		printf "package p%02d\n\n", f % 50 > path
		for (l = 3; l <= lines; l++) printf "func f%05d_%02d() int { return %d }\n", f, l, l > path
		close(path)
	}
}'

# Memory files: .serena/memories/mNNN.md, citations spread over the files.
mkdir -p .serena/memories
awk -v mems="$MEMORIES" -v cites="$CITES" -v files="$FILES" -v lines="$LINES" -v stale="$STALE" -v nosnippet="$NOSNIPPET" 'BEGIN {
	srand(42)
	for (m = 0; m < mems; m++) {
		path = sprintf(".serena/memories/m%03d.md", m)
		printf "---\nid: m%03d\ncitations:\n", m > path
		for (c = 0; c < cites; c++) {
			f = int(rand() * files); l = 3 + int(rand() * (lines - 2))
			if (stale && m == 0 && c == 0) { printf "  - path: src/p%02d/f%05d.go\n    line: %d\n", f % 50, f, lines + 5 > path; continue }
			if (nosnippet) { printf "  - path: src/p%02d/f%05d.go\n    line: %d\n", f % 50, f, l > path; continue }
			printf "  - path: src/p%02d/f%05d.go\n    line: %d\n    snippet: \"func f%05d_%02d() int { return %d }\"\n", f % 50, f, l, f, l, l > path
		}
		printf "---\n# Memory %d\n\nNotes about the code.\n", m > path
		close(path)
	}
}'
echo "scratch 0" >scratch.txt
fi
git add -A
git commit -q --no-verify -m "generated"
git memcite install >/dev/null 2>&1 || git memcite install

ms() { # run a command, print its wall time in ms
	local s e
	s=$(date +%s%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print int((a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

# Warm caches once each way.
echo "warm" >>scratch.txt && git add scratch.txt && git commit -q -m warm
echo "warm" >>scratch.txt && git add scratch.txt && git commit -q --no-verify -m warm

: >"$work/hook.ms"
: >"$work/nohook.ms"
for i in $(seq "$RUNS"); do
	echo "h $i" >>scratch.txt && git add scratch.txt
	ms git commit -q -m "h $i" >>"$work/hook.ms"
	echo "n $i" >>scratch.txt && git add scratch.txt
	ms git commit -q --no-verify -m "n $i" >>"$work/nohook.ms"
done
# Every hooked commit must have happened (a blocked commit would fake speed).
test "$(git rev-list --count HEAD)" -eq $((commits_before + 2 * RUNS + 3))

h=$(median <"$work/hook.ms")
n=$(median <"$work/nohook.ms")
tracked=$(git ls-files | wc -l)
echo "repo: $tracked tracked files, $MEMORIES memories x $CITES citations (stale at HEAD: $STALE, without snippets: $NOSNIPPET); $RUNS runs each"
echo "git commit with hook:   median ${h} ms"
echo "git commit --no-verify: median ${n} ms"
echo "hook overhead:          $((h - n)) ms"
