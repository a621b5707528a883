#!/usr/bin/env bash
# Times how the GitHub Action (action.yml) gets its git-memcite:
#   cold     scripts/action/install.sh with empty GOCACHE and GOMODCACHE
#            (modules fetched from the Go module proxy): a first run, or a
#            new version of the action with nothing to restore;
#   warm     the same with both directories kept, as actions/cache
#            restores them on the next run of the same action version;
#   release  scripts/action/release.sh installing a release archive (of
#            the binary built here) from a local server, checksum checked.
# The runner's own work (actions/setup-go, the cache download) is not
# included.
#   scripts/bench-action.sh [RUNS]   (default 3 warm and release runs)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
work=$(mktemp -d)
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  chmod -R u+w "$work" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }
build() {
  env -u GOFLAGS GOCACHE="$work/go/build" GOMODCACHE="$work/go/mod" \
    GITHUB_ACTION_PATH="$PWD" RUNNER_TEMP="$work/runner" GITHUB_PATH=/dev/null \
    sh scripts/action/install.sh >/dev/null
}

echo "== cold build (empty module and build caches)"
t=$(now); build; echo "cold: $(since "$t")"
echo "== warm build (caches restored), $runs runs"
for i in $(seq "$runs"); do
  rm -rf "$work/runner"
  t=$(now); build; echo "warm $i: $(since "$t")"
done

echo "== release archive, $runs runs"
version=0.0.0-bench
name=git-memcite_${version}_linux_amd64
mkdir -p "$work/srv/v$version/$name"
cp "$work/runner/git-memcite/bin/git-memcite" "$work/srv/v$version/$name/"
tar -czf "$work/srv/v$version/$name.tar.gz" -C "$work/srv/v$version" "$name"
(cd "$work/srv/v$version" && sha256sum "$name.tar.gz" >SHA256SUMS)
port=$((20000 + RANDOM % 20000))
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/srv" >/dev/null 2>&1 &
server=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break; sleep 0.1; done
for i in $(seq "$runs"); do
  rm -rf "$work/runner"
  t=$(now)
  INPUT_VERSION=$version RUNNER_OS=Linux RUNNER_ARCH=X64 MEMCITE_RELEASE_URL="http://127.0.0.1:$port" \
    GITHUB_ACTION_PATH="$PWD" RUNNER_TEMP="$work/runner" GITHUB_PATH=/dev/null GITHUB_OUTPUT=/dev/null \
    bash scripts/action/release.sh >/dev/null
  echo "release $i: $(since "$t")"
done
