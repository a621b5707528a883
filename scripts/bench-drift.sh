#!/usr/bin/env bash
# bench-drift.sh: what following snippet-less citations costs post-merge.
#
# Generates a repository (scripts/genrepo: FILES source files, MEMORIES
# memories × 5 citations), strips every snippet, then times the post-merge
# hook (median of RUNS) for two incoming changes:
#   - one that touches no cited file (the drift check finds nothing to do);
#   - one that inserts a line at the top of SHIFT cited files (the cited
#     lines of those files move: they are tracked and reported).
# The difference is what the drift report costs.
#
# Usage: scripts/bench-drift.sh [RUNS]   (default 9; env FILES=10000,
#        MEMORIES=2000, SHIFT=200, KEEP=1 to keep the repository,
#        FROM=<clone> to cite an existing repository's files instead of
#        generated ones: genrepo -from)
set -euo pipefail
RUNS=${1:-9}
FILES=${FILES:-10000}
MEMORIES=${MEMORIES:-2000}
SHIFT=${SHIFT:-200}

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-drift.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then trap 'rm -rf "$work"' EXIT; fi
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$work/gitconfig"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE MEMCITE SKIP
printf "[gc]\n\tauto = 0\n" >"$GIT_CONFIG_GLOBAL" # no background gc racing the timings

(cd "$root" && go build -o "$work/git-memcite" ./cmd/git-memcite &&
	go run ./scripts/genrepo ${FROM:+-from "$FROM"} -out "$work/repo" -files "$FILES" -memories "$MEMORIES" -stale 0 >/dev/null)
cd "$work/repo"
find .serena -name '*.md' -exec sed -i '/^    snippet:/d' {} +
git commit -q -a -m 'no snippets'

# median of RUNS timings of the post-merge hook, in ms
median() {
	for _ in $(seq 1 "$RUNS"); do
		s=$(date +%s%N)
		"$work/git-memcite" hook post-merge 0 >/dev/null 2>&1
		e=$(date +%s%N)
		echo $(((e - s) / 1000000))
	done | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}

echo "scratch" >scratch.txt
git add scratch.txt
git commit -q -m 'touch no cited file'
git update-ref ORIG_HEAD HEAD^
quiet=$(median)

grep -rh '^  - path: ' .serena | awk '{print $3}' | sort -u | awk -v n="$SHIFT" 'NR <= n' >"$work/shift"
while read -r p; do sed -i '1i // shifted' "$p"; done <"$work/shift"
git commit -q -a -m "shift $SHIFT cited files"
git update-ref ORIG_HEAD HEAD^
drifted=$("$work/git-memcite" hook post-merge 0 2>&1 | sed -n 's/.*lines under \([0-9]*\) citations\{0,1\};.*/\1/p')
shifted=$(median)

echo "repo: $(git ls-files | wc -l) files, $MEMORIES memories x 5 citations without snippets; $RUNS runs each"
echo "post-merge, change touches no cited file:        median $quiet ms"
echo "post-merge, change shifts $SHIFT cited files:     median $shifted ms (${drifted:-0} citations reported)"
