#!/usr/bin/env bash
# Builds the release archives of git-memcite: one per target, a SHA256SUMS
# file next to them.
#
#   scripts/release.sh VERSION                      the six archives into dist/
#   scripts/release.sh --out DIR VERSION            into DIR
#   scripts/release.sh --targets "linux/amd64 windows/arm64" VERSION
#   scripts/release.sh --force VERSION              from a commit not tagged VERSION
#
# VERSION is the tag, with or without its v (v0.1.0 and 0.1.0 both give
# 0.1.0). HEAD must carry that tag (vVERSION or VERSION): a release built
# from another commit is refused unless --force. For each target it writes git-memcite_<version>_<os>_<arch>.tar.gz
# (.zip for windows) holding the directory git-memcite_<version>_<os>_<arch>/
# with the binary git-memcite (git-memcite.exe on windows), README.md,
# LICENSE, the man page git-memcite.1 and
# completions/git-memcite.bash, completions/_git-memcite (zsh) and
# completions/git-memcite.fish. SHA256SUMS lists the archives in sha256sum
# format. The version and commit are stamped with -ldflags -X (git memcite
# --version prints them). docs/platforms.md has the contract.
#
# The archives are reproducible: -trimpath builds, file times set to the
# commit's time (SOURCE_DATE_EPOCH overrides), sorted entries, no owners.
# Needs Go, git, GNU tar, gzip, zip and sha256sum.
set -euo pipefail

out=dist force=false
targets="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --targets) targets=${2:?--targets needs os/arch pairs}; shift 2 ;;
    --force) force=true; shift ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "release.sh: unknown option: $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { echo "usage: scripts/release.sh [--out DIR] [--targets \"OS/ARCH ...\"] [--force] VERSION" >&2; exit 2; }
version=${1#v}
if ! printf '%s\n' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$'; then
  echo "release.sh: $1 is not a release version (like v0.1.0 or 0.1.0-rc.1)" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
if ! $force; then
  tags=$(git -C "$root" tag --points-at HEAD 2>/dev/null || true)
  if ! printf '%s\n' "$tags" | grep -Fxq -e "v$version" -e "$version"; then
    echo "release.sh: HEAD ($(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)) is not tagged v$version; tag it (git tag v$version) or build anyway with --force" >&2
    exit 2
  fi
fi
for tool in go git tar gzip zip sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || { echo "release.sh: $tool is not installed" >&2; exit 1; }
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
ldflags="-s -w -X main.version=$version -X main.commit=$commit"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The man page and completions are the same for every target: made once, by
# a build for this machine with the same stamp.
echo "git-memcite $version ($commit)"
CGO_ENABLED=0 GOOS= GOARCH= go build -trimpath -ldflags "$ldflags" -o "$work/host/git-memcite" ./cmd/git-memcite
mkdir -p "$work/extra/completions"
"$work/host/git-memcite" man >"$work/extra/git-memcite.1"
"$work/host/git-memcite" completion bash >"$work/extra/completions/git-memcite.bash"
"$work/host/git-memcite" completion zsh >"$work/extra/completions/_git-memcite"
"$work/host/git-memcite" completion fish >"$work/extra/completions/git-memcite.fish"
cp README.md "$work/extra/"
cp LICENSE "$work/extra/"

archives=()
for t in $targets; do
  os=${t%/*} arch=${t#*/}
  name="git-memcite_${version}_${os}_${arch}"
  exe=git-memcite
  [ "$os" != windows ] || exe=git-memcite.exe
  dir="$work/$name"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$ldflags" -o "$dir/$exe" ./cmd/git-memcite
  cp -R "$work/extra/." "$dir/"
  find "$dir" -type d -exec chmod 755 {} +
  find "$dir" -type f -exec chmod 644 {} +
  chmod 755 "$dir/$exe"
  find "$dir" -exec touch -h -d "@$epoch" {} +
  if [ "$os" = windows ]; then
    archive="$name.zip"
    rm -f "$out/$archive"
    (cd "$work" && find "$name" | LC_ALL=C sort | TZ=UTC zip -q -X -D "$out/$archive" -@)
  else
    archive="$name.tar.gz"
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$work" -cf - "$name" |
      gzip -n -9 >"$out/$archive"
  fi
  archives+=("$archive")
  echo "  $out/$archive"
done
(cd "$out" && sha256sum "${archives[@]}" >SHA256SUMS)
echo "  $out/SHA256SUMS"
