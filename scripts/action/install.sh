#!/bin/sh
# Step 2 of the GitHub Action (action.yml), when step 1 (release.sh)
# installed no release: build git-memcite with the Go that
# actions/setup-go installed, from the action's own checkout, or
# MODULE_VERSION of the module when another release was asked for, and
# put it on PATH for the later steps. GOCACHE and GOMODCACHE come from the
# action, which caches them (actions/cache) keyed by the action's sources.
#
#   GITHUB_ACTION_PATH  the action's checkout (default: this repository)
#   MODULE_VERSION      build this version of the module instead (v0.2.0)
#   RUNNER_TEMP         where the binary goes (default: $TMPDIR or /tmp)
#   GITHUB_PATH         file to which the bin directory is appended
set -eu

src=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/git-memcite/bin"
mkdir -p "$bin"
command -v go >/dev/null 2>&1 || { echo "::error title=git-memcite::Go is not installed (the action runs actions/setup-go first)"; exit 2; }
exe=git-memcite$(go env GOEXE)
if [ -n "${MODULE_VERSION:-}" ]; then
  version=$MODULE_VERSION
  GOBIN=$bin go install -trimpath -ldflags "-X main.version=$version" "github.com/git-memcite/git-memcite/cmd/git-memcite@$version"
else
  version=$(git -C "$src" describe --tags --always 2>/dev/null || echo action)
  (cd "$src" && go build -trimpath -ldflags "-X main.version=$version" -o "$bin/$exe" ./cmd/git-memcite)
fi
echo "$bin" >>"${GITHUB_PATH:-/dev/null}"
echo "built $bin/$exe ($version)"
