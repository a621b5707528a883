#!/bin/sh
# The last step of the GitHub Action (action.yml): run git memcite verify-all in
# the checked-out repository with the action's inputs, and set the step's
# outputs. The exit status is git-memcite's: 0 clean, 1 stale citations at
# or above fail-on, 2 error.
#
#   INPUT_DIRS      memory directories, separated by newlines, commas or
#                   spaces (empty: the repository's configuration)
#   INPUT_FORMAT    github (default), sarif, json, gitlab or text
#   INPUT_FAIL_ON   error (default), warning, note or never
#   INPUT_OUTPUT    write the report to this file (default: the log)
#   INPUT_BASELINE  a JSON report of known findings that do not fail
#   GITHUB_OUTPUT   file for the step outputs exit-code and report
set -u

format=${INPUT_FORMAT:-github}
fail_on=${INPUT_FAIL_ON:-error}
set -- verify-all --format "$format" --fail-on "$fail_on"
dirs=$(printf '%s\n' "${INPUT_DIRS:-}" | tr ',' ' ')
for d in $dirs; do
  set -- "$@" --dir "$d"
done
if [ -n "${INPUT_OUTPUT:-}" ]; then
  set -- "$@" --output "$INPUT_OUTPUT"
fi
if [ -n "${INPUT_BASELINE:-}" ]; then
  set -- "$@" --baseline "$INPUT_BASELINE"
fi

# a repository without memories passes, as linters pass with nothing to
# check (the report, if asked for, is written all the same)
if [ -z "${INPUT_DIRS:-}" ]; then
  default=$(git memcite config 2>/dev/null | sed -n 's/^dirs  *\(.*[^ ]\)  *(default)$/\1/p')
  top=$(git rev-parse --show-toplevel 2>/dev/null || pwd)
  if [ -n "$default" ] && [ ! -d "$top/$default" ]; then
    echo "::notice title=git-memcite::no memory directory ($default) in this repository: nothing to check"
  fi
fi

echo "git memcite $*"
git memcite "$@"
status=$?

out=${GITHUB_OUTPUT:-/dev/null}
echo "exit-code=$status" >>"$out"
echo "report=${INPUT_OUTPUT:-}" >>"$out"
case $status in
  0) ;;
  1) echo "git-memcite: stale citations found (fail-on: $fail_on); fix them, or record them with --format json as a baseline" >&2 ;;
  *) echo "git-memcite: error (exit status $status)" >&2
     if [ "$format" = github ]; then
       echo "::error title=git-memcite::git memcite failed with exit status $status (bad input, not a repository, or a malformed memory file); see the log"
     fi ;;
esac
exit "$status"
