package app

import (
	"context"
	"errors"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/graph"
	"github.com/git-memcite/git-memcite/internal/health"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Health verifies the workspace's memories and builds their health
// report. With since (a revision), the report also compares with the
// store and code at that commit; worse says a memory got worse.
func Health(ctx context.Context, ws *Workspace, since string) (rep *health.Report, worse bool, err error) {
	opt, done, err := ws.VerifyOptions()
	if err != nil {
		return nil, false, err
	}
	defer done()
	rep, err = healthOf(ctx, opt, ws.Repo, ws.Src, ws.Rev, ws.Staged, ws.Store)
	if err != nil || since == "" {
		return rep, false, err
	}
	if ws.Repo == nil {
		return nil, false, errors.New("--since needs a git repository")
	}
	h, err := ws.Repo.ResolveCommit(ctx, since)
	if err != nil {
		return nil, false, err
	}
	src, err := ws.Repo.Commit(ctx, h)
	if err != nil {
		return nil, false, err
	}
	var then []string // the memory directories that existed then
	for _, d := range ws.Store.Dirs {
		if e, err := src.Stat(d); err == nil && e.Kind == source.KindDir {
			then = append(then, d)
		}
	}
	old := &store.Store{Dirs: then}
	if len(then) > 0 {
		if old, err = store.Load(ctx, src, then, opt.Cache); err != nil {
			return nil, false, err
		}
	}
	before, err := healthOf(ctx, opt, ws.Repo, src, h.String(), false, old)
	if err != nil {
		return nil, false, err
	}
	health.Compare(rep, before, since, h.String())
	return rep, len(rep.Since.Worse) > 0, nil
}

// healthOf verifies a store against src with opt and builds its health
// report with its graph.
func healthOf(ctx context.Context, opt verify.Options, repo *gitrepo.Repo, src source.Source, rev string, staged bool, st *store.Store) (*health.Report, error) {
	vr, err := verify.Check(ctx, src, st.Memories, opt)
	if err != nil {
		return nil, err
	}
	if err := JudgeLines(ctx, repo, src, rev, staged, opt.Cache, vr); err != nil {
		return nil, err
	}
	vr.Source = src.Name()
	g := graph.FromStore(st)
	g.NoProse = opt.Prose == nil
	w, err := g.Build(ctx, nil)
	if err != nil {
		return nil, err
	}
	return health.Build(vr, w), nil
}
