package gitrepo

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitT runs git in dir for a test, with a pinned identity.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestIndexNamesAsGit reads indexes of every form git 2.39 writes and
// compares the names with git ls-files.
func TestIndexNamesAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, tc := range []struct {
		name  string
		init  []string
		setup func(t *testing.T, dir string)
		split bool
	}{
		{name: "v2", setup: func(t *testing.T, dir string) { gitT(t, dir, "update-index", "--index-version", "2") }},
		{name: "v3 intent-to-add", setup: func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "later.txt"), []byte("x\n"), 0o644)
			gitT(t, dir, "add", "-N", "later.txt")
			gitT(t, dir, "update-index", "--index-version", "3")
		}},
		{name: "v3 skip-worktree", setup: func(t *testing.T, dir string) {
			gitT(t, dir, "update-index", "--skip-worktree", "a/b/c.txt")
		}},
		{name: "v4", setup: func(t *testing.T, dir string) { gitT(t, dir, "update-index", "--index-version", "4") }},
		{name: "sha256", init: []string{"--object-format=sha256"}},
		{name: "sha256 v4", init: []string{"--object-format=sha256"}, setup: func(t *testing.T, dir string) {
			gitT(t, dir, "update-index", "--index-version", "4")
		}},
		{name: "conflict", setup: func(t *testing.T, dir string) {
			gitT(t, dir, "checkout", "-q", "-b", "other")
			os.WriteFile(filepath.Join(dir, "top.txt"), []byte("other\n"), 0o644)
			gitT(t, dir, "commit", "-qam", "other")
			gitT(t, dir, "checkout", "-q", "-")
			os.WriteFile(filepath.Join(dir, "top.txt"), []byte("main\n"), 0o644)
			gitT(t, dir, "commit", "-qam", "main")
			exec.Command("git", "-C", dir, "merge", "-q", "other").Run() // conflicts
		}},
		{name: "split", split: true, setup: func(t *testing.T, dir string) { gitT(t, dir, "update-index", "--split-index") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, data, hashLen := indexFixture(t, tc.init, tc.setup)
			got, _, err := indexNames(data, hashLen)
			if tc.split {
				if !errors.Is(err, errIndexForm) {
					t.Fatalf("split index: err = %v, want errIndexForm", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, n := range strings.Split(gitT(t, dir, "ls-files", "-z", "--cached"), "\x00") {
				if n != "" && (len(want) == 0 || want[len(want)-1] != n) {
					want = append(want, n)
				}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("names:\n%q\nwant (git ls-files):\n%q", got, want)
			}
		})
	}
}

// indexFixture makes a repository (git init with initArgs) of files whose
// names exercise the index's name encoding, commits them, runs setup and
// returns the directory, its index file and the length of its object ids.
func indexFixture(t *testing.T, initArgs []string, setup func(t *testing.T, dir string)) (dir string, data []byte, hashLen int) {
	t.Helper()
	dir = t.TempDir()
	gitT(t, dir, append([]string{"init", "-q"}, initArgs...)...)
	for _, f := range []string{"top.txt", "a/b/c.txt", "a/b/d.txt", "a/bb.txt", "a/b.c/e.txt", "z é.txt", strings.Repeat("long/", 40) + "f.txt"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(f+"\n"), 0o644)
	}
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "init")
	if setup != nil {
		setup(t, dir)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	hashLen = 20
	for _, a := range initArgs {
		if a == "--object-format=sha256" {
			hashLen = 32
		}
	}
	return dir, data, hashLen
}

// FuzzIndexNames: any bytes give names or an error, never a panic.
func FuzzIndexNames(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00"), 20)
	f.Add(append([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"), bytes.Repeat([]byte{0}, 70)...), 20)
	f.Add(append([]byte("DIRC\x00\x00\x00\x03\x00\x00\x00\x01"), bytes.Repeat([]byte{0x40}, 90)...), 32)
	f.Fuzz(func(t *testing.T, data []byte, hashLen int) {
		if hashLen != 20 {
			hashLen = 32
		}
		names, _, err := indexNames(data, hashLen)
		if err == nil && len(names) > len(data) {
			t.Fatalf("%d names from %d bytes", len(names), len(data))
		}
	})
}
