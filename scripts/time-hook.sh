#!/usr/bin/env bash
# time-hook.sh: the pre-commit hook of two builds on one repository with
# the hook installed (e.g. one kept by KEEP=1 scripts/bench-precommit.sh):
# each build in its own copy of it (the copy is reset to HEAD and gets two
# commits made with that build's hook, so that its summary is written),
# then a new file staged (CHANGE=cited: a line appended to a tracked code
# file and prose to a memory, which on a generated store are cited and
# citing); times, interleaved, `git memcite hook pre-commit` alone, and
# `git commit` with the hook and with --no-verify (each commit undone with
# git reset --soft). Prints the medians. Uses
# python3 for the timing.
#
#   scripts/time-hook.sh REPO OLD-BINARY NEW-BINARY [RUNS]   (default 7)
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 REPO OLD-BINARY NEW-BINARY [RUNS]" >&2; exit 2; }
repo=$(cd "$1" && pwd); runs=${4:-7}
work=$(mktemp -d /tmp/time-hook.XXXXXX)
trap 'rm -rf "$work"' EXIT
for k in old new; do
  bin=$2; [ $k = new ] && bin=$3
  mkdir -p "$work/$k/bin"
  cp "$bin" "$work/$k/bin/git-memcite"
  cp -a "$repo" "$work/$k/repo"
  (
    cd "$work/$k/repo"
    export PATH="$work/$k/bin:$PATH"
    git reset -q --hard HEAD
    f=$(git ls-files | grep -v '^\.serena/' | sed -n 1p)
    for i in 1 2; do
      echo "// time-hook $i" >> "$f"
      git add "$f" && git commit -q -m "time-hook $i" >/dev/null 2>&1
    done
    if [ "${CHANGE:-new}" = cited ]; then
      # a line appended to a tracked code file and prose to a memory
      m=$(git ls-files '.serena/memories/*.md' | sed -n 3p)
      c=$(git ls-files | grep -v '^\.serena/' | sed -n 7p)
      echo "// time-hook" >> "$c" && echo "more prose" >> "$m" && git add "$c" "$m"
    else
      mkdir -p time-hook && echo "package timehook" > time-hook/new.go && git add time-hook/new.go
    fi
  )
done
python3 - "$work" "$runs" <<'PY'
import os, statistics, subprocess, sys, time
work, runs = sys.argv[1], int(sys.argv[2])
res = {}
def timed(k, args):
    env = dict(os.environ)
    env["PATH"] = os.path.join(work, k, "bin") + os.pathsep + env["PATH"]
    d = os.path.join(work, k, "repo")
    t = time.perf_counter()
    subprocess.run(args, cwd=d, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ms = (time.perf_counter() - t) * 1000
    if args[1] == "commit":
        subprocess.run(["git", "reset", "-q", "--soft", "HEAD^"], cwd=d)
    return ms
for _ in range(runs):
    for what, args in (("hook", ["git-memcite", "hook", "pre-commit"]),
                       ("commit", ["git", "commit", "-q", "-m", "t"]),
                       ("no-verify", ["git", "commit", "-q", "--no-verify", "-m", "t"])):
        for k in ("old", "new"):
            res.setdefault((k, what), []).append(timed(k, args))
for k in ("old", "new"):
    m = {w: statistics.median(res[(k, w)]) for w in ("hook", "commit", "no-verify")}
    print(f"{k}: hook process {m['hook']:.1f} ms; git commit {m['commit']:.0f} ms, --no-verify {m['no-verify']:.0f} ms, overhead {m['commit'] - m['no-verify']:.0f} ms")
PY
