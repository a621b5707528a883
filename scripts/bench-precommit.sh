#!/usr/bin/env bash
# bench-precommit.sh: what the installed pre-commit hook adds to 'git
# commit' on large repositories, before and after the incremental check.
# FROM=<clone> cites an existing repository's files instead of generated
# ones (genrepo -from clones it and adds the memories).
#
# It builds git-memcite twice: BASE (default main; extracted with git
# archive, no worktree is added) and the working tree. It generates two
# repositories with scripts/genrepo: 10,000 source files with 2,000
# memories x 5 citations (10% stale), and the same files with 50,000
# memories x 5 citations. In each it times, for three commits, 'git
# commit' with the hook of BASE, with the hook of this tree and with
# --no-verify, interleaved, RUNS times, each binary in its own copy of the
# repository (the verification cache in the git directory belongs to one
# build: sharing one repository would make every run of either a first
# run):
#
#   1 file    one code file no citation names (added for the benchmark)
#   10 files  ten such files
#   cited+mem one cited file (a line appended: its citations still hold)
#             and one memory file whose citations all hold (prose added)
#   edit      one code file no citation names, a word taken out of it (a
#             variable renamed): the prose check reads every memory's
#             references (from its cache of them)
#
# and prints the medians, and the hook's overhead (median with hook minus
# median with --no-verify) in milliseconds; and the same for a pre-commit
# hook that does nothing (`exit 0`, in a third copy): what git itself
# spends on running any hook (it starts it, then reads the index again),
# which every hook's overhead includes. Then one hooked commit of each
# kind with MEMCITE_DEBUG=1, which says where the time goes.
#
# Usage: scripts/bench-precommit.sh [RUNS]   (default 7; env BASE,
#        SIZES="2000 50000" (memory counts), FILES=10000, KEEP=1 keeps
#        the generated repositories, KINDS="1 10 cited edit" (the commits
#        timed), GENFLAGS=-no-snippets writes every
#        citation as a shorthand path:N judged by line identity)
set -euo pipefail
# built as the release archives are (no cgo: a static binary, whose start
# skips the dynamic loader)
export CGO_ENABLED=0
trap 'echo "bench-precommit.sh: failed at line $LINENO" >&2' ERR

RUNS=${1:-7}
BASE=${BASE:-main}
SIZES=${SIZES:-"2000 50000"}
FILES=${FILES:-10000}

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-precommit.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then trap 'rm -rf "$work"' EXIT; fi

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$work/gitconfig"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE MEMCITE SKIP MEMCITE_DEBUG MEMCITE_CONFIG
printf "[gc]\n\tauto = 0\n" >"$GIT_CONFIG_GLOBAL" # no background gc racing the copies, nor the timings

mkdir -p "$work/before/bin" "$work/after/bin" "$work/base-src"
base_rev=$(git -C "$root" rev-parse --short "$BASE")
git -C "$root" archive "$BASE" | tar -x -C "$work/base-src"
(cd "$work/base-src" && go build -o "$work/before/bin/git-memcite" ./cmd/git-memcite)
(cd "$root" && go build -o "$work/after/bin/git-memcite" ./cmd/git-memcite)
(cd "$root" && go build -o "$work/genrepo" ./scripts/genrepo)
after_rev="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . || echo +changes)"
PATH0=$PATH

ms() { # run a command, print its wall time in ms; a failure stops the run
	local s e
	s=$(date +%s%N)
	if ! "$@" >/dev/null 2>"$work/last.err"; then
		echo "failed: $*" >&2
		cat "$work/last.err" >&2
		exit 1
	fi
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print int((a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

# change KIND N: make and stage the change of one commit of that kind
change() {
	case $1 in
	1) echo "// $2" >>"$free1" && git add "$free1" ;;
	10) for f in $free10; do echo "// $2" >>"$f"; done && git add $free10 ;;
	cited) echo "// $2" >>"$cited" && printf '\nMore prose %s.\n' "$2" >>"$mem" && git add "$cited" "$mem" ;;
	edit) sed -i "s/^var [VW][0-9]* = .*/var W$2 = $2/" "$free1" && git add "$free1" ;;
	esac
}

printf '| memories | commit | with hook, %s | with hook, this tree | --no-verify | with an empty hook | overhead %s | overhead this tree | overhead of an empty hook |\n' "$base_rev" "$base_rev"
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for size in $SIZES; do
	repo="$work/repo-$size"
	"$work/genrepo" ${GENFLAGS:-} ${FROM:+-from "$FROM"} -out "$repo" -files "$FILES" -memories "$size" -list "$work/cited-$size" >"$work/gen-$size.txt"
	cd "$repo"
	PATH="$work/after/bin:$PATH0" git memcite install >/dev/null 2>&1
	# eleven code files no citation names (the large store cites every
	# generated file), one cited file, one memory whose citations hold
	mkdir -p free
	for i in 0 1 2 3 4 5 6 7 8 9 10; do printf 'package free\n\nvar V%d = %d\n' "$i" "$i" >"free/f$i.go"; done
	git add free && git commit -q --no-verify -m "free files"
	cd "$work" && cp -a "$repo" "$repo-base" && cp -a "$repo" "$repo-empty" && cd "$repo"
	# git's own cost of running a pre-commit hook at all: one that does
	# nothing (git runs it, then reads the index again)
	printf '#!/bin/sh\nexit 0\n' >"$repo-empty/.git/hooks/pre-commit"
	free1=free/f0.go
	free10="free/f1.go free/f2.go free/f3.go free/f4.go free/f5.go free/f6.go free/f7.go free/f8.go free/f9.go free/f10.go"
	cited=$(sed -n 1p "$work/cited-$size")
	mem=
	for m in $(git ls-files '.serena/memories/topic00/*.md' '.serena/memories/memcite-bench/topic00/*.md' | awk 'NR <= 50'); do
		id=$(basename "$m" .md)
		if PATH="$work/after/bin:$PATH0" git memcite verify "$id" >/dev/null 2>&1; then mem=$m && break; fi
	done
	if [ -z "$mem" ]; then echo "no memory with only valid citations in topic00" >&2 && exit 1; fi
	n=0
	for kind in ${KINDS:-1 10 cited edit}; do
		: >"$work/b" && : >"$work/a" && : >"$work/x" && : >"$work/e"
		# warm up each way once
		n=$((n + 1)) && change "$kind" "$n" && PATH="$work/after/bin:$PATH0" ms git commit -q -m "warm $n" >/dev/null
		n=$((n + 1)) && change "$kind" "$n" && ms git commit -q --no-verify -m "warm $n" >/dev/null
		(cd "$repo-base" && change "$kind" "$n" && PATH="$work/before/bin:$PATH0" ms git commit -q -m "warm $n" >/dev/null)
		(cd "$repo-empty" && change "$kind" "$n" && ms git commit -q -m "warm $n" >/dev/null)
		for i in $(seq "$RUNS"); do
			n=$((n + 1)) && (cd "$repo-base" && change "$kind" "$n" && PATH="$work/before/bin:$PATH0" ms git commit -q -m "before $n") >>"$work/b"
			n=$((n + 1)) && change "$kind" "$n" && PATH="$work/after/bin:$PATH0" ms git commit -q -m "after $n" >>"$work/a"
			n=$((n + 1)) && change "$kind" "$n" && ms git commit -q --no-verify -m "none $n" >>"$work/x"
			n=$((n + 1)) && (cd "$repo-empty" && change "$kind" "$n" && ms git commit -q -m "empty $n") >>"$work/e"
		done
		b=$(median <"$work/b") && a=$(median <"$work/a") && x=$(median <"$work/x") && e=$(median <"$work/e")
		label=$kind
		case $kind in 1) label="1 file" ;; 10) label="10 files" ;; cited) label="cited file + memory" ;; edit) label="1 file, a word out" ;; esac
		printf '| %s | %s | %d ms | %d ms | %d ms | %d ms | %d ms | %d ms | %d ms |\n' "$size" "$label" "$b" "$a" "$x" "$e" $((b - x)) $((a - x)) $((e - x))
		# where the time goes (this tree)
		n=$((n + 1)) && change "$kind" "$n"
		PATH="$work/after/bin:$PATH0" MEMCITE_DEBUG=1 git commit -q -m "trace $n" 2>"$work/trace-$size-$kind.txt" >/dev/null
	done
	cd "$work"
done
echo
echo "generated: $(cat "$work"/gen-*.txt | tr '\n' ';')"
echo "BASE $BASE = $base_rev, this tree = $after_rev; $RUNS runs each, medians; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
echo
echo "Where the time goes (this tree, one commit each, MEMCITE_DEBUG=1; ms since start):"
for f in "$work"/trace-*.txt; do
	echo "-- $(basename "$f" .txt)"
	grep -vE 'read (memory|cited) ' "$f" | sed 's/^memcite-debug *//'
done
