#!/usr/bin/env bash
# Runs every Go fuzz target in the module for a while each.
#   scripts/fuzz.sh [DURATION]   (default 10s; e.g. 10m for a long run)
# Seed corpora live in testdata/fuzz/<Target>/ next to each package; new
# crashers found are written there too and become regression tests.
set -euo pipefail
cd "$(dirname "$0")/.."
time=${1:-10s}
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/func //' | sort -u); do
    echo "-- $pkg $target ($time)"
    if ! out=$(go test "$pkg" -run '^$' -fuzz "^${target}\$" -fuzztime "$time" 2>&1); then
      echo "$out" | grep -v '^fuzz: elapsed' | tail -40
      exit 1
    fi
    echo "$out" | tail -3
  done
done
