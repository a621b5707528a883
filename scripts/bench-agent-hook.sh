#!/usr/bin/env bash
# Measures `git memcite agent-hook` answering one Read of a memory whose
# five citations a commit moved, on the generated benchmark repository
# (10,000 source files, 2,000 memories; scripts/genrepo -agent): the wall
# time of the binary, process start included, with the relocation hint.
#   scripts/bench-agent-hook.sh [RUNS]    (default 21; prints the median)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-21}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/git-memcite" ./cmd/git-memcite
go run ./scripts/genrepo -out "$work/repo" -agent
repo="$work/repo"
mem="$repo/.serena/memories/agent/handlers.md"
printf '{"hook_event_name": "PostToolUse", "tool_name": "Read", "cwd": "%s", "tool_input": {"file_path": "%s"}}' \
  "$repo" "$mem" > "$work/event.json"
cd "$work"
answer=$("$work/git-memcite" agent-hook < "$work/event.json")
moved=$(grep -o ' moved to ' <<<"$answer" | wc -l)
if [ "$moved" -ne 5 ]; then
  echo "bench-agent-hook: expected 5 moved citations in the answer, got:" >&2
  echo "$answer" >&2
  exit 1
fi

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# let the writeback of the freshly generated files settle (see bench-verify.sh)
sync
sleep "${SETTLE:-30}"
for _ in 1 2 3; do "$work/git-memcite" agent-hook < "$work/event.json" >/dev/null; done
ms=$(for _ in $(seq "$runs"); do
  s=$(date +%s%N); "$work/git-memcite" agent-hook < "$work/event.json" >/dev/null; e=$(date +%s%N)
  echo $(( (e - s) / 1000 ))
done | median | awk '{printf "%.1f", $1/1000}')
echo "agent-hook, one memory, 5 moved citations, 10,000 files: ${ms} ms (median of $runs)"
