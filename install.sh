#!/bin/sh
# Build and install git-memcite so that `git memcite …` works.
#
#   ./install.sh                 install into $GOBIN, else $(go env GOPATH)/bin
#   ./install.sh --prefix DIR    install into DIR/bin
#
# Idempotent: running it again replaces the binary with a fresh build. Needs
# Go (>= 1.24) and reaches no network beyond the Go module proxy.
set -eu

prefix=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a directory" >&2; exit 2; }; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

command -v go >/dev/null 2>&1 || { echo "install.sh: Go is not installed (https://go.dev/dl/)" >&2; exit 1; }
cd "$(dirname "$0")"

if [ -n "$prefix" ]; then
  bindir="$prefix/bin"
else
  bindir=$(go env GOBIN)
  [ -n "$bindir" ] || bindir="$(go env GOPATH)/bin"
fi
mkdir -p "$bindir"

version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
echo "building git-memcite $version"
go mod download
tmp="$bindir/.git-memcite.$$"
go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$tmp" ./cmd/git-memcite
mv -f "$tmp" "$bindir/git-memcite"
echo "installed $bindir/git-memcite"

case ":$PATH:" in
  *":$bindir:"*) ;;
  *) echo "note: $bindir is not on PATH; add it so that git finds 'git memcite':"
     echo "  export PATH=\"$bindir:\$PATH\"" ;;
esac
