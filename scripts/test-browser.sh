#!/usr/bin/env bash
# Opens the HTML health report in a real headless browser: installs
# Debian's chromium when it is missing (needs root and apt), then runs the
# browser test, which skips itself when no chromium can be found.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "test-browser: chromium is not installed and cannot be installed here; the test will skip" >&2
  fi
fi
go test ./cmd/git-memcite -run 'TestHealthHTMLInBrowser' -count=1 -v
