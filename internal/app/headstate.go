package app

import (
	"context"
	"fmt"

	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// HeadState is the store as committed at HEAD, verified against HEAD.
type HeadState struct {
	Summary verify.Summary
	// Recorded: the summary of HEAD's tree was written for the commit
	// hook (false with the verification cache off).
	Recorded bool
}

// RecordHead verifies the memories of HEAD against HEAD and, unless the
// cache is off (cacheOff), leaves the summary of HEAD's tree the commit
// hook reads (docs/cache.md): the first commit after install then says,
// as every later one does, how many citations were already stale. ok is
// false on an unborn branch (nothing to record). o names the repository,
// memory directories and the cache's tool identity.
func RecordHead(ctx context.Context, o OpenOptions, cacheOff bool) (st HeadState, ok bool, err error) {
	repo, err := discover(o)
	if err != nil {
		return st, false, err
	}
	tree, born, err := repo.HeadTree(ctx)
	if err != nil || !born {
		return st, false, err
	}
	o.Staged, o.Rev = false, "HEAD"
	ws, err := Open(ctx, o)
	if err != nil {
		return st, false, err
	}
	if err := ws.LoadStore(ctx); err != nil {
		return st, false, err
	}
	rep, err := verify.Check(ctx, ws.Src, ws.Store.Memories, verify.Options{Cache: ws.Cache()})
	if err != nil {
		return st, false, fmt.Errorf("verify HEAD: %w", err)
	}
	// the hook's summary holds verification's verdicts (the hook judges
	// moved lines itself); the line printed is verify-all's, line identity
	// included
	var sum *vcache.Summary
	if !cacheOff && o.CacheTool != "" {
		sum = hookrun.Summarize(string(tree), ws.Store.Dirs, ws.Src, ws.Store.Memories, rep)
	}
	if err := JudgeLines(ctx, ws.Repo, ws.Src, ws.Rev, ws.Staged, ws.Cache(), rep); err != nil {
		return st, false, fmt.Errorf("verify HEAD: %w", err)
	}
	st.Summary = rep.Summary()
	if sum == nil {
		return st, true, nil
	}
	if err := vcache.WriteSummary(vcache.Dir(repo.GitDir), repo.TempDir(), o.CacheTool, sum); err != nil {
		return st, true, fmt.Errorf("record HEAD's verdicts: %w", err)
	}
	st.Recorded = true
	return st, true, nil
}
