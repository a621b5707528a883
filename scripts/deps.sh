#!/bin/sh
# deps.sh: print which internal packages each package of the binary
# imports, the arrows of README's Architecture diagram.
#   scripts/deps.sh
set -eu
cd "$(dirname "$0")/.."
for p in $(go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./cmd/git-memcite | grep '/git-memcite/'); do
  printf '%s ->' "${p##*/git-memcite/}"
  go list -f '{{join .Imports " "}}' "$p" | tr ' ' '\n' | grep '/git-memcite/internal/' | sed 's|.*/internal/| |' | tr -d '\n'
  echo
done
