package app

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// TestProseCacheDifferential runs random sequences of code edits,
// renames, deletions, memory edits and renames, commits, checkouts and
// files removed from the working tree only, and after every step verifies
// the working tree, the index and HEAD, prose references included, three
// ways: without the verification cache (and without git's cached answers),
// with the caches the previous steps left, and again with the caches that
// run wrote. All three must give exactly the same results.
func TestProseCacheDifferential(t *testing.T) {
	seeds := []int64{1, 2, 3, 4}[:longtest.Seeds(4, 2)]
	steps := 40
	if testing.Short() {
		seeds, steps = seeds[:1], 20
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			t.Parallel()
			proseDifferential(t, seed, steps)
		})
	}
}

const proseFiles = 3

func proseDifferential(t *testing.T, seed int64, steps int) {
	rng := rand.New(rand.NewSource(seed))
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	try := func(args ...string) { _, _ = gitfixture.Git(dir, 0, args...) }
	write := func(p, content string) { t.Helper(); gitfixture.Write(t, dir, p, content) }
	git("init", "-q", "-b", "main")
	for i := 0; i < proseFiles; i++ {
		write(fmt.Sprintf("src/f%d.go", i), randomCode(rng))
	}
	for i := 0; i < 3; i++ {
		write(fmt.Sprintf(".serena/memories/m%d.md", i), randomProse(rng))
	}
	git("add", "-A")
	git("commit", "-q", "-m", "init")
	gitDir := filepath.Join(dir, ".git")
	cacheDir := filepath.Join(gitDir, "memcite")
	tmpDir := filepath.Join(gitDir, "memcite-tmp")
	stale, hits := 0, 0
	for step := 0; step < steps; step++ {
		f := fmt.Sprintf("src/f%d.go", rng.Intn(proseFiles+1)) // f5 is untracked at first
		full := filepath.Join(dir, filepath.FromSlash(f))
		m := fmt.Sprintf(".serena/memories/m%d.md", rng.Intn(3))
		what := ""
		switch rng.Intn(13) {
		case 0:
			what = "edit " + f
			write(f, randomCode(rng))
		case 1:
			what = "commit -a"
			git("add", "-A")
			git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("step ", step))
		case 2:
			to := fmt.Sprintf("lib/g%d.go", step)
			what = "rename and commit " + f + " to " + to
			if _, err := os.Stat(full); err == nil {
				git("add", "-A")
				if err := os.MkdirAll(filepath.Join(dir, "lib"), 0o755); err != nil {
					t.Fatal(err)
				}
				git("mv", f, to)
				git("commit", "-q", "-m", fmt.Sprint("step ", step))
			}
		case 3:
			what = "delete and commit " + f
			if strings.Contains(git("ls-files", f), f) {
				git("rm", "-q", "-f", f)
				git("commit", "-q", "-m", fmt.Sprint("step ", step))
			}
		case 4:
			what = "edit memory " + m
			write(m, randomProse(rng))
		case 5:
			what = "rename and commit " + m
			if strings.Contains(git("ls-files", m), m) {
				git("mv", m, fmt.Sprintf(".serena/memories/moved%d.md", step))
				git("commit", "-q", "-m", fmt.Sprint("step ", step))
			}
		case 6:
			what = "remove from the working tree only " + f
			os.Remove(full)
		case 7:
			what = "checkout HEAD~ -- " + f
			try("checkout", "-q", "HEAD~", "--", f)
		case 8:
			what = "git add " + f
			if _, err := os.Stat(full); err == nil {
				git("add", f)
			}
		case 9:
			what = "new file of a tracked name " + f
			write("other/"+filepath.Base(f), randomCode(rng))
		case 10:
			what = "commit memories"
			git("add", "-A", ".serena")
			git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("step ", step))
		case 11:
			what = "checkout the working tree"
			try("checkout", "-q", "--", ".")
		case 12:
			what = "a branch from HEAD~2, and a commit on it"
			git("add", "-A")
			git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("step ", step))
			try("checkout", "-q", "-f", "-B", fmt.Sprint("b", step), "HEAD~2")
			write(m, randomProse(rng))
			git("add", "-A")
			git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("step ", step))
		}
		for _, which := range []string{"worktree", "index", "HEAD"} {
			// uncached: without the verification cache and git's answers
			// (kept aside for the cached runs)
			answers := filepath.Join(gitDir, proseCacheFile)
			_ = os.Rename(answers, answers+".aside")
			plain := proseRender(t, dir, which, nil)
			os.Remove(answers)
			_ = os.Rename(answers+".aside", answers)
			stale += strings.Count(plain, "stale path-") + strings.Count(plain, "stale memory-") + strings.Count(plain, "stale symbol-")
			cold := vcache.Open(cacheDir, "test")
			got := proseRender(t, dir, which, cold)
			if err := cold.Save(tmpDir); err != nil {
				t.Fatal(err)
			}
			warm := vcache.Open(cacheDir, "test")
			again := proseRender(t, dir, which, warm)
			hits += warm.Hits()
			if got != plain || again != plain {
				t.Fatalf("step %d (%s), %s:\nuncached:\n%s\ncached:\n%s\ncached again:\n%s", step, what, which, plain, got, again)
			}
		}
	}
	if stale == 0 {
		t.Errorf("no prose reference went stale: the cache of stale verdicts is untested")
	}
	if hits == 0 {
		t.Errorf("the cache was never used")
	}
}

// proseRender verifies every memory of one view of dir (Verify: prose and
// line identity) and renders everything the results hold.
func proseRender(t *testing.T, dir, which string, c *vcache.Cache) string {
	t.Helper()
	ctx := context.Background()
	o := OpenOptions{RepoRoot: dir, Memories: LoadMemories}
	if c != nil {
		o.Session = NewSession(vcache.NewSlot(c))
	}
	switch which {
	case "index":
		o.Staged = true
	case "HEAD":
		o.Rev = "HEAD"
	}
	ws, err := Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Repo.Close()
	rep, err := Verify(ctx, ws, ws.Store.Memories)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, m := range rep.Memories {
		fmt.Fprintf(&b, "%s err=%v valid=%d/%d\n", m.Memory.Path, m.Err(), m.ValidCount, m.Total)
		for _, cr := range m.Citations {
			fmt.Fprintf(&b, "  %s %s %s %q now=%v in=%q", cr.Citation.Location(), cr.Status, cr.Kind, cr.Reason, cr.Now, cr.ChangedIn)
			if cr.Prose != nil {
				fmt.Fprintf(&b, " prose=%+v", *cr.Prose)
			}
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "summary %+v %+v\n", rep.Summary(), rep.ProseSummary())
	return b.String()
}

func randomCode(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString("package src\n")
	for i, n := 0, rng.Intn(6); i < n; i++ {
		fmt.Fprintf(&b, "var name_%c%c = %d\n", 'a'+rng.Intn(3), 'a'+rng.Intn(3), rng.Intn(3))
	}
	return b.String()
}

func randomProse(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString("# Notes\n")
	for i, n := 0, 2+rng.Intn(6); i < n; i++ {
		k := rng.Intn(proseFiles + 1)
		switch rng.Intn(7) {
		case 0:
			fmt.Fprintf(&b, "The code is in `src/f%d.go`.\n", k)
		case 1:
			fmt.Fprintf(&b, "See src/f%d.go:%d for the value.\n", k, 1+rng.Intn(4))
		case 2:
			fmt.Fprintf(&b, "The file f%d.go holds it.\n", k)
		case 3:
			fmt.Fprintf(&b, "Related: [m](m%d.md) and [[moved%d]].\n", rng.Intn(3), rng.Intn(20))
		case 4:
			fmt.Fprintf(&b, "It calls `name_%c%c` first.\n", 'a'+rng.Intn(3), 'a'+rng.Intn(3))
		case 5:
			fmt.Fprintf(&b, "Lines 2-3 of `src/f%d.go` set it.\n", k)
		default:
			b.WriteString("Plain words only.\n")
		}
	}
	return b.String()
}

// TestProseCacheAsksAgain: what a memory's judgment asked the working tree
// beyond its list of files — the text of a file for a line not committed
// yet, whether an ignored file exists — is asked again when the judgment
// comes from the cache.
func TestProseCacheAsksAgain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	write := func(p, content string) { t.Helper(); gitfixture.Write(t, dir, p, content) }
	git("init", "-q", "-b", "main")
	write(".gitignore", "build/\n")
	write("src/a.go", "package a\nvar one = 1\nvar two = 2\n")
	write("src/b.go", "package b\n")
	write(".serena/memories/m.md", "# m\nThe build is `src/b.go`.\n")
	git("add", "-A")
	git("commit", "-q", "-m", "init")
	// src/b.go moves into the ignored folder, where the working tree
	// still has it
	if err := os.MkdirAll(filepath.Join(dir, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	git("mv", "src/b.go", "build/b.go")
	git("commit", "-q", "-m", "move b")
	// a line not committed cites src/a.go:2
	write(".serena/memories/m.md", "# m\nThe build is `src/b.go`.\nOne is set at src/a.go:2.\n")
	cacheDir := filepath.Join(dir, ".git", "memcite")
	tmpDir := filepath.Join(dir, ".git", "memcite-tmp")
	for i, change := range []func(){
		func() {},
		func() { write("src/a.go", "package a\nvar uno = 1\nvar two = 2\n") },
		func() { os.Remove(filepath.Join(dir, "build", "b.go")) },
	} {
		change()
		plain := proseRender(t, dir, "worktree", nil)
		c := vcache.Open(cacheDir, "test")
		got := proseRender(t, dir, "worktree", c)
		if err := c.Save(tmpDir); err != nil {
			t.Fatal(err)
		}
		if i > 0 && c.Hits() == 0 {
			t.Errorf("change %d: the cache was not used", i)
		}
		if got != plain {
			t.Fatalf("change %d:\nuncached:\n%s\ncached:\n%s", i, plain, got)
		}
	}
}

// TestProseCacheNewHead: at a new HEAD, the commit that last changed a
// line with a gone symbol is looked for among the new commits only; one
// that mentions it again (in a document: git log -G reads every file) is
// the answer, an empty one keeps the answer before.
func TestProseCacheNewHead(t *testing.T) {
	t.Parallel()
	dir, git, write := goneNameRepo(t, "var kept_name = 2\n", "It sets `gone_name` and `kept_name`.")
	for i, step := range []func(){
		func() {},
		func() {
			write("docs/x.md", "gone_name was here\n")
			git("add", "-A")
			git("commit", "-q", "-m", "three: a document names it")
		},
		func() { git("commit", "-q", "--allow-empty", "-m", "four") },
		func() {
			write("src/b.go", "package a\n")
			git("add", "-A")
			git("commit", "-q", "-m", "five")
		},
		// back to HEADs before: answers of another HEAD must not leak
		func() { git("reset", "-q", "--hard", "HEAD~3") },
		func() { git("reset", "-q", "--hard", "HEAD@{1}") },
	} {
		step()
		plain, got := uncachedAndCached(t, dir)
		if !strings.Contains(plain, "symbol-gone") {
			t.Fatalf("step %d: no gone symbol:\n%s", i, plain)
		}
		if got != plain {
			t.Fatalf("step %d:\nuncached:\n%s\ncached:\n%s", i, plain, got)
		}
	}
}

// uncachedAndCached renders the working tree of dir's repository
// (proseRender) without git's cached answers (set aside, then put back)
// and without the verification cache, then with both, and saves the
// verification cache that run wrote.
func uncachedAndCached(t *testing.T, dir string) (plain, cached string) {
	t.Helper()
	answers := filepath.Join(dir, ".git", proseCacheFile)
	_ = os.Rename(answers, answers+".aside")
	plain = proseRender(t, dir, "worktree", nil)
	os.Remove(answers)
	_ = os.Rename(answers+".aside", answers)
	c := vcache.Open(filepath.Join(dir, ".git", "memcite"), "test")
	cached = proseRender(t, dir, "worktree", c)
	if err := c.Save(filepath.Join(dir, ".git", "memcite-tmp")); err != nil {
		t.Fatal(err)
	}
	return plain, cached
}

// goneNameRepo makes a repository whose src/a.go defines gone_name and
// the code kept, with a memory saying sentence (in its first commit),
// then a second commit that takes gone_name out; it returns its
// directory and what runs git and writes a file there.
func goneNameRepo(t *testing.T, kept, sentence string) (dir string, git func(args ...string) string, write func(p, content string)) {
	t.Helper()
	dir = t.TempDir()
	git = gitfixture.Runner(t, dir)
	write = func(p, content string) { t.Helper(); gitfixture.Write(t, dir, p, content) }
	git("init", "-q", "-b", "main")
	write("src/a.go", "package a\nvar gone_name = 1\n"+kept)
	write(".serena/memories/m.md", "# m\n"+sentence+"\n")
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	write("src/a.go", "package a\n"+kept)
	git("commit", "-q", "-am", "two: gone_name removed")
	return dir, git, write
}

// TestProseGoneSymbolsOfOneRange: the gone symbols a memory wrote in one
// commit are looked up with one git log for all (gitrepo's
// WordsChangedIn); each still gets the newest commit that changed a line
// with it in its own files, and the likely new name that commit defined.
func TestProseGoneSymbolsOfOneRange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	write := func(p, content string) { t.Helper(); gitfixture.Write(t, dir, p, content) }
	rev := func() string { t.Helper(); return strings.TrimSpace(git("rev-parse", "--short", "HEAD")) }
	git("init", "-q", "-b", "main")
	write("src/a.py", "def load_orders():\n    pass\n\ndef first_gone():\n    pass\n")
	write("src/b.py", "def second_gone():\n    pass\n\ndef third_gone():\n    pass\n")
	write(".serena/memories/m.md", "# m\nIt calls `load_orders`, `first_gone`, `second_gone` and `third_gone`.\n")
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	write("src/a.py", "def load_orders():\n    pass\n\ndef first_gone(x):\n    pass\n")
	write("src/b.py", "def third_gone():\n    pass\n")
	git("commit", "-q", "-am", "second_gone goes, first_gone changes")
	second := rev()
	write("src/a.py", "def load_all_orders():\n    pass\n\ndef first_gone(x):\n    pass\n")
	git("commit", "-q", "-am", "load_orders renamed")
	renamed := rev()
	write("src/a.py", "def load_all_orders():\n    pass\n")
	write("src/b.py", "def other():\n    pass\n")
	git("commit", "-q", "-am", "first_gone and third_gone go")
	both := rev()
	got := proseRender(t, dir, "worktree", nil)
	for _, want := range []string{
		"Symbol load_orders is gone from the code in " + renamed + " (likely renamed to load_all_orders, src/a.py:1)",
		"Symbol first_gone is gone from the code in " + both,
		"Symbol second_gone is gone from the code in " + second,
		"Symbol third_gone is gone from the code in " + both,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
}

// TestProseCacheLogsApart: the logs in git's cached answers are decoded
// only when asked for. A run at the same HEAD that asks for none (the
// files of a commit are not one) writes them back as it read them; one
// that asks gets the logs the run before kept, without asking git (no git
// to ask here).
func TestProseCacheLogsApart(t *testing.T) {
	t.Parallel()
	dir, _, _ := goneNameRepo(t, "", "It sets `gone_name` in `src/a.go`.")
	c := vcache.Open(filepath.Join(dir, ".git", "memcite"), "test")
	if out := proseRender(t, dir, "worktree", c); !strings.Contains(out, "symbol-gone") {
		t.Fatalf("no gone symbol:\n%s", out)
	}
	path := filepath.Join(dir, ".git", proseCacheFile)
	read := func() proseFile {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := decodeProseFile(data)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f := read()
	var logs proseLogs
	if err := gob.NewDecoder(bytes.NewReader(f.Logs)).Decode(&logs); err != nil {
		t.Fatal(err)
	}
	if len(logs.PathLogs) == 0 || logs.Moves == nil || len(f.Changes) == 0 {
		t.Fatalf("the run kept no logs or no changes: %d path logs, moves %v, %d changes", len(logs.PathLogs), logs.Moves != nil, len(f.Changes))
	}
	head := gitblame.HashOrZero(f.Head)

	// words and the files of commits only: the logs stay encoded, and are
	// written back unchanged
	cg := newCachingGit(filepath.Join(dir, ".git"), head, nil)
	if len(f.Commits) == 0 {
		t.Fatal("the run kept the files of no commit")
	}
	for k := range f.Commits {
		if _, err := cg.CommitChanges(context.Background(), gitblame.HashOrZero(k)); err != nil {
			t.Fatal(err)
		}
	}
	if cg.logsRead || cg.a.PathLogs != nil || len(cg.rawLogs) == 0 {
		t.Fatalf("the logs were decoded (read %v, %d path logs, %d bytes left)", cg.logsRead, len(cg.a.PathLogs), len(cg.rawLogs))
	}
	cg.mu.Lock()
	cg.a.Greps["x"], cg.dirty = []string{"y"}, true
	cg.mu.Unlock()
	cg.save()
	if g := read(); !bytes.Equal(g.Logs, f.Logs) || len(g.Greps["x"]) != 1 {
		t.Fatalf("the logs were not written back as read (%d bytes against %d), or the new answer is missing (%v)", len(g.Logs), len(f.Logs), g.Greps["x"])
	}

	// logs asked for: the ones kept, not git's (next is nil)
	cg = newCachingGit(filepath.Join(dir, ".git"), head, nil)
	for key, want := range logs.PathLogs {
		got, err := cg.PathLog(context.Background(), head, strings.Split(key, "\x00"))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(toCached(got), want) {
			t.Errorf("PathLog %q: %+v, want %+v", key, toCached(got), want)
		}
	}
	order, moves, err := cg.Moves(context.Background(), head)
	if err != nil {
		t.Fatal(err)
	}
	if len(order) != len(logs.Order) || !reflect.DeepEqual(toCached(moves), *logs.Moves) {
		t.Errorf("Moves: %d commits and %+v, want %d and %+v", len(order), toCached(moves), len(logs.Order), *logs.Moves)
	}
	if !cg.logsRead {
		t.Error("the logs were answered without being read")
	}
}

// TestProseFileRoundTrip: what encodeProseFile writes decodes to the same
// answers, the commits' files and the logs as slices of the bytes read.
func TestProseFileRoundTrip(t *testing.T) {
	for _, f := range []proseFile{
		{Version: proseCacheVersion, Head: "h", Commits: map[string][]byte{}, Logs: []byte{}},
		{
			Version: proseCacheVersion, Head: "abc",
			Greps:   map[string][]string{"c\x00n": {"n"}},
			Changes: map[string]string{"k": "v"},
			Commits: map[string][]byte{"c1": []byte("one"), "c2": {}, "c3": []byte("three")},
			Logs:    []byte("logs"),
		},
	} {
		data, err := encodeProseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := decodeProseFile(data)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Greps) == 0 {
			f.Greps, f.Changes = nil, nil // gob writes no empty map
		}
		if !reflect.DeepEqual(f, g) {
			t.Errorf("round trip: %+v, want %+v", g, f)
		}
		// appending to a part does not write over the next
		if c1 := g.Commits["c1"]; c1 != nil {
			_ = append(c1, 'x')
			if string(g.Commits["c2"]) != "" || string(g.Commits["c3"]) != "three" {
				t.Errorf("a part's capacity reaches the next: %q %q", g.Commits["c2"], g.Commits["c3"])
			}
		}
	}
	for _, bad := range []string{"", "git-memcite prose answers\n", "git-memcite prose answers\n\xff", "git-memcite prose answers\n\x05ab", "gob"} {
		if _, err := decodeProseFile([]byte(bad)); err == nil {
			t.Errorf("decodeProseFile(%q): no error", bad)
		}
	}
}

// FuzzDecodeProseFile: any bytes give the answers or an error, never a
// panic, and what decodes encodes to a file that decodes the same.
func FuzzDecodeProseFile(f *testing.F) {
	seed, err := encodeProseFile(proseFile{Version: proseCacheVersion, Head: "abc", Changes: map[string]string{"k": "v"},
		Commits: map[string][]byte{"c1": []byte("one")}, Logs: []byte("logs")})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(proseMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := decodeProseFile(data)
		if err != nil {
			return
		}
		again, err := encodeProseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		q, err := decodeProseFile(again)
		if err != nil {
			t.Fatalf("a decoded file does not decode again: %v", err)
		}
		if len(p.Commits) != len(q.Commits) || !bytes.Equal(p.Logs, q.Logs) || p.Head != q.Head || p.Version != q.Version {
			t.Fatalf("decoded %+v, then %+v", p, q)
		}
		for k, v := range p.Commits {
			if !bytes.Equal(v, q.Commits[k]) {
				t.Fatalf("commit %q: %q, then %q", k, v, q.Commits[k])
			}
		}
	})
}

// TestProseCacheNewHeadAtOnce: at a new HEAD, the gone symbols of
// memories written in different commits are looked up side by side, each
// against the answers of the HEAD before; those answers are read while
// the new ones are written (under -race, one map for both was a data
// race, and a crash of the run: "concurrent map read and map write").
// Then HEADs off the chain of the one before (amended, reset): the
// cached run gives what the uncached one does.
func TestProseCacheNewHeadAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	write := func(p, content string) { t.Helper(); gitfixture.Write(t, dir, p, content) }
	git("init", "-q", "-b", "main")
	var code strings.Builder
	code.WriteString("package a\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&code, "var gone_%d = %d\n", i, i)
	}
	write("src/a.go", code.String())
	git("add", "-A")
	git("commit", "-q", "-m", "code")
	// each memory written in a commit of its own: a range each
	for m := 0; m < 4; m++ {
		write(fmt.Sprintf(".serena/memories/m%d.md", m), fmt.Sprintf("# m\nIt sets `gone_%d` and `gone_%d`.\n", 2*m, 2*m+1))
		git("add", "-A")
		git("commit", "-q", "-m", fmt.Sprint("memory ", m))
	}
	write("src/a.go", "package a\n")
	git("commit", "-q", "-am", "the names removed")
	for i, step := range []func(){
		func() {},
		func() { git("commit", "-q", "--allow-empty", "-m", "a new HEAD") },
		func() { git("commit", "-q", "--allow-empty", "-m", "another") },
		// the HEAD before off the new one's chain: the logs kept are cut
		// where the chains meet (forkPoint)
		func() { git("commit", "-q", "--amend", "--allow-empty", "-m", "amended") },
		func() {
			write("src/b.go", "package a\nvar gone_1 = 1\n")
			git("add", "-A")
			git("commit", "-q", "--amend", "-m", "amended again: a name back")
		},
		func() { git("reset", "-q", "--hard", "HEAD~2") },
	} {
		step()
		plain, got := uncachedAndCached(t, dir)
		if n := strings.Count(plain, "symbol-gone"); n < 7 {
			t.Fatalf("step %d: %d gone symbols, want 7 or more:\n%s", i, n, plain)
		}
		if got != plain {
			t.Fatalf("step %d:\nuncached:\n%s\ncached:\n%s", i, plain, got)
		}
	}
}

// sinceSpy is the repository's history, noting from which commit the
// logs are asked for (zero: the whole chain).
type sinceSpy struct {
	*lazyHistory
	mu   sync.Mutex
	olds []gitblame.Hash
}

func (s *sinceSpy) note(old gitblame.Hash) {
	s.mu.Lock()
	s.olds = append(s.olds, old)
	s.mu.Unlock()
}

func (s *sinceSpy) PathLogSince(ctx context.Context, old, head gitblame.Hash, dirs []string) ([]prose.LogCommit, error) {
	s.note(old)
	return s.lazyHistory.PathLogSince(ctx, old, head, dirs)
}

func (s *sinceSpy) MovesSince(ctx context.Context, old, head gitblame.Hash) ([]gitblame.Hash, []prose.LogCommit, error) {
	s.note(old)
	return s.lazyHistory.MovesSince(ctx, old, head)
}

// TestProseCacheFromFork: after a commit amended, the logs are asked of
// git from the commit the two HEADs share only (forkPoint), and what the
// cache answers with the logs kept is what git answers for the whole
// chain.
func TestProseCacheFromFork(t *testing.T) {
	t.Parallel()
	dir, git, write := goneNameRepo(t, "", "It sets `gone_name` in `src/a.go`.")
	write(".serena/memories/n.md", "# n\nSee `src/a.go`.\n")
	git("add", "-A")
	git("commit", "-q", "-m", "three")
	proseRender(t, dir, "worktree", vcache.Open(filepath.Join(dir, ".git", "memcite"), "test"))
	git("commit", "-q", "--amend", "-m", "three, amended")
	repo, err := gitrepo.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	head := gitblame.HashOrZero(strings.TrimSpace(git("rev-parse", "HEAD")))
	parent := gitblame.HashOrZero(strings.TrimSpace(git("rev-parse", "HEAD~1")))
	whole := &lazyHistory{repo: repo}
	defer whole.close()
	spy := &sinceSpy{lazyHistory: &lazyHistory{repo: repo}}
	defer spy.close()
	cg := newCachingGit(filepath.Join(dir, ".git"), head, spy)
	ctx := context.Background()

	order, moves, err := cg.Moves(ctx, head)
	if err != nil {
		t.Fatal(err)
	}
	wantOrder, wantMoves, err := whole.Moves(ctx, head)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(order, wantOrder) || !reflect.DeepEqual(toCached(moves), toCached(wantMoves)) {
		t.Errorf("Moves from the cache:\n%v %+v\nfrom git:\n%v %+v", order, toCached(moves), wantOrder, toCached(wantMoves))
	}
	dirs := []string{".serena/memories"}
	log, err := cg.PathLog(ctx, head, dirs)
	if err != nil {
		t.Fatal(err)
	}
	wantLog, err := whole.PathLog(ctx, head, dirs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(toCached(log), toCached(wantLog)) {
		t.Errorf("PathLog from the cache:\n%+v\nfrom git:\n%+v", toCached(log), toCached(wantLog))
	}
	if len(spy.olds) != 2 || spy.olds[0] != parent || spy.olds[1] != parent {
		t.Errorf("the logs were asked of git from %v, want twice from the parent %v", spy.olds, parent)
	}
}
