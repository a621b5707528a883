package gitrepo_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// build makes a repository with two commits: the second renames a.txt to
// b.txt while rewriting 45% of its lines (git -M50 still pairs them),
// and deletes d/e.txt.
func build(t *testing.T) (string, *gitrepo.History) {
	t.Helper()
	dir := t.TempDir()
	n := 0
	git := func(args ...string) string {
		t.Helper()
		out, err := gitfixture.Git(dir, n, args...)
		if err != nil {
			t.Skip(err) // no git binary
		}
		return out
	}
	write := func(p, s string) {
		t.Helper()
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	for i := 0; i < 20; i++ {
		lines = append(lines, fmt.Sprintf("line number %d of the file", i))
	}
	git("init", "-q", "-b", "main")
	write("a.txt", strings.Join(lines, "\n")+"\n")
	write("d/e.txt", "deep\n")
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	n++
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	git("tag", "first")
	for i := 0; i < 9; i++ {
		lines[i*2] = fmt.Sprintf("rewritten %d", i)
	}
	if err := os.Remove(filepath.Join(dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	write("b.txt", strings.Join(lines, "\n")+"\n")
	if err := os.RemoveAll(filepath.Join(dir, "d")); err != nil {
		t.Fatal(err)
	}
	n++
	git("add", "-A")
	git("commit", "-q", "-m", "second")
	r, err := gitrepo.OpenHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.Close()
		r.Repo().Close()
	})
	return dir, r
}

// TestRepo reads the history with refs and revisions read in-process and
// by git's commands (MEMCITE_BACKEND=git); objects and history are read
// through the git binary with either.
func TestRepo(t *testing.T) {
	for _, backend := range []gitrepo.Backend{gitrepo.InProcess, gitrepo.GitBinary} {
		t.Run(string(backend), func(t *testing.T) {
			t.Cleanup(gitrepo.ForceGitBinary(backend == gitrepo.GitBinary))
			_, r := build(t)
			if got, _ := r.Repo().Backend(); got != backend {
				t.Fatalf("index and refs read by %s, want %s", got, backend)
			}
			testRepo(t, r)
		})
	}
}

func testRepo(t *testing.T, r *gitrepo.History) {
	first, err := r.Resolve("first")
	if err != nil {
		t.Fatal(err)
	}
	second, err := r.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Commit(second)
	if err != nil {
		t.Fatal(err)
	}
	if c.Subject != "second" || len(c.Parents) != 1 || c.Parents[0] != first || c.Author != "Ada Author" {
		t.Errorf("commit = %+v", c)
	}
	fc, _ := r.Commit(first)
	for _, tt := range []struct {
		path string
		ok   bool
	}{{"a.txt", true}, {"d/e.txt", true}, {"d", false}, {"link", false}, {"nope", false}, {"d/nope", false}} {
		_, ok, err := r.Entry(fc.Tree, tt.path)
		if err != nil || ok != tt.ok {
			t.Errorf("Entry(%q) = %v, %v; want %v", tt.path, ok, err, tt.ok)
		}
	}
	files, err := r.Files(fc.Tree)
	if err != nil || len(files) != 2 {
		t.Errorf("Files = %v, %v; want a.txt and d/e.txt (no symlink)", files, err)
	}
	withRenames, err := r.Changes(first, second, true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ch := range withRenames {
		got = append(got, ch.From+">"+ch.To)
	}
	if strings.Join(got, " ") != "a.txt>b.txt d/e.txt>" {
		t.Errorf("Changes with renames = %v, want [a.txt>b.txt d/e.txt>]", got)
	}
	plain, err := r.Changes(first, second, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) != 3 {
		t.Errorf("Changes without renames = %+v, want a delete, an add and a delete", plain)
	}
	h, _, _ := r.Entry(fc.Tree, "d/e.txt")
	if b, err := r.Blob(h); err != nil || string(b) != "deep\n" {
		t.Errorf("Blob = %q, %v", b, err)
	}
	if _, err := r.Resolve("nope"); !errors.Is(err, gitblame.ErrNotFound) {
		t.Errorf("Resolve(nope) = %v, want ErrNotFound", err)
	}
	missing, _ := gitblame.ParseHash(strings.Repeat("ab", 20))
	if _, err := r.Commit(missing); !errors.Is(err, gitblame.ErrNotFound) {
		t.Errorf("Commit(missing) = %v, want ErrNotFound", err)
	}
}

// TestEntryThroughCatFile: the names of trees are read through git
// cat-file and find what git ls-tree finds (files and an executable; a
// symbolic link and a folder, which are no regular files; names that are
// not there).
func TestEntryThroughCatFile(t *testing.T) {
	t.Parallel()
	dir, r := build(t)
	for _, rev := range []string{"first", "HEAD"} {
		c, err := r.Resolve(rev)
		if err != nil {
			t.Fatal(err)
		}
		cm, err := r.Commit(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"a.txt", "b.txt", "d/e.txt", "d", "link", "nope", "d/nope", "a.txt/x"} {
			h, ok, err := r.Entry(cm.Tree, p)
			if err != nil {
				t.Fatalf("%s:%s: %v", rev, p, err)
			}
			out, err := gitfixture.Git(dir, 0, "ls-tree", cm.Tree.String(), "--", p)
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if f := strings.Fields(out); len(f) == 4 && (f[0] == "100644" || f[0] == "100755") {
				want = f[2]
			}
			if got := map[bool]string{true: h.String()}[ok]; got != want {
				t.Errorf("%s:%s: Entry gives %q, git ls-tree %q", rev, p, got, want)
			}
		}
	}
	if !r.UsesCatFile() {
		t.Error("the trees were not read through git cat-file")
	}
}

// TestBlobsMatchGit reads every blob of a tree as git cat-file blob
// prints it (both with their space trimmed).
func TestBlobsMatchGit(t *testing.T) {
	t.Parallel()
	dir, r := build(t)
	first, _ := r.Resolve("first")
	fc, _ := r.Commit(first)
	files, err := r.Files(fc.Tree)
	if err != nil {
		t.Fatal(err)
	}
	for p, h := range files {
		got, err := r.Blob(h)
		if err != nil {
			t.Fatal(err)
		}
		want, err := gitfixture.Git(dir, 0, "cat-file", "blob", h.String()) // (trimmed)
		if err != nil || strings.TrimSpace(string(got)) != want || len(got) == 0 {
			t.Errorf("%s: Blob %q, git cat-file %q (%v)", p, got, want, err)
		}
	}
}
