#!/usr/bin/env bash
# Cross-compiles git-memcite for every release target and vets the code as
# each target sees it (build tags pick the platform parts: the rewrite lock,
# safe opening, atomic replace). For Windows and macOS the test binaries are
# linked too (go test -c), so test code compiles there as well.
#
#   scripts/cross.sh                  all six targets
#   scripts/cross.sh windows/amd64    only the targets named
#
# The targets are those scripts/release.sh ships; the binaries are built as
# it builds them (-trimpath, CGO_ENABLED=0), so that it finds the packages
# compiled.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in "${targets[@]}"; do
  os=${t%/*} arch=${t#*/}
  echo "-- $os/$arch"
  GOOS=$os GOARCH=$arch CGO_ENABLED=0 go build -trimpath -o "$tmp/" ./cmd/git-memcite
  GOOS=$os GOARCH=$arch CGO_ENABLED=0 go vet ./...
  if [ "$os" != linux ]; then
    mkdir -p "$tmp/$os-$arch"
    GOOS=$os GOARCH=$arch CGO_ENABLED=0 go test -c -o "$tmp/$os-$arch/" ./... | { grep -v 'no test files' || true; }
  fi
done
echo "cross: ${#targets[@]} target(s) build and vet cleanly"
