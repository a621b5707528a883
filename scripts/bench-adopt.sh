#!/usr/bin/env bash
# Counts what git memcite adopt proposes for a clone's memories
# (docs/graph-health.md, "git memcite adopt"), and checks that the
# citations it adds verify:
#   scripts/bench-adopt.sh <clone> [git-memcite binary]
# The clone is copied (cp -a) to a temporary directory first: the clone
# itself is never written. Prints the proposals by kind (code citations
# with lines, whole files, links to memories; files followed to where they
# moved), what was not proposed by status, the wall time of the dry run,
# then runs adopt --fix and verify-all on the copy and prints how many
# frontmatter citations are stale (the ones adopt added among them) and
# how many prose references are. Uses python3 to count the --json reports.
set -euo pipefail
clone=${1:?usage: bench-adopt.sh <clone> [git-memcite]}
bin=${2:-git-memcite}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$clone" "$work/clone"
t0=$(date +%s.%N)
(cd "$work/clone" && "$bin" adopt --json >"$work/adopt.json" 2>"$work/adopt.err") || true
t1=$(date +%s.%N)
(cd "$work/clone" && "$bin" adopt --fix --json >"$work/fix.json" 2>/dev/null) || true
(cd "$work/clone" && "$bin" verify-all --json >"$work/verify.json" 2>/dev/null) || true
python3 - "$work/adopt.json" "$work/fix.json" "$work/verify.json" <<'PY'
import collections, json, sys
def count(path):
    d = json.load(open(path))
    c = collections.Counter()
    for mem in d:
        for m in mem["mentions"]:
            if m["status"] in ("proposed", "added"):
                if m.get("link_type"):
                    c["link"] += 1
                elif ":" in m["location"].rsplit("/", 1)[-1]:
                    c["lines"] += 1
                else:
                    c["file"] += 1
                if m.get("moved"):
                    c["moved"] += 1
            else:
                c[m["status"]] += 1
    return len(d), c
n, c = count(sys.argv[1])
print(f"memories with mentions {n}")
print(f"proposed: {c['lines']} citations with lines, {c['file']} whole files, {c['link']} links to memories ({c['moved']} followed to where they moved)")
print("not proposed: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k not in ("lines", "file", "link", "moved")))
_, f = count(sys.argv[2])
print(f"--fix: {f['lines'] + f['file'] + f['link']} added or proposed")
v = json.load(open(sys.argv[3]))
stale = collections.Counter()
for m in v["memories"]:
    for s in m.get("stale_citations") or []:
        stale["prose" if s.get("prose") else "frontmatter"] += 1
print(f"verify-all after --fix: {v['summary']['citations']} citations, stale: {stale['frontmatter']} frontmatter, {stale['prose']} prose references")
PY
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "adopt (dry run): %.2fs\n", b-a }'
grep -c "object is missing" "$work/adopt.json" | sed 's/^/mentions skipped for missing objects: /' || true
