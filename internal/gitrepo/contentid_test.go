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
			git := gitIn(t, dir)
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
			ids := worktreeIn(t, dir).(source.Identifier)
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

// TestWorktreeBlobID: a clean file git changes the line endings of is
// named by its blob by BlobID (not by ContentID); one git may change
// more of (ident, a filter, an encoding), one modified and one untracked
// are not; one git does not convert has the same name from both.
func TestWorktreeBlobID(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("working-tree content ids are given on Linux only (worktreeIDs.unchanged)")
	}
	dir := t.TempDir()
	git := gitIn(t, dir)
	past := time.Now().Add(-time.Hour)
	write := func(p, content string) {
		t.Helper()
		full := filepath.Join(dir, p)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(full, past, past); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write(".gitattributes", "*.txt text eol=crlf\n*.id ident\n*.enc working-tree-encoding=UTF-16LE\n*.flt filter=upper\n")
	write("crlf.txt", "one\r\ntwo\r\n")
	write("plain.go", "package x\n")
	write("kw.id", "$Id$\n")
	write("utf.enc", "t\x00\n\x00")
	write("f.flt", "text\n")
	write("edited.txt", "x\r\n")
	git("add", "-A")
	write("edited.txt", "y\r\n") // same size: its ctime tells
	write("new.txt", "z\r\n")
	src := worktreeIn(t, dir)
	ids := src.(source.Identifier)
	bn := src.(source.BlobNamer)
	if id, ok := ids.ContentID("crlf.txt"); !ok || id[:5] != "stat:" {
		t.Errorf("ContentID(crlf.txt) = %q, %v; want a stat: name (git converts it)", id, ok)
	}
	for p, want := range map[string]string{
		"crlf.txt":   "blob:" + git("rev-parse", ":crlf.txt"),
		"plain.go":   "blob:" + git("rev-parse", ":plain.go"),
		"kw.id":      "",
		"utf.enc":    "",
		"f.flt":      "",
		"edited.txt": "",
		"new.txt":    "",
	} {
		got, ok := bn.BlobID(p)
		if ok != (want != "") || got != want {
			t.Errorf("BlobID(%s) = %q, %v; want %q", p, got, ok, want)
		}
	}
	if id, _ := ids.ContentID("plain.go"); id != "blob:"+git("rev-parse", ":plain.go") {
		t.Errorf("ContentID(plain.go) = %q", id)
	}
}

// gitIn returns a runner of git in dir (the fixture's environment, its
// first commit's dates) that fails t on an error.
func gitIn(t *testing.T, dir string) func(args ...string) string {
	return func(args ...string) string {
		t.Helper()
		out, err := gitfixture.Git(dir, 0, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
}

// worktreeIn returns the working tree of the repository at dir, as the
// repository reads it.
func worktreeIn(t *testing.T, dir string) source.Source {
	t.Helper()
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	src, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	return src
}
