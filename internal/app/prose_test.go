package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// proseVerdicts verifies every memory of dir with prose references and
// returns "memory-stem: kind target status/kind" for each of them.
func proseVerdicts(t *testing.T, dir string) map[string]string {
	t.Helper()
	ctx := context.Background()
	ws, opt, done := verifyOptionsAt(t, dir, nil)
	defer done()
	rep, err := verify.Check(ctx, ws.Src, ws.Store.Memories, opt)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range rep.Memories {
		for _, c := range m.Citations {
			if c.Prose == nil {
				continue
			}
			v := c.Status.String()
			if c.Status == verify.Stale {
				v = c.Kind.String()
			}
			if c.Prose.Unresolved {
				v = "unresolved"
			}
			if c.Prose.Now != "" {
				v += " → " + c.Prose.Now
			}
			if c.Prose.Changed != "" {
				v += " @" + c.Prose.Changed[:7]
			}
			out[m.Memory.Stem()+": "+c.Prose.Text] = v
		}
	}
	return out
}

func TestProseVerdicts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	w := func(p, s string) { gitfixture.Write(t, dir, p, s) }
	w("src/shop.go", "package src\n\n// Order is an order.\ntype Order struct{}\n\nfunc Total() int {\n\treturn 42\n}\n")
	w("src/keep.go", "package src\n")
	w("src/gone.py", "x = 1\n")
	w("README.md", "# r\n")
	w("lib/solo.rb", "x = 1\n")
	w("docs/README.md", "# d\n")
	w(".serena/memories/other-note.md", "# other\n")
	w(".serena/memories/old-name.md", "# old\n")
	w(".serena/memories/notes.md", strings.Join([]string{
		"# Notes",
		"The shop lives in `src/shop.go` and `src/keep.go`.",
		"Totals are computed at src/shop.go:6-8 (`return 42`).",
		"The python helper `src/gone.py` sets x.",
		"See [other](other-note.md) and [[old-name]].",
		"A planned `src/planned.go` will come.",
		"Plain mention of README.md is ambiguous, and `solo.rb` is unique.",
		"",
	}, "\n"))
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	base := git("rev-parse", "HEAD")
	_ = base
	// history moves things on
	git("mv", "src/shop.go", "src/order.go")
	git("commit", "-q", "-m", "rename shop to order")
	moved := git("rev-parse", "--short=7", "HEAD")
	git("rm", "-q", "src/gone.py")
	git("mv", ".serena/memories/old-name.md", ".serena/memories/new-name.md")
	git("commit", "-q", "-m", "drop gone.py, rename a memory")
	dropped := git("rev-parse", "--short=7", "HEAD")
	// a sentence written after the move names the new place
	f := filepath.Join(dir, ".serena/memories/notes.md")
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append(b, []byte("Now `src/order.go` holds it; `src/never.go` never existed.\n")...), 0o644); err != nil {
		t.Fatal(err)
	}

	got := proseVerdicts(t, dir)
	want := map[string]string{
		"notes: src/shop.go":      "path-moved → src/order.go @" + moved,
		"notes: src/keep.go":      "valid",
		"notes: src/gone.py":      "path-deleted @" + dropped,
		"notes: other-note.md":    "valid",
		"notes: old-name":         "memory-renamed → .serena/memories/new-name.md @" + dropped,
		"notes: src/planned.go":   "unresolved",
		"notes: solo.rb":          "valid",
		"notes: src/order.go":     "valid",
		"notes: src/never.go":     "unresolved",
		"notes: README.md":        "", // an ambiguous bare name is no reference
		"notes: return 42":        "",
		"notes: src/shop.go:6-8?": "",
	}
	// the range on line 3 names the moved file: a path verdict, once per
	// memory (the same location counts once)
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for k, v := range want {
		if v == "" {
			if _, ok := got[k]; ok && !strings.HasSuffix(k, "?") {
				t.Errorf("%s: got %q; want no reference", k, got[k])
			}
			continue
		}
		if got[k] != v {
			t.Errorf("%s: got %q; want %q (all: %q)", k, got[k], v, keys)
		}
	}
}

func TestProseLinesAndUnresolvedNeverStale(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	w := func(p, s string) { gitfixture.Write(t, dir, p, s) }
	w("a.go", "package a\n\nfunc One() {}\n\nfunc Two() {}\n")
	w(".serena/memories/m.md", "`a.go` line 3 defines One; a.go:9 was wrong from the start.\n")
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	// One moves down two lines: the line reference is stale, the
	// reference that never resolved stays unresolved
	w("a.go", "package a\n\n// doc\n// more\nfunc One() {}\n\nfunc Two() {}\n")
	git("commit", "-qam", "move One")
	got := proseVerdicts(t, dir)
	_ = got
	// both references are to a.go: check the report itself
	ctx := context.Background()
	ws, opt, done := verifyOptionsAt(t, dir, nil)
	defer done()
	rep, err := verify.Check(ctx, ws.Src, ws.Store.Memories, opt)
	if err != nil {
		t.Fatal(err)
	}
	var sawUnresolved, sawStale bool
	for _, c := range rep.Memories[0].Citations {
		switch c.Citation.Line {
		case 9:
			sawUnresolved = c.Prose.Unresolved && c.Status == verify.Skipped
		case 3:
			sawStale = c.Status == verify.Stale && c.Kind == verify.KindSnippetMismatch && strings.Contains(c.Reason, "func One() {}")
		}
	}
	if !sawStale {
		t.Errorf("a.go line 3 (One moved down) is not stale: %+v", rep.Memories[0].Citations)
	}
	if !sawUnresolved {
		t.Errorf("a.go:9 (past the end when written) is not unresolved: %+v", rep.Memories[0].Citations)
	}
	if !rep.Memories[0].Stale() {
		t.Error("a stale prose reference does not make its memory stale")
	}
}

func TestProseOff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	gitfixture.Write(t, dir, ".serena/memories/m.md", "`src/x.go` is gone\n")
	gitfixture.Write(t, dir, "src/x.go", "package x\n")
	gitfixture.Write(t, dir, ".memcite.yaml", "prose: off\n")
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	git("rm", "-q", "src/x.go")
	git("commit", "-q", "-m", "drop")
	if got := proseVerdicts(t, dir); len(got) != 0 {
		t.Errorf("prose: off: got %v", got)
	}
	gitfixture.Write(t, dir, ".memcite.yaml", "prose: error\n")
	if got := proseVerdicts(t, dir); got["m: src/x.go"] == "" || !strings.HasPrefix(got["m: src/x.go"], "path-deleted") {
		t.Errorf("prose: error: got %v", got)
	}
}

func TestProseSymbols(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	w := func(p, s string) { gitfixture.Write(t, dir, p, s) }
	w("a.go", "package a\n\nfunc KeepMe() {}\n\nfunc remove_me() {}\n")
	w("b.py", "def load_config():\n    pass\n")
	w("a2.py", "def load_config():\n    pass\n") // another definition: the sentence names b.py
	w(".serena/memories/m.md", "`KeepMe()` stays, `remove_me()` goes, `load_config` reads `b.py`, `planned_thing()` will come.\n")
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	w("a.go", "package a\n\nfunc KeepMe() {}\n")
	git("commit", "-qam", "drop remove_me")
	dropped := git("rev-parse", "--short=7", "HEAD")
	got := proseVerdicts(t, dir)
	want := map[string]string{
		"m: KeepMe":        "valid → a.go:3", // defined, and where
		"m: remove_me":     "symbol-gone @" + dropped,
		"m: load_config":   "valid → b.py:1",
		"m: planned_thing": "unresolved",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q; want %q (all: %v)", k, got[k], v, got)
		}
	}
	// the second run answers from the cache of git's answers for this HEAD
	if _, err := os.Stat(filepath.Join(dir, ".git", proseCacheFile)); err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	again := proseVerdicts(t, dir)
	if fmt.Sprint(again) != fmt.Sprint(got) {
		t.Errorf("from the cache: %v; first run: %v", again, got)
	}
}

// TestProseSymbolsThen: a name missing now is looked for in the code of
// the commit that wrote it, where only the files whose content differs
// from the code checked now are read. A name still in HEAD's file but
// taken out of the working tree's copy (not committed) was there when
// written: gone, not unresolved; a name in a file of that commit whose
// content is unchanged since is found too (it is not missing now).
func TestProseSymbolsThen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	w := func(p, s string) { gitfixture.Write(t, dir, p, s) }
	w("a.py", "def edited_away():\n    pass\n")
	w("b.py", "def stays_put():\n    pass\n")
	w("c.py", "x = 1\n")
	w(".serena/memories/m.md", "`edited_away()` and `stays_put()`; `was_in_c` and `never_there()`.\n")
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	w("c.py", "was_in_c = 1\n")
	git("commit", "-qam", "c gains a name")
	w(".serena/memories/m.md", "`edited_away()` and `stays_put()`; `was_in_c` and `never_there()`.\nmore\n")
	w("c.py", "x = 2\n")
	git("commit", "-qam", "c loses it")
	w("a.py", "x = 3\n") // not committed
	got := proseVerdicts(t, dir)
	want := map[string]string{
		"m: edited_away": "symbol-gone",
		"m: stays_put":   "valid → b.py:1",
		"m: was_in_c":    "unresolved", // written before c.py had it
		"m: never_there": "unresolved",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q; want %q (all: %v)", k, got[k], v, got)
		}
	}
}

// verifyOptionsAt opens the workspace of dir with its memories (and the
// verification cache c, when not nil) and returns what verify.Check
// judges them with; its repository is closed when t ends.
func verifyOptionsAt(t *testing.T, dir string, c *vcache.Cache) (*Workspace, verify.Options, func()) {
	t.Helper()
	o := OpenOptions{RepoRoot: dir, Memories: LoadMemories}
	if c != nil {
		o.Session = NewSession(vcache.NewSlot(c))
	}
	ws, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if ws.Repo != nil {
		t.Cleanup(func() { ws.Repo.Close() })
	}
	opt, done, err := ws.VerifyOptions()
	if err != nil {
		t.Fatal(err)
	}
	return ws, opt, done
}

// countBlobs counts the batches of blobs a history is asked for.
type countBlobs struct {
	*lazyHistory
	calls atomic.Int64
}

func (c *countBlobs) Blobs(xs []gitblame.Hash, f func(i int, data []byte, err error)) {
	c.calls.Add(1)
	c.lazyHistory.Blobs(xs, f)
}

// TestProseReadsVersionsAhead: a cold run reads the newest versions of
// every memory ahead of the judging, many memories a request, not a
// request a memory, and asks for the renames of the commits that deleted
// the paths they name ahead of it too; the verdicts (a deleted path, a
// moved one) are those of a run without a cache and of a warm run.
func TestProseReadsVersionsAhead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	const n = 40
	gitfixture.Write(t, dir, "src/a.go", "package a\n")
	gitfixture.Write(t, dir, "old/gone.go", "package old\n")
	gitfixture.Write(t, dir, "lib/moved.go", "package lib\n\nfunc Moved() {}\n")
	body := func(i, v int) string {
		s := fmt.Sprintf("# Memory %d\n\nThe code is in `src/a.go`; `old/gone.go` held the rest, `lib/moved.go` the helpers.\n", i)
		for k := range v {
			s += fmt.Sprintf("Note %d of version %d.\n", k, v)
		}
		return s
	}
	for v := range 3 {
		for i := range n {
			gitfixture.Write(t, dir, fmt.Sprintf(".serena/memories/m%02d.md", i), body(i, v))
		}
		if v == 2 {
			git("rm", "-q", "old/gone.go")
			git("mv", "lib/moved.go", "lib/helpers.go")
		}
		git("add", "-A")
		git("commit", "-q", "-m", fmt.Sprint("version ", v))
	}
	ctx := context.Background()
	run := func(c *vcache.Cache) (map[string]string, int64) {
		ws, opt, done := verifyOptionsAt(t, dir, c)
		pc := opt.Prose.(*prose.Checker)
		counted := &countBlobs{lazyHistory: pc.H.(*lazyHistory)}
		pc.H = counted
		rep, err := verify.Check(ctx, ws.Src, ws.Store.Memories, opt)
		done()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, m := range rep.Memories {
			for _, ct := range m.Citations {
				if ct.Prose != nil {
					out[m.Memory.Stem()+": "+ct.Prose.Text] = ct.Status.String() + " " + ct.Kind.String() + " " + ct.Prose.Now + " " + ct.Prose.Written[:7]
				}
			}
		}
		return out, counted.calls.Load()
	}
	plain, calls := run(nil) // no cache: every memory judged
	if len(plain) != 3*n {
		t.Fatalf("%d prose references, want %d: %v", len(plain), 3*n, plain)
	}
	for _, k := range []string{"m07: old/gone.go", "m07: lib/moved.go"} {
		if v := plain[k]; !strings.HasPrefix(v, "stale ") || strings.HasPrefix(k, "m07: lib") != strings.Contains(v, " lib/helpers.go ") {
			t.Errorf("%s: %q, want stale (moved to lib/helpers.go for lib/moved.go)", k, v)
		}
	}
	if calls > 3 {
		t.Errorf("without a cache, the versions of %d memories were read in %d requests, want a few", n, calls)
	}
	vc := vcache.Open(t.TempDir(), "test")
	cold, calls := run(vc)
	if calls > 3 {
		t.Errorf("cold, the versions of %d memories were read in %d requests, want a few", n, calls)
	}
	warm, _ := run(vc)
	if !reflect.DeepEqual(plain, cold) || !reflect.DeepEqual(cold, warm) {
		t.Errorf("without a cache:\n%v\ncold:\n%v\nwarm:\n%v", plain, cold, warm)
	}
}
