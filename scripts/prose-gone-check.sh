#!/usr/bin/env bash
# Checks the commit of every symbol-gone finding of a clone against git
# (docs/prose-references.md, "Hand-checked findings"):
#   scripts/prose-gone-check.sh <clone> [git-memcite]
# For each prose symbol that list-citations --json reports gone with a
# commit, the commit is right when the name is a word of the code of its
# first parent (git grep -w over the code files the symbol pass reads)
# and of no code of the commit itself. Prints the findings whose commit
# is not, and the counts: gone, with a commit, right, not right. Uses
# python3.
set -euo pipefail
clone=${1:?usage: prose-gone-check.sh <clone> [git-memcite]}
bin=${2:-git-memcite}
json=$(mktemp)
trap 'rm -f "$json"' EXIT
(cd "$clone" && "$bin" list-citations --json >"$json" 2>/dev/null) || true
python3 - "$json" "$clone" <<'PY'
import json, re, subprocess, sys
data, clone = json.load(open(sys.argv[1])), sys.argv[2]
exts = "go py pyi ts tsx js jsx mjs cjs java kt kts cs fs fsx fsi c h cc cpp cxx hpp hh rs rb php swift r R sh bash zsh ps1 psm1 lua pl pm ex exs erl hs ml scala clj dart vue svelte gradle".split()
specs = ["*." + e for e in exts]
def has(rev, name):
    r = subprocess.run(["git", "-C", clone, "grep", "-q", "-I", "-w", "-F", "-e", name, rev, "--"] + specs, capture_output=True)
    return r.returncode == 0
gone = dated = right = 0
for m in data:
    for c in m.get("citations") or []:
        p = c.get("prose")
        if not p or p["kind"] != "symbol" or c["status"] != "stale" or " is gone from the code" not in c.get("reason", ""):
            continue
        gone += 1
        at = p.get("changed")
        if not at:
            continue
        dated += 1
        name = re.match(r"Symbol (\S+)", c["reason"]).group(1)
        if has(at + "^1", name) and not has(at, name):
            right += 1
        else:
            print(f"- {m['path']}:{p['memory_line']} {name}: {c['reason']}")
print(f"symbol-gone {gone}, with a commit {dated}: right {right}, not right {dated - right}")
PY
