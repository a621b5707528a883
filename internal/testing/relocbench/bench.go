// Package relocbench measures how accurately gitblame relocates citations,
// against naive baselines, on generated histories with known ground truth.
//
// Repositories are built from Go files of the standard library (read at
// run time from $(go env GOROOT)/src). A line model gives every line an
// identity; edits that keep a line recognisable (light edits, reindent,
// CRLF, moves, renames) keep it, deletions drop it. Each edit category of
// relocation gets its own scenarios (base commit, noise in other
// files, the edit, more noise), and long chains mix all categories. The
// truth of a citation is where its line identities end up.
//
// Methods scored side by side:
//
//	tracker        gitblame.Tracker (stepwise first-parent replay)
//	keep           the citation as is, if the line still exists
//	snippet        the nearest line containing the snippet, same path
//	diff-hunks     line mapping through `git diff -M -U0 base head`
//	hunks+snippet  diff-hunks, then the snippet nearest the hunk if the
//	               line fell into one
//
// A citation is exactly right when the method reports the true location
// (path, first and last line) of a surviving citation, or reports a
// deleted one as gone. A false relocation is a deleted citation reported
// at some location.
package relocbench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
)

// Methods are the scored methods, in report order.
var Methods = []string{"tracker", "keep", "snippet", "diff-hunks", "hunks+snippet"}

// Config sizes a benchmark run.
type Config struct {
	GoRoot      string
	PerCategory int // scenarios per edit category
	Chains      int // mixed chains
	ChainMin    int // commits per chain, minimum
	ChainMax    int // and maximum
	Seed        uint64
	WorkDir     string // where repositories are built (removed after use)
	// Trace, if set, receives one line per tracker miss.
	Trace io.Writer
}

// Tally counts outcomes of one method on one category.
type Tally struct {
	N          int // scored citations
	Exact      int
	FalseReloc int // deleted, but reported at a location
	WrongLoc   int // surviving, reported at a wrong location
	Missed     int // surviving, reported gone or ambiguous
	GoneTruth  int // citations whose truth is gone
}

// Pct returns the exactly-right percentage.
func (t Tally) Pct() float64 {
	if t.N == 0 {
		return 0
	}
	return 100 * float64(t.Exact) / float64(t.N)
}

// Report holds the tallies per category ("mixed" for chains, "all" for
// the total) and method.
type Report struct {
	Rows      map[string]map[string]*Tally
	Partial   int // citations left unscored (range partly deleted)
	Scenarios int
	Commits   int
}

func (r *Report) tally(cat, method string) *Tally {
	if r.Rows[cat] == nil {
		r.Rows[cat] = map[string]*Tally{}
	}
	if r.Rows[cat][method] == nil {
		r.Rows[cat][method] = &Tally{}
	}
	return r.Rows[cat][method]
}

// Run generates the scenarios, runs every method and scores them.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	c, err := loadCorpus(cfg.GoRoot, 120)
	if err != nil {
		return nil, err
	}
	rep := &Report{Rows: map[string]map[string]*Tally{}}
	scs := generate(c, cfg)
	for i, sc := range scs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		dir, err := os.MkdirTemp(cfg.WorkDir, "relocbench-")
		if err != nil {
			return nil, fmt.Errorf("relocbench: %w", err)
		}
		err = runScenario(ctx, cfg, rep, sc, dir, i)
		os.RemoveAll(dir)
		if err != nil {
			return nil, fmt.Errorf("relocbench: scenario %d (%s): %w", i, sc.category, err)
		}
		rep.Scenarios++
		rep.Commits += len(sc.commits)
	}
	return rep, nil
}

// generate makes the scenarios of a run, deterministically from the seed.
func generate(c *corpus, cfg Config) []*scenario {
	r := rand.New(rand.NewPCG(cfg.Seed, 0x6d656d63))
	var scs []*scenario
	for _, cat := range Categories {
		for i := 0; i < cfg.PerCategory; i++ {
			scs = append(scs, categoryScenario(r, c, cat))
		}
	}
	for i := 0; i < cfg.Chains; i++ {
		n := cfg.ChainMin
		if cfg.ChainMax > cfg.ChainMin {
			n += r.IntN(cfg.ChainMax - cfg.ChainMin + 1)
		}
		scs = append(scs, chainScenario(r, c, n))
	}
	return scs
}

// prediction is a method's answer for one citation.
type prediction struct {
	loc       bool
	ambiguous bool
	path      string
	line, end int
}

func runScenario(ctx context.Context, cfg Config, rep *Report, sc *scenario, dir string, idx int) error {
	hashes, err := sc.write(dir)
	if err != nil {
		return err
	}
	repo, err := gitrepo.OpenHistory(dir)
	if err != nil {
		return err
	}
	defer repo.Close()
	head, err := gitblame.ParseHash(hashes[len(hashes)-1])
	if err != nil {
		return err
	}
	base, err := gitblame.ParseHash(hashes[sc.base])
	if err != nil {
		return err
	}
	anchors := make([]gitblame.Anchor, len(sc.cites))
	for i, c := range sc.cites {
		a := gitblame.Anchor{Path: c.path, Line: c.line, LineEnd: c.end, Snippet: snippetOf(c)}
		if c.withCommit {
			a.Base = base
		} else {
			b, src, _, err := gitblame.InferBase(repo, head, gitblame.BaseHint{Verified: commitTime(sc.base)})
			if err != nil {
				return err
			}
			if src != gitblame.BaseVerified {
				return fmt.Errorf("base inference used %v", src)
			}
			a.Base = b
		}
		anchors[i] = a
	}
	res, err := gitblame.New(repo).Track(ctx, anchors, gitblame.Target{Commit: head})
	if err != nil {
		return err
	}
	preds := map[string][]prediction{}
	for _, r := range res {
		p := prediction{}
		switch r.Status {
		case gitblame.Unchanged, gitblame.Moved, gitblame.Changed:
			p = prediction{loc: true, path: r.Location.Path, line: r.Location.Line, end: r.Location.LineEnd}
		case gitblame.Ambiguous:
			p.ambiguous = true
		}
		preds["tracker"] = append(preds["tracker"], p)
	}
	hv := &headView{repo: repo, head: head, cache: map[string][]string{}}
	diff, err := gitOutput(dir, "diff", "-M", "-U0", "--no-color", "--no-ext-diff", hashes[sc.base], hashes[len(hashes)-1])
	if err != nil {
		return err
	}
	fd := parseDiff(diff)
	for _, c := range sc.cites {
		preds["keep"] = append(preds["keep"], baselineKeep(hv, c))
		preds["snippet"] = append(preds["snippet"], baselineSnippet(hv, c.path, c, c.line))
		preds["diff-hunks"] = append(preds["diff-hunks"], baselineHunks(hv, fd, c, false))
		preds["hunks+snippet"] = append(preds["hunks+snippet"], baselineHunks(hv, fd, c, true))
	}
	for i, t := range sc.truths {
		if t.partial {
			rep.Partial++
			continue
		}
		for _, m := range Methods {
			p := preds[m][i]
			for _, cat := range []string{sc.category, "all"} {
				score(rep.tally(cat, m), t, p)
			}
			if m == "tracker" && cfg.Trace != nil && !exact(t, p) {
				c := sc.cites[i]
				fmt.Fprintf(cfg.Trace, "#%d %s: %s:%d-%d %q truth=%+v got=%+v (%v %s)\n", idx, sc.category, c.path, c.line, c.end, snippetOf(c), t, p, res[i].Status, res[i].Note)
			}
		}
	}
	return nil
}

func snippetOf(c citeSpec) string {
	parts := make([]string, len(c.text))
	for i, t := range c.text {
		parts[i] = strings.TrimSpace(t)
	}
	return strings.Join(parts, "\n")
}

func exact(t truth, p prediction) bool {
	if t.gone {
		return !p.loc && !p.ambiguous
	}
	return p.loc && p.path == t.path && p.line == t.line && p.end == t.end
}

func score(tl *Tally, t truth, p prediction) {
	tl.N++
	if t.gone {
		tl.GoneTruth++
	}
	switch {
	case exact(t, p):
		tl.Exact++
	case t.gone && p.loc:
		tl.FalseReloc++
	case !t.gone && p.loc:
		tl.WrongLoc++
	case !t.gone:
		tl.Missed++
	}
}

// headView reads files at the target commit for the baselines.
type headView struct {
	repo  *gitrepo.History
	head  gitblame.Hash
	cache map[string][]string
}

func (h *headView) lines(p string) ([]string, bool) {
	if ls, ok := h.cache[p]; ok {
		return ls, ls != nil
	}
	c, err := h.repo.Commit(h.head)
	if err != nil {
		return nil, false
	}
	b, ok, err := h.repo.Entry(c.Tree, p)
	if err != nil || !ok {
		h.cache[p] = nil
		return nil, false
	}
	data, err := h.repo.Blob(b)
	if err != nil {
		h.cache[p] = nil
		return nil, false
	}
	ls := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i := range ls {
		ls[i] = strings.TrimSuffix(ls[i], "\r")
	}
	h.cache[p] = ls
	return ls, true
}

func baselineKeep(h *headView, c citeSpec) prediction {
	ls, ok := h.lines(c.path)
	if !ok || c.end > len(ls) {
		return prediction{}
	}
	return prediction{loc: true, path: c.path, line: c.line, end: c.end}
}

// baselineSnippet finds the line containing the citation's first line
// (trimmed) nearest to near in path.
func baselineSnippet(h *headView, p string, c citeSpec, near int) prediction {
	ls, ok := h.lines(p)
	if !ok {
		return prediction{}
	}
	want := strings.TrimSpace(c.text[0])
	best := -1
	for i, l := range ls {
		if strings.Contains(l, want) && (best < 0 || abs(i+1-near) < abs(best+1-near)) {
			best = i
		}
	}
	if best < 0 {
		return prediction{}
	}
	n := c.end - c.line
	return prediction{loc: true, path: p, line: best + 1, end: best + 1 + n}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

type fileDiff struct {
	newPath string
	deleted bool
	hunks   [][4]int // oldStart, oldCount, newStart, newCount
}

var hunkRe = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// parseDiff reads `git diff -M -U0` output into per-old-path entries.
func parseDiff(s string) map[string]*fileDiff {
	out := map[string]*fileDiff{}
	var cur *fileDiff
	for _, ln := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(ln, "diff --git "):
			// "diff --git a/x b/y"; paths have no spaces in the benchmark.
			f := strings.Fields(ln)
			old := strings.TrimPrefix(f[2], "a/")
			cur = &fileDiff{newPath: strings.TrimPrefix(f[3], "b/")}
			out[old] = cur
		case cur == nil:
		case strings.HasPrefix(ln, "deleted file mode"):
			cur.deleted = true
		case strings.HasPrefix(ln, "@@ "):
			m := hunkRe.FindStringSubmatch(ln)
			if m == nil {
				continue
			}
			num := func(s string, def int) int {
				if s == "" {
					return def
				}
				n, _ := strconv.Atoi(s)
				return n
			}
			cur.hunks = append(cur.hunks, [4]int{num(m[1], 0), num(m[2], 1), num(m[3], 0), num(m[4], 1)})
		}
	}
	return out
}

// mapLine maps old line l through the hunks; ok is false if l was in a
// hunk, then hunkAt is the new start of that hunk.
func (fd *fileDiff) mapLine(l int) (n int, ok bool, hunkAt int) {
	off := 0
	for _, h := range fd.hunks {
		os, oc, ns, nc := h[0], h[1], h[2], h[3]
		if oc > 0 && l >= os && l < os+oc {
			return 0, false, ns
		}
		last := os + oc - 1
		if oc == 0 {
			last = os
		}
		if last < l {
			switch {
			case oc == 0: // insertion after old line os
				off = ns + nc - 1 - os
			case nc == 0: // deletion: ns is the new line before it
				off = ns + 1 - (os + oc)
			default:
				off = ns + nc - (os + oc)
			}
		}
	}
	return l + off, true, 0
}

func baselineHunks(h *headView, fds map[string]*fileDiff, c citeSpec, snippet bool) prediction {
	fd, changed := fds[c.path]
	if !changed {
		return baselineKeep(h, c)
	}
	if fd.deleted {
		return prediction{}
	}
	a, okA, atA := fd.mapLine(c.line)
	b, okB, _ := fd.mapLine(c.end)
	if okA && okB {
		return prediction{loc: true, path: fd.newPath, line: a, end: b}
	}
	if !snippet {
		return prediction{}
	}
	near := atA
	if okA {
		near = a
	}
	return baselineSnippet(h, fd.newPath, c, near)
}

// Format renders a report as a text table.
func Format(w io.Writer, rep *Report) {
	cats := make([]string, 0, len(rep.Rows))
	for c := range rep.Rows {
		if c != "all" {
			cats = append(cats, c)
		}
	}
	sort.Slice(cats, func(i, j int) bool { return order(cats[i]) < order(cats[j]) })
	cats = append(cats, "all")
	fmt.Fprintf(w, "%d scenarios, %d commits, %d range citations left unscored (partly deleted)\n", rep.Scenarios, rep.Commits, rep.Partial)
	fmt.Fprintf(w, "exactly right %% (false relocations of deleted lines / wrong locations)\n")
	fmt.Fprintf(w, "%-20s %5s %5s", "category", "n", "gone")
	for _, m := range Methods {
		fmt.Fprintf(w, " %17s", m)
	}
	fmt.Fprintln(w)
	for _, c := range cats {
		t := rep.Rows[c]["tracker"]
		fmt.Fprintf(w, "%-20s %5d %5d", c, t.N, t.GoneTruth)
		for _, m := range Methods {
			x := rep.Rows[c][m]
			fmt.Fprintf(w, " %6.1f (%3d/%3d)", x.Pct(), x.FalseReloc, x.WrongLoc)
		}
		fmt.Fprintln(w)
	}
}

func order(c string) int {
	for i, x := range Categories {
		if x == c {
			return i
		}
	}
	return len(Categories)
}
