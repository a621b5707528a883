package hookrun

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// TestIncrementalMatchesFull applies random sequences of edits, renames,
// deletions, symbolic links, memory edits, staging and commits to a real
// repository and checks, after each step, that the pre-commit check of
// only what the commit changes gives the verdict of the full check: the
// same blocking citations (with classes and reasons), the same broken
// memory files, the same decision for every policy, and, with a
// KnownStale that knows, the same count of older stale citations.
func TestIncrementalMatchesFull(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not found")
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_INDEX_FILE", "")
	os.Unsetenv("GIT_INDEX_FILE")
	t.Setenv("MEMCITE_CONFIG", "")
	os.Unsetenv("MEMCITE_CONFIG")
	seeds, steps := longtest.Seeds(6, 2), 40
	if testing.Short() {
		seeds, steps = 2, 20
	}
	if n, err := strconv.Atoi(os.Getenv("MEMCITE_INCREMENTAL_SEEDS")); err == nil {
		seeds = n // a longer run: MEMCITE_INCREMENTAL_SEEDS=100
	}
	var partial, total int
	for seed := 1; seed <= seeds; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			w := newWorld(t, int64(seed))
			for step := 1; step <= steps; step++ {
				did := w.step(step)
				total++
				if w.compare(t, fmt.Sprintf("step %d (%s)", step, did)) {
					partial++
				}
			}
		})
	}
	// the test means something only if most checks were partial
	if partial*2 < total {
		t.Errorf("only %d of %d checks were partial", partial, total)
	}
	if summaryHits*2 < total || driftHits*10 < total || postHits[0]*10 < total || postHits[1]*10 < total || postHits[2]*10 < total {
		t.Errorf("only %d of %d checks had a summary, %d of an older tree; post-merge %v", summaryHits, total, driftHits, postHits)
	}
	t.Logf("%d of %d checks partial, %d with a summary (%d of an older tree than HEAD's), %v post-merge checks with a summary (of HEAD~'s, HEAD's, HEAD~3's tree); %d found citations the change made stale", partial, total, summaryHits, driftHits, postHits, introduced)
}

// world is a repository the test edits at random.
type world struct {
	t     *testing.T
	dir   string
	rng   *rand.Rand
	links bool // the platform has symbolic links
	// sums are the summaries the checks made, by tree, and their trees
	// in the order they were made
	sums     map[string]*vcache.Summary
	sumOrder []string
	checks   int
}

var (
	words     = []string{"alpha", "beta", "gamma", "delta", "eps"}
	codePaths = []string{"src/f0.go", "src/f1.go", "src/f2.go", "src/f3.go", "src/d/x.go", "src/d/y.go", "lib/z.go"}
	memPaths  = []string{dir + "/m0.md", dir + "/m1.md", dir + "/m2.md", dir + "/m3.md", dir + "/t/m4.md", dir + "/m5.md"}
	// cited paths: the code, a symbolic link, a directory, missing and
	// escaping paths
	citable = append(slices.Clone(codePaths), "src/link.go", "src/link.go", "src/d", "alias/x.go", "alias/x.go", "alias/z.go", "gone.go", "./src/f1.go", "../out.go")
)

func newWorld(t *testing.T, seed int64) *world {
	w := &world{t: t, dir: t.TempDir(), rng: rand.New(rand.NewSource(seed)), links: runtime.GOOS != "windows", sums: map[string]*vcache.Summary{}}
	w.git(0, "init", "-q")
	for _, p := range codePaths[:5] {
		w.write(p, w.code())
	}
	for _, p := range memPaths[:4] {
		w.write(p, w.memory())
	}
	if w.links {
		w.link("src/link.go", "f0.go")
		w.link("alias", "src/d")
	}
	w.git(0, "add", "-A")
	w.git(0, "commit", "-q", "--no-verify", "-m", "init")
	return w
}

func (w *world) git(n int, args ...string) string {
	w.t.Helper()
	out, err := gitfixture.Git(w.dir, n, args...)
	if err != nil {
		w.t.Fatal(err)
	}
	return out
}

func (w *world) write(p, content string) {
	w.t.Helper()
	full := filepath.Join(w.dir, filepath.FromSlash(p))
	os.Remove(full) // a symbolic link is replaced, not written through
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) link(p, target string) {
	w.t.Helper()
	full := filepath.Join(w.dir, filepath.FromSlash(p))
	os.RemoveAll(full)
	os.MkdirAll(filepath.Dir(full), 0o755)
	if err := os.Symlink(target, full); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) rename(from, to string) {
	w.t.Helper()
	dst := filepath.Join(w.dir, filepath.FromSlash(to))
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if err := os.Rename(filepath.Join(w.dir, filepath.FromSlash(from)), dst); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) pick(xs []string) string { return xs[w.rng.Intn(len(xs))] }

// code is a file of a few lines from a small vocabulary, so that snippets
// match again after some edits.
func (w *world) code() string {
	var b strings.Builder
	for i := 0; i < 2+w.rng.Intn(5); i++ {
		fmt.Fprintf(&b, "%s %s\n", w.pick(words), w.pick(words))
	}
	return b.String()
}

// memory is a memory file whose citations mostly hold at the time it is
// written: lines that exist, words found on them.
func (w *world) memory() string {
	var b strings.Builder
	b.WriteString("---\ncitations:\n")
	for i := 0; i < 1+w.rng.Intn(3); i++ {
		p := w.pick(citable)
		fmt.Fprintf(&b, "  - path: %s\n", p)
		if w.rng.Intn(4) == 0 {
			continue
		}
		lines := strings.Split(w.read(p), "\n")
		line := 1 + w.rng.Intn(5)
		if len(lines) > 1 && w.rng.Intn(4) > 0 {
			line = 1 + w.rng.Intn(len(lines)-1)
		}
		fmt.Fprintf(&b, "    line: %d\n", line)
		switch r := w.rng.Intn(3); {
		case r == 0:
		case r == 1 && line < len(lines):
			fmt.Fprintf(&b, "    snippet: %s\n", w.pick(strings.Fields(lines[line-1]+" eps")))
		default:
			fmt.Fprintf(&b, "    snippet: %s\n", w.pick(words))
		}
	}
	b.WriteString("---\nA note.\n")
	return b.String()
}

// read returns the content at p in the working tree, or "".
func (w *world) read(p string) string {
	b, err := os.ReadFile(filepath.Join(w.dir, filepath.FromSlash(p)))
	if err != nil {
		return ""
	}
	return string(b)
}

// present lists the candidates of ps in the working tree.
func (w *world) present(ps []string) []string {
	var out []string
	for _, p := range ps {
		if _, err := os.Lstat(filepath.Join(w.dir, filepath.FromSlash(p))); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// step makes one random change and stages some or all of it; it returns
// what it did.
func (w *world) step(n int) string {
	var did []string
	for k := 0; k < 1+w.rng.Intn(3); k++ {
		switch r := w.rng.Intn(100); {
		case r < 30:
			p := w.pick(codePaths)
			w.write(p, w.code())
			did = append(did, "edit "+p)
		case r < 38:
			if ps := w.present(codePaths); len(ps) > 0 {
				from, to := w.pick(ps), w.pick(codePaths)
				if from != to && len(w.present([]string{to})) == 0 {
					w.rename(from, to)
					did = append(did, "rename "+from+" "+to)
				}
			}
		case r < 45:
			if ps := w.present(codePaths); len(ps) > 0 {
				p := w.pick(ps)
				os.Remove(filepath.Join(w.dir, filepath.FromSlash(p)))
				did = append(did, "delete "+p)
			}
		case r < 55:
			p := w.pick(memPaths)
			w.write(p, w.memory())
			did = append(did, "memory "+p)
		case r < 58:
			p := w.pick(memPaths)
			w.write(p, "---\ncitations: [\n---\n")
			did = append(did, "break "+p)
		case r < 62:
			if ps := w.present(memPaths); len(ps) > 0 {
				from, to := w.pick(ps), w.pick(memPaths)
				if from != to && len(w.present([]string{to})) == 0 {
					w.rename(from, to)
					did = append(did, "rename "+from+" "+to)
				}
			}
		case r < 65:
			if ps := w.present(memPaths); len(ps) > 0 {
				p := w.pick(ps)
				os.Remove(filepath.Join(w.dir, filepath.FromSlash(p)))
				did = append(did, "delete "+p)
			}
		case r < 74 && w.links:
			target := w.pick([]string{"f0.go", "f1.go", "d/x.go", "nowhere.go"})
			w.link("src/link.go", target)
			did = append(did, "link src/link.go "+target)
		case r < 80 && w.links:
			switch target := w.pick([]string{"src/d", "lib", ""}); target {
			case "":
				os.Remove(filepath.Join(w.dir, "alias"))
				did = append(did, "delete alias")
			default:
				w.link("alias", target)
				did = append(did, "link alias "+target)
			}
		case r < 82:
			w.write(".gitattributes", w.pick([]string{"*.go text\n", "*.md text\n"}))
			did = append(did, "attributes")
		case r < 87:
			w.git(n, "add", "-A")
			w.git(n, "commit", "-q", "--no-verify", "--allow-empty", "-m", "work")
			did = append(did, "commit")
		case r < 92:
			w.git(n, "commit", "-q", "--no-verify", "--allow-empty", "-m", "staged")
			did = append(did, "commit what is staged")
		case r < 94:
			w.git(n, "commit", "-q", "--no-verify", "--amend", "--no-edit", "--allow-empty")
			did = append(did, "amend")
		case r < 96:
			if w.git(n, "rev-list", "--count", "HEAD") != "1" {
				w.git(n, "reset", "-q", "--soft", "HEAD^")
				did = append(did, "reset --soft HEAD^")
			}
		default:
			w.git(n, "reset", "-q")
			did = append(did, "unstage all")
		}
	}
	switch r := w.rng.Intn(10); {
	case r < 5:
		w.git(n, "add", "-A")
		did = append(did, "add -A")
	case r < 8:
		p := w.pick(append(slices.Clone(codePaths), memPaths...))
		if len(w.present([]string{p})) > 0 {
			w.git(n, "add", "-A", "--", p)
		} else {
			w.git(n, "rm", "-q", "--cached", "--ignore-unmatch", "--", p)
		}
		did = append(did, "add "+p)
	}
	return strings.Join(did, ", ")
}

// knownByVerifying is a KnownStale that always knows: it verifies.
func knownByVerifying(ctx context.Context, src source.Source, mems []*store.Memory) []int {
	rep, err := verify.Check(ctx, src, mems, verify.Options{})
	if err != nil {
		return nil
	}
	counts := make([]int, len(mems))
	for i := range rep.Memories {
		for _, c := range rep.Memories[i].Citations {
			if c.Status == verify.Stale {
				counts[i]++
			}
		}
	}
	return counts
}

// compare runs the full and the partial check of what is staged and
// reports any difference; it returns whether the check was partial.
func (w *world) compare(t *testing.T, what string) bool {
	t.Helper()
	ctx := context.Background()
	repo, err := gitrepo.Discover(w.dir)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := repo.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{dir}
	tree, _ := gitrepo.IndexTree(idx)
	full, err := PreCommit(ctx, repo, idx, dirs, PreCommitOptions{Full: true, Tree: string(tree)})
	if err != nil {
		t.Fatalf("%s: full: %v", what, err)
	}
	// with the summary an earlier check left of HEAD's tree (a full
	// check's or a partial one's, in turns)
	var sum *vcache.Summary
	if head, born, err := repo.HeadTree(ctx); err != nil {
		t.Fatal(err)
	} else if born {
		// HEAD's, or else the newest of a tree the repository has (as the
		// hook looks for them)
		if sum = w.sums[string(head)]; sum == nil {
			for i := len(w.sumOrder) - 1; i >= 0 && sum == nil; i-- {
				if repo.HasTree(gitrepo.OID(w.sumOrder[i])) {
					sum = w.sums[w.sumOrder[i]]
					driftHits++
				}
			}
		}
	}
	// with or without a KnownStale, in turns: a check that makes a summary
	// learns the counts it lacks
	known := KnownStale(knownByVerifying)
	if w.checks%2 == 1 {
		known = nil
	}
	if w.checks%5 == 3 {
		sum = nil // as if none were kept (a new build of git-memcite)
	}
	summed, err := PreCommit(ctx, repo, idx, dirs, PreCommitOptions{KnownStale: known, Summary: sum, Tree: string(tree)})
	if err != nil {
		t.Fatalf("%s: partial with a summary: %v", what, err)
	}
	if sum != nil && summed.Partial {
		summaryHits++
	}
	w.checks++
	if tree != "" && w.checks%3 != 0 { // every third commit as if made with --no-verify
		next := summed.Summary
		if len(w.sums)%2 == 0 {
			next = full.Summary
		}
		if next == nil {
			t.Fatalf("%s: no summary of tree %s", what, tree)
		}
		w.sums[string(tree)] = next
		w.sumOrder = append(slices.DeleteFunc(w.sumOrder, func(s string) bool { return s == string(tree) }), string(tree))
	}
	w.comparePost(t, what, repo, dirs)
	part, err := PreCommit(ctx, repo, idx, dirs, PreCommitOptions{KnownStale: knownByVerifying})
	if err != nil {
		t.Fatalf("%s: partial: %v", what, err)
	}
	bare, err := PreCommit(ctx, repo, idx, dirs, PreCommitOptions{})
	if err != nil {
		t.Fatalf("%s: partial without KnownStale: %v", what, err)
	}
	fn := func(o *Outcome) int { n, _ := o.AlreadyStale(); return n }
	if n, k := summed.AlreadyStale(); (k || known != nil) && (!k || n != fn(full)) {
		t.Errorf("%s: already stale: with a summary %d (known %v), full %d", what, n, k, fn(full))
	}
	if s := summed.Summary; s != nil {
		for _, m := range s.Memories {
			if m.Stale < 0 && !m.Broken && !m.Exempt {
				t.Errorf("%s: the summary does not count %s", what, m.Path)
			}
		}
	}
	for _, o := range []*Outcome{part, bare, summed} {
		for _, p := range []PreCommitPolicy{Block, Warn} {
			if g, f := verdict(o, p), verdict(full, p); g != f {
				t.Errorf("%s: policy %s: partial (%v)\n%s\nfull\n%s", what, p, o.Partial, g, f)
			}
		}
	}
	if n, known := part.AlreadyStale(); !known || n != fn(full) {
		t.Errorf("%s: already stale: partial %d (known %v), full %d", what, n, known, fn(full))
	}
	if n, known := bare.AlreadyStale(); known && n != fn(full) || bare.Count(Preexisting) > fn(full) {
		t.Errorf("%s: already stale without KnownStale: %d (known %v, %d checked), full %d", what, n, known, bare.Count(Preexisting), fn(full))
	}
	if part.Partial && part.Memories > full.Memories {
		t.Errorf("%s: partial check verified %d memories, full %d", what, part.Memories, full.Memories)
	}
	if full.Count(Introduced) > 0 {
		introduced++
	}
	return part.Partial
}

// comparePost checks HEAD~..HEAD as post-merge does, in full and with the
// summary of HEAD~'s tree, of HEAD's own tree (pre-merge-commit leaves it)
// and of HEAD~3's (commits made without the check since) when the checks
// left one: the same citations made stale, broken files and count of
// older stale citations.
func (w *world) comparePost(t *testing.T, what string, repo *gitrepo.Repo, dirs []string) {
	t.Helper()
	ctx := context.Background()
	if _, err := repo.ResolveCommit(ctx, "HEAD~"); err != nil {
		return // one commit only
	}
	rng := Range{Old: "HEAD~", New: "HEAD"}
	var full *Outcome
	for i, rev := range []string{"HEAD~", "HEAD", "HEAD~3"} {
		c, err := repo.ResolveCommit(ctx, rev)
		if err != nil {
			continue
		}
		tree, err := repo.TreeOf(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		sum := w.sums[string(tree)]
		if sum == nil {
			continue
		}
		if full == nil {
			if full, err = PostChange(ctx, repo, rng, dirs, PostOptions{Summarize: true}); err != nil {
				t.Fatalf("%s: post-merge, full: %v", what, err)
			}
		}
		part, err := PostChange(ctx, repo, rng, dirs, PostOptions{Summarize: true, Summary: sum})
		if err != nil {
			t.Fatalf("%s: post-merge with the summary of %s: %v", what, rev, err)
		}
		if g, f := verdict(part, Block), verdict(full, Block); g != f {
			t.Errorf("%s: post-merge with the summary of %s (partial %v)\n%s\nfull\n%s", what, rev, part.Partial, g, f)
		}
		fn, _ := full.AlreadyStale()
		if n, known := part.AlreadyStale(); part.Partial && (!known || n != fn) {
			t.Errorf("%s: post-merge already stale: with the summary of %s %d (known %v), full %d", what, rev, n, known, fn)
		}
		if part.Partial {
			postHits[i]++
		}
	}
}

// introduced counts the checks that found citations made stale by the
// change: the cases where a selection that misses a memory shows.
// summaryHits counts the partial checks that had a summary, driftHits
// the checks that had one of an older tree than HEAD's.
var (
	introduced, summaryHits, driftHits int
	postHits                           [3]int // with the summary of HEAD~'s tree, of HEAD's, of HEAD~3's
)

// verdict is what a policy makes of an outcome, as the hook prints and
// decides it: blocked or not, the citations that block (or would), and
// the memory files that cannot be read, with whether the change touches
// them.
func verdict(o *Outcome, p PreCommitPolicy) string {
	var lines []string
	blocked := len(o.Blocking(p)) > 0
	for _, s := range o.Blocking(Block) {
		c := s.Result.Citation
		lines = append(lines, fmt.Sprintf("stale %s #%d %s %d: %s", s.Memory.Path, c.Index, c.Path, s.Class, s.Result.Reason))
	}
	for _, b := range o.Broken {
		blocked = blocked || b.Changed
		lines = append(lines, fmt.Sprintf("broken %s changed=%v", b.Memory.Path, b.Changed))
	}
	if p == Warn {
		blocked = false
	}
	return fmt.Sprintf("blocked=%v\n%s", blocked, strings.Join(lines, "\n"))
}
