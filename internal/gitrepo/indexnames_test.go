package gitrepo

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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

// indexForm is an index of one of the forms git 2.39 writes, made by
// indexFixture, with what the in-process readers must say of it.
type indexForm struct {
	name     string
	init     []string
	setup    func(t *testing.T, dir string)
	split    bool     // a split index: errIndexForm from every reader
	sparse   bool     // a sparse index: errIndexForm from parseIndex
	unmerged []string // conflicts
	noStat   []string // entries whose stat data git does not compare
	ita      string   // an intent-to-add entry (git lists it; it is not committed)
}

var indexForms = []indexForm{
	{name: "v2", setup: func(t *testing.T, dir string) { gitT(t, dir, "update-index", "--index-version", "2") }},
	{name: "v3 intent-to-add", setup: func(t *testing.T, dir string) {
		os.WriteFile(filepath.Join(dir, "later.txt"), []byte("x\n"), 0o644)
		gitT(t, dir, "add", "-N", "later.txt")
		gitT(t, dir, "update-index", "--index-version", "3")
	}, ita: "later.txt"},
	{name: "v3 skip-worktree", setup: func(t *testing.T, dir string) {
		gitT(t, dir, "update-index", "--skip-worktree", "a/b/c.txt")
	}, noStat: []string{"a/b/c.txt"}},
	{name: "assume-unchanged", setup: func(t *testing.T, dir string) {
		gitT(t, dir, "update-index", "--assume-unchanged", "top.txt")
	}, noStat: []string{"top.txt"}},
	{name: "v4", setup: func(t *testing.T, dir string) { gitT(t, dir, "update-index", "--index-version", "4") }},
	{name: "sha256", init: []string{"--object-format=sha256"}},
	{name: "sha256 v4", init: []string{"--object-format=sha256"}, setup: func(t *testing.T, dir string) {
		gitT(t, dir, "update-index", "--index-version", "4")
	}},
	{name: "symlink and executable", setup: func(t *testing.T, dir string) {
		os.Symlink("top.txt", filepath.Join(dir, "link"))
		os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\n"), 0o755)
		gitT(t, dir, "add", "link", "run.sh")
	}},
	{name: "conflict", setup: func(t *testing.T, dir string) {
		gitT(t, dir, "checkout", "-q", "-b", "other")
		os.WriteFile(filepath.Join(dir, "top.txt"), []byte("other\n"), 0o644)
		gitT(t, dir, "commit", "-qam", "other")
		gitT(t, dir, "checkout", "-q", "-")
		os.WriteFile(filepath.Join(dir, "top.txt"), []byte("main\n"), 0o644)
		gitT(t, dir, "commit", "-qam", "main")
		exec.Command("git", "-C", dir, "merge", "-q", "other").Run() // conflicts
	}, unmerged: []string{"top.txt"}},
	{name: "split", split: true, setup: func(t *testing.T, dir string) { gitT(t, dir, "update-index", "--split-index") }},
	{name: "sparse index", sparse: true, setup: func(t *testing.T, dir string) {
		gitT(t, dir, "sparse-checkout", "init", "--cone", "--sparse-index")
		gitT(t, dir, "sparse-checkout", "set", "a/b")
	}},
}

// TestIndexNamesAsGit reads indexes of every form git 2.39 writes and
// compares the names with git ls-files (not a sparse index: its names
// hold directory entries, "long/", which trackedPaths reads as such and
// git ls-files lists expanded).
func TestIndexNamesAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, tc := range indexForms {
		if tc.sparse {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			dir, data, hashLen := indexFixture(t, tc)
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
// returns the directory, its index file (as setup left it) and the length
// of its object ids. Each form is built once for the tests that read it
// (indexForms by name), in a directory removed when the tests end.
func indexFixture(t *testing.T, tc indexForm) (dir string, data []byte, hashLen int) {
	t.Helper()
	fixtures.Lock()
	defer fixtures.Unlock()
	if f, ok := fixtures.built[tc.name]; ok {
		return f.dir, f.data, f.hashLen
	}
	if fixtures.root == "" {
		root, err := os.MkdirTemp("", "memcite-index-forms-")
		if err != nil {
			t.Fatal(err)
		}
		fixtures.root = root
		afterTests = append(afterTests, func() { os.RemoveAll(root) })
	}
	dir, err := os.MkdirTemp(fixtures.root, "form-")
	if err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, append([]string{"init", "-q"}, tc.init...)...)
	for _, f := range []string{"top.txt", "a/b/c.txt", "a/b/d.txt", "a/bb.txt", "a/b.c/e.txt", "z é.txt", strings.Repeat("long/", 40) + "f.txt"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(f+"\n"), 0o644)
	}
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "init")
	if tc.setup != nil {
		tc.setup(t, dir)
	}
	data, err = os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	hashLen = 20
	for _, a := range tc.init {
		if a == "--object-format=sha256" {
			hashLen = 32
		}
	}
	if fixtures.built == nil {
		fixtures.built = map[string]builtForm{}
	}
	fixtures.built[tc.name] = builtForm{dir, data, hashLen}
	return dir, data, hashLen
}

// fixtures are the index forms built so far.
var fixtures struct {
	sync.Mutex
	root  string
	built map[string]builtForm
}

type builtForm struct {
	dir     string
	data    []byte
	hashLen int
}

// addIndexSeeds gives an index fuzz target its seeds (data, hashLen).
func addIndexSeeds(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00"), 20)
	f.Add(append([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"), bytes.Repeat([]byte{0}, 70)...), 20)
	f.Add(append([]byte("DIRC\x00\x00\x00\x03\x00\x00\x00\x01"), bytes.Repeat([]byte{0x40}, 90)...), 32)
}

// fuzzHashLen maps a fuzzed hash length to one of the two git has.
func fuzzHashLen(n int) int {
	if n != 20 {
		return 32
	}
	return 20
}

// FuzzIndexNames: any bytes give names or an error, never a panic.
func FuzzIndexNames(f *testing.F) {
	addIndexSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, hashLen int) {
		hashLen = fuzzHashLen(hashLen)
		names, _, err := indexNames(data, hashLen)
		if err == nil && len(names) > len(data) {
			t.Fatalf("%d names from %d bytes", len(names), len(data))
		}
	})
}
