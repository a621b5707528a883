package app

import (
	"context"
	"fmt"

	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// ProseFixed is what relocate --prose found in one memory: the rewrites
// of its moved paths and renamed memory links, and whether they were
// written.
type ProseFixed struct {
	Memory  *store.Memory
	Fixes   []prose.Fix
	Written bool
}

// ProseFix judges the prose of mems (Workspace.VerifyOptions) and plans, for every
// stale reference whose target moved, the rewrite of its bytes
// (prose.FixFor); with write it writes them under the rewrite lock. The
// rest of each memory file is kept byte for byte; a file changed since it
// was read is an error, not rewritten.
func ProseFix(ctx context.Context, ws *Workspace, mems []*store.Memory, write bool) ([]ProseFixed, error) {
	opt, done, err := ws.VerifyOptions()
	if err != nil {
		return nil, err
	}
	defer done()
	if opt.Prose == nil {
		return nil, fmt.Errorf("prose references are off (prose: off)")
	}
	rep, err := verify.Check(ctx, ws.Src, mems, opt)
	if err != nil {
		return nil, err
	}
	var out []ProseFixed
	for i := range rep.Memories {
		mr := &rep.Memories[i]
		pf := ProseFixed{Memory: mr.Memory}
		for _, c := range mr.StaleCitations() {
			if c.Prose == nil {
				continue
			}
			if f, ok := prose.FixFor(mr.Memory.Path, *c.Prose); ok {
				pf.Fixes = append(pf.Fixes, f)
			}
		}
		if len(pf.Fixes) > 0 {
			out = append(out, pf)
		}
	}
	if !write || len(out) == 0 {
		return out, nil
	}
	unlock, err := Lock(ctx, ws.Repo)
	if err != nil {
		return nil, err
	}
	defer unlock()
	for i := range out {
		m := out[i].Memory
		src := m.File.Src
		data, err := prose.Apply(src, out[i].Fixes)
		if err != nil {
			return out, fmt.Errorf("%s: %w", m.Path, err)
		}
		if err := WriteMemory(ws.Repo, ws.Top, m.Path, src, data); err != nil {
			return out, err
		}
		out[i].Written = true
	}
	return out, nil
}
