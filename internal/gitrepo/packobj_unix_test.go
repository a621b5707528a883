//go:build unix

package gitrepo

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPackReaderSkipsFIFO: a named pipe where a pack index would be is
// skipped at once (the open never blocks), and the real pack still reads.
func TestPackReaderSkipsFIFO(t *testing.T) {
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	first := commitF(t, dir, "one")
	gitT(t, dir, "gc", "-q")
	tree := strings.TrimSpace(gitT(t, dir, "rev-parse", first+"^{tree}"))
	if err := syscall.Mkfifo(filepath.Join(dir, ".git", "objects", "pack", "pack-0000.idx"), 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan bool, 1)
	go func() {
		_, objs := repoObjects(t, dir)
		_, ok := objs.packs.read(tree, "tree")
		done <- ok
	}()
	select {
	case ok := <-done:
		if !ok {
			t.Errorf("packed tree left to git beside a FIFO")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the pack reader blocked on a FIFO")
	}
}
