#!/usr/bin/env bash
# try-line-identity.sh: line identity (docs/citation-schema.md) on a real
# repository's history. In a copy of CLONE it writes a memory of shorthand
# citations ("path:N", no snippet) of definition lines (def, class, func,
# function) of files that changed in the last DEPTH commits, as those
# files were DEPTH commits ago; commits it there; merges HEAD into it
# (first parent: the memory's commit, so that its base is that commit);
# and then runs verify and relocate on the result. Each verdict is
# checked against the text: a citation called valid must hold the same
# text at the same line; one called moved, the same text at its new
# place; one called deleted, a text no longer in the file. It prints the
# counts, the disagreements between verify and relocate, the wrong
# verdicts, and the times.
#
#   scripts/try-line-identity.sh CLONE [DEPTH] [FILES]   (default 150, 15)
#
# CLONE is any local clone (it is copied; nothing in it is written). The
# copy checks out only the cited files and the memory, so a clone whose
# snapshot lacks some objects works too.
set -euo pipefail
clone=$(cd "$1" && pwd)
depth=${2:-150}
nfiles=${3:-15}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
if [ "${KEEP:-0}" != 1 ]; then trap 'rm -rf "$work"' EXIT; else echo "work: $work"; fi
(cd "$root" && go build -o "$work/git-memcite" ./cmd/git-memcite)
export GIT_AUTHOR_NAME=try GIT_AUTHOR_EMAIL=try@example.com GIT_COMMITTER_NAME=try GIT_COMMITTER_EMAIL=try@example.com
git clone -q --no-checkout "$clone" "$work/repo"
cd "$work/repo"
main=$(git rev-parse HEAD)
x=$(git rev-parse "HEAD~$depth")
mem=.serena/memories/try/shorthand.md
# the citations: up to 3 definition lines in each of up to FILES files
# that exist at both ends and changed in between (head closes pipes early)
set +o pipefail
{
	echo "---"
	echo "citations:"
	git diff --name-only "$x" "$main" -- '*.py' '*.go' '*.ts' '*.js' '*.cs' '*.java' '*.rs' '*.rb' '*.ps1' '*.sh' |
		while read -r f; do git cat-file -e "$main:$f" 2>/dev/null && git cat-file -e "$x:$f" 2>/dev/null && echo "$f"; done |
		head -n "$nfiles" |
		while read -r f; do
			git show "$x:$f" | grep -nE '^\s*(def |class |func |function |public |private |fn |export function )' | head -3 |
				while IFS=: read -r n _; do echo "  - $f:$n"; done
		done
	echo "---"
	echo "Shorthand citations written $depth commits ago."
} >"$work/mem.md"
set -o pipefail
n=$(grep -c '^  - ' "$work/mem.md" || true)
if [ "$n" -eq 0 ]; then echo "no definition lines found in files changed since HEAD~$depth" >&2 && exit 1; fi
# commits made with plumbing (a snapshot may lack objects git add would read)
export GIT_INDEX_FILE="$work/index"
blob=$(git hash-object -w "$work/mem.md")
git read-tree "$x" && git update-index --add --cacheinfo "100644,$blob,$mem"
m=$(git commit-tree "$(git write-tree --missing-ok)" -p "$x" -m "memory written at HEAD~$depth")
git read-tree "$main" && git update-index --add --cacheinfo "100644,$blob,$mem"
merge=$(git commit-tree "$(git write-tree --missing-ok)" -p "$m" -p "$main" -m "merge the newer code")
unset GIT_INDEX_FILE
git reset -q --soft "$merge"
git read-tree "$merge"
cited=$(grep '^  - ' "$work/mem.md" | sed 's/^  - //; s/:[0-9]*$//' | sort -u)
# shellcheck disable=SC2086
git checkout -q "$merge" -- "$mem" $cited
ms() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N); echo $(((e - s) / 1000000)); }
cold=$(ms "$work/git-memcite" verify shorthand)
warm=$(ms "$work/git-memcite" verify shorthand)
"$work/git-memcite" verify shorthand --json >"$work/verify.json" || true
"$work/git-memcite" relocate shorthand --json >"$work/relocate.json" || true
python3 - "$work/verify.json" "$work/relocate.json" "$work/mem.md" "$x" <<'EOF'
import json, subprocess, sys
v = json.load(open(sys.argv[1])); r = json.load(open(sys.argv[2])); x = sys.argv[4]
cites = [l[4:].strip() for l in open(sys.argv[3]) if l.startswith("  - ")]
stale = {(s["path"], s["line"]): s for s in v.get("stale_citations", [])}
reloc = {it["citation"]: it for it in r}
def lines_at(rev, path):
    try:
        out = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, check=True).stdout
    except subprocess.CalledProcessError:
        return None
    return [l.rstrip("\r") for l in out.decode("utf-8", "replace").split("\n")]
def lines_of(path):
    # lines compare without their line break (LF, CRLF)
    return [l.rstrip("\r") for l in open(path, encoding="utf-8", errors="replace").read().split("\n")]
counts, wrong, disagree = {}, [], []
for c in cites:
    path, line = c.rsplit(":", 1); line = int(line)
    then = lines_at(x, path)[line - 1]
    now = lines_of(path)
    s = stale.get((path, line))
    kind = s.get("kind", "stale") if s else "valid"
    counts[kind] = counts.get(kind, 0) + 1
    ok = True
    if kind == "valid":
        ok = line <= len(now) and now[line - 1] == then
    elif kind == "moved":
        p = s["now"]; tgt = lines_of(p["path"])
        ok = tgt[p["line"] - 1].strip() == then.strip()
    elif kind == "deleted":
        ok = then.strip() not in [l.strip() for l in now]
    if not ok:
        wrong.append(f"{c} {kind}: then {then.strip()!r}")
    it = reloc.get(c)
    if it and (kind == "valid") != (it["action"] == "keep"):
        disagree.append(f"{c}: verify {kind}, relocate {it['action']}")
print(f"citations: {len(cites)}; verdicts: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
print(f"verdicts the text contradicts: {len(wrong)}")
for w in wrong: print("  " + w)
print(f"verify and relocate disagree: {len(disagree)}")
for d in disagree: print("  " + d)
EOF
echo "verify of the memory: ${cold} ms cold, ${warm} ms warm (process start included)"
