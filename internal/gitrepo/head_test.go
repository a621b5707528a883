package gitrepo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeadAsGit: Head, read in-process from the ref files, says what `git
// rev-parse HEAD` says: a branch (loose, then packed), a detached HEAD, a
// linked worktree's own HEAD, an unborn branch; and it leaves to git what
// it does not read (MEMCITE_BACKEND=git gives the same answers).
func TestHeadAsGit(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "main")
	gitT(t, dir, "init", "-q", "-b", "trunk", main)
	commit := func(msg string) string { return commitF(t, main, msg) }
	check := func(name, wd, want string, born bool) {
		t.Helper()
		for _, force := range []bool{false, true} {
			restore := ForceGitBinary(force)
			r, err := Discover(wd)
			if err != nil {
				restore()
				t.Fatal(err)
			}
			oid, ok, err := r.Head()
			inProcess := false
			if !force {
				_, _, inProcess = r.headInProcess()
			}
			restore()
			if err != nil || ok != born || string(oid) != want {
				t.Errorf("%s (MEMCITE_BACKEND=git %v): %q, born %v, %v; want %q, born %v", name, force, oid, ok, err, want, born)
			}
			if !force && !inProcess {
				t.Errorf("%s: asked git, not read in-process", name)
			}
		}
	}
	check("unborn", main, "", false)
	first := commit("one")
	check("loose branch", main, first, true)
	gitT(t, main, "pack-refs", "--all")
	check("packed branch", main, first, true)
	second := commit("two")
	check("loose over packed", main, second, true)
	gitT(t, main, "checkout", "-q", "--detach", first)
	check("detached", main, first, true)
	gitT(t, main, "checkout", "-q", "trunk")
	wt := filepath.Join(dir, "wt")
	gitT(t, main, "worktree", "add", "-q", "-b", "side", wt, first)
	check("linked worktree", wt, first, true)
	check("main worktree beside it", main, second, true)
	gitT(t, main, "checkout", "-q", "--orphan", "fresh")
	check("orphan branch", main, "", false)
}

// commitF commits msg as the whole content of the file f in the
// repository at dir, and returns the commit's name.
func commitF(t *testing.T, dir, msg string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte(msg+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "add", "f")
	gitT(t, dir, "commit", "-q", "-m", msg)
	return strings.TrimSpace(gitT(t, dir, "rev-parse", "HEAD"))
}
