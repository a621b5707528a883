#!/usr/bin/env bash
# Counts and times what git memcite verify-all finds in the prose of a
# clone's memories (docs/prose-references.md):
#   [COMMIT=1] scripts/bench-prose.sh <clone> [git-memcite binary]
# Prints references per kind and form, stale and unresolved ones, and the
# wall and CPU time (user + system, git's processes included) of a cold
# run (without the verification cache and the cache of git's answers,
# docs/cache.md) and of a warm one (the same command again, with the
# caches the first run wrote; the definitions and words of code files the
# symbols read are in the verification cache). COMMIT=1 also times the run after a commit
# (an empty one, made and then undone with git reset --soft: the clone is
# left as it was). Also prints references per kind with their verdicts
# (from list-citations --json, not timed), and, from the cold run's trace
# (MEMCITE_DEBUG=1), the time it took to judge the memories' prose and
# then the symbols. Uses python3 to count the --json reports.
set -euo pipefail
clone=${1:?usage: bench-prose.sh <clone> [git-memcite]}
bin=${2:-git-memcite}
json=$(mktemp)
times=$(mktemp)
list=$(mktemp)
trace=$(mktemp)
trap 'rm -f "$json" "$times" "$list" "$trace"' EXIT
gitdir=$(git -C "$clone" rev-parse --absolute-git-dir)
TIMEFORMAT='%R %U %S'
# cold: without the verification cache and git's answers to the prose
# checker
rm -rf "$gitdir/memcite" "$gitdir/memcite-prose-cache"
{ time (cd "$clone" && MEMCITE_DEBUG=1 "$bin" verify-all --json >"$json" 2>"$trace" || true); } 2>>"$times"
# warm: the same again, with the caches the cold run wrote
{ time (cd "$clone" && "$bin" verify-all --json >/dev/null 2>&1 || true); } 2>>"$times"
if [ "${COMMIT:-0}" = 1 ]; then
	# after a commit: a new HEAD
	git -C "$clone" -c user.name=bench -c user.email=bench@example.com commit -q --allow-empty --no-verify -m "bench-prose: a new HEAD"
	{ time (cd "$clone" && "$bin" verify-all --json >/dev/null 2>&1 || true); } 2>>"$times"
	git -C "$clone" reset -q --soft HEAD~1
fi
# every prose reference with its verdict, for the counts per kind (not timed)
(cd "$clone" && "$bin" list-citations --json >"$list" 2>/dev/null) || true
python3 - "$json" "$list" <<'PY'
import collections, json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
p = s.get("prose") or {}
print(f"memories {s['memories']}  with references {s['with_citations']}  stale memories {s['stale']}")
print(f"prose references {p.get('references', 0)}  stale {p.get('stale', 0)}  unresolved {p.get('unresolved', 0)}")
by = collections.Counter()
for m in d["memories"]:
    for c in m.get("stale_citations") or []:
        pr = c.get("prose")
        if pr:
            by[(pr["kind"], pr["form"])] += 1
for (k, f), n in sorted(by.items()):
    print(f"  stale {k:7} {f:14} {n}")
kinds = collections.defaultdict(collections.Counter)
for m in json.load(open(sys.argv[2])):
    for c in m.get("citations") or []:
        pr = c.get("prose")
        if pr:
            kinds[pr["kind"]][c["status"]] += 1
            kinds[pr["kind"]]["all"] += 1
for k in ("path", "lines", "symbol", "memory"):
    c = kinds.get(k, collections.Counter())
    print(f"  {k:7} references {c['all']}  valid {c['valid']}  stale {c['stale']}  unresolved {c['unresolved']}")
PY
awk 'NR == 1 { cw = $1; cc = $2 + $3 } NR == 2 { ww = $1; wc = $2 + $3 } NR == 3 { nw = $1; nc = $2 + $3 }
END {
	printf "verify-all: cold %.2fs (CPU %.2fs), warm %.2fs (CPU %.2fs)", cw, cc, ww, wc
	if (NR > 2) printf ", after a commit %.2fs (CPU %.2fs)", nw, nc
	printf "\n"
}' "$times"
# the cold run's judging of the prose, from its trace (MEMCITE_DEBUG=1):
# from listing the content checked to the last memory judged (git's logs
# of the memory directories and of renames and deletions, the commits
# that wrote each sentence, each reference resolved there), then the
# symbols
awk '/prose: listing the/ { a = $2 } /memories judged from the cache/ { b = $2 } /prose: symbols judged/ { c = $2 }
END { if (a != "" && b != "") printf "cold prose: memories judged in %.2fs, symbols in %.2fs\n", (b - a) / 1000, (c - b) / 1000 }' "$trace"
