#!/usr/bin/env bash
# Runs fuzz targets the way CI meets them: many short runs, each from an
# empty fuzz cache (only the seeds under testdata/fuzz/), two at a time.
# A long run from a grown cache explores differently; this finds what a
# 10-second CI run could.
#   scripts/fuzz-fresh.sh [RUNS] [DURATION] [TARGET-REGEXP]
#   (defaults: 20 runs, 10s, every target)
# Failing inputs are written to testdata/fuzz/ as usual; exit status 1 if
# any run failed. As in fuzz.sh, Go's own end-of-fuzztime deadline race
# (go.dev/issue/75804: "context deadline exceeded", no input written) is
# reported and ignored.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
time=${2:-10s}
want=${3:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/func //' | sort -u | grep -E "$want" || true)
  [ -n "$targets" ] || continue
  bin=$tmp/$(basename "$dir").test
  go test -c -fuzz=. -o "$bin" "$pkg" # -fuzz: with coverage instrumentation
  for target in $targets; do
    pids=()
    for i in $(seq 1 "$runs"); do
      (
        cache=$(mktemp -d -p "$tmp")
        cd "$dir"
        corpus="$dir/testdata/fuzz/$target"
        before=$( (ls "$corpus" 2>/dev/null || true) | wc -l)
        if ! "$bin" -test.run='^$' -test.fuzz="^${target}\$" -test.fuzztime="$time" \
          -test.parallel=1 -test.fuzzcachedir="$cache" >"$cache.log" 2>&1; then
          if [ "$( (ls "$corpus" 2>/dev/null || true) | wc -l)" -eq "$before" ] && grep -q 'context deadline exceeded' "$cache.log"; then
            echo "   $target run $i: 'context deadline exceeded' with no failing input, ignored (go.dev/issue/75804)"
            exit 0
          fi
          echo "FAIL $pkg $target (run $i):"
          grep -v '^fuzz: elapsed' "$cache.log" | tail -12
          exit 1
        fi
      ) &
      pids+=($!)
      if [ ${#pids[@]} -eq 2 ]; then
        for p in "${pids[@]}"; do wait "$p" || failed=1; done
        pids=()
      fi
    done
    for p in "${pids[@]}"; do wait "$p" || failed=1; done
    echo "-- $pkg $target: $runs fresh runs of $time done"
  done
done
exit $failed
