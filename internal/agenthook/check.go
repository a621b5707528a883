package agenthook

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Answer is what the hook found about one memory.
type Answer struct {
	Memory *store.Memory
	Source string // the content checked ("working tree")
	Exempt bool   // exempt: true, not verified
	Total  int    // verifiable citations
	Valid  int    // valid ones
	Stale  []Stale
	// NoHistory says why the stale citations were not followed through
	// the history (no commit yet, a repository whose history cannot be
	// read, the time ran out); "" when they were.
	NoHistory string
}

// Stale is one stale citation, why, where its lines went and how to fix
// the memory.
type Stale struct {
	Citation memfile.Citation
	Reason   string // verification's reason
	// Status is where the history says the cited lines are; 0 when they
	// were not followed.
	Status gitblame.Status
	// Now is where the lines are (Moved, Changed), Candidates where they
	// may be (Ambiguous).
	Now        *gitblame.Location
	Candidates []gitblame.Location
	// Event is the step that moved, edited or deleted the lines: a commit,
	// or the working tree; nil when unknown.
	Event *gitblame.Event
	// Note explains a citation that was not followed (its history was cut
	// by a shallow clone, …).
	Note string
	Fix  Fix
	// Prose: the citation is a reference in the memory's prose, fixed by
	// editing the sentence (nil for a frontmatter citation).
	Prose *verify.ProseRef
	// ProseRewritable: relocate --prose --fix rewrites the reference (a
	// moved file or memory gets its new name, moved lines their new
	// numbers: prose.Fixes).
	ProseRewritable bool
}

// Fix is the one command that fixes a stale citation.
type Fix int

// Fixes.
const (
	// FixEdit: the citation must be corrected by hand.
	FixEdit Fix = iota + 1
	// FixRelocate: git memcite relocate --fix moves it to its lines.
	FixRelocate
	// FixAcceptChanged: the lines were edited; relocate --accept-changed
	// --fix moves it there once the new text is confirmed.
	FixAcceptChanged
	// FixRemove: the lines are gone (or cannot be told apart); the
	// citation is removed with remove-citation, or cited anew.
	FixRemove
)

// Options tune Check.
type Options struct {
	// Budget bounds the time spent following stale citations through the
	// history; past it the answer names the stale citations without where
	// their lines went. Zero means DefaultBudget.
	Budget time.Duration
	// Verify is what the memory is verified with: the verification
	// cache, also used to judge lines, and the prose checker.
	Verify verify.Options
}

// DefaultBudget is the time Check spends at most following history.
const DefaultBudget = 3 * time.Second

// Check verifies memory m against src (the working tree of repo) and
// follows its stale citations from the commit each was written against
// (relocate's base) to src. repo may be nil (a directory that is not a
// repository): nothing is followed then.
func Check(ctx context.Context, repo *gitrepo.Repo, src source.Source, m *store.Memory, opt Options) (*Answer, error) {
	ans := &Answer{Memory: m, Source: src.Name()}
	if m.Err != nil {
		return ans, nil
	}
	rep, err := verify.Check(ctx, src, []*store.Memory{m}, opt.Verify)
	if err != nil {
		return nil, err
	}
	budget := opt.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	var judged map[*memfile.Citation]gitblame.Result
	noHistory := ""
	if repo != nil && relocate.NeedsLines(rep) {
		jctx, cancel := context.WithTimeout(ctx, budget)
		judged, err = judgeLines(jctx, repo, src, rep, opt.Verify.Cache)
		cancel()
		switch {
		case err != nil && jctx.Err() != nil && ctx.Err() == nil:
			// out of time: verification's verdicts, without line identity
			noHistory = fmt.Sprintf("following the history took longer than %s", budget)
		case err != nil:
			return nil, err
		}
	}
	mr := &rep.Memories[0]
	ans.Exempt, ans.Total, ans.Valid = mr.Exempt, mr.Total, mr.ValidCount
	for _, c := range mr.StaleCitations() {
		st := Stale{Citation: *c.Citation, Reason: c.Reason, Fix: FixEdit, Prose: c.Prose}
		if c.Prose != nil && m.File != nil {
			// what relocate --prose would rewrite of it (its new name,
			// its lines' new numbers)
			st.ProseRewritable = len(prose.Fixes(m.File.Src, m.Path, c)) > 0
		}
		ans.Stale = append(ans.Stale, st)
	}
	if len(ans.Stale) == 0 {
		return ans, nil
	}
	if noHistory != "" {
		ans.NoHistory = noHistory
		return ans, nil
	}
	// line identity followed these already: where their lines went
	all := true
	for i := range ans.Stale {
		k := ans.Stale[i].Citation.Index
		if ans.Stale[i].Prose != nil || k < 0 || k >= len(m.File.Citations) {
			continue // a reference in the prose: its reason says where it went
		}
		c := &m.File.Citations[k]
		if r, ok := judged[c]; ok {
			it := relocate.Item{Memory: m, Citation: c, Result: r}
			relocate.Decide(&it)
			explain(&ans.Stale[i], &it)
		} else {
			all = false
		}
	}
	if all {
		return ans, nil
	}
	if repo == nil {
		ans.NoHistory = "not a git repository"
		return ans, nil
	}
	items, why := followWithin(ctx, budget, repo, src, m)
	if why != "" {
		ans.NoHistory = why
		return ans, nil
	}
	byIndex := map[int]*relocate.Item{}
	for i := range items {
		byIndex[items[i].Citation.Index] = &items[i]
	}
	for i := range ans.Stale {
		if ans.Stale[i].Status != 0 {
			continue // explained by line identity
		}
		if it := byIndex[ans.Stale[i].Citation.Index]; it != nil {
			explain(&ans.Stale[i], it)
		}
	}
	return ans, nil
}

// judgeLines applies line identity to rep (relocate.JudgeReport), so
// that the agent hears the verdict verify gives; nothing before the first
// commit.
// It returns the results of the citations out of place.
func judgeLines(ctx context.Context, repo *gitrepo.Repo, src source.Source, rep *verify.Report, cache *vcache.Cache) (map[*memfile.Citation]gitblame.Result, error) {
	head, born, err := repo.Head()
	if err != nil || !born {
		return nil, nil
	}
	h, ok := head.Hash()
	if !ok {
		return nil, nil
	}
	hist := &relocate.LazyHistory{Open: func() (gitblame.History, error) { return repo.History() }}
	defer func() {
		if h, ok := hist.Opened().(*gitrepo.History); ok && h != nil {
			h.Close()
		}
	}()
	j := relocate.NewJudge(hist, h, src, relocate.ViewWorktree, cache, rep)
	j.Target.Changed = repo.ChangedOnce(ctx, cited(rep.Memories[0].Memory))
	j.Record = map[*memfile.Citation]gitblame.Result{}
	if err := j.Apply(ctx, rep); err != nil {
		return nil, err
	}
	return j.Record, nil
}

type followed struct {
	items []relocate.Item
	why   string
}

// followWithin runs follow, giving up after budget: the answer must come
// while the agent waits. An abandoned walk stops at its next step.
func followWithin(ctx context.Context, budget time.Duration, repo *gitrepo.Repo, src source.Source, m *store.Memory) ([]relocate.Item, string) {
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel() // stops an abandoned walk; never before its answer is taken
	done := make(chan followed, 1)
	go func() {
		items, why := follow(ctx, repo, src, m)
		done <- followed{items, why}
	}()
	select {
	case f := <-done:
		return f.items, f.why
	case <-ctx.Done():
		select {
		case f := <-done: // finished as the budget ran out
			return f.items, f.why
		default:
		}
		return nil, fmt.Sprintf("following the history took longer than %s", budget)
	}
}

// follow tracks the citations of m through the history to src and
// decides each, as relocate does; a non-empty string says why it could
// not.
func follow(ctx context.Context, repo *gitrepo.Repo, src source.Source, m *store.Memory) ([]relocate.Item, string) {
	head, born, err := repo.Head()
	switch {
	case err != nil:
		return nil, err.Error()
	case !born:
		return nil, "the repository has no commit yet"
	}
	hist, err := repo.History()
	if err != nil {
		return nil, err.Error()
	}
	defer hist.Close()
	h, ok := head.Hash()
	if !ok {
		return nil, "this repository's history cannot be followed yet"
	}
	mems := []*store.Memory{m}
	wt := &worktree{ctx: ctx, repo: repo, cited: cited(m)}
	target := gitblame.Target{Commit: h, View: src, CrossFiles: wt.crossFile, Changed: wt.changed}
	items, err := relocate.Track(ctx, hist, gitblame.New(hist), h, target, mems)
	if err != nil {
		return nil, err.Error()
	}
	if _, err := relocate.Plan(items, relocate.Options{}); err != nil {
		return nil, err.Error()
	}
	return items, ""
}

// worktree answers the tracker's questions about the working tree with
// one git status, asked only when the tracker needs it (lines deleted or
// moved away from a cited file in the working tree): which files differ
// from HEAD, so that the whole checkout is not read, and which of them may
// receive moved lines — tracked ones and cited ones, as
// relocate.CrossFiles decides, not untracked scratch copies.
type worktree struct {
	ctx   context.Context
	repo  *gitrepo.Repo
	cited map[string]bool
	once  sync.Once
	ch    gitrepo.WorktreeChanges
	err   error
}

func (w *worktree) status() error {
	w.once.Do(func() { w.ch, w.err = w.repo.Changed(w.ctx) })
	return w.err
}

// changed is gitblame.Target.Changed: what git status names, and the
// cited files (one may be ignored by git yet cited).
func (w *worktree) changed() (map[string]bool, error) {
	if err := w.status(); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, set := range []map[string]bool{w.ch.Tracked, w.ch.Untracked, w.cited} {
		for p := range set {
			out[p] = true
		}
	}
	return out, nil
}

// crossFile is gitblame.Target.CrossFiles.
func (w *worktree) crossFile(p string) bool {
	if w.cited[p] {
		return true
	}
	return w.status() == nil && !w.ch.Untracked[p]
}

// cited lists the paths m cites, in canonical form.
func cited(m *store.Memory) map[string]bool {
	out := map[string]bool{}
	for _, c := range m.File.Citations {
		if p, err := source.Clean(c.Path); err == nil {
			out[p] = true
		}
	}
	return out
}

// explain fills in what following the citation found, and its fix.
func explain(s *Stale, it *relocate.Item) {
	r := &it.Result
	s.Status = r.Status
	if r.Status == 0 {
		s.Note = it.BaseNote
	}
	s.Event = r.Blame()
	switch r.Status {
	case gitblame.Moved, gitblame.Changed:
		l := r.Location
		s.Now = &l
	case gitblame.Ambiguous:
		s.Candidates = r.Candidates
	case gitblame.Gone:
		if s.Event == nil {
			s.Event = r.GoneIn
		}
	}
	switch it.Action {
	case relocate.Move:
		s.Fix = FixRelocate
	case relocate.Review:
		if it.Err == nil && r.Status == gitblame.Changed {
			s.Fix = FixAcceptChanged
		}
	case relocate.Unresolved:
		s.Fix = FixRemove
	}
}
