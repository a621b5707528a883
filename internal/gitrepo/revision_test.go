package gitrepo_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// revRepo builds a repository with a merge, tags, a reflog, an upstream,
// a branch named like a commit's short hash, and 600 commits on another
// branch so that two of them share a 4-digit prefix.
func revRepo(t *testing.T) (dir, ambiguous, hashLike string) {
	t.Helper()
	dir = t.TempDir()
	n := 0
	git := func(args ...string) string {
		t.Helper()
		n++
		out, err := gitfixture.Git(dir, n, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("a.txt", "one\n")
	git("add", "a.txt")
	git("commit", "-q", "-m", "first: the beginning")
	git("tag", "light")
	git("tag", "-a", "-m", "annotated", "v1")
	write("a.txt", "two\n")
	git("commit", "-q", "-am", "second")
	git("branch", "side", "HEAD~1")
	git("checkout", "-q", "side")
	write("b.txt", "side\n")
	git("add", "b.txt")
	git("commit", "-q", "-m", "side work")
	git("checkout", "-q", "main")
	git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	git("branch", "up", "HEAD~1")
	git("branch", "--set-upstream-to=up")
	first := git("rev-parse", "HEAD~2")
	hashLike = first[:8]
	git("branch", hashLike, "side") // a branch named like the first commit's short hash

	// 600 commits on refs/heads/many, through one fast-import
	var stream strings.Builder
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&stream, "commit refs/heads/many\ncommitter C <c@example.com> %d +0000\ndata %d\n%s\n", 1700000000+i, len(fmt.Sprint("c", i))+1, fmt.Sprint("c", i))
		if i == 0 {
			stream.WriteString("from refs/heads/main\n")
		}
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, gitfixture.Env(n), strings.NewReader(stream.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v: %s", err, out)
	}
	seen := map[string]bool{}
	for _, h := range strings.Fields(git("rev-list", "many")) {
		if seen[h[:4]] {
			ambiguous = h[:4]
			break
		}
		seen[h[:4]] = true
	}
	if ambiguous == "" {
		t.Fatal("no two commits share a 4-digit prefix")
	}
	return dir, ambiguous, hashLike
}

// TestResolveCommitAsGit resolves every kind of revision both with git
// rev-parse and with ResolveCommit: the same commit, or both refuse (and
// the error names the revision).
func TestResolveCommitAsGit(t *testing.T) {
	dir, ambiguous, hashLike := revRepo(t)
	r, err := gitrepo.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, tc := range []struct {
		rev    string
		refuse bool
	}{
		{"HEAD", false},
		{"HEAD@{1}", false},
		{"main@{1}", false},
		{"@{u}", false},
		{"HEAD~2", false},
		{"HEAD^2", false},
		{"light", false},
		{"v1", false},
		{":/the beginning", false},
		{ambiguous, true},
		{hashLike, false},
		{"HEAD:a.txt", true},
		{"HEAD^{tree}", true},
		{"", true},
		{"no-such-revision", true},
		{"HEAD~99", true},
	} {
		t.Run(tc.rev, func(t *testing.T) {
			peeled := tc.rev + "^{commit}"
			if strings.HasPrefix(tc.rev, ":/") {
				peeled = tc.rev // the message regexp runs to the end
			}
			cmd := exec.Command("git", "rev-parse", "--verify", "--end-of-options", peeled)
			cmd.Dir = dir
			want, gitErr := cmd.Output()
			got, err := r.ResolveCommit(context.Background(), tc.rev)
			if (gitErr != nil) != tc.refuse {
				t.Fatalf("git rev-parse: %v (want refused: %v)", gitErr, tc.refuse)
			}
			if tc.refuse {
				if err == nil {
					t.Fatalf("resolved to %s; git refuses it", got)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.rev)) && tc.rev != "" {
					t.Errorf("error does not name the revision: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v; git says %s", err, want)
			}
			if string(got) != strings.TrimSpace(string(want)) {
				t.Errorf("got %s, git says %s", got, want)
			}
		})
	}
}
