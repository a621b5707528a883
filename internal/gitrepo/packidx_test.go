package gitrepo

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestPackIndex: every object of a packed repository (deltas against
// offsets and bases of every kind) reads through the pack's index files
// as git cat-file reads it, with the .rev file and without it, and an
// object the pack does not hold is not found.
func TestPackIndex(t *testing.T) {
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q")
	var text strings.Builder
	for i := range 30 {
		fmt.Fprintf(&text, "line %d of a file that changes a little in each commit\n", i)
		gitfixture.Write(t, dir, "a.txt", text.String())
		gitfixture.Write(t, dir, fmt.Sprintf("d%d/b.txt", i%3), text.String()+"tail\n")
		git("add", "-A")
		git("commit", "-q", "-m", fmt.Sprintf("commit %d", i))
	}
	git("-c", "pack.writeReverseIndex=true", "gc", "-q", "--aggressive")
	ids := strings.Fields(git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)"))
	if len(ids) < 60 {
		t.Fatalf("%d objects", len(ids))
	}
	revs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.rev"))
	for _, withRev := range []bool{true, false} {
		if !withRev {
			for _, r := range revs {
				if err := os.Remove(r); err != nil {
					t.Fatal(err)
				}
			}
		} else if len(revs) == 0 {
			t.Log("git wrote no .rev file")
			continue
		}
		ps := &packs{dir: filepath.Join(dir, ".git", "objects"), cache: cache.NewObjectLRUDefault()}
		for _, id := range ids {
			h := plumbing.NewHash(id)
			o, err := ps.object(plumbing.AnyObject, h)
			if err != nil {
				t.Fatalf("rev %v: %s: %v", withRev, id, err)
			}
			rc, err := o.Reader()
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			want, err := exec.Command("git", "-C", dir, "cat-file", o.Type().String(), id).Output()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) || git("cat-file", "-t", id) != o.Type().String() {
				t.Errorf("rev %v: %s (%s) reads otherwise than git's", withRev, id, o.Type())
			}
			off, err := ps.list[0].idx.FindOffset(h)
			if err != nil {
				t.Fatal(err)
			}
			if back, err := ps.list[0].idx.FindHash(off); err != nil || back != h {
				t.Errorf("rev %v: FindHash(FindOffset(%s)) = %s, %v", withRev, id, back, err)
			}
		}
		missing := plumbing.NewHash(strings.Repeat("ab", 20))
		if _, err := ps.object(plumbing.AnyObject, missing); err != plumbing.ErrObjectNotFound || ps.has(missing) {
			t.Errorf("rev %v: a missing object: %v", withRev, err)
		}
		ps.close()
	}
}
