#!/usr/bin/env bash
# Measures `git memcite agent-hook` answering one Read of a memory whose
# five citations a commit moved, on the generated benchmark repository
# (10,000 source files, 2,000 memories; scripts/genrepo -agent): the wall
# time of the binary, process start included, with the relocation hint;
# then the same with one cited line also deleted in the working tree (the
# last step then asks git status which files changed); then a session
# start (every memory verified, 2,000 memories with 10,000 citations,
# with the verification cache the runs before wrote) and the write of a
# memory with five citations, two of them wrong.
#   scripts/bench-agent-hook.sh [RUNS]    (default 21; prints the medians)
#   BASE=<commit> scripts/bench-agent-hook.sh [RUNS]
#                                         also times that commit's binary
#                                         answering the same read, after
#                                         this one's runs, in its own copy
#                                         of the repository (each build's
#                                         caches are its own)
#   FROM=<clone> scripts/bench-agent-hook.sh [RUNS]
#        on a copy of an existing clone (a public repository with its own
#        memories) instead: the read of MEMORY (a path in the clone;
#        default: the first memory verify-all finds stale, else one the
#        script writes: five citations of the clone's first tracked text
#        files, line 1, and one past the end of a file), a session
#        start, verify-all, `git status` and `cat` of the memory's file,
#        each the median of RUNS, and the read's ratio to the last two
set -euo pipefail
# built as the release archives are (no cgo: a static binary, whose start
# skips the dynamic loader)
export CGO_ENABLED=0
cd "$(dirname "$0")/.."
runs=${1:-21}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/git-memcite" ./cmd/git-memcite
if [ -n "${BASE:-}" ]; then
  mkdir "$work/base"
  git archive "$BASE" | tar -x -C "$work/base"
  (cd "$work/base" && go build -o "$work/git-memcite-base" ./cmd/git-memcite)
fi
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { # the median wall time in ms of a command, run RUNS times after 3 warm-ups
  for _ in 1 2 3; do "$@" >/dev/null 2>&1 || true; done
  for _ in $(seq "$runs"); do
    s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | median | awk '{printf "%.1f", $1/1000}'
}
cpu() { # the mean CPU time (user+sys, ms) of a command over RUNS runs
  local TIMEFORMAT='%U %S'
  { time (for _ in $(seq "$runs"); do "$@" >/dev/null 2>&1 || true; done) ; } 2>&1 |
    awk -v n="$runs" '{printf "%.1f", ($1 + $2) * 1000 / n}'
}

if [ -n "${FROM:-}" ]; then
  repo="$work/repo"
  cp -a "$FROM" "$repo"
  cd "$repo"
  # the copy's files have new inodes and ctimes: refresh the index's stat
  # data, as git status does in a clone of one's own
  git update-index -q --refresh >/dev/null || true
  mem=${MEMORY:-}
  if [ -z "$mem" ]; then
    # (verify-all exits 1 on a stale memory: that is what is looked for)
    mem=$({ "$work/git-memcite" verify-all --format json 2>/dev/null || true; } |
      python3 -c 'import json,sys; f=json.load(sys.stdin)["findings"]; print(next((x["file"] for x in f if x["level"]=="error"), ""))')
  fi
  if [ -z "$mem" ]; then
    mem=.serena/memories/memcite-bench-stale.md
    set -f # (the patterns are git's)
    mkdir -p .serena/memories
    { echo '---'; echo 'citations:'
      src='*.py *.go *.rs *.ts *.cs *.java *.md'
      git ls-files $src | awk 'NR <= 5 { print "  - " $0 ":1" }'
      git ls-files $src | awk 'NR == 1 { print "  - " $0 ":999999" }'
      echo '---'; echo 'A memory with one citation past the end of its file.'; } > "$mem"
    set +f
  fi
  printf '{"hook_event_name": "PostToolUse", "tool_name": "Read", "cwd": "%s", "tool_input": {"file_path": "%s"}}' \
    "$repo" "$repo/$mem" > "$work/event.json"
  printf '{"hook_event_name": "SessionStart", "cwd": "%s", "source": "startup"}' "$repo" > "$work/start.json"
  if [ -n "${BASE:-}" ]; then
    # the base build reads its own copy: the caches in the git directory
    # belong to one build, and two builds taking turns in one copy
    # rewrite each other's (every read of either would be a first one)
    cp -a "$repo" "$work/repo-base"
    git -C "$work/repo-base" update-index -q --refresh >/dev/null || true # (new inodes and ctimes)
    printf '{"hook_event_name": "PostToolUse", "tool_name": "Read", "cwd": "%s", "tool_input": {"file_path": "%s"}}' \
      "$work/repo-base" "$work/repo-base/$mem" > "$work/event-base.json"
  fi
  "$work/git-memcite" agent-hook < "$work/event.json" | grep -q 'stale\|do not hold' || {
    echo "bench-agent-hook: the read of $mem reports nothing stale" >&2; exit 1; }
  sync; sleep "${SETTLE:-5}"
  read_ms=$(ms sh -c "'$work/git-memcite' agent-hook < '$work/event.json'")
  read_cpu=$(cpu sh -c "'$work/git-memcite' agent-hook < '$work/event.json'")
  if [ -n "${BASE:-}" ]; then
    # the base build's verification cache as full as this build's (each
    # build writes its own: verify-all at the start wrote this build's)
    (cd "$work/repo-base" && "$work/git-memcite-base" verify-all >/dev/null 2>&1) || true
    sleep "${SETTLE:-5}"
    base=$(ms sh -c "cd '$work/repo-base' && '$work/git-memcite-base' agent-hook < '$work/event-base.json'")
    base_cpu=$(cpu sh -c "cd '$work/repo-base' && '$work/git-memcite-base' agent-hook < '$work/event-base.json'")
  fi
  status=$(ms git status)
  cat_ms=$(ms cat "$mem")
  session=$(ms sh -c "'$work/git-memcite' agent-hook < '$work/start.json'")
  verifyall=$(ms "$work/git-memcite" verify-all)
  echo "$(basename "$FROM"): $(git ls-files | wc -l) files, $(git ls-files .serena/memories | wc -l) memories"
  echo "agent-hook, read of $mem (stale): ${read_ms} ms (median of $runs)" \
    "= $(awk -v a="$read_ms" -v b="$status" 'BEGIN{printf "%.2f", a/b}')× git status (${status} ms)," \
    "$(awk -v a="$read_ms" -v b="$cat_ms" 'BEGIN{printf "%.1f", a/b}')× cat of the file (${cat_ms} ms);" \
    "CPU ${read_cpu} ms (mean); load average $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
  if [ -n "${BASE:-}" ]; then
    echo "  $BASE's binary, the same read: ${base} ms; CPU ${base_cpu} ms"
  fi
  echo "session start: ${session} ms; verify-all: ${verifyall} ms"
  exit 0
fi
go run ./scripts/genrepo -out "$work/repo" -agent
repo="$work/repo"
mem="$repo/.serena/memories/agent/handlers.md"
printf '{"hook_event_name": "PostToolUse", "tool_name": "Read", "cwd": "%s", "tool_input": {"file_path": "%s"}}' \
  "$repo" "$mem" > "$work/event.json"
if [ -n "${BASE:-}" ]; then
  # the base build reads its own copy (its caches are its own)
  cp -a "$repo" "$work/repo-base"
  git -C "$work/repo-base" update-index -q --refresh >/dev/null || true # (new inodes and ctimes)
  printf '{"hook_event_name": "PostToolUse", "tool_name": "Read", "cwd": "%s", "tool_input": {"file_path": "%s"}}' \
    "$work/repo-base" "$work/repo-base/.serena/memories/agent/handlers.md" > "$work/event-base.json"
fi
cd "$work"
answer=$("$work/git-memcite" agent-hook < "$work/event.json")
moved=$(grep -o ' moved to ' <<<"$answer" | wc -l)
if [ "$moved" -ne 5 ]; then
  echo "bench-agent-hook: expected 5 moved citations in the answer, got:" >&2
  echo "$answer" >&2
  exit 1
fi

timeit() { # the median wall time in ms of the hook answering the event in ${1:-event.json} (binary ${2:-git-memcite})
  ev="$work/${1:-event.json}"
  bin="$work/${2:-git-memcite}"
  for _ in 1 2 3; do "$bin" agent-hook < "$ev" >/dev/null; done
  for _ in $(seq "$runs"); do
    s=$(date +%s%N); "$bin" agent-hook < "$ev" >/dev/null; e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | median | awk '{printf "%.1f", $1/1000}'
}
# let the writeback of the freshly generated files settle (see bench-verify.sh)
sync
sleep "${SETTLE:-30}"
committed=$(timeit)
committed_cpu=$(cpu sh -c "'$work/git-memcite' agent-hook < '$work/event.json'")
if [ -n "${BASE:-}" ]; then
  base=$(timeit event-base.json git-memcite-base)
  base_cpu=$(cpu sh -c "'$work/git-memcite-base' agent-hook < '$work/event-base.json'")
  again=$(timeit)
fi
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')

# delete HEAD's lines 24-26 of the cited file (a cited line among them)
f="$repo/pkg000/sub0/file00000.go"
sed -i '24,26d' "$f"
"$work/git-memcite" agent-hook < "$work/event.json" | grep -q 'was deleted in the working tree'
uncommitted=$(timeit)
if [ -n "${BASE:-}" ]; then
  sed -i '24,26d' "$work/repo-base/pkg000/sub0/file00000.go"
  base=$(timeit event-base.json git-memcite-base)
  again=$(timeit)
fi

# the working tree as committed again: what the session start and
# verify-all below find in the cache (a modified cited file has no cached
# verdict; the deleted-line case above times that)
git -C "$repo" checkout -q -- "$f"

# a session start: every memory of the store, verdicts from the cache;
# then verify-all of the same store, which does the same work
printf '{"hook_event_name": "SessionStart", "cwd": "%s", "source": "startup"}' "$repo" > "$work/start.json"
"$work/git-memcite" agent-hook < "$work/start.json" | grep -q 'memories have stale citations'
session=$(timeit start.json)
# the same store verified by verify-all, warm, for comparison (exit 1: stale)
verifyall=$(cd "$repo" && for _ in 1 2 3; do "$work/git-memcite" verify-all >/dev/null || true; done
  for _ in $(seq "$runs"); do
    s=$(date +%s%N); "$work/git-memcite" verify-all >/dev/null || true; e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | median | awk '{printf "%.1f", $1/1000}')

# the write of a memory: five citations, two wrong (a line past the end,
# a snippet not on its line), and a path:line in the text
written="$repo/.serena/memories/agent/written.md"
cat > "$written" <<'MEM'
---
citations:
  - pkg000/sub0/file00000.go:1
  - pkg000/sub0/file00000.go:99999
  - path: pkg000/sub0/file00000.go
    line: 1
    snippet: func NotThere()
  - pkg000/sub0/file00007.go:1
  - pkg000/sub0/file00014.go:2
---
See pkg000/sub0/file00021.go:1.
MEM
printf '{"hook_event_name": "PostToolUse", "tool_name": "Write", "cwd": "%s", "tool_input": {"file_path": "%s"}}' \
  "$repo" "$written" > "$work/write.json"
"$work/git-memcite" agent-hook < "$work/write.json" | grep -q '2 of 6 citations and references do not hold'
write=$(timeit write.json)

echo "agent-hook, one memory, 5 moved citations, 10,000 files: ${committed} ms (median of $runs); CPU ${committed_cpu} ms (mean); load average ${load}"
if [ -n "${BASE:-}" ]; then
  echo "  $BASE's binary, the same read, after it: ${base} ms, CPU ${base_cpu} ms; this binary again after that: ${again} ms"
fi
echo "the same with a cited line deleted in the working tree:  ${uncommitted} ms"
echo "session start, 2,000 memories, 10,000 citations (cache): ${session} ms (verify-all of the same store: ${verifyall} ms)"
echo "write of a memory, 5 citations (2 wrong) + 1 reference:  ${write} ms"
