#!/usr/bin/env bash
# Installs the tools the tests use for real when present:
#   Debian packages: chromium (the HTML health report opened in a headless
#   browser), zsh and fish (completion scripts run and syntax-checked),
#   groff and man-db (the man page rendered, `git memcite --help`),
#   bash-completion (git's own completion loads _git_memcite), zip and
#   curl (scripts/release.sh packs the Windows archives, install.sh fetches
#   an archive by URL), unzip (the Action's Windows release archives), pre-commit (the pre-commit
#   framework, 3.0.4 on Debian 12);
#   npm packages: lefthook and husky, into .cache/hooktools (ignored by
#   git), where the testscripts find them (cmd/git-memcite/main_test.go).
# Tests that need a missing tool skip locally; in CI (CI=true) the hook
# manager tests and the Action's release test fail instead, and on CI
# (root, apt, npm) a failing install fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

# the hook managers' versions the tests run against (docs/hooks.md)
LEFTHOOK_VERSION=2.2.2
HUSKY_VERSION=9.1.7

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v zsh >/dev/null 2>&1 || need+=(zsh)
command -v fish >/dev/null 2>&1 || need+=(fish)
command -v groff >/dev/null 2>&1 || need+=(groff-base)
command -v man >/dev/null 2>&1 || need+=(man-db)
[ -f /usr/share/bash-completion/completions/git ] || need+=(bash-completion)
command -v zip >/dev/null 2>&1 || need+=(zip)
command -v curl >/dev/null 2>&1 || command -v wget >/dev/null 2>&1 || need+=(curl ca-certificates)
command -v pre-commit >/dev/null 2>&1 || need+=(pre-commit)
command -v unzip >/dev/null 2>&1 || need+=(unzip)
if [ ${#need[@]} -eq 0 ]; then
  echo "ci-deps: Debian packages all present"
elif [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ci-deps: missing ${need[*]} and no root apt-get here; the tests that need them will skip" >&2
else
  echo "ci-deps: installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

tools=.cache/hooktools
have() { [ -x "$tools/node_modules/.bin/$1" ] && [ "$(grep -o '"version": *"[^"]*"' "$tools/node_modules/$1/package.json" | grep -o '[0-9][^"]*')" = "$2" ]; }
if have lefthook "$LEFTHOOK_VERSION" && have husky "$HUSKY_VERSION"; then
  echo "ci-deps: lefthook $LEFTHOOK_VERSION and husky $HUSKY_VERSION present in $tools"
elif ! command -v npm >/dev/null 2>&1; then
  echo "ci-deps: no npm here; the lefthook and husky tests will skip" >&2
else
  echo "ci-deps: npm install lefthook@$LEFTHOOK_VERSION husky@$HUSKY_VERSION into $tools"
  mkdir -p "$tools"
  # --ignore-scripts: lefthook's postinstall would install its hooks into
  # this repository
  npm install --prefix "$tools" --ignore-scripts --no-audit --no-fund --loglevel=error \
    "lefthook@$LEFTHOOK_VERSION" "husky@$HUSKY_VERSION" >/dev/null
  "$tools/node_modules/.bin/lefthook" version
fi
