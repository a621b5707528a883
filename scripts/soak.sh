#!/usr/bin/env bash
# Soak test: 50,000 memories with 250,000 citations; verify-all (working
# tree, JSON, index, commit), relocate and health in a loop, asserting
# flat peak memory and no goroutine or file-descriptor leaks.
#   scripts/soak.sh [DURATION] [MEMORIES]   (default 5m, 50000)
set -euo pipefail
cd "$(dirname "$0")/.."
MEMCITE_SOAK=${1:-5m} MEMCITE_SOAK_MEMORIES=${2:-50000} \
  go test ./cmd/git-memcite -run '^TestSoak$' -count=1 -v -timeout 2h 2>&1 | grep -E 'soak:|^(--- |ok|FAIL|PASS)'
