package app

import (
	"bytes"
	"context"

	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// FixedInWorktree returns the memory files (repo-relative) of stale, the
// citations a commit check reported, whose working-tree copy differs from
// the one being committed and has every citation valid against what is
// being committed: the fix is made and only needs git add. Anything it
// cannot read counts as not fixed.
func (h *Hook) FixedInWorktree(ctx context.Context, stale []hookrun.StaleCitation) map[string]bool {
	if len(stale) == 0 {
		return nil
	}
	wt, err := h.Repo.Worktree()
	if err != nil {
		return nil
	}
	var out map[string]bool
	seen := map[string]bool{}
	for _, s := range stale {
		m := s.Memory
		if seen[m.Path] {
			continue
		}
		seen[m.Path] = true
		staged, err1 := h.Src.ReadFile(m.Path)
		work, err2 := wt.ReadFile(m.Path)
		if err1 != nil || err2 != nil || bytes.Equal(staged, work) {
			continue
		}
		fixed := &store.Memory{Path: m.Path, Dir: m.Dir}
		if err := store.LoadAll(ctx, wt, []*store.Memory{fixed}, h.slot.Cache()); err != nil || fixed.Err != nil {
			continue
		}
		rep, err := verify.Check(ctx, h.Src, []*store.Memory{fixed}, verify.Options{Cache: h.slot.Cache()})
		if err != nil || len(rep.Memories) != 1 || rep.Memories[0].Stale() {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[m.Path] = true
	}
	return out
}
