#!/usr/bin/env bash
# compare-verdicts.sh: whether two git-memcite binaries give the same
# verdicts on a clone. In a copy of CLONE (cp -a; the clone itself is not
# written), each binary runs verify-all --json and list-citations --json
# cold (without the verification cache and the cache of git's answers,
# docs/cache.md), then verify-all again warm. The reports are compared
# without their timings (elapsed_ms); it prints "same" or the difference,
# and the cold wall and CPU time of each binary's verify-all.
#
#   scripts/compare-verdicts.sh CLONE OLD-BINARY NEW-BINARY
set -euo pipefail
clone=${1:?usage: compare-verdicts.sh <clone> <old git-memcite> <new git-memcite>}
old=${2:?}
new=${3:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$clone" "$work/repo"
git -C "$work/repo" status >/dev/null
gitdir=$(git -C "$work/repo" rev-parse --absolute-git-dir)
TIMEFORMAT='%R %U %S'
strip() { python3 -c 'import json,sys
def s(x):
    if isinstance(x, dict): return {k: s(v) for k, v in x.items() if k != "elapsed_ms"}
    if isinstance(x, list): return [s(v) for v in x]
    return x
print(json.dumps(s(json.load(open(sys.argv[1]))), indent=1, sort_keys=True))' "$1"; }
for b in old new; do
	bin=${!b}
	rm -rf "$gitdir/memcite" "$gitdir/memcite-prose-cache"
	{ time (cd "$work/repo" && "$bin" verify-all --json >"$work/$b.cold.json" 2>/dev/null || true); } 2>"$work/$b.time"
	(cd "$work/repo" && "$bin" verify-all --json >"$work/$b.warm.json" 2>/dev/null) || true
	rm -rf "$gitdir/memcite" "$gitdir/memcite-prose-cache"
	(cd "$work/repo" && "$bin" list-citations --json >"$work/$b.list.json" 2>/dev/null) || true
	for k in cold warm list; do strip "$work/$b.$k.json" >"$work/$b.$k.txt"; done
	awk -v b="$b" '{ printf "%s verify-all cold: %.2fs wall, CPU %.2fs\n", b, $1, $2 + $3 }' "$work/$b.time"
done
status=0
for k in cold warm list; do
	if cmp -s "$work/old.$k.txt" "$work/new.$k.txt"; then
		echo "$k: same"
	else
		echo "$k: DIFFERENT"
		diff "$work/old.$k.txt" "$work/new.$k.txt" | head -40
		status=1
	fi
done
exit $status
