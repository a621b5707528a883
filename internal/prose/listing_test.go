package prose

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// stampingSource is a countingSource whose listings are stamped by a
// version of its files (as gitrepo's working tree stamps them by its
// directories' stat data); lie makes SameList vouch for any stamp.
type stampingSource struct {
	countingSource
	version int
	lists   int
	lie     bool
}

func (s *stampingSource) List(dir string) ([]string, error) {
	s.lists++
	return s.countingSource.List(dir)
}

func (s *stampingSource) ListStamped() ([]string, []byte, error) {
	paths, err := s.List("")
	return paths, []byte(fmt.Sprint(s.version)), err
}

func (s *stampingSource) SameList(stamp []byte) bool {
	return s.lie || string(stamp) == fmt.Sprint(s.version)
}

// TestListingStamped: a content checked whose list of paths the cache
// vouches for is not listed for a memory the cache judges; a file added
// is seen; a memory the cache does not judge, or one with symbols, lists
// it; a judgment made on a list other than the one vouched for is not
// kept.
func TestListingStamped(t *testing.T) {
	src := &stampingSource{countingSource: countingSource{reads: map[string]int{}, files: map[string]string{
		"src/a.go": "package a\n\nfunc Compute() {}\n",
	}}}
	memory := func(path, body string) *store.Memory {
		f, err := memfile.Parse(path, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		return &store.Memory{Path: path, Dir: ".serena/memories", ID: strings.TrimSuffix(path[len(".serena/memories/"):], ".md"), File: f}
	}
	paths := memory(".serena/memories/paths.md", "See `src/a.go` and `src/b.go`.\n")
	syms := memory(".serena/memories/syms.md", "`Compute()` computes.\n")
	dir := t.TempDir()
	run := func(mems ...*store.Memory) string {
		t.Helper()
		cache := vcache.Open(dir, "test")
		ctx := context.Background()
		c := &Checker{Dirs: []string{".serena/memories"}, All: []*store.Memory{paths, syms}, Cache: cache}
		out, err := c.CheckProse(ctx, src, mems)
		if err != nil {
			t.Fatal(err)
		}
		if err := cache.Save(dir); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, pcs := range out {
			for _, pc := range pcs {
				got = append(got, fmt.Sprintf("%s %s %v", pc.Ref.Text, pc.Status, pc.Ref.Unresolved))
			}
		}
		return strings.Join(got, "; ")
	}
	step := func(name, got, want string, lists int) {
		t.Helper()
		if got != want {
			t.Errorf("%s: judged %q, want %q", name, got, want)
		}
		if src.lists != lists {
			t.Errorf("%s: listed %d times, want %d", name, src.lists, lists)
		}
		src.lists = 0
	}
	const before = "src/a.go valid false; src/b.go skipped true"
	step("cold", run(paths), before, 1)
	step("warm", run(paths), before, 0)
	step("a memory the cache does not judge", run(paths, syms), before+"; Compute valid false", 1)
	step("a memory with symbols", run(paths, syms), before+"; Compute valid false", 1) // looked up in every file listed

	src.files["src/b.go"] = "package a\n"
	src.version++
	const after = "src/a.go valid false; src/b.go valid false"
	step("a file added", run(paths), after, 1)
	step("warm again", run(paths), after, 0)

	// the stamp vouches for a list that is not the one listed: the
	// judgment is not kept, so the next run judges again
	src.lie = true
	delete(src.files, "src/b.go")
	edited := memory(".serena/memories/paths.md", "See `src/a.go` and `src/b.go` again.\n")
	step("a list other than the one vouched for", run(edited), before, 1)
	step("its judgment was not kept", run(edited), before, 1)
}
