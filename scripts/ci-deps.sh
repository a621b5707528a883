#!/usr/bin/env bash
# Installs the Debian packages the tests use for real when present:
# chromium (the HTML health report opened in a headless browser), zsh and
# fish (completion scripts run and syntax-checked), groff and man-db (the
# man page rendered, `git memcite --help`), bash-completion (git's own
# completion loads _git_memcite), zip and curl (scripts/release.sh packs
# the Windows archives, install.sh fetches an archive by URL). Tests that
# need a missing tool skip (on CI, with CI set, they fail), so this is best
# effort where apt is not available; on CI (root, apt) a failing install
# fails the run.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v zsh >/dev/null 2>&1 || need+=(zsh)
command -v fish >/dev/null 2>&1 || need+=(fish)
command -v groff >/dev/null 2>&1 || need+=(groff-base)
command -v man >/dev/null 2>&1 || need+=(man-db)
[ -f /usr/share/bash-completion/completions/git ] || need+=(bash-completion)
command -v zip >/dev/null 2>&1 || need+=(zip)
command -v curl >/dev/null 2>&1 || command -v wget >/dev/null 2>&1 || need+=(curl ca-certificates)
if [ ${#need[@]} -eq 0 ]; then
  echo "ci-deps: all present"
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ci-deps: missing ${need[*]} and no root apt-get here; the tests that need them will skip" >&2
  exit 0
fi
echo "ci-deps: installing ${need[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
