#!/usr/bin/env bash
# bench-objects.sh: the commands that read many objects, with two builds
# on one repository, interleaved: `verify-all --rev HEAD --no-cache` (every
# cited file and memory read from HEAD's blobs), `verify-all --staged
# --no-cache` and `relocate` (history). --no-cache keeps the builds from
# sharing the verification cache; relocate writes nothing. Prints the
# median wall time of each, and the second build's ratio to the first.
# Uses python3 for the timing.
#
#   scripts/bench-objects.sh REPO OLD-BINARY NEW-BINARY [RUNS]   (default 5)
#
# e.g. a store of `go run ./scripts/genrepo -out DIR` (2,000 memories, 10,000
# files), the first binary built from another commit (git worktree add).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 REPO OLD-BINARY NEW-BINARY [RUNS]" >&2; exit 2; }
python3 - "$@" <<'PY'
import statistics, subprocess, sys, time
repo, old, new = sys.argv[1:4]
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
for cmd in (["verify-all", "--rev", "HEAD", "--no-cache"], ["verify-all", "--staged", "--no-cache"], ["relocate"]):
    t = {"old": [], "new": []}
    for _ in range(runs):
        for k, b in (("old", old), ("new", new)):
            s = time.perf_counter()
            subprocess.run([b] + cmd, cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            t[k].append((time.perf_counter() - s) * 1000)
    o, n = statistics.median(t["old"]), statistics.median(t["new"])
    print(f"{' '.join(cmd):40} old {o:8.1f} ms  new {n:8.1f} ms  {n / o:.2f}x")
PY
