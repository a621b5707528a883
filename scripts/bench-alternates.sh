#!/usr/bin/env bash
# bench-alternates.sh: git-memcite in a clone that borrows its objects
# (git clone --shared: objects/info/alternates) against a plain clone of
# the same repository.
#
# It clones SOURCE (an existing repository, e.g. a local clone of a public
# one) twice, plainly (a local clone: the objects copied or hard-linked)
# and with --shared, checks both out (a
# file whose object SOURCE lacks is left out, as in a snapshot without its
# largest blobs), and times COMMAND in each, interleaved, RUNS times: the
# plain clone, the shared clone, and the shared clone with
# MEMCITE_BACKEND=git. It prints the medians, the ratio of each to the
# plain clone, and whether the three printed the same.
#   scripts/bench-alternates.sh SOURCE [RUNS]   (default 5; env COMMAND,
#        default "relocate": every citation followed through history)
# The Go benchmark on generated histories: go test ./internal/gitrepo
# -run '^$' -bench Alternates.
set -euo pipefail
src=$(cd "${1:?usage: scripts/bench-alternates.sh SOURCE [RUNS]}" && pwd)
runs=${2:-5}
read -r -a command <<<"${COMMAND:-relocate}"
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-alternates.XXXXXX")
trap 'rm -rf "$work"' EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
(cd "$root" && go build -o "$work/git-memcite" ./cmd/git-memcite)
for kind in plain shared; do
	opt=()
	[ "$kind" = shared ] && opt=(--shared)
	git clone -q "${opt[@]}" --no-checkout "$src" "$work/$kind"
	git -C "$work/$kind" reset -q
	git -C "$work/$kind" checkout-index -a -f 2>/dev/null || true
done
echo "alternates of the shared clone: $(cat "$work/shared/.git/objects/info/alternates")"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
run() { # dir backend -> wall ms, output in $work/out.<dir>.<backend>
	local s e
	s=$(date +%s%N)
	(cd "$work/$1" && MEMCITE_BACKEND=$2 "$work/git-memcite" "${command[@]}" >"$work/out.$1.$2" 2>/dev/null) || true
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}
dirs=(plain shared shared)
backends=("" "" git)
names=("plain clone" "clone --shared" "clone --shared, MEMCITE_BACKEND=git")
for i in 0 1 2; do : >"$work/t.$i"; done
for _ in $(seq "$runs"); do
	for i in 0 1 2; do
		run "${dirs[$i]}" "${backends[$i]}" >>"$work/t.$i"
	done
done
base=$(median <"$work/t.0")
echo "git memcite ${command[*]} in $(basename "$src") ($(git -C "$work/plain" rev-list --count HEAD) commits), median of $runs, load average $(cut -d' ' -f1-3 /proc/loadavg):"
for i in 0 1 2; do
	m=$(median <"$work/t.$i")
	printf '  %-38s %7d ms  %5.2fx\n' "${names[$i]}" "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN {print a / b}')"
done
same=yes
cmp -s "$work/out.plain." "$work/out.shared." || same=no
cmp -s "$work/out.plain." "$work/out.shared.git" || same=no
echo "same output in the three setups: $same"
