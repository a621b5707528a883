package app

import (
	"context"
	"fmt"

	"github.com/git-memcite/git-memcite/internal/cite"
	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/progress"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/store"
)

// AdoptOptions say what adopt does with the citations it proposes.
type AdoptOptions struct {
	Fix    bool // add them to the memory files
	DryRun bool // plan the edit --fix would make; write nothing
}

// Adopted is what adopt found in one memory's body.
type Adopted struct {
	Memory   *store.Memory
	Mentions []cite.Mention
	// Plan is the edit made (Fix) or that would be made (DryRun); nil
	// without either.
	Plan *cite.Plan
}

// Adopt turns the informal citations in the bodies of mems into
// structured ones (cite.Adopt), anchored where the words were written in
// history, and with Fix writes them under the rewrite lock. Memories
// without mentions are left out; a memory that cannot be parsed is
// skipped and its error returned in errs, so that the others are still
// scanned.
func Adopt(ctx context.Context, ws *Workspace, mems []*store.Memory, o AdoptOptions) (out []Adopted, errs []error, err error) {
	tracked, err := ws.Tracked(ctx)
	if err != nil {
		return nil, nil, err
	}
	cenv, done, err := adoptEnv(ctx, ws)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	if o.Fix {
		unlock, err := Lock(ctx, ws.Repo)
		if err != nil {
			return nil, nil, err
		}
		defer unlock()
	}
	count := progress.From(ctx)
	count.Set("memories", len(mems))
	for _, m := range mems {
		count.Add(1)
		if m.Err != nil {
			errs = append(errs, m.Err)
			continue
		}
		a, err := adoptOne(ctx, ws, m, cenv, tracked, o)
		if err != nil {
			return nil, nil, err
		}
		if len(a.Mentions) > 0 {
			out = append(out, a)
		}
	}
	return out, errs, nil
}

// adoptEnv is cite's environment for adopt: in a repository with
// commits, mentions are anchored where their words were written
// (relocate.MentionAnchorer). done releases the history reader.
func adoptEnv(ctx context.Context, ws *Workspace) (cite.Env, func(), error) {
	cenv, err := ws.CiteEnv(ctx)
	if ws.Store != nil {
		cenv.MemoryDirs = ws.Store.Dirs
	}
	if err != nil || cenv.Head == nil {
		return cenv, func() {}, err
	}
	hist, err := ws.Repo.History()
	if err != nil {
		return cenv, nil, fmt.Errorf("adopt anchors mentions in history: %w", err)
	}
	head, err := hist.Resolve("HEAD")
	if err != nil {
		hist.Close()
		return cenv, nil, err
	}
	cenv.Anchor = &relocate.MentionAnchorer{H: hist, T: gitblame.New(hist), Head: head,
		Target: gitblame.Target{Commit: head, View: ws.Src, CrossFiles: relocate.CrossFiles(relocate.TrackedIn(ws.Src), relocate.CitedPaths(ws.Store.Memories))}}
	return cenv, func() { hist.Close() }, nil
}

// adoptOne scans one memory; with Fix it writes the edit (the caller
// holds the lock). In a dry run the citations that would be added are
// reported as proposed.
func adoptOne(ctx context.Context, ws *Workspace, m *store.Memory, cenv cite.Env, tracked *cite.Tracked, o AdoptOptions) (Adopted, error) {
	ms, plan, err := cite.Adopt(ctx, m.File, cenv, tracked, o.Fix || o.DryRun)
	if err != nil || len(ms) == 0 {
		return Adopted{}, err
	}
	a := Adopted{Memory: m, Mentions: ms, Plan: plan}
	if o.DryRun {
		for i := range ms {
			if ms[i].Status == cite.Added {
				ms[i].Status = cite.Proposed // not written
			}
		}
		return a, nil
	}
	if plan != nil && plan.Changed {
		if err := WriteMemory(ws.Repo, ws.Top, m.Path, plan.Old, plan.New); err != nil {
			return Adopted{}, err
		}
	}
	return a, nil
}
