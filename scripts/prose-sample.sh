#!/usr/bin/env bash
# Draws a random sample of the prose references git memcite judged in a
# clone, for checking by hand (docs/prose-references.md, "Hand-checked
# findings"):
#   scripts/prose-sample.sh <clone> [per-status] [seed] [git-memcite]
# For each of stale and valid it prints up to per-status references
# (default 10), drawn with the seed (default 1), each with the memory line
# it is written on, the kind and form, the verdict and its reason. The
# same clone, binary and seed give the same sample. KIND=path|lines|symbol|memory
# draws from the references of that kind only. Uses python3.
set -euo pipefail
clone=${1:?usage: prose-sample.sh <clone> [per-status] [seed] [git-memcite]}
n=${2:-10}
seed=${3:-1}
bin=${4:-git-memcite}
json=$(mktemp)
trap 'rm -f "$json"' EXIT
(cd "$clone" && "$bin" list-citations --json >"$json" 2>/dev/null) || true
python3 - "$json" "$clone" "$n" "$seed" "${KIND:-}" <<'PY'
import json, random, sys, os
data, clone, n, seed, kind = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
by = {"stale": [], "valid": [], "unresolved": []}
for m in data:
    for c in m.get("citations") or []:
        p = c.get("prose")
        if p and c["status"] in by and (not kind or p["kind"] == kind):
            by[c["status"]].append((m["path"], c, p))
print(f"prose references: stale {len(by['stale'])}, valid {len(by['valid'])}, unresolved {len(by['unresolved'])}")
rng = random.Random(seed)
for status in ("stale", "valid"):
    items = sorted(by[status], key=lambda t: (t[0], t[2]["memory_line"], t[2]["text"]))
    pick = rng.sample(items, min(n, len(items)))
    print(f"\n== {status}: {len(pick)} of {len(items)}")
    for path, c, p in pick:
        try:
            line = open(os.path.join(clone, path), encoding="utf-8", errors="replace").read().split("\n")[p["memory_line"] - 1].strip()
        except (OSError, IndexError):
            line = "?"
        print(f"- {path}:{p['memory_line']} [{p['kind']}/{p['form']}] {p['text']!r} -> {c['location']}")
        print(f"    memory: {line[:160]}")
        if c.get("reason"):
            print(f"    reason: {c['reason']}")
        if p.get("written"):
            print(f"    written: {p['written'][:10]}")
PY
