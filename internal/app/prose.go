package app

import (
	"context"
	"fmt"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// ProseLevel is the configured level of prose references (prose:
// error, warn, block or off; docs/prose-references.md).
func (ws *Workspace) ProseLevel() string {
	if ws.Cfg == nil {
		return "error"
	}
	if v := ws.Cfg.Get("prose").First(); v != "" {
		return v
	}
	return "error"
}

// WithProse returns a context in which verify.Check also judges the
// references in the prose of the workspace's memories, anchored where
// their words were written (prose.Checker), unless the configuration
// turns prose off. done releases the history reader.
func WithProse(ctx context.Context, ws *Workspace) (context.Context, func(), error) {
	if ws.ProseLevel() == "off" || ws.Store == nil {
		return ctx, func() {}, nil
	}
	c := &prose.Checker{Dirs: ws.Store.Dirs, All: ws.Store.Memories}
	done := func() {}
	if ws.Repo != nil {
		if _, ok, err := ws.Repo.Head(); err != nil {
			return ctx, done, err
		} else if ok {
			hist, err := ws.Repo.History()
			if err != nil {
				return ctx, done, fmt.Errorf("prose references are anchored in history: %w", err)
			}
			head, err := hist.Resolve("HEAD")
			if err != nil {
				hist.Close()
				return ctx, done, err
			}
			cache := newCachingGit(ws.Repo.GitDir, head, proseGit{proseLog{hist}, hist})
			c.H, c.Log, c.Sym, c.Head = hist, cache, cache, head
			done = func() {
				cache.save()
				hist.Close()
			}
		}
	}
	return verify.WithProse(ctx, c), done, nil
}

// proseLog adapts gitrepo's history to prose.Log.
type proseLog struct{ h *gitrepo.History }

func (l proseLog) PathLog(ctx context.Context, head gitblame.Hash, dirs []string) ([]prose.LogCommit, error) {
	log, err := l.h.PathLog(ctx, head, dirs)
	if err != nil {
		if gitrepo.ExitCode(err) > 0 {
			// git could not read the history (objects missing from a
			// partial clone or a snapshot): nothing is anchored, every
			// reference is judged as written now
			return nil, nil
		}
		return nil, err
	}
	return convertLog(log), nil
}

func (l proseLog) Moves(ctx context.Context, head gitblame.Hash) ([]gitblame.Hash, []prose.LogCommit, error) {
	order, log, err := l.h.Moves(ctx, head)
	if err != nil {
		if gitrepo.ExitCode(err) > 0 {
			return nil, nil, nil // as for PathLog: nothing is known to have moved
		}
		return nil, nil, err
	}
	return order, convertLog(log), nil
}

func convertLog(log []gitrepo.LogCommit) []prose.LogCommit {
	out := make([]prose.LogCommit, len(log))
	for i, c := range log {
		out[i].Hash = c.Hash
		out[i].Changes = make([]prose.FileChange, len(c.Changes))
		for j, ch := range c.Changes {
			out[i].Changes[j] = prose.FileChange(ch)
		}
	}
	return out
}

// proseGit is what the prose checker asks git: the logs (proseLog) and
// the symbol searches (gitrepo.History).
type proseGit struct {
	proseLog
	*gitrepo.History
}

// the logs are proseLog's (gitrepo.History has methods of the same names
// with its own types)
func (g proseGit) PathLog(ctx context.Context, head gitblame.Hash, dirs []string) ([]prose.LogCommit, error) {
	return g.proseLog.PathLog(ctx, head, dirs)
}

func (g proseGit) CommitChanges(ctx context.Context, commit gitblame.Hash) ([]prose.FileChange, error) {
	chs, err := g.History.CommitChanges(ctx, commit)
	if err != nil {
		return nil, err
	}
	out := make([]prose.FileChange, len(chs))
	for i, ch := range chs {
		out[i] = prose.FileChange(ch)
	}
	return out, nil
}

func (g proseGit) Moves(ctx context.Context, head gitblame.Hash) ([]gitblame.Hash, []prose.LogCommit, error) {
	return g.proseLog.Moves(ctx, head)
}
