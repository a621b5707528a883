#!/bin/sh
# Install git-memcite so that `git memcite …` works.
#
#   ./install.sh                       build this checkout; install into $GOBIN,
#                                      else $(go env GOPATH)/bin
#   ./install.sh --prefix DIR          install into DIR/bin
#   ./install.sh --version v0.1.0 --archive URL|PATH
#                                      install a release archive (no Go needed)
#   ./install.sh --version v0.1.0      build that release from source
#
# --archive takes a release archive (git-memcite_<version>_<os>_<arch>.tar.gz,
# .zip on Windows) by path or URL, or the directory or URL (ending in /)
# that holds the archives, where the one for this machine is picked. The
# archive's SHA-256 must match its line in SHA256SUMS next to it (or
# --checksums PATH|URL); a wrong or missing checksum is refused. A path
# may be written as a file:// URL. When the archive or SHA256SUMS named
# cannot be had, install.sh stops with that error (exit 1) and installs
# nothing: it builds from source only when no --archive is given, this
# checkout when it is at that version, else that version from the Go
# module proxy (go install …@vX.Y.Z). Without --prefix and Go, the binary
# goes to ~/.local/bin.
#
# The man page git-memcite.1 (what `git memcite --help` opens) goes to
# DIR/share/man/man1 beside DIR/bin, where man looks for every bin
# directory on PATH (default: $(go env GOPATH)/share/man/man1); the bash completion
# (git's completion loads it for `git memcite`) to
# DIR/share/bash-completion/completions, default
# ${XDG_DATA_HOME:-~/.local/share}/bash-completion/completions.
#
# Idempotent: running it again replaces what it installed. Building needs Go
# (>= 1.26, as go.mod requires) and reaches no network beyond the Go module
# proxy; an archive URL is fetched with curl or wget.
set -eu

module=github.com/git-memcite/git-memcite
prefix="" version="" archive="" checksums=""
need() { [ $# -ge 2 ] || { echo "install.sh: $1 needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) need "$@"; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --version) need "$@"; version=$2; shift 2 ;;
    --version=*) version=${1#--version=}; shift ;;
    --archive) need "$@"; archive=$2; shift 2 ;;
    --archive=*) archive=${1#--archive=}; shift ;;
    --checksums) need "$@"; checksums=$2; shift 2 ;;
    --checksums=*) checksums=${1#--checksums=}; shift ;;
    -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ -n "$version" ]; then
  version=${version#v}
  if ! printf '%s\n' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$'; then
    echo "install.sh: --version $version is not a release version (like v0.1.0)" >&2
    exit 2
  fi
fi
[ -n "$checksums" ] && [ -z "$archive" ] && { echo "install.sh: --checksums goes with --archive" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have_go=false
command -v go >/dev/null 2>&1 && have_go=true

# where things go
if [ -n "$prefix" ]; then
  bindir="$prefix/bin"
  mandir="$prefix/share/man/man1"
  compdir="$prefix/share/bash-completion/completions"
else
  compdir="${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion/completions"
  if $have_go; then
    bindir=$(go env GOBIN)
    [ -n "$bindir" ] || bindir="$(go env GOPATH)/bin"
  else
    bindir="$HOME/.local/bin"
  fi
  # beside the binary: man finds DIR/share/man for every DIR/bin on PATH
  mandir="$(dirname "$bindir")/share/man/man1"
fi

# this machine, as release archives name it
os=$(uname -s) arch=$(uname -m)
case "$os" in
  Linux) os=linux ;; Darwin) os=darwin ;;
  MINGW*|MSYS*|CYGWIN*|Windows_NT) os=windows ;;
  *) os=$(printf '%s' "$os" | tr '[:upper:]' '[:lower:]') ;;
esac
case "$arch" in
  x86_64|amd64) arch=amd64 ;; aarch64|arm64|armv8*) arch=arm64 ;;
esac
exe=git-memcite ext=tar.gz
[ "$os" != windows ] || { exe=git-memcite.exe; ext=zip; }

is_url() { case "$1" in http://*|https://*) return 0 ;; esac; return 1; }

# local_path URL: the path of a file:// URL (file:///p, file://localhost/p);
# anything else unchanged
local_path() {
  case "$1" in
    file://localhost/*) printf '%s\n' "${1#file://localhost}" ;;
    file:///*) printf '%s\n' "${1#file://}" ;;
    file://*) echo "install.sh: $1: only local file:// URLs (file:///path) are read" >&2; return 1 ;;
    *) printf '%s\n' "$1" ;;
  esac
}

# fetch SRC (a path or URL) to the file DEST; false when it cannot be had
fetch() {
  if is_url "$1"; then
    if command -v curl >/dev/null 2>&1; then
      curl -fsSL --retry 2 -o "$2" "$1"
    elif command -v wget >/dev/null 2>&1; then
      wget -q -O "$2" "$1"
    else
      echo "install.sh: neither curl nor wget is installed to fetch $1" >&2
      return 1
    fi
  else
    [ -f "$1" ] && cp "$1" "$2"
  fi
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  else
    echo "install.sh: neither sha256sum nor shasum is installed to check the archive" >&2
    return 1
  fi
}

# install_file SRC DEST MODE: replace DEST in one step
install_file() {
  mkdir -p "$(dirname "$2")"
  cp "$1" "$2.$$"
  chmod "$3" "$2.$$"
  mv -f "$2.$$" "$2"
}

# install_archive: install from the release archive; an archive that
# cannot be had or is refused ends the script with exit 1.
install_archive() {
  src=$(local_path "$archive") || exit 2
  [ -z "$checksums" ] || checksums=$(local_path "$checksums") || exit 2
  case "$src" in
    */) dir=${src%/} ;;
    *) if ! is_url "$src" && [ -d "$src" ]; then dir=$src; else dir=""; fi ;;
  esac
  if [ -n "$dir" ]; then
    [ -n "$version" ] || { echo "install.sh: --archive with a directory needs --version" >&2; exit 2; }
    src="$dir/git-memcite_${version}_${os}_${arch}.$ext"
  fi
  base=${src##*/}
  case "$base" in
    git-memcite_*_*_*.tar.gz|git-memcite_*_*_*.zip) ;;
    *) echo "install.sh: $base is not named like a release archive (git-memcite_<version>_<os>_<arch>.$ext)" >&2; exit 1 ;;
  esac
  name=${base%.tar.gz}
  name=${name%.zip}
  case "$name" in
    *_"${os}_$arch") ;;
    *) echo "install.sh: $base is not for this machine ($os/$arch)" >&2; exit 1 ;;
  esac
  got=${name#git-memcite_}
  got=${got%_"${os}_$arch"}
  if [ -n "$version" ] && [ "$got" != "$version" ]; then
    echo "install.sh: $base is version $got, not $version" >&2
    exit 1
  fi
  version=$got
  if [ -n "$checksums" ]; then
    sums=$checksums
  else
    case "$src" in */*) sums="${src%/*}/SHA256SUMS" ;; *) sums=SHA256SUMS ;; esac
  fi

  echo "installing git-memcite $version from $src"
  if ! fetch "$src" "$tmp/$base"; then
    echo "install.sh: cannot get $src; not installed (without --archive, install.sh builds from source)" >&2
    exit 1
  fi
  if ! fetch "$sums" "$tmp/SHA256SUMS"; then
    echo "install.sh: cannot get $sums to check $base against; not installed" >&2
    exit 1
  fi
  want=$(awk -v f="$base" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")
  if [ -z "$want" ]; then
    echo "install.sh: $base is not listed in $sums; not installed" >&2
    exit 1
  fi
  have=$(sha256 "$tmp/$base") || exit 1
  if [ "$have" != "$want" ]; then
    echo "install.sh: checksum mismatch for $base: SHA-256 $have, $sums says $want; not installed" >&2
    exit 1
  fi
  echo "checksum ok: $have"

  mkdir "$tmp/x"
  if [ "$ext" = zip ]; then
    if command -v unzip >/dev/null 2>&1; then
      unzip -q "$tmp/$base" -d "$tmp/x"
    else
      tar -xf "$tmp/$base" -C "$tmp/x" # Windows' bsdtar reads zip
    fi
  else
    gzip -dc "$tmp/$base" | tar -xf - -C "$tmp/x"
  fi
  [ -f "$tmp/x/$name/$exe" ] || { echo "install.sh: $base holds no $name/$exe" >&2; exit 1; }
  install_file "$tmp/x/$name/$exe" "$bindir/$exe" 755
  echo "installed $bindir/$exe"
  install_file "$tmp/x/$name/git-memcite.1" "$mandir/git-memcite.1" 644
  echo "installed $mandir/git-memcite.1 (git memcite --help)"
  install_file "$tmp/x/$name/completions/git-memcite.bash" "$compdir/git-memcite" 644
  echo "installed $compdir/git-memcite (bash completion; zsh and fish: completions/ in the archive)"
  "$bindir/$exe" --version
}

# build_from_source: this checkout, or the release from the module proxy
build_from_source() {
  $have_go || { echo "install.sh: Go is not installed (https://go.dev/dl/); it builds git-memcite from source" >&2; exit 1; }
  mkdir -p "$bindir"
  at=""
  if [ -f "$here/go.mod" ]; then
    at=$(cd "$here" && git describe --tags --exact-match 2>/dev/null || true)
  fi
  if [ -z "$version" ] || [ "$at" = "v$version" ]; then
    [ -f "$here/go.mod" ] || { echo "install.sh: no checkout at $here to build; give --version" >&2; exit 1; }
    cd "$here"
    v=${version:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
    rev=$(git rev-parse HEAD 2>/dev/null || echo "")
    echo "building git-memcite $v"
    go mod download
    # without cgo, as the release archives are: a static binary, whose
    # every start (each hook) skips the dynamic loader and libc's threads
    CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$v -X main.commit=$rev" -o "$tmp/$exe" ./cmd/git-memcite
  else
    echo "building git-memcite $version: go install $module/cmd/git-memcite@v$version"
    CGO_ENABLED=0 GOBIN="$tmp" go install -trimpath -ldflags "-s -w -X main.version=$version" "$module/cmd/git-memcite@v$version" || {
      echo "install.sh: go install $module/cmd/git-memcite@v$version failed" >&2
      exit 1
    }
  fi
  install_file "$tmp/$exe" "$bindir/$exe" 755
  echo "installed $bindir/$exe"
  mkdir -p "$mandir" "$compdir"
  "$bindir/$exe" man >"$tmp/git-memcite.1"
  install_file "$tmp/git-memcite.1" "$mandir/git-memcite.1" 644
  echo "installed $mandir/git-memcite.1 (git memcite --help)"
  "$bindir/$exe" completion bash >"$tmp/git-memcite.bash"
  install_file "$tmp/git-memcite.bash" "$compdir/git-memcite" 644
  echo "installed $compdir/git-memcite (bash completion; zsh and fish: git memcite completion zsh|fish)"
}

if [ -n "$archive" ]; then
  install_archive
else
  build_from_source
fi

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
