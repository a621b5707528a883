package main

import (
	"context"
	"fmt"
	"io"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// HistoryFlags are verify's options that use the history of the cited
// files.
type HistoryFlags struct {
	Why    bool `name:"why" help:"For each stale citation, name the commit that broke it (moved, edited or deleted its lines) and where the lines are now (text, and a \"why\" object per stale citation with --json)."`
	Record bool `name:"record" help:"Record the current commit and time in every valid citation (commit and verified fields), the base later relocations start from, and the memory's confidence and last_verified."`
}

// staleMemories returns the memories with stale citations and, per memory,
// the indexes of those citations.
func staleMemories(rep *verify.Report) ([]*store.Memory, map[*store.Memory]map[int]bool) {
	var mems []*store.Memory
	stale := map[*store.Memory]map[int]bool{}
	for i := range rep.Memories {
		mr := &rep.Memories[i]
		for _, c := range mr.Citations {
			if c.Status != verify.Stale {
				continue
			}
			if stale[mr.Memory] == nil {
				stale[mr.Memory] = map[int]bool{}
				mems = append(mems, mr.Memory)
			}
			stale[mr.Memory][c.Citation.Index] = true
		}
	}
	return mems, stale
}

// explain tracks every stale citation of rep through history (verify
// --why) from its inferred base to the content verify checked: HEAD and the
// working tree, the index with --staged, or the commit of --rev. It returns
// the explanation of each, by memory path and citation index.
func explain(ctx context.Context, ws *workspace, sf SourceFlags, rep *verify.Report) (render.WhyIndex, error) {
	if ws.repo == nil {
		return nil, fmt.Errorf("--why needs a git repository")
	}
	mems, stale := staleMemories(rep)
	if len(mems) == 0 {
		return nil, nil
	}
	hist, err := ws.repo.History()
	if err != nil {
		return nil, err
	}
	defer hist.Close()
	rev := "HEAD"
	if sf.Rev != "" {
		rev = string(sf.Rev)
	}
	head, err := hist.Resolve(rev)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rev, err)
	}
	target := gitblame.Target{Commit: head}
	if sf.Rev == "" {
		target.View = ws.src
	}
	if sf.Rev == "" && !sf.Staged {
		idx, err := ws.repo.Index(ctx)
		if err != nil {
			return nil, err
		}
		target.CrossFiles = relocate.CrossFiles(idx, mems)
	}
	items, err := relocate.Track(ctx, hist, gitblame.New(hist), head, target, mems)
	if err != nil {
		return nil, err
	}
	out := render.WhyIndex{}
	for i := range items {
		it := &items[i]
		if !stale[it.Memory][it.Citation.Index] || it.Action == relocate.Skip || it.Action == relocate.Keep {
			continue
		}
		if out[it.Memory.Path] == nil {
			out[it.Memory.Path] = map[int]*render.Why{}
		}
		out[it.Memory.Path][it.Citation.Index] = whyOf(it)
	}
	return out, nil
}

// whyOf explains one tracked stale citation.
func whyOf(it *relocate.Item) *render.Why {
	r := &it.Result
	w := &render.Why{Status: r.Status.String()}
	if !it.Base.IsZero() {
		w.Base = it.Base.String()
	}
	if r.Status == 0 { // not tracked: the base note says why
		w.Status, w.Message = "unknown", it.BaseNote
		return w
	}
	switch b := r.Blame(); {
	case b != nil:
		w.Event = b.Kind.String()
		if c := b.Commit; c != nil {
			w.Commit, w.Author, w.Subject = c.Hash.String(), c.Author, c.Subject
			w.Date = c.AuthorDate.UTC().Format("2006-01-02")
		} else {
			w.View = b.View
		}
		w.Message = fmt.Sprintf("%s in %s", b.Kind, b.Where())
	case r.Status == gitblame.Unchanged:
		w.Message = "the cited lines did not change since " + render.BaseName(it) + "; the citation was already wrong there"
	case it.BaseNote != "":
		w.Message = "no change found in the history: " + it.BaseNote
	default:
		w.Message = "no change found in the history"
	}
	switch r.Status {
	case gitblame.Moved, gitblame.Changed:
		l := r.Location
		w.Now = &render.WhyLocation{Path: l.Path, Line: l.Line}
		if l.LineEnd > l.Line {
			w.Now.LineEnd = l.LineEnd
		}
		w.Message += fmt.Sprintf("; now at %s (%s)", render.Loc(l), r.Status)
	case gitblame.Ambiguous:
		w.Message += "; now ambiguous"
	case gitblame.Gone:
		if r.LastSeen != nil {
			w.LastSeen = r.LastSeen.Hash.String()
			w.Message += fmt.Sprintf("; last seen in %s", r.LastSeen.Hash.Short())
		}
	}
	return w
}

// whyText prints the explanations of the stale citations of rep, in the
// report's order.
func whyText(w io.Writer, rep *verify.Report, why render.WhyIndex) {
	if len(why) == 0 {
		return
	}
	fmt.Fprintln(w, "\nWhy:")
	for i := range rep.Memories {
		mr := &rep.Memories[i]
		for _, c := range mr.StaleCitations() {
			if x := why[mr.Memory.Path][c.Citation.Index]; x != nil {
				fmt.Fprintf(w, "  %s: %s: %s\n", render.Safe(mr.Memory.Path), render.Safe(c.Citation.Location()), render.Safe(x.Message))
			}
		}
	}
}

// record writes the current commit and time into every valid citation
// written as a mapping, and the memory's confidence and last_verified
// (verify --record; app.Record).
func record(ctx context.Context, ws *workspace, rep *verify.Report, env *Env) error {
	res, err := app.Record(ctx, ws.repo, ws.src, rep)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "recorded commit %s in %d memory file(s)\n", res.Commit[:7], res.Files)
	if res.Skipped > 0 {
		fmt.Fprintf(env.Stderr, "%d valid citation(s) not recorded: their files have uncommitted changes\n", res.Skipped)
	}
	return nil
}
