package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// TestWorktreeIndexAsGit reads indexes of every form git 2.39 writes and
// compares each path, mode and object id with git ls-files --stage, and
// which entries git compares with the working tree by their stat data,
// with the fixture's (not
// a sparse index: its directory entries, "long/", are read as such and
// git ls-files lists them expanded). A conflict is one entry, not trusted.
func TestWorktreeIndexAsGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, tc := range indexForms {
		if tc.sparse {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			dir, data, hashLen := indexFixture(t, tc)
			x := &worktreeIndex{hashLen: hashLen}
			err := x.decode(data)
			if tc.split {
				if !errors.Is(err, errIndexForm) {
					t.Fatalf("split index: err = %v, want errIndexForm", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got, want []string
			for _, e := range x.entries {
				got = append(got, fmt.Sprintf("%06o %s %s", e.st.mode, x.contentID(&e)[5:], e.path))
				untrusted := slices.Contains(tc.noStat, e.path) || slices.Contains(tc.unmerged, e.path) || e.path == tc.ita
				if e.st.trusted == untrusted {
					t.Errorf("%s: trusted = %v, want %v", e.path, e.st.trusted, !untrusted)
				}
			}
			for _, rec := range strings.Split(gitT(t, dir, "ls-files", "-z", "--stage"), "\x00") {
				meta, name, ok := strings.Cut(rec, "\t")
				if !ok {
					continue
				}
				f := strings.Fields(meta) // mode oid stage
				if n := len(want); n > 0 && strings.HasSuffix(want[n-1], " "+name) {
					continue // another stage: the entry of the first
				}
				want = append(want, fmt.Sprintf("%s %s %s", f[0], f[1], name))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("entries:\n%s\nwant (git ls-files --stage):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, e := range x.entries {
				if !x.known(e.path) {
					t.Errorf("%s: not known", e.path)
				}
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

// FuzzWorktreeIndex: any bytes give entries or an error, never a panic,
// and the entries are sorted and findable.
func FuzzWorktreeIndex(f *testing.F) {
	addIndexSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, hashLen int) {
		hashLen = fuzzHashLen(hashLen)
		x := &worktreeIndex{hashLen: hashLen}
		if err := x.decode(data); err != nil {
			return
		}
		if len(x.entries) > len(data) {
			t.Fatalf("%d entries from %d bytes", len(x.entries), len(data))
		}
		for i := range x.entries {
			if e := x.find(x.entries[i].path); e == nil || e.path != x.entries[i].path {
				t.Fatalf("%q not found", x.entries[i].path)
			}
		}
	})
}

// TestWorktreeIndexKnown: a path is known when the index holds it, a
// directory above an entry (a sparse index's "dir/" too) or a submodule
// above it; paths that only share a prefix are not.
func TestWorktreeIndexKnown(t *testing.T) {
	t.Parallel()
	x := &worktreeIndex{gitlinks: true}
	for _, e := range []struct {
		path string
		mode uint32
	}{
		{"a-b.txt", 0o100644}, {"a.go", 0o100644}, {"a/b/c.go", 0o100644}, {"a0", 0o100644},
		{"lib", 0o160000}, {"sparse/", 0o040000}, {"z", 0o120000},
	} {
		x.entries = append(x.entries, indexEntry{path: e.path, st: indexStat{mode: e.mode}})
	}
	x.sort()
	for p, want := range map[string]bool{
		"a.go": true, "a/b/c.go": true, "a": true, "a/b": true, "a-b.txt": true, "a0": true, "z": true,
		"lib": true, "lib/x.go": true, "lib/d/x.go": true,
		"sparse": true, "sparse/x.go": false, // under a sparse directory entry: not in the index
		"a/b/c": false, "a/b/c.go/x": false, "a/c": false, "b": false, "a.g": false, "": false, "z/x": false,
	} {
		if got := x.known(p); got != want {
			t.Errorf("known(%q) = %v, want %v", p, got, want)
		}
	}
	x.gitlinks = false // (only set when an entry is one)
	if x.known("lib/x.go") {
		t.Error("without gitlinks, lib/x.go is known")
	}
}

func TestCompareDir(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"", "a", "a!", "a.go", "a/", "a/b", "a0", "ab", "b"} {
		want := strings.Compare(p, "a/")
		if got := compareDir(p, "a"); got != want {
			t.Errorf("compareDir(%q, \"a\") = %d, want %d", p, got, want)
		}
	}
}

// TestWorktreeIndexShared: working-tree sources of one Repo share the
// index read while the file is unchanged, and read it again once git
// rewrote it.
func TestWorktreeIndexShared(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q")
	gitfixture.Write(t, dir, "a.txt", "a\n")
	git("add", "a.txt")
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	x1, err := r.readWorktreeIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	x2, err := r.readWorktreeIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if x1 != x2 {
		t.Error("the unchanged index was read twice")
	}
	gitfixture.Write(t, dir, "b.txt", "b\n")
	git("add", "b.txt")
	x3, err := r.readWorktreeIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if x3 == x1 || x3.find("b.txt") == nil || x1.find("b.txt") != nil {
		t.Errorf("after git add: the index was not read again (b.txt known: %v)", x3.find("b.txt") != nil)
	}
}
