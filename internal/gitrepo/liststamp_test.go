package gitrepo_test

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestListStamp: a stamped listing of the working tree is vouched for
// exactly while the directories and the index are as they were; a
// change of what a directory holds, or of the index, is seen.
func TestListStamp(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("listings are stamped where the stat data has inode and ctime")
	}
	defer gitrepo.SetListStampMarginForTest(0)()
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string, git func(...string))
		same   bool
	}{
		{"nothing changed", func(*testing.T, string, func(...string)) {}, true},
		{"a tracked file edited", func(t *testing.T, dir string, _ func(...string)) {
			writeFile(t, filepath.Join(dir, "a.go"), "package a // edited\n")
		}, true},
		{"a file added", func(t *testing.T, dir string, _ func(...string)) {
			writeFile(t, filepath.Join(dir, "sub/c.go"), "package sub\n")
		}, false},
		{"a file added to an empty directory", func(t *testing.T, dir string, _ func(...string)) {
			writeFile(t, filepath.Join(dir, "empty/c.go"), "package empty\n")
		}, false},
		{"a file added deep down", func(t *testing.T, dir string, _ func(...string)) {
			writeFile(t, filepath.Join(dir, "sub/deep/er/d.go"), "package er\n")
		}, false},
		{"a tracked file deleted", func(t *testing.T, dir string, _ func(...string)) {
			if err := os.Remove(filepath.Join(dir, "sub/deep/b.go")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a file renamed", func(t *testing.T, dir string, _ func(...string)) {
			if err := os.Rename(filepath.Join(dir, "a.go"), filepath.Join(dir, "z.go")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"an empty directory added", func(t *testing.T, dir string, _ func(...string)) {
			if err := os.Mkdir(filepath.Join(dir, "sub/new"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"the index written", func(t *testing.T, dir string, git func(...string)) {
			writeFile(t, filepath.Join(dir, "a.go"), "package a // staged\n")
			git("add", "a.go")
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "repo")
			run := gitfixture.Runner(t, dir)
			git := func(args ...string) { run(args...) }
			if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
				t.Fatal(err)
			}
			git("init", "-q", "-b", "main")
			writeFile(t, filepath.Join(dir, "a.go"), "package a\n")
			writeFile(t, filepath.Join(dir, "sub/deep/b.go"), "package deep\n")
			git("add", ".")
			git("commit", "-q", "-m", "one")

			paths, stamp := listStamped(t, dir)
			if want := []string{"a.go", "sub/deep/b.go"}; !slices.Equal(paths, want) {
				t.Fatalf("listed %q, want %q", paths, want)
			}
			if stamp == nil {
				t.Fatal("no stamp for a tracked, settled working tree")
			}
			// a later tick of the file system's clock: the change has
			// another mtime (the margin, 0 here, covers that in use)
			time.Sleep(30 * time.Millisecond)
			tc.change(t, dir, git)

			r, err := gitrepo.Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			src, err := r.Worktree()
			if err != nil {
				t.Fatal(err)
			}
			if got := gitrepo.SameListForTest(src, stamp); got != tc.same {
				t.Errorf("SameList = %v, want %v", got, tc.same)
			}
			now, err := src.List("")
			if err != nil {
				t.Fatal(err)
			}
			if tc.same && !slices.Equal(now, paths) {
				t.Errorf("the stamp holds, but the working tree lists %q, not %q", now, paths)
			}
		})
	}
}

// TestListStampNone: no stamp where the listing could change without the
// directories or the index changing.
func TestListStampNone(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("listings are stamped where the stat data has inode and ctime")
	}
	setup := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), "repo")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		run := gitfixture.Runner(t, dir)
		run("init", "-q", "-b", "main")
		writeFile(t, filepath.Join(dir, "a.go"), "package a\n")
		run("add", ".")
		run("commit", "-q", "-m", "one")
		return dir
	}
	t.Run("just changed", func(t *testing.T) {
		// the default margin: the directories were written now
		dir := setup(t)
		if _, stamp := listStamped(t, dir); stamp != nil {
			t.Error("a working tree written now is stamped")
		}
	})
	t.Run("an untracked file", func(t *testing.T) {
		defer gitrepo.SetListStampMarginForTest(0)()
		dir := setup(t)
		// ignored or not: the ignore rules decide, and they are not stamped
		writeFile(t, filepath.Join(dir, "notes.txt"), "mine\n")
		paths, stamp := listStamped(t, dir)
		if !slices.Contains(paths, "notes.txt") {
			t.Errorf("listed %q, without notes.txt", paths)
		}
		if stamp != nil {
			t.Error("a listing with an untracked file is stamped")
		}
	})
}

func listStamped(t *testing.T, dir string) ([]string, []byte) {
	t.Helper()
	r, err := gitrepo.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	src, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	paths, stamp, err := gitrepo.ListStampedForTest(src)
	if err != nil {
		t.Fatal(err)
	}
	return paths, stamp
}
