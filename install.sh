#!/bin/sh
# Build and install git-memcite so that `git memcite …` works.
#
#   ./install.sh                 install into $GOBIN, else $(go env GOPATH)/bin
#   ./install.sh --prefix DIR    install into DIR/bin
#
# The man page git-memcite.1 (what `git memcite --help` opens) goes to
# DIR/share/man/man1 beside DIR/bin, where man looks for every bin
# directory on PATH (default: $(go env GOPATH)/share/man/man1); the bash completion
# (git's completion loads it for `git memcite`) to
# DIR/share/bash-completion/completions, default
# ${XDG_DATA_HOME:-~/.local/share}/bash-completion/completions.
#
# Idempotent: running it again replaces the binary with a fresh build. Needs
# Go (>= 1.26, as go.mod requires) and reaches no network beyond the Go module proxy.
set -eu

prefix=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a directory" >&2; exit 2; }; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

command -v go >/dev/null 2>&1 || { echo "install.sh: Go is not installed (https://go.dev/dl/)" >&2; exit 1; }
cd "$(dirname "$0")"

if [ -n "$prefix" ]; then
  bindir="$prefix/bin"
  mandir="$prefix/share/man/man1"
  compdir="$prefix/share/bash-completion/completions"
else
  compdir="${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion/completions"
  bindir=$(go env GOBIN)
  [ -n "$bindir" ] || bindir="$(go env GOPATH)/bin"
  # beside the binary: man finds DIR/share/man for every DIR/bin on PATH
  mandir="$(dirname "$bindir")/share/man/man1"
fi
mkdir -p "$bindir"

version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
echo "building git-memcite $version"
go mod download
tmp="$bindir/.git-memcite.$$"
go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$tmp" ./cmd/git-memcite
mv -f "$tmp" "$bindir/git-memcite"
echo "installed $bindir/git-memcite"

mkdir -p "$mandir" "$compdir"
"$bindir/git-memcite" man >"$mandir/git-memcite.1.$$"
mv -f "$mandir/git-memcite.1.$$" "$mandir/git-memcite.1"
echo "installed $mandir/git-memcite.1 (git memcite --help)"
"$bindir/git-memcite" completion bash >"$compdir/git-memcite.$$"
mv -f "$compdir/git-memcite.$$" "$compdir/git-memcite"
echo "installed $compdir/git-memcite (bash completion; zsh and fish: git memcite completion zsh|fish)"
case ":$(manpath 2>/dev/null || echo "${MANPATH:-}"):" in
  *":$mandir:"*|*":${mandir%/man1}:"*) ;;
  *) echo "note: ${mandir%/man1} is not on the man path; add it so that 'git memcite --help' finds the page:"
     echo "  export MANPATH=\"${mandir%/man1}:\$MANPATH\"" ;;
esac

case ":$PATH:" in
  *":$bindir:"*) ;;
  *) echo "note: $bindir is not on PATH; add it so that git finds 'git memcite':"
     echo "  export PATH=\"$bindir:\$PATH\"" ;;
esac
