package gitrepo_test

import (
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// TestGoGitRevParseGap is why the in-process revision resolver is the
// project's own (docs/repositories.md): on the revisions whose answers are
// checked against git's (revCases, FuzzResolveInProcess), go-git's
// ResolveRevision names another commit than git, or one where git refuses,
// for some. A resolver that answers where git refuses, or answers
// otherwise, would change what --rev checks. When this test fails,
// go-git agrees with git on every case the own resolver answers, and the
// own one can go.
func TestGoGitRevParseGap(t *testing.T) {
	dir, ambiguous, hashLike := sharedRevRepo(t)
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	differ, answered := 0, 0
	for _, tc := range revCases(ambiguous, hashLike) {
		want, gitErr := gitRevParse(dir, tc.rev)
		h, err := repo.ResolveRevision(plumbing.Revision(tc.rev))
		var got string
		if err == nil {
			answered++
			// peel to a commit, as rev-parse REV^{commit} does
			if c, cerr := repo.CommitObject(*h); cerr == nil {
				got = c.Hash.String()
			} else if tag, terr := repo.TagObject(*h); terr == nil {
				if c, cerr := tag.Commit(); cerr == nil {
					got = c.Hash.String()
				}
			}
		}
		switch {
		case gitErr != nil && err == nil:
			differ++
			t.Logf("%q: git refuses; go-git resolves it to %s", tc.rev, h)
		case gitErr == nil && err == nil && got != want:
			differ++
			t.Logf("%q: git says %s; go-git %s", tc.rev, want, got)
		case gitErr == nil && err != nil && tc.fast:
			differ++
			t.Logf("%q: git says %s; go-git refuses: %v", tc.rev, want, err)
		}
	}
	t.Logf("go-git's ResolveRevision differs from git on %d of %d revisions (it answered %d)", differ, len(revCases(ambiguous, hashLike)), answered)
	if differ == 0 {
		t.Error("go-git's ResolveRevision now agrees with git on every case: use it in place of resolveInProcess (docs/repositories.md)")
	}
}
