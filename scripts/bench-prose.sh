#!/usr/bin/env bash
# Counts and times what git memcite verify-all finds in the prose of a
# clone's memories (docs/prose-references.md):
#   [COLD=all] scripts/bench-prose.sh <clone> [git-memcite binary]
# Prints stale and unresolved references, stale ones per kind and form,
# references per kind with their verdicts (from list-citations --json), and
# the wall time of a cold run (first in this process tree) and of a warm
# one (the same command again, with the cache the first run wrote). Uses
# python3 to count the --json reports.
set -euo pipefail
clone=${1:?usage: bench-prose.sh <clone> [git-memcite]}
bin=${2:-git-memcite}
json=$(mktemp)
list=$(mktemp)
trap 'rm -f "$json" "$list"' EXIT
# cold: without the cache of git's answers the prose checker keeps per HEAD;
# with COLD=all also without the verification cache (parsed memories,
# extracted references, the definitions and words of code files)
gitdir=$(git -C "$clone" rev-parse --absolute-git-dir)
rm -f "$gitdir/memcite-prose-cache"
if [ "${COLD:-}" = all ]; then rm -rf "$gitdir/memcite"; fi
t0=$(date +%s.%N)
(cd "$clone" && "$bin" verify-all --json >"$json" 2>/dev/null) || true
t1=$(date +%s.%N)
(cd "$clone" && "$bin" verify-all --json >/dev/null 2>&1) || true
t2=$(date +%s.%N)
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
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "verify-all: cold %.2fs, warm %.2fs\n", b-a, c-b }'
