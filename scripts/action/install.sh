#!/bin/sh
# Step 1 of the GitHub Action (action.yml): build git-memcite from the
# action's own checkout with the Go that actions/setup-go installed, and put
# it on PATH for the later steps.
#
#   GITHUB_ACTION_PATH  the action's checkout (default: this repository)
#   RUNNER_TEMP         where the binary goes (default: $TMPDIR or /tmp)
#   GITHUB_PATH         file to which the bin directory is appended
set -eu

src=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/git-memcite/bin"
mkdir -p "$bin"
command -v go >/dev/null 2>&1 || { echo "::error title=git-memcite::Go is not installed (the action runs actions/setup-go first)"; exit 2; }
version=$(git -C "$src" describe --tags --always 2>/dev/null || echo action)
(cd "$src" && go build -trimpath -ldflags "-X main.version=$version" -o "$bin/git-memcite" ./cmd/git-memcite)
echo "$bin" >>"${GITHUB_PATH:-/dev/null}"
echo "built $bin/git-memcite ($version)"
