package gitrepo

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// indexRepo makes a repository whose index holds n entries (blob ids that
// need not exist: git update-index --index-info stores what it is told),
// and returns the index file's bytes.
func indexRepo(tb testing.TB, n int) []byte {
	tb.Helper()
	dir := tb.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		tb.Fatalf("git init: %v\n%s", err, out)
	}
	var in strings.Builder
	for i := range n {
		fmt.Fprintf(&in, "100644 %040x\tpkg%03d/sub%d/file%05d.go\n", i+1, i/600, i%7, i)
	}
	cmd := exec.Command("git", "update-index", "--index-info")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(in.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("git update-index: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// TestGoGitIndexAgrees: go-git's index decoder (plumbing/format/index)
// reads the same paths, object names and modes as the project's two
// decoders. They are kept for their speed, not for a difference in
// meaning: BenchmarkIndexDecode gives the number (docs/repositories.md).
func TestGoGitIndexAgrees(t *testing.T) {
	data := indexRepo(t, 3000)
	es, _, _, _, err := parseIndex(data, 20)
	if err != nil {
		t.Fatal(err)
	}
	x := &worktreeIndex{hashLen: 20}
	if err := x.decode(data); err != nil {
		t.Fatal(err)
	}
	var idx index.Index
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(&idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Entries) != len(es) || len(x.entries) != len(es) {
		t.Fatalf("go-git %d entries, parseIndex %d, worktreeIndex %d", len(idx.Entries), len(es), len(x.entries))
	}
	for i, e := range idx.Entries {
		if e.Name != es[i].path || e.Hash.String() != es[i].oid || e.Mode != es[i].mode || x.entries[i].path != e.Name {
			t.Fatalf("entry %d: go-git %s %s %v; parseIndex %s %s %v; worktreeIndex %s", i, e.Name, e.Hash, e.Mode, es[i].path, es[i].oid, es[i].mode, x.entries[i].path)
		}
	}
}

// BenchmarkIndexDecode decodes a 60,000-entry index (the size of the
// 50,000-memory benchmark store's) with the project's decoders and with
// go-git's, in one run: the number the own decoders are kept for.
func BenchmarkIndexDecode(b *testing.B) {
	data := indexRepo(b, 60000)
	b.Run("parseIndex", func(b *testing.B) {
		for b.Loop() {
			if _, _, _, _, err := parseIndex(data, 20); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("worktreeIndex", func(b *testing.B) {
		for b.Loop() {
			x := &worktreeIndex{hashLen: 20}
			if err := x.decode(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("go-git", func(b *testing.B) {
		for b.Loop() {
			var idx index.Index
			if err := index.NewDecoder(bytes.NewReader(data)).Decode(&idx); err != nil {
				b.Fatal(err)
			}
		}
	})
}
