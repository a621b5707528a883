package app

import (
	"context"
	"fmt"
	"sort"

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

// withProse is c with its prose reference at another place.
func withProse(c verify.CitationResult, ref verify.ProseRef) verify.CitationResult {
	c.Prose = &ref
	return c
}

// ProseFix judges the prose of mems (Verify: with line identity for the
// lines it names) and plans, for every stale reference whose target
// moved, the rewrite of its bytes at every place the memory writes it
// (prose.Occurrences, prose.Fixes); with write it writes them under the rewrite lock. The
// rest of each memory file is kept byte for byte; a file changed since it
// was read is an error, not rewritten.
func ProseFix(ctx context.Context, ws *Workspace, mems []*store.Memory, write bool) ([]ProseFixed, error) {
	if ws.ProseLevel() == "off" || ws.Store == nil {
		return nil, fmt.Errorf("prose references are off (prose: off)")
	}
	// the verdict every command gives: lines the prose names are followed
	// to where they went
	rep, err := Verify(ctx, ws, mems)
	if err != nil {
		return nil, err
	}
	var out []ProseFixed
	for i := range rep.Memories {
		mr := &rep.Memories[i]
		pf := ProseFixed{Memory: mr.Memory}
		var src []byte // nil for a memory without a file (a failed read)
		if mr.Memory.File != nil {
			src = mr.Memory.File.Src
		}
		at := map[int]bool{} // the fixes' starts: each place is rewritten once
		for _, c := range mr.StaleCitations() {
			if c.Prose == nil {
				continue
			}
			// the reference is judged once per memory; each place it is
			// written is rewritten
			for _, ref := range prose.Occurrences(src, prose.Options{}, *c.Prose, *c.Citation) {
				for _, f := range prose.Fixes(src, mr.Memory.Path, withProse(c, ref)) {
					if !at[f.Start] {
						at[f.Start] = true
						pf.Fixes = append(pf.Fixes, f)
					}
				}
			}
		}
		sort.Slice(pf.Fixes, func(a, b int) bool { return pf.Fixes[a].Start < pf.Fixes[b].Start })
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
