package gitrepo

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

func TestChanged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(p, s string) { t.Helper(); gitfixture.Write(t, dir, p, s) }
	git := func(args ...string) {
		t.Helper()
		if _, err := gitfixture.Git(dir, 1, args...); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"same.go", "edited.go", "deleted.go", "old name.go", "dir/staged.go"} {
		write(p, p+"\n")
	}
	write(".gitignore", "*.log\n")
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	write("edited.go", "changed\n")
	if err := os.Remove(filepath.Join(dir, "deleted.go")); err != nil {
		t.Fatal(err)
	}
	git("mv", "old name.go", "new name.go")
	write("dir/staged.go", "staged\n")
	git("add", "dir/staged.go")
	write("new/untracked.go", "x\n")
	write("debug.log", "ignored\n")
	// an index whose stat data is stale: git status would refresh it
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "same.go"), future, future); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	repo, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := repo.Changed(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := WorktreeChanges{
		Tracked:   map[string]bool{"edited.go": true, "deleted.go": true, "old name.go": true, "new name.go": true, "dir/staged.go": true},
		Untracked: map[string]bool{"new/untracked.go": true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v; want %+v", got, want)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, ".git", "index")); !bytes.Equal(after, index) {
		t.Error("the index was written")
	}
}
