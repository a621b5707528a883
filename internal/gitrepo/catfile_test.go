package gitrepo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestCatFilePool: reads from many goroutines at once get every object's
// own content, through at most catProcs processes, and through more than
// one once there were many; reads one after the other, and the first
// reads, use one process; Close stops them all; a missing object is an
// error, not an empty blob.
func TestCatFilePool(t *testing.T) {
	const n = 3 * growEvery
	r, objs, oids := blobRepo(t, n, func(i int) string { return strings.Repeat(fmt.Sprintf("file %d\n", i), i+1) })
	objs.local = nil // the pool is what is tested: every read goes to git
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

// TestCatFileObjects: objects read at once through one process, the
// requests written while the answers are read, are each object's own
// content in order, many more than the pipes hold (git would block
// writing answers nobody reads), a missing object among them is
// plumbing.ErrObjectNotFound for that one only, and the process serves
// single reads after.
func TestCatFileObjects(t *testing.T) {
	t.Parallel()
	body := func(i int) string { return strings.Repeat(fmt.Sprintf("content of file %d\n", i), 20+i%7) }
	r, objs, oids := blobRepo(t, 600, body)
	defer r.Close()
	const missingAt = 300
	oids = slices.Insert(oids, missingAt, strings.Repeat("0", 39)+"1")
	seen := 0
	objs.cat.objects(oids, func(i int, typ string, data []byte, err error) {
		if i != seen {
			t.Fatalf("answer %d came as %d", seen, i)
		}
		seen++
		k := i
		switch {
		case i == missingAt:
			if !errors.Is(err, plumbing.ErrObjectNotFound) {
				t.Errorf("the missing object: %v", err)
			}
			return
		case i > missingAt:
			k = i - 1
		}
		if err != nil || typ != "blob" || string(data) != body(k) {
			t.Fatalf("object %d: %s %.20q %v", i, typ, data, err)
		}
	})
	if seen != len(oids) {
		t.Fatalf("%d answers, want %d", seen, len(oids))
	}
	if b, err := objs.readBlob(oids[0]); err != nil || string(b) != body(0) {
		t.Errorf("a read after: %.20q, %v", b, err)
	}
}

// blobRepo commits n files (f000, f001, …) holding body(i) and returns the
// repository, its object reader and the files' blob names in order.
func blobRepo(t *testing.T, n int, body func(i int) string) (*Repo, *objects, []string) {
	t.Helper()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d", i)), []byte(body(i)), 0o644); err != nil {
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
	var oids []string
	for _, l := range strings.Split(strings.TrimSpace(gitT(t, dir, "ls-tree", "HEAD")), "\n") {
		oids = append(oids, strings.Fields(l)[2])
	}
	return r, objs, oids
}
