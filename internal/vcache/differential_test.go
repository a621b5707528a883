package vcache_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// TestDifferential runs random sequences of edits, commits, checkouts,
// index changes and memory edits on a real repository and, after every
// step, checks the working tree, the index and HEAD three ways: without a
// cache, with the cache as the previous steps left it, and again with the
// cache that run wrote. All three must give exactly the same results,
// line identity (relocate.JudgeReport) included.
func TestDifferential(t *testing.T) {
	seeds := []int64{1, 2, 3, 4}[:longtest.Seeds(4, 2)]
	steps := 30
	if testing.Short() {
		seeds, steps = seeds[:1], 15
	}
	var identity atomic.Int64 // line-identity verdicts met, over every seed
	t.Run("seeds", func(t *testing.T) {
		for _, seed := range seeds {
			t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
				t.Parallel()
				identity.Add(int64(differential(t, seed, steps)))
			})
		}
	})
	if identity.Load() == 0 && !testing.Short() {
		t.Errorf("no citation was judged moved, edited, deleted or ambiguous: line identity untested")
	}
}

const nFiles = 5

// differential runs one seed; it returns how many line-identity verdicts
// (moved, edited, deleted, ambiguous) it met.
func differential(t *testing.T, seed int64, steps int) int {
	rng := rand.New(rand.NewSource(seed))
	// exempt memories and URL citations, drawn apart from rng so that
	// its sequence of steps stays the seed's
	extra := rand.New(rand.NewSource(seed + 1000))
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := gitfixture.Git(dir, 0, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	write := func(p, content string) { t.Helper(); gitfixture.Write(t, dir, p, content) }
	git("init", "-q", "-b", "main")
	git("config", "core.autocrlf", "false")
	// a reversible clean/smudge filter (rot13), for the attributes steps
	git("config", "filter.rot.clean", "tr a-zA-Z n-za-mN-ZA-M")
	git("config", "filter.rot.smudge", "tr a-zA-Z n-za-mN-ZA-M")
	globalAttrs := filepath.Join(t.TempDir(), "attributes")
	if seed%2 == 0 {
		// (without it, a repository's attributes are its own files')
		git("config", "core.attributesFile", globalAttrs)
	}
	for i := 0; i < nFiles; i++ {
		write(fmt.Sprintf("src/f%d.txt", i), randomFile(rng))
	}
	for i := 0; i < 3; i++ {
		write(fmt.Sprintf(".serena/memories/m%d.md", i), randomMemory(rng, extra))
	}
	git("add", "-A")
	git("commit", "-q", "-m", "init")
	git("branch", "side")
	cacheDir := filepath.Join(dir, ".git", "memcite")
	tmpDir := filepath.Join(dir, ".git", "memcite-tmp")

	hits := map[string]int{}
	identity := 0 // verdicts of line identity met (moved, edited, deleted, ambiguous)
	for step := 0; step < steps; step++ {
		what := ""
		f := fmt.Sprintf("src/f%d.txt", rng.Intn(nFiles+1)) // f5 is untracked at first
		full := filepath.Join(dir, filepath.FromSlash(f))
		switch rng.Intn(15) {
		case 0:
			what = "edit " + f
			write(f, randomFile(rng))
		case 1:
			// same size, same mtime: only ctime (and content) change
			what = "same-size edit keeping mtime " + f
			if b, err := os.ReadFile(full); err == nil && len(b) > 0 {
				fi, _ := os.Stat(full)
				b[rng.Intn(len(b))] = byte('a' + rng.Intn(26))
				write(f, string(b))
				if err := os.Chtimes(full, fi.ModTime(), fi.ModTime()); err != nil {
					t.Fatal(err)
				}
			}
		case 2:
			what = "git add " + f
			if _, err := os.Stat(full); err == nil {
				git("add", f)
			}
		case 3:
			what = "commit -a"
			git("add", "-A")
			git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("step ", step))
		case 4:
			what = "checkout other branch"
			// assume-unchanged entries would block the switch
			for _, p := range strings.Split(git("ls-files"), "\n") {
				if p != "" {
					git("update-index", "--no-assume-unchanged", p)
				}
			}
			git("add", "-A")
			git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("step ", step))
			cur := git("rev-parse", "--abbrev-ref", "HEAD")
			next := "side"
			if cur == "side" {
				next = "main"
			}
			git("checkout", "-q", "-f", next)
		case 5:
			what = "git rm --cached " + f
			if strings.Contains(git("ls-files", f), f) {
				git("rm", "-q", "--cached", f)
			}
		case 6:
			what = "assume-unchanged, then edit " + f
			if strings.Contains(git("ls-files", f), f) {
				git("update-index", "--assume-unchanged", f)
				write(f, randomFile(rng))
			}
		case 7:
			what = "touch " + f
			now := time.Now().Add(time.Duration(rng.Intn(5)-2) * time.Second)
			_ = os.Chtimes(full, now, now)
		case 8:
			m := fmt.Sprintf(".serena/memories/m%d.md", rng.Intn(3))
			what = "edit memory " + m
			write(m, randomMemory(rng, extra))
		case 9:
			what = "checkout HEAD~ -- " + f
			_, _ = gitfixture.Git(dir, 0, "checkout", "-q", "HEAD~", "--", f)
		case 10:
			what = "refresh the index"
			_, _ = gitfixture.Git(dir, 0, "update-index", "-q", "--really-refresh")
		case 11, 12, 13:
			// attributes from one of git's sources (an untracked
			// .gitattributes at the top or below, info/attributes, the
			// global file), then the file checked out again through them
			// (or, half the time, left as it is)
			where := []string{".gitattributes", "src/.gitattributes", ".git/info/attributes", globalAttrs}[rng.Intn(4)]
			attrs := randomAttributes(rng)
			what = fmt.Sprintf("attributes %q in %s", attrs, where)
			if !filepath.IsAbs(where) {
				where = filepath.Join(dir, filepath.FromSlash(where))
			}
			if err := os.MkdirAll(filepath.Dir(where), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(where, []byte(attrs), 0o644); err != nil {
				t.Fatal(err)
			}
			if rng.Intn(2) == 0 && strings.Contains(git("ls-files", f), f) {
				what += ", checkout " + f
				os.Remove(full)
				_, _ = gitfixture.Git(dir, 0, "checkout", "-q", "--", f)
			}
		case 14:
			m := fmt.Sprintf(".serena/memories/m%d.md", rng.Intn(3))
			what = "rename and commit " + m
			if strings.Contains(git("ls-files", m), m) {
				git("mv", m, fmt.Sprintf(".serena/memories/moved%d.md", step))
				git("commit", "-q", "-m", fmt.Sprint("step ", step))
			}
		}
		for _, which := range []string{"worktree", "index", "HEAD"} {
			plain := check(t, dir, which, nil)
			for _, k := range []string{" moved ", " edited ", " deleted ", " ambiguous "} {
				identity += strings.Count(plain, k)
			}
			cold := vcache.Open(cacheDir, "test")
			got := check(t, dir, which, cold)
			if err := cold.Save(tmpDir); err != nil {
				t.Fatal(err)
			}
			warm := vcache.Open(cacheDir, "test")
			again := check(t, dir, which, warm)
			hits[which] += warm.Hits()
			if got != plain || again != plain {
				t.Fatalf("step %d (%s), %s:\nuncached:\n%s\ncached:\n%s\ncached again:\n%s", step, what, which, plain, got, again)
			}
		}
	}
	t.Logf("line identity verdicts met: %d", identity)
	for _, which := range []string{"worktree", "index", "HEAD"} {
		if hits[which] == 0 && (which != "worktree" || runtime.GOOS == "linux") {
			t.Errorf("%s: the cache was never used", which)
		}
	}
	return identity
}

// check verifies every memory against one source and renders everything
// the results hold.
func check(t *testing.T, dir, which string, c *vcache.Cache) string {
	t.Helper()
	ctx := context.Background()
	repo, err := gitrepo.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	var src source.Source
	switch which {
	case "worktree":
		src, err = repo.Worktree()
	case "index":
		src, err = repo.Index(ctx)
	case "HEAD":
		head, _, herr := repo.Head()
		if herr != nil {
			t.Fatal(herr)
		}
		src, err = repo.Commit(ctx, head)
	}
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Load(ctx, src, []string{store.DefaultDir}, c)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := verify.Check(ctx, src, st.Memories, verify.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if head, born, err := repo.Head(); err == nil && born {
		hist, err := repo.History()
		if err != nil {
			t.Fatal(err)
		}
		h, _ := gitblame.ParseHash(head.String())
		view := map[string]relocate.View{"worktree": relocate.ViewWorktree, "index": relocate.ViewIndex, "HEAD": relocate.ViewCommit}[which]
		if err := relocate.JudgeReport(ctx, hist, h, src, view, c, rep); err != nil {
			t.Fatal(err)
		}
		hist.Close()
	}
	var b strings.Builder
	for _, m := range rep.Memories {
		fmt.Fprintf(&b, "%s id=%s err=%v valid=%d/%d conf=%v exempt=%v\n", m.Memory.Path, m.Memory.ID, m.Err(), m.ValidCount, m.Total, m.Confidence, m.Exempt)
		if m.Memory.File != nil {
			fmt.Fprintf(&b, "  file %+v\n", *m.Memory.File)
		}
		for _, cr := range m.Citations {
			fmt.Fprintf(&b, "  %s %s %s untracked=%v %q now=%v in=%q unanchored=%v\n", cr.Citation.Location(), cr.Status, cr.Kind, cr.Untracked, cr.Reason, cr.Now, cr.ChangedIn, cr.Unanchored)
		}
	}
	fmt.Fprintf(&b, "summary %+v\n", rep.Summary())
	return b.String()
}

func randomFile(rng *rand.Rand) string {
	var b strings.Builder
	for i, n := 0, rng.Intn(6); i < n; i++ {
		switch rng.Intn(8) {
		case 0:
			b.WriteString("bad \xff utf8\n")
		case 1:
			b.WriteString("crlf line\r\n")
		case 2:
			b.WriteString("line $Id$\n")
		default:
			fmt.Fprintf(&b, "line %c%c\n", 'a'+rng.Intn(3), 'a'+rng.Intn(3))
		}
	}
	if rng.Intn(10) == 0 {
		b.WriteString("\x00binary")
	}
	return b.String()
}

// randomAttributes returns the text of an attributes file: nothing, or
// attributes that convert some files (ident, a filter, text, text=auto, eol, a
// macro) or none (binary, linguist-*, -text).
func randomAttributes(rng *rand.Rand) string {
	lines := []string{
		"src/f1.txt ident\n",
		"*.txt ident\n",
		"f2.txt filter=rot\n",
		"src/f3.txt text eol=crlf\n",
		"* text=auto eol=lf\n",
		"*.txt text=auto\n",
		"f4.txt linguist-generated\n",
		"* -text\n",
		"*.txt binary\n",
		"[attr]conv ident\nf0.txt conv\n",
		"",
	}
	var b strings.Builder
	for i, n := 0, rng.Intn(3); i < n; i++ {
		b.WriteString(lines[rng.Intn(len(lines))])
	}
	return b.String()
}

func randomMemory(rng, extra *rand.Rand) string {
	var b strings.Builder
	b.WriteString("---\n")
	if extra.Intn(8) == 0 {
		b.WriteString("exempt: true\n") // not verified: its citations are not looked up
	}
	b.WriteString("citations:\n")
	for i, n := 0, 1+rng.Intn(5); i < n; i++ {
		if extra.Intn(6) == 0 {
			b.WriteString("  - https://example.com/x\n") // a URL: not looked up
		}
		p := fmt.Sprintf("src/f%d.txt", rng.Intn(nFiles+1))
		switch rng.Intn(6) {
		case 0:
			fmt.Fprintf(&b, "  - %s\n", p)
		case 1:
			fmt.Fprintf(&b, "  - %s:%d\n", p, rng.Intn(7))
		case 2:
			fmt.Fprintf(&b, "  - path: %s\n    line: %d\n    line_end: %d\n", p, 1+rng.Intn(4), rng.Intn(6))
		case 3:
			fmt.Fprintf(&b, "  - path: %s\n    line: %d\n    snippet: \"line $Id$\"\n", p, 1+rng.Intn(5))
		default:
			fmt.Fprintf(&b, "  - path: %s\n    line: %d\n    snippet: \"line %c\"\n", p, 1+rng.Intn(5), 'a'+rng.Intn(3))
		}
	}
	if rng.Intn(5) == 0 {
		b.WriteString("  - bogus: [\n") // does not parse
	}
	b.WriteString("---\nbody\n")
	return b.String()
}
