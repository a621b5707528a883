#!/usr/bin/env bash
# bench-symbols.sh: what judging the symbol references of a clone's
# memories costs in a cold git memcite verify-all (docs/prose-references.md,
# "Speed"), by its stages as MEMCITE_DEBUG=1 traces them: the index of the
# names' definitions in the code files, the git grep of the trees that
# wrote names missing now, the git log -G of the commits that removed gone
# names (from "trees searched" to the end of the pass, which also reads the
# files those commits changed), and the whole pass. Each binary runs RUNS
# times (default 3), alternating, without the verification cache and the
# cache of git's answers (docs/cache.md); it prints each run's stages, its
# wall and CPU time (user + system, git's processes included) and the
# load average, then the median of each stage per binary. On a loaded
# machine the walls say little: REPLAY=1 also runs again, one at a time,
# the git commands each stage ran (from the trace) and prints their CPU
# time, per stage.
#
#   [RUNS=3] [REPLAY=1] scripts/bench-symbols.sh <clone> <git-memcite> [<git-memcite> ...]
#
# The clone's caches are removed: run it on a copy.
set -euo pipefail
clone=${1:?usage: bench-symbols.sh <clone> <git-memcite> [<git-memcite> ...]}
shift
runs=${RUNS:-3}
gitdir=$(git -C "$clone" rev-parse --absolute-git-dir)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq "$runs"); do
	n=0
	for bin in "$@"; do
		n=$((n + 1))
		rm -rf "$gitdir/memcite" "$gitdir/memcite-prose-cache"
		load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
		/usr/bin/time -f '%e %U %S' -o "$out/time" sh -c 'cd "$1" && MEMCITE_DEBUG=1 "$2" verify-all --json >/dev/null 2>"$3"' _ "$clone" "$bin" "$out/trace" || true
		read -r wall user sys < <(tail -n 1 "$out/time")
		python3 - "$out/trace" "$n" "$wall" "$user" "$sys" "$load" "$bin" <<'PY' | tee -a "$out/rows"
import re, sys
trace, n, wall, user, sys_, load, binary = sys.argv[1:]
ms = lambda s: float(s[:-2]) / 1000 if s.endswith("ms") else float(s[:-1])
index = trees = total = None
for l in open(trace, errors="replace"):
    m = re.search(r"symbols: index of \d+ names in (\S+)", l)
    if m: index = ms(m.group(1))
    m = re.search(r"symbols: \d+ trees searched at (\S+)", l)
    if m: trees = ms(m.group(1))
    m = re.search(r"symbols: map\[.*; (\S+)$", l.strip())
    if m: total = ms(m.group(1))
if None in (index, trees, total):
    print(f"{n} {binary}: no symbol pass traced"); sys.exit()
print(f"{n} index {index:.3f} trees {trees - index:.3f} changes {total - trees:.3f} symbols {total:.3f} verify-all {float(wall):.2f} cpu {float(user) + float(sys_):.2f} load {load}  {binary}")
PY
		if [ "${REPLAY:-0}" = 1 ]; then
			python3 - "$out/trace" "$clone" <<'PY'
import os, re, subprocess, sys
trace, clone = sys.argv[1], sys.argv[2]
stage, cmds = None, {"trees": [], "changes": []}
for l in open(trace, errors="replace"):
    if re.search(r"symbols: word floor", l): stage = "trees"
    elif re.search(r"symbols: \d+ trees searched", l): stage = "changes"
    elif re.search(r"symbols: map\[", l): stage = None
    elif stage and " run git " in l:
        cmds[stage].append(l.split(" run git ", 1)[1].rstrip("\n").split(" "))
for k, cs in cmds.items():
    t0 = os.times()
    for c in cs:
        subprocess.run(["git"] + c, cwd=clone, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t1 = os.times()
    cpu = t1.children_user - t0.children_user + t1.children_system - t0.children_system
    print(f"   replay {k}: {len(cs)} git processes, CPU {cpu:.2f}s")
PY
		fi
	done
done
python3 - "$out/rows" "$@" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if "index" in l]
for n, binary in enumerate(sys.argv[2:], 1):
    mine = [r for r in rows if r[0] == str(n)]
    if not mine: continue
    med = lambda k: statistics.median(float(r[r.index(k) + 1]) for r in mine)
    print(f"median of {len(mine)}: index {med('index'):.3f}s  trees {med('trees'):.3f}s  changes {med('changes'):.3f}s  symbols {med('symbols'):.3f}s  verify-all {med('verify-all'):.2f}s (CPU {med('cpu'):.2f}s)  {binary}")
PY
