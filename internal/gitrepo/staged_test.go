package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestStagedPaths: what the index being committed changes against HEAD,
// renames as both paths, deletions, type changes; the working tree and
// untracked files do not count; GIT_INDEX_FILE names the index.
func TestStagedPaths(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) { t.Helper(); gitfixture.Write(t, dir, p, s) }
	git := func(args ...string) {
		t.Helper()
		if _, err := gitfixture.Git(dir, 1, args...); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GIT_INDEX_FILE", "")
	os.Unsetenv("GIT_INDEX_FILE")
	for _, p := range []string{"same.go", "edited.go", "deleted.go", "old name.go", "dir/x.go", "worktree-only.go"} {
		write(p, p+"\n")
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	repo, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := repo.StagedPaths(ctx)
	if err != nil || len(got) != 0 {
		t.Fatalf("nothing staged: %q, %v", got, err)
	}
	write("edited.go", "changed\n")
	git("rm", "-q", "deleted.go")
	git("mv", "old name.go", "new name.go")
	write("dir/new.go", "new\n")
	git("add", "edited.go", "dir/new.go")
	write("worktree-only.go", "not staged\n")
	write("untracked.go", "untracked\n")
	want := []string{"deleted.go", "dir/new.go", "edited.go", "new name.go", "old name.go"}
	if runtime.GOOS != "windows" {
		os.Remove(filepath.Join(dir, "dir", "x.go"))
		if err := os.Symlink("../same.go", filepath.Join(dir, "dir", "x.go")); err != nil {
			t.Fatal(err)
		}
		git("add", "dir/x.go")
		want = []string{"deleted.go", "dir/new.go", "dir/x.go", "edited.go", "new name.go", "old name.go"}
	}
	got, err = repo.StagedPaths(ctx)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("StagedPaths = %q, %v; want %q", got, err, want)
	}
	if runtime.GOOS != "windows" {
		idx, err := repo.Index(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if links, ok := Symlinks(idx); !ok || !slices.Equal(links, []string{"dir/x.go"}) {
			t.Errorf("Symlinks = %q, %v", links, ok)
		}
	}
	// another index, as git commit -a or git commit <path> names it
	git("read-tree", "--index-output=.git/other-index", "HEAD")
	t.Setenv("GIT_INDEX_FILE", filepath.Join(dir, ".git", "other-index"))
	if got, err := repo.StagedPaths(ctx); err != nil || len(got) != 0 {
		t.Errorf("with GIT_INDEX_FILE of HEAD's tree: %q, %v", got, err)
	}
}
