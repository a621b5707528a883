//go:build unix

package vcache

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFileAtCachePath: a FIFO at the cache's path, or at a
// summary's, is neither waited on nor used; the next save replaces it
// with a cache.
func TestSpecialFileAtCachePath(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, FileName), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	tree := "0123456789abcdef0123456789abcdef01234567"
	if err := os.MkdirAll(summaryDir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(summaryDir(dir), tree), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan *Cache, 1)
	go func() {
		c := Open(dir, "tool")
		if s := ReadSummary(dir, "tool", tree); s != nil {
			t.Errorf("a FIFO read as a summary: %+v", s)
		}
		if info := Inspect(dir, "tool"); info.State != StateSpecial {
			t.Errorf("Inspect: state %v, want %v", info.State, StateSpecial)
		}
		done <- c
	}()
	var c *Cache
	select {
	case c = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("opening the cache blocked on a FIFO")
	}
	if c.State() != StateSpecial {
		t.Fatalf("state %v, want %v", c.State(), StateSpecial)
	}
	c.PutVerdict(key(1), Verdict{Kind: 1, Reason: "r"})
	if err := c.Save(filepath.Join(dir, "tmp")); err != nil {
		t.Fatal(err)
	}
	again := Open(dir, "tool")
	if v, ok := again.Verdict(key(1)); again.State() != StateOK || !ok || v.Reason != "r" {
		t.Fatalf("after save: state %v, verdict %+v %v", again.State(), v, ok)
	}
}
