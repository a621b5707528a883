package relocbench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// CycleReport scores the daily loop: the chains replayed in rounds, with
// relocate --fix --accept-changed run twice after each round and the
// memories committed, against one-shot relocation of the same citations.
type CycleReport struct {
	Scenarios, Rounds, Citations int
	Cycle, OneShot               Tally // final locations against the truth
	Files                        Tally // whole-file citations, after the cycles
	Unstable                     int   // second fixes that changed a byte
	FalseAlarms                  int   // verify-all passed, the citation was right, and relocate proposed an edit or called it gone or ambiguous
	HiddenStale                  int   // verify-all passed, the cited lines had moved (no snippet to tell), and relocate reported it
	GoneReports                  int   // verify-all passed, the cited lines were deleted (no snippet to tell), and relocate reported it
	Shorthand                    int   // scenarios whose citations are shorthand strings
	// Disagreements counts citations where verify (with line identity)
	// and relocate disagree: valid but not in place, or stale but kept;
	// DisagreeRounds the rounds with one. Checked before and after each
	// fix.
	Disagreements, DisagreeRounds int
}

// FixCycle runs the fix-cycle benchmark on cfg.Chains mixed chains of
// cfg.ChainMin to cfg.ChainMax commits, split into rounds of 3 to 8
// commits. Half the scenarios write their citations as shorthand strings
// ("path:N", "path:N-M") without a commit, the other half as mappings.
func FixCycle(ctx context.Context, cfg Config) (*CycleReport, error) {
	rep := &CycleReport{}
	err := eachChain(cfg, 0x66697863, "fix cycle", func(r *rand.Rand, sc *scenario, dir string, i int) error {
		rep.Scenarios++
		return runCycle(ctx, cfg, rep, r, sc, dir, i%2 == 0, i)
	})
	return rep, err
}

// eachChain generates cfg.Chains mixed chains of cfg.ChainMin to
// cfg.ChainMax commits from the seed and runs fn on each in a fresh
// directory.
func eachChain(cfg Config, stream uint64, what string, fn func(r *rand.Rand, sc *scenario, dir string, i int) error) error {
	c, err := loadCorpus(cfg.GoRoot, 120)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(cfg.Seed, stream))
	for i := 0; i < cfg.Chains; i++ {
		n := cfg.ChainMin
		if cfg.ChainMax > cfg.ChainMin {
			n += r.IntN(cfg.ChainMax - cfg.ChainMin + 1)
		}
		sc := chainScenario(r, c, n)
		dir, err := os.MkdirTemp(cfg.WorkDir, "chain-")
		if err != nil {
			return err
		}
		err = fn(r, sc, dir, i)
		os.RemoveAll(dir)
		if err != nil {
			return fmt.Errorf("relocbench: %s %d: %w", what, i, err)
		}
	}
	return nil
}

const cycleMemory = ".serena/memories/m.md"

// baseFiles are the files of a scenario's first commit: each is also cited
// whole.
func baseFiles(sc *scenario) []string { return sc.commits[0].st.paths() }

// fileTruth is where a file of the first commit is at the last one: the
// file that holds most of its lines, if it holds at least half of them
// (git's rename rule), else gone.
func fileTruth(sc *scenario, p string) truth {
	ids := map[int]bool{}
	for _, l := range sc.commits[0].st.files[p].lines {
		ids[l.id] = true
	}
	final := sc.commits[len(sc.commits)-1].st
	best, bestN := "", 0
	for _, q := range final.paths() {
		n := 0
		for _, l := range final.files[q].lines {
			if ids[l.id] {
				n++
			}
		}
		if n > bestN || (n == bestN && q == p) {
			best, bestN = q, n
		}
	}
	if bestN*2 < len(ids) {
		return truth{gone: true}
	}
	return truth{path: best}
}

// memoryFor writes the citations of sc as a memory file: its line
// citations, then every file of the first commit cited whole.
func memoryFor(sc *scenario, shorthand bool, base string) []byte {
	var b strings.Builder
	b.WriteString("---\nid: m\ncitations:\n")
	for _, c := range sc.cites {
		lines := fmt.Sprint(c.line)
		if c.end > c.line {
			lines = fmt.Sprintf("%d-%d", c.line, c.end)
		}
		if shorthand {
			fmt.Fprintf(&b, "  - %s:%s\n", c.path, lines)
			continue
		}
		fmt.Fprintf(&b, "  - path: %s\n    line: %d\n", c.path, c.line)
		if c.end > c.line {
			fmt.Fprintf(&b, "    line_end: %d\n", c.end)
		}
		if c.withCommit {
			fmt.Fprintf(&b, "    commit: %s\n", base)
		}
	}
	for _, p := range baseFiles(sc) {
		if shorthand {
			fmt.Fprintf(&b, "  - %s\n", p)
		} else {
			fmt.Fprintf(&b, "  - path: %s\n", p)
		}
	}
	b.WriteString("---\nWhat the code does.\n")
	return []byte(b.String())
}

// replayRepos writes the scenario's history into dir/src and clones it,
// without a checkout, into dir/work on an empty orphan branch, where the
// benchmarks replay it with a memory file beside the code.
func replayRepos(sc *scenario, dir string) (src, work string, hashes []string, err error) {
	src, work = filepath.Join(dir, "src"), filepath.Join(dir, "work")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", "", nil, err
	}
	if hashes, err = sc.write(src); err != nil {
		return "", "", nil, err
	}
	if err := runGit(dir, nil, "clone", "-q", "--no-checkout", src, work); err != nil {
		return "", "", nil, err
	}
	if err := runGit(work, nil, "checkout", "-q", "--orphan", "replay"); err != nil {
		return "", "", nil, err
	}
	return src, work, hashes, nil
}

func runCycle(ctx context.Context, cfg Config, rep *CycleReport, r *rand.Rand, sc *scenario, dir string, shorthand bool, idx int) error {
	src, work, hashes, err := replayRepos(sc, dir)
	if err != nil {
		return err
	}
	// one-shot: the same citations tracked from the base to the last commit
	oneShot, err := oneShotPredictions(ctx, src, sc, hashes)
	if err != nil {
		return err
	}
	// the daily loop, replayed on a linear history of the main line
	var main []int
	for i, c := range sc.commits {
		if c.branch == "main" {
			main = append(main, i)
		}
	}
	cr := &cycleRun{ctx: ctx, cfg: cfg, rep: rep, sc: sc, work: work, idx: idx}
	mem, err := cr.commitBase(hashes[main[0]], shorthand)
	if err != nil {
		return err
	}
	for k := 1; k < len(main); {
		n := 3 + r.IntN(6)
		for ; n > 0 && k < len(main); n, k = n-1, k+1 {
			if err := commitWithMemory(work, hashes[main[k]], sc.commits[main[k]].subject, mem); err != nil {
				return err
			}
		}
		if mem, err = cr.round(main[k-1]); err != nil {
			return err
		}
	}
	if shorthand {
		rep.Shorthand++
	}
	return cr.scoreFinal(oneShot)
}

// cycleRun is one scenario's daily loop under way.
type cycleRun struct {
	ctx  context.Context
	cfg  Config
	rep  *CycleReport
	sc   *scenario
	work string // the replay repository
	idx  int    // the scenario's number, for the trace
}

// commitBase commits the memory at the base, then again with commit
// fields naming that commit; it returns the memory.
func (cr *cycleRun) commitBase(tree string, shorthand bool) ([]byte, error) {
	mem := memoryFor(cr.sc, shorthand, "")
	if err := commitWithMemory(cr.work, tree, "base", mem); err != nil {
		return nil, err
	}
	baseHash, err := gitOutput(cr.work, "rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	mem = memoryFor(cr.sc, shorthand, baseHash)
	if err := commitWithMemory(cr.work, tree, "memory at base", mem); err != nil {
		return nil, err
	}
	return mem, nil
}

// round runs relocate --fix twice (the second must change nothing),
// commits the fix and, when verify then finds every citation valid, checks
// what relocate still reports against the truth at commit at. It returns
// the memory as fixed.
func (cr *cycleRun) round(at int) ([]byte, error) {
	cr.rep.Rounds++
	before, err := cr.agree("before the fix")
	if err != nil {
		return nil, err
	}
	if _, _, err := fixOnce(cr.ctx, cr.work); err != nil {
		return nil, err
	}
	again, _, err := fixOnce(cr.ctx, cr.work)
	if err != nil {
		return nil, err
	}
	if again {
		cr.rep.Unstable++
		if cr.cfg.Trace != nil {
			fmt.Fprintf(cr.cfg.Trace, "#%d round %d: a second fix changed the memory\n", cr.idx, cr.rep.Rounds)
		}
	}
	if err := runGit(cr.work, nil, "commit", "-q", "--allow-empty", "-am", "fix citations"); err != nil {
		return nil, err
	}
	mem, err := os.ReadFile(filepath.Join(cr.work, cycleMemory))
	if err != nil {
		return nil, err
	}
	after, err := cr.agree("after the fix")
	if err != nil {
		return nil, err
	}
	if before+after > 0 {
		cr.rep.DisagreeRounds++
	}
	valid, err := verifyValid(cr.ctx, cr.work)
	if err != nil || !valid {
		return mem, err
	}
	return mem, cr.checkValid(cr.sc.truthsAt(cr.sc.commits[at].st))
}

// checkValid counts, for citations verify finds valid, what relocate
// reports anyway: false alarms, deleted lines, stale citations verify
// cannot see.
func (cr *cycleRun) checkValid(truths []truth) error {
	_, items, err := fixOnce(cr.ctx, cr.work)
	if err != nil {
		return err
	}
	rep, trace, idx := cr.rep, cr.cfg.Trace, cr.idx
	for _, it := range items {
		i := it.Citation.Index
		if it.Action == relocate.Keep || it.Action == relocate.Skip || i >= len(truths) || truths[i].partial {
			continue
		}
		t, c := truths[i], it.Citation
		switch {
		case !t.gone && t.path == c.Path && t.line == c.Line && t.end == max(c.LineEnd, c.Line):
			// the citation is right and relocate says otherwise
			rep.FalseAlarms++
			if trace != nil {
				fmt.Fprintf(trace, "#%d round %d: false alarm %s %v fields=%v base=%s (%v) commit=%q status=%v loc=%+v note=%s\n", idx, rep.Rounds, c.Location(), it.Action, it.Fields, it.Base.Short(), it.BaseSource, c.Commit, it.Result.Status, it.Result.Location, it.Result.Note)
			}
		case t.gone:
			rep.GoneReports++ // true: the lines were deleted
		default:
			rep.HiddenStale++ // true: the lines are elsewhere
			if trace != nil {
				fmt.Fprintf(trace, "#%d round %d: stale citation verify cannot see: %s %v status=%v truth=%+v\n", idx, rep.Rounds, c.Location(), it.Action, it.Result.Status, t)
			}
		}
	}
	return nil
}

// scoreFinal scores the citations at the end of the loop, and the
// one-shot predictions, against the truth.
func (cr *cycleRun) scoreFinal(oneShot []prediction) error {
	sc, rep, trace, idx := cr.sc, cr.rep, cr.cfg.Trace, cr.idx
	st, err := loadStore(cr.ctx, cr.work)
	if err != nil {
		return err
	}
	files := baseFiles(sc)
	if len(st.Memories) != 1 || st.Memories[0].File == nil || len(st.Memories[0].File.Citations) != len(sc.cites)+len(files) {
		return fmt.Errorf("the memory file lost citations")
	}
	final := st.Memories[0].File.Citations
	// unresolved citations stay where they were: the last fix reported them
	_, items, err := fixOnce(cr.ctx, cr.work)
	if err != nil {
		return err
	}
	gone := map[int]bool{}
	for _, it := range items {
		if it.Action == relocate.Unresolved {
			gone[it.Citation.Index] = true
		}
	}
	for i, t := range sc.truths {
		if t.partial {
			continue
		}
		rep.Citations++
		c := final[i]
		p := prediction{loc: true, path: c.Path, line: c.Line, end: max(c.LineEnd, c.Line)}
		if gone[i] {
			p = prediction{}
		}
		score(&rep.Cycle, t, p)
		score(&rep.OneShot, t, oneShot[i])
		if trace != nil && !exact(t, p) {
			fmt.Fprintf(trace, "#%d cycle miss: %s truth=%+v got=%+v one-shot=%+v\n", idx, sc.cites[i].path, t, p, oneShot[i])
		}
	}
	for k, f := range files {
		i := len(sc.cites) + k
		t := fileTruth(sc, f)
		p := prediction{loc: true, path: final[i].Path}
		if gone[i] {
			p = prediction{}
		}
		score(&rep.Files, t, p)
		if trace != nil && !exact(t, p) {
			fmt.Fprintf(trace, "#%d file miss: %s truth=%+v got=%+v\n", idx, f, t, p)
		}
	}
	return nil
}

// commitWithMemory commits, in the working repository work, the tree of a
// scenario commit with the memory file beside it.
func commitWithMemory(work, tree, subject string, memory []byte) error {
	if err := runGit(work, nil, "read-tree", "-u", "--reset", tree); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(work, filepath.Dir(cycleMemory)), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, cycleMemory), memory, 0o644); err != nil {
		return err
	}
	if err := runGit(work, nil, "add", "-A"); err != nil {
		return err
	}
	return runGit(work, nil, "commit", "-q", "--allow-empty", "-m", subject)
}

// oneShotPredictions tracks the scenario's citations from the base to the
// last commit in one run.
func oneShotPredictions(ctx context.Context, dir string, sc *scenario, hashes []string) ([]prediction, error) {
	repo, err := gitrepo.OpenHistory(dir)
	if err != nil {
		return nil, err
	}
	defer repo.Close()
	head, err := gitblame.ParseHash(hashes[len(hashes)-1])
	if err != nil {
		return nil, err
	}
	base, err := gitblame.ParseHash(hashes[sc.base])
	if err != nil {
		return nil, err
	}
	anchors := make([]gitblame.Anchor, len(sc.cites))
	for i, c := range sc.cites {
		anchors[i] = gitblame.Anchor{Path: c.path, Line: c.line, LineEnd: c.end, Base: base}
	}
	res, err := gitblame.New(repo).Track(ctx, anchors, gitblame.Target{Commit: head})
	if err != nil {
		return nil, err
	}
	out := make([]prediction, len(res))
	for i, r := range res {
		switch r.Status {
		case gitblame.Unchanged, gitblame.Moved, gitblame.Changed:
			out[i] = prediction{loc: true, path: r.Location.Path, line: r.Location.Line, end: max(r.Location.LineEnd, r.Location.Line)}
		case gitblame.Ambiguous:
			out[i].ambiguous = true
		}
	}
	return out, nil
}

func loadStore(ctx context.Context, dir string) (*store.Store, error) {
	wt, err := source.NewWorktree(dir)
	if err != nil {
		return nil, err
	}
	return store.Load(ctx, wt, []string{store.DefaultDir}, nil)
}

// fixOnce runs relocate --fix --accept-changed on the working tree of dir
// and reports whether it changed the memory file.
func fixOnce(ctx context.Context, dir string) (bool, []relocate.Item, error) {
	repo, err := gitrepo.Discover(dir)
	if err != nil {
		return false, nil, err
	}
	defer repo.Close()
	h, err := repo.History()
	if err != nil {
		return false, nil, err
	}
	defer h.Close()
	head, err := h.Resolve("HEAD")
	if err != nil {
		return false, nil, err
	}
	wt, err := source.NewWorktree(dir)
	if err != nil {
		return false, nil, err
	}
	st, err := store.Load(ctx, wt, []string{store.DefaultDir}, nil)
	if err != nil {
		return false, nil, err
	}
	target := gitblame.Target{Commit: head, View: wt, CrossFiles: relocate.CrossFiles(relocate.TrackedIn(wt), relocate.CitedPaths(st.Memories))}
	items, err := relocate.Track(ctx, h, gitblame.New(h), head, target, st.Memories)
	if err != nil {
		return false, nil, err
	}
	files, err := relocate.Plan(items, relocate.Options{AcceptChanged: true, Commit: head.String()})
	if err != nil {
		return false, nil, err
	}
	changed := false
	for _, f := range files {
		if !bytes.Equal(f.Old, f.New) {
			changed = true
			if err := os.WriteFile(filepath.Join(dir, f.Memory.Path), f.New, 0o644); err != nil {
				return false, nil, err
			}
		}
	}
	return changed, items, nil
}

// verifyValid reports whether verify-all (line identity included) finds
// every citation valid.
func verifyValid(ctx context.Context, dir string) (bool, error) {
	rep, _, err := judged(ctx, dir)
	if err != nil {
		return false, err
	}
	return rep.Summary().Stale == 0, nil
}

// judged verifies the working tree of dir as verify-all does (line
// identity included) and plans relocate (dry, edited text not accepted).
func judged(ctx context.Context, dir string) (*verify.Report, []relocate.Item, error) {
	repo, err := gitrepo.Discover(dir)
	if err != nil {
		return nil, nil, err
	}
	defer repo.Close()
	h, err := repo.History()
	if err != nil {
		return nil, nil, err
	}
	defer h.Close()
	head, err := h.Resolve("HEAD")
	if err != nil {
		return nil, nil, err
	}
	wt, err := source.NewWorktree(dir)
	if err != nil {
		return nil, nil, err
	}
	st, err := store.Load(ctx, wt, []string{store.DefaultDir}, nil)
	if err != nil {
		return nil, nil, err
	}
	rep, err := verify.Check(ctx, wt, st.Memories, verify.Options{})
	if err != nil {
		return nil, nil, err
	}
	if err := relocate.JudgeReport(ctx, h, head, wt, relocate.ViewWorktree, nil, rep); err != nil {
		return nil, nil, err
	}
	target := gitblame.Target{Commit: head, View: wt, CrossFiles: relocate.CrossFiles(relocate.TrackedIn(wt), relocate.CitedPaths(st.Memories))}
	items, err := relocate.Track(ctx, h, gitblame.New(h), head, target, st.Memories)
	if err != nil {
		return nil, nil, err
	}
	if _, err := relocate.Plan(items, relocate.Options{}); err != nil {
		return nil, nil, err
	}
	return rep, items, nil
}

// agree counts the citations of lines verify and relocate disagree on:
// verify says valid exactly when relocate keeps a citation in place.
func (cr *cycleRun) agree(when string) (int, error) {
	rep, items, err := judged(cr.ctx, cr.work)
	if err != nil {
		return 0, err
	}
	status := map[int]verify.CitationResult{}
	for _, mr := range rep.Memories {
		for _, c := range mr.Citations {
			status[c.Citation.Index] = c
		}
	}
	n := 0
	for _, it := range items {
		c := it.Citation
		if it.Action == relocate.Skip || it.File || !c.HasLine {
			continue
		}
		vr, ok := status[c.Index]
		if !ok {
			continue
		}
		if (vr.Status == verify.Valid) != (it.Action == relocate.Keep) {
			n++
			if cr.cfg.Trace != nil {
				fmt.Fprintf(cr.cfg.Trace, "#%d round %d: disagreement %s: %s: verify %s (%s), relocate %s %v\n", cr.idx, cr.rep.Rounds, when, c.Location(), vr.Status, vr.Reason, it.Action, it.Result.Status)
			}
		}
	}
	cr.rep.Disagreements += n
	return n, nil
}

// FormatCycle prints a fix-cycle report.
func FormatCycle(w io.Writer, r *CycleReport) {
	fmt.Fprintf(w, "%d chains (%d with shorthand citations), %d rounds, %d scored citations\n", r.Scenarios, r.Shorthand, r.Rounds, r.Citations)
	fmt.Fprintf(w, "%-26s %8s %14s %12s %8s\n", "", "exact %", "false reloc", "wrong loc", "missed")
	for _, row := range []struct {
		name string
		t    Tally
	}{{"fix cycles", r.Cycle}, {"one-shot (same histories)", r.OneShot}} {
		fmt.Fprintf(w, "%-26s %8.1f %14d %12d %8d\n", row.name, row.t.Pct(), row.t.FalseReloc, row.t.WrongLoc, row.t.Missed)
	}
	fmt.Fprintf(w, "%-26s %8.1f %14d %12d %8d  (%d files, %d deleted or scattered)\n", "whole files (path only)", r.Files.Pct(), r.Files.FalseReloc, r.Files.WrongLoc, r.Files.Missed, r.Files.N, r.Files.GoneTruth)
	fmt.Fprintf(w, "unstable fixes (a second fix changed a byte): %d\n", r.Unstable)
	fmt.Fprintf(w, "false alarms (verify-all valid, the citation right, relocate reports it): %d\n", r.FalseAlarms)
	fmt.Fprintf(w, "verify and relocate disagree (valid but not in place, or stale but kept): %d citations in %d rounds\n", r.Disagreements, r.DisagreeRounds)
	fmt.Fprintf(w, "true alarms verify-all cannot see (citations without a snippet), after a commit:\n")
	fmt.Fprintf(w, "  lines deleted, reported gone: %d\n", r.GoneReports)
	fmt.Fprintf(w, "  lines moved, reported (where relocate could place them, relocated): %d\n", r.HiddenStale)
}
