package gitrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestCatFilePool: reads from many goroutines at once get every object's
// own content, through at most catProcs processes, and through more than
// one once there were many; reads one after the other, and the first
// reads, use one process; Close stops them all; a missing object is an
// error, not an empty blob.
func TestCatFilePool(t *testing.T) {
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	const n = 3 * growEvery
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d", i)), []byte(strings.Repeat(fmt.Sprintf("file %d\n", i), i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitT(t, dir, "add", ".")
	gitT(t, dir, "commit", "-q", "-m", "files")
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := r.objects()
	if err != nil {
		t.Fatal(err)
	}
	oids := make([]string, n)
	for i := range n {
		oids[i] = strings.TrimSpace(gitT(t, dir, "rev-parse", fmt.Sprintf("HEAD:f%03d", i)))
	}
	running := func() int {
		k := 0
		for i := range objs.cat.procs {
			p := &objs.cat.procs[i]
			p.mu.Lock()
			if p.proc != nil {
				k++
			}
			p.mu.Unlock()
		}
		return k
	}
	for i := range 20 {
		if b, err := objs.readBlob(oids[i]); err != nil || string(b) != strings.Repeat(fmt.Sprintf("file %d\n", i), i+1) {
			t.Fatalf("f%03d: %q, %v", i, b, err)
		}
	}
	if k := running(); k != 1 {
		t.Fatalf("reads one after the other ran %d processes, want 1", k)
	}
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			for i := w; i < n; i += 16 {
				b, err := objs.readBlob(oids[i])
				if err != nil || string(b) != strings.Repeat(fmt.Sprintf("file %d\n", i), i+1) {
					t.Errorf("f%03d read in parallel: %d bytes, %v", i, len(b), err)
				}
			}
		})
	}
	wg.Wait()
	if k := running(); k < 2 || k > catProcs {
		t.Fatalf("%d processes running, want 2 to %d", k, catProcs)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if k := running(); k != 0 {
		t.Fatalf("%d processes running after Close", k)
	}
	// a read after Close starts a process afresh, which Close stops
	if _, err := objs.readBlob(oids[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := objs.readBlob("0000000000000000000000000000000000000000"); err == nil {
		t.Fatal("a missing object was read")
	}
	if err := r.Close(); err != nil || running() != 0 {
		t.Fatalf("Close again: %v, %d processes running", err, running())
	}
}
