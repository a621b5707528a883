package gitrepo

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestWorktreeContentID: a working-tree file is named by its blob only
// when git would call it clean by its stat data alone.
func TestWorktreeContentID(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("working-tree content ids are given on Linux only (worktreeIDs.unchanged)")
	}
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			git := func(args ...string) string {
				t.Helper()
				out, err := gitfixture.Git(dir, 0, args...)
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			write := func(p, content string, mtime time.Time) {
				t.Helper()
				full := filepath.Join(dir, p)
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(full, mtime, mtime); err != nil {
					t.Fatal(err)
				}
			}
			git("init", "-q", "--object-format="+format)
			past := time.Now().Add(-time.Hour)
			future := time.Now().Add(time.Hour)
			write("clean.txt", "a\n", past)
			write("racy.txt", "b\n", future) // modified after the index is written: racily clean
			write("edited.txt", "c\n", past)
			write("assumed.txt", "d\n", past)
			write("sub/dir.txt", "e\n", past)
			write("untracked.txt", "f\n", past)
			write("dirlink/x.txt", "g\n", past)
			git("add", "clean.txt", "racy.txt", "edited.txt", "assumed.txt", "sub/dir.txt", "dirlink/x.txt")
			git("update-index", "--assume-unchanged", "assumed.txt")
			write("edited.txt", "C\n", past) // same size and mtime: ctime differs
			// a tracked directory replaced by a symlink to a copy
			if err := os.Rename(filepath.Join(dir, "dirlink"), filepath.Join(dir, "real")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("real", filepath.Join(dir, "dirlink")); err != nil {
				t.Skip(err)
			}
			r, err := Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			src, err := r.Worktree()
			if err != nil {
				t.Fatal(err)
			}
			ids := src.(source.Identifier)
			blob := git("rev-parse", ":clean.txt")
			for p, want := range map[string]string{
				"clean.txt":     "blob:" + blob,
				"./clean.txt":   "blob:" + blob,
				"sub/dir.txt":   "blob:" + git("rev-parse", ":sub/dir.txt"),
				"racy.txt":      "",
				"edited.txt":    "",
				"assumed.txt":   "",
				"untracked.txt": "",
				"dirlink/x.txt": "",
				"sub":           "",
				"../x":          "",
			} {
				got, ok := ids.ContentID(p)
				if ok != (want != "") || got != want {
					t.Errorf("ContentID(%s) = %q, %v; want %q", p, got, ok, want)
				}
			}
			// git's own view agrees on the clean one
			if out := git("diff-files", "--name-only", "clean.txt"); out != "" {
				t.Errorf("git calls clean.txt modified: %s", out)
			}
		})
	}
}
