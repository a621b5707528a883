package render

import (
	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/relocate"
)

// Fixes turns relocation results into advice for the report. staged:
// the fix must also be staged (a blocked commit).
func Fixes(items []relocate.Item, staged bool) map[Key]Fix {
	out := map[Key]Fix{}
	for i := range items {
		it := &items[i]
		id := ShellWord(it.Memory.ID)
		then := ""
		if staged {
			then = ", then: git add " + ShellWord(it.Memory.Path)
		}
		var f Fix
		switch r := it.Result; it.Action {
		case relocate.Move:
			f = Fix{Where: Loc(r.Location), Why: "the cited lines moved there", Command: "git memcite relocate --fix " + id + then}
		case relocate.Review:
			f = Fix{Where: Loc(r.Location), Why: "the cited lines were edited there; review", Command: "git memcite relocate --accept-changed --fix " + id + then}
		case relocate.Unresolved:
			if r.Status == gitblame.Gone {
				f.Why = "the cited lines were deleted"
			} else {
				f.Why = "the cited lines could be in several places"
			}
		default:
			continue
		}
		out[Key{Memory: it.Memory.Path, Index: it.Citation.Index}] = f
	}
	return out
}

// AlreadyFixed replaces, in fixes, the advice for the stale citations
// whose memory file is fixed in the working tree (fixed: by repo-relative
// path) with the one step left: staging it.
func AlreadyFixed(fixes map[Key]Fix, stale []hookrun.StaleCitation, fixed map[string]bool) {
	for _, s := range stale {
		if fixed[s.Memory.Path] {
			fixes[Key{Memory: s.Memory.Path, Index: s.Result.Citation.Index}] = Fix{Command: "already fixed in the working tree: git add " + ShellWord(s.Memory.Path)}
		}
	}
}

// ChangeName names what a post-* hook reports on: the merge, the rebase …
func ChangeName(in hookrun.Invocation) string {
	switch {
	case in.Hook == "post-merge" && in.Arg(0) == "1":
		return "the squash merge"
	case in.Hook == "post-merge":
		return "the merge"
	case in.Arg(0) == "rebase":
		return "the rebase"
	case in.Arg(0) == "amend":
		return "the amend"
	}
	return "the rewrite"
}
