package gitrepo

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestTreeOfLooseCommit: TreeOf says what `git rev-parse C^{tree}` says;
// a loose commit is read without starting git cat-file (in a linked
// worktree too, whose objects are the common dir's), and so is a packed
// one (packObjects); with a replace ref, an object directory named by the environment,
// or MEMCITE_BACKEND=git, git answers, and names the replacement's tree.
func TestTreeOfLooseCommit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	main := filepath.Join(dir, "main")
	gitT(t, dir, "init", "-q", "-b", "trunk", main)
	commit := func(msg string) string { return commitF(t, main, msg) }
	check := func(name, wd, c string, wantGit bool) {
		t.Helper()
		want := strings.TrimSpace(gitT(t, main, "rev-parse", c+"^{tree}"))
		r, err := Discover(wd)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		tree, err := r.TreeOf(ctx, OID(c))
		if err != nil || string(tree) != want {
			t.Errorf("%s: TreeOf %s = %s, %v; want %s", name, c[:7], tree, err, want)
		}
		if asked := catStarted(r); asked != wantGit {
			t.Errorf("%s: cat-file started %v, want %v", name, asked, wantGit)
		}
	}
	first := commit("one")
	check("loose", main, first, false)
	wt := filepath.Join(dir, "wt")
	gitT(t, main, "worktree", "add", "-q", "--detach", wt, first)
	check("loose, from a linked worktree", wt, first, false)

	t.Run("trees and blobs", func(t *testing.T) {
		r, objs := repoObjects(t, main)
		blob := strings.TrimSpace(gitT(t, main, "rev-parse", first+":f"))
		tree := strings.TrimSpace(gitT(t, main, "rev-parse", first+"^{tree}"))
		if b, err := objs.read(blob, "blob"); err != nil || string(b) != "one\n" {
			t.Errorf("blob: %q, %v", b, err)
		}
		if b, err := objs.read(tree, "tree"); err != nil || !strings.Contains(string(b), "100644 f\x00") {
			t.Errorf("tree: %q, %v", b, err)
		}
		if catStarted(r) {
			t.Errorf("loose tree and blob: cat-file started")
		}
		// a loose object of another type than asked: git says what it is
		if _, err := objs.read(blob, "tree"); err == nil || !strings.Contains(err.Error(), "a blob, not a tree") || !catStarted(r) {
			t.Errorf("blob read as a tree: %v, cat-file started %v", err, catStarted(r))
		}
	})
	t.Run("MEMCITE_BACKEND=git", func(t *testing.T) {
		defer ForceGitBinary(true)()
		check("loose, MEMCITE_BACKEND=git", main, first, true)
	})
	t.Run("GIT_OBJECT_DIRECTORY", func(t *testing.T) {
		t.Setenv("GIT_OBJECT_DIRECTORY", filepath.Join(main, ".git", "objects"))
		check("loose, GIT_OBJECT_DIRECTORY set", main, first, true)
	})

	t.Run("sha256", func(t *testing.T) {
		d := filepath.Join(t.TempDir(), "r")
		gitT(t, dir, "init", "-q", "--object-format=sha256", d)
		c := commitF(t, d, "x")
		want := strings.TrimSpace(gitT(t, d, "rev-parse", "HEAD^{tree}"))
		r, err := Discover(d)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if tree, err := r.TreeOf(ctx, OID(c)); err != nil || string(tree) != want || catStarted(r) {
			t.Errorf("sha256: TreeOf = %s, %v, cat-file started %v; want %s", tree, err, catStarted(r), want)
		}
	})

	second := commit("two")
	gitT(t, main, "gc", "-q")
	check("packed", main, second, false)

	third := commit("three")
	gitT(t, main, "replace", third, first) // third now reads as first
	check("replaced", main, third, true)
}

// catStarted reports whether r started a cat-file process.
func catStarted(r *Repo) bool {
	if r.objs == nil {
		return false
	}
	for i := range r.objs.cat.procs {
		if r.objs.cat.procs[i].proc != nil {
			return true
		}
	}
	return false
}

// TestParseLoose: a loose object's header must name the type asked for
// and its exact size; anything else is left to git.
func TestParseLoose(t *testing.T) {
	for _, tc := range []struct {
		name, raw, typ string
		want           string
		ok             bool
	}{
		{"commit", "commit 5\x00tree ", "commit", "tree ", true},
		{"empty", "blob 0\x00", "blob", "", true},
		{"other type", "blob 5\x00tree ", "commit", "", false},
		{"short", "commit 9\x00tree ", "commit", "", false},
		{"no NUL", "commit 5", "commit", "", false},
		{"sign", "commit +5\x00tree ", "commit", "", false},
		{"leading zero", "commit 05\x00tree ", "commit", "", false},
		{"negative", "commit -1\x00", "commit", "", false},
		{"too large", "commit 99999999\x00", "commit", "", false},
		{"long header", "commit " + strings.Repeat("1", 40) + "\x00", "commit", "", false},
	} {
		data, err := parseLoose(strings.NewReader(tc.raw), tc.typ)
		if (err == nil) != tc.ok || string(data) != tc.want {
			t.Errorf("%s: %q, %v; want %q, ok %v", tc.name, data, err, tc.want, tc.ok)
		}
	}
}

// FuzzParseLoose: parseLoose never panics, and what it accepts is the
// content its header announces.
func FuzzParseLoose(f *testing.F) {
	f.Add([]byte("commit 5\x00tree x"))
	f.Add([]byte("blob 0\x00"))
	f.Add([]byte("tree 3\x00ab"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		data, err := parseLoose(bytes.NewReader(raw), "commit")
		if err != nil {
			return
		}
		head, rest, ok := bytes.Cut(raw, []byte{0})
		if !ok || !bytes.HasPrefix(head, []byte("commit ")) || !bytes.HasPrefix(rest, data) {
			t.Fatalf("accepted %q as %q", raw, data)
		}
	})
}
