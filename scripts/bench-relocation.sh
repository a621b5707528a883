#!/bin/sh
# bench-relocation.sh: run the relocation benchmarks at full size.
#
#   scripts/bench-relocation.sh            accuracy (full size) and speed
#   scripts/bench-relocation.sh accuracy   accuracy only
#   scripts/bench-relocation.sh speed      speed comparison only
#   scripts/bench-relocation.sh gobench    go test -bench for the speed targets
#   scripts/bench-relocation.sh fixcycle   the daily loop (full size)
#   scripts/bench-relocation.sh adopt      adopt on prose mentions (full size)
#   scripts/bench-relocation.sh backends   speed per object backend: go-git and
#                                          the git binary on SHA-1, the git
#                                          binary on the same history in SHA-256
#
# Accuracy: 25 scenarios per edit category plus 25 mixed chains of 30-60
# commits, built from Go standard library sources of $(go env GOROOT)/src;
# prints exactly-right % per category for the tracker and the baselines.
# Speed: 1,000 citations in 100 files across 2,000 commits, and one
# citation across 10,000 commits, against git blame --reverse.
# Fix cycle: 25 mixed chains of 16-32 commits replayed in rounds of 3-8
# commits, relocate --fix --accept-changed run twice after each round and
# the memories committed (half the chains cite in shorthand strings without
# a commit); prints final accuracy against one-shot relocation of the same
# citations, unstable fixes and false alarms.
# Adopt: 25 mixed chains; a memory written in prose at the first commit
# mentions each cited line as path:line (naming an identifier of the line,
# quoting it, with no context, or with a wrong line number), then the code
# changes; prints adopt's precision and recall per sentence style.
# Set TRACE=1 to print every tracker miss.
set -eu
cd "$(dirname "$0")/.."
what=${1:-all}
trace=
[ "${TRACE:-0}" = 1 ] && trace=-relocbench.trace
case $what in
all | accuracy)
	go test ./internal/testing/relocbench/ -run 'TestAccuracy$' -count=1 -v -timeout 60m \
		-relocbench.size=full $trace
	;;
esac
case $what in
all | fixcycle)
	go test ./internal/testing/relocbench/ -run 'TestFixCycle$' -count=1 -v -timeout 60m \
		-relocbench.size=full $trace
	;;
esac
case $what in
all | adopt)
	go test ./internal/testing/relocbench/ -run 'TestAdopt$' -count=1 -v -timeout 60m \
		-relocbench.size=full $trace
	;;
esac
case $what in
all | speed)
	go test ./internal/testing/relocbench/ -run 'TestSpeed$' -count=1 -v -timeout 60m -relocbench.speed
	;;
gobench)
	go test ./internal/testing/relocbench/ -run '^$' -bench . -benchtime 3x -timeout 60m
	;;
backends)
	go test ./internal/testing/relocbench/ -run 'TestSpeedBackends$' -count=1 -v -timeout 60m -relocbench.speed
	;;
esac
