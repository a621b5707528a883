package hookrun

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
)

// Range is the change a post-merge or post-rewrite hook reports on: the
// citations valid at Old and stale at New.
type Range struct {
	Old string // commit before the change
	New string // commit after it; "" with Squash
	// Squash: 'git merge --squash' left the result in the index, to be
	// committed later, so New is the index and Old is HEAD.
	Squash bool
}

// PostRange works out the change from the hook's arguments and stdin:
//   - post-merge <0|1>: ORIG_HEAD..HEAD (also after a fast-forward); with
//     1 (squash) HEAD..index;
//   - post-rewrite rebase: ORIG_HEAD (the branch before the rebase)..HEAD;
//   - post-rewrite amend: the first old commit on stdin ("<old> <new>"
//     lines), or HEAD@{1} when a framework swallowed stdin, ..HEAD.
//
// ok is false when there is nothing to compare (ORIG_HEAD missing, or
// unchanged HEAD).
func PostRange(ctx context.Context, dir string, in Invocation, stdin []byte) (r Range, ok bool, err error) {
	old := "ORIG_HEAD"
	switch in.Hook {
	case "post-merge":
		if in.Arg(0) == "1" {
			head, err := revParse(ctx, dir, "HEAD")
			if err != nil {
				return Range{}, false, nil // squash into an unborn branch: nothing to compare with
			}
			return Range{Old: head, Squash: true}, true, nil
		}
	case "post-rewrite":
		if in.Arg(0) != "rebase" {
			old = "HEAD@{1}"
			if line, _, _ := bytes.Cut(stdin, []byte("\n")); len(line) > 0 {
				old, _, _ = strings.Cut(string(line), " ")
			}
		}
	default:
		return Range{}, false, fmt.Errorf("%s is not a post-* hook", in.Hook)
	}
	o, err := revParse(ctx, dir, old)
	if err != nil {
		return Range{}, false, nil
	}
	n, err := revParse(ctx, dir, "HEAD")
	if err != nil {
		return Range{}, false, err
	}
	if o == n {
		return Range{}, false, nil
	}
	return Range{Old: o, New: n}, true, nil
}

func revParse(ctx context.Context, dir, rev string) (string, error) {
	out, err := gitrepo.Git(ctx, dir, "rev-parse", "--verify", "-q", rev+"^{commit}")
	return strings.TrimSpace(out), err
}

// ApplyBlocked says why fixes must not be written to the working tree now,
// or "" when they may: git is about to put back an autostash (merge
// --autostash, rebase --autostash), which the edits could collide with, or
// an amend happens in the middle of a rebase. A post-rewrite hook for a
// finished rebase runs while rebase-merge/ still exists; that alone is fine.
func ApplyBlocked(gitDir string, in Invocation) string {
	has := func(p ...string) bool {
		_, err := os.Stat(filepath.Join(append([]string{gitDir}, p...)...))
		return err == nil
	}
	switch {
	case has("MERGE_AUTOSTASH"):
		return "a merge autostash is about to be applied"
	case has("rebase-merge", "autostash") || has("rebase-apply", "autostash"):
		return "a rebase autostash is about to be applied"
	case in.Hook == "post-rewrite" && in.Arg(0) != "rebase" && (has("rebase-merge") || has("rebase-apply")):
		return "a rebase is in progress"
	case in.Hook == "post-merge" && (has("rebase-merge") || has("rebase-apply")):
		return "a rebase is in progress"
	}
	return ""
}
