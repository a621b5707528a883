#!/usr/bin/env bash
# Step 1 of the GitHub Action (action.yml): install a released git-memcite
# when there is an archive for this runner, checked against the release's
# SHA256SUMS; otherwise leave it to the build steps (Go, with a cache).
#
# The release archives (docs/ci.md, "Release archives"), at
# <base>/v<version>/:
#   git-memcite_<version>_<os>_<arch>.tar.gz   (.zip for windows)
#     holding git-memcite_<version>_<os>_<arch>/git-memcite (.exe)
#   SHA256SUMS                                  (sha256sum format)
# with os linux, darwin or windows and arch amd64 or arm64.
#
#   INPUT_VERSION        the release to install (0.1.0 or v0.1.0); empty:
#                        the action's own when it is used at a tag vX.Y.Z
#   ACTION_REF           the action's ref (github.action_ref)
#   ACTION_REPOSITORY    the action's repository (default git-memcite/git-memcite)
#   MEMCITE_RELEASE_URL  where releases are (default
#                        https://github.com/<repository>/releases/download)
#   GITHUB_ACTION_PATH   the action's checkout (default: this repository)
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT
#
# Outputs: installed (true or false), version, module-version (the
# version to build with go install when it is not the action's own),
# source-key (a hash of the action's Go sources, for the build cache).
# Exit status 2 when an archive does not match its checksum.
set -euo pipefail

src=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
out=${GITHUB_OUTPUT:-/dev/null}
temp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/git-memcite
repo=${ACTION_REPOSITORY:-git-memcite/git-memcite}
base=${MEMCITE_RELEASE_URL:-https://github.com/$repo/releases/download}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$@" | cut -d' ' -f1
  else shasum -a 256 "$@" | cut -d' ' -f1; fi
}

# the build cache key: the action's Go sources
key=$(cd "$src" && find . \( -name '*.go' -o -name go.mod -o -name go.sum \) -not -path './.cache/*' -print0 | LC_ALL=C sort -z | xargs -0 cat | sha256)
echo "source-key=$key" >>"$out"

version=${INPUT_VERSION:-}
version=${version#v}
own=
case ${ACTION_REF:-} in
  v[0-9]*.[0-9]*.[0-9]*) own=${ACTION_REF#v} ;;
esac
if [ -z "$version" ]; then
  version=$own
fi
build() {
  echo "installed=false" >>"$out"
  if [ -n "$version" ] && [ "$version" != "$own" ]; then
    echo "module-version=v$version" >>"$out"
  fi
  echo "$1; building git-memcite from source"
  exit 0
}
[ -n "$version" ] || build "no release asked for (the action is used at ${ACTION_REF:-a ref that is not a version})"
echo "version=$version" >>"$out"

case ${RUNNER_OS:-$(uname -s)} in
  Linux) os=linux ;; macOS | Darwin) os=darwin ;; Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) build "no release archive for ${RUNNER_OS:-$(uname -s)}" ;;
esac
case ${RUNNER_ARCH:-$(uname -m)} in
  X64 | x86_64 | amd64) arch=amd64 ;; ARM64 | aarch64 | arm64) arch=arm64 ;;
  *) build "no release archive for ${RUNNER_ARCH:-$(uname -m)}" ;;
esac
name=git-memcite_${version}_${os}_${arch}
asset=$name.tar.gz exe=git-memcite
if [ "$os" = windows ]; then asset=$name.zip exe=git-memcite.exe; fi

dl="$temp/download"
rm -rf "$dl" && mkdir -p "$dl"
fetch() { curl -fsSL --retry 3 --connect-timeout 20 -o "$dl/$1" "$base/v$version/$1"; }
if ! fetch "$asset" 2>"$dl/err"; then
  build "no git-memcite $version release archive for $os/$arch at $base/v$version/$asset ($(tr '\n' ' ' <"$dl/err"))"
fi
if ! fetch SHA256SUMS 2>"$dl/err"; then
  echo "::warning title=git-memcite::release $version has no SHA256SUMS; its archive is not used unchecked"
  build "cannot check $asset"
fi
want=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1 }' "$dl/SHA256SUMS")
if [ -z "$want" ]; then
  echo "::warning title=git-memcite::SHA256SUMS of release $version does not list $asset; the archive is not used unchecked"
  build "cannot check $asset"
fi
got=$(sha256 "$dl/$asset")
if [ "$got" != "$want" ]; then
  echo "::error title=git-memcite::$asset does not match SHA256SUMS of release $version (sha256 $got, expected $want); not installed"
  exit 2
fi

unpacked="$temp/release"
rm -rf "$unpacked" && mkdir -p "$unpacked"
if [ "$os" = windows ]; then
  if command -v unzip >/dev/null 2>&1; then
    unzip -q "$dl/$asset" -d "$unpacked"
  else
    powershell -NoProfile -Command "Expand-Archive -LiteralPath '$dl/$asset' -DestinationPath '$unpacked'"
  fi
else
  tar -xzf "$dl/$asset" -C "$unpacked"
fi
[ -f "$unpacked/$name/$exe" ] || build "$asset holds no $name/$exe"
bin="$temp/bin"
mkdir -p "$bin"
cp "$unpacked/$name/$exe" "$bin/$exe"
chmod 755 "$bin/$exe"
"$bin/$exe" --version
echo "$bin" >>"${GITHUB_PATH:-/dev/null}"
echo "installed=true" >>"$out"
echo "installed $asset (sha256 $got) into $bin"
