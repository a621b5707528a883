package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-memcite/git-memcite/internal/cite"
	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/progress"
	"github.com/git-memcite/git-memcite/internal/prose"
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
	// Warnings: lines of the body that are not valid UTF-8, left out.
	Warnings []string
}

// Adopt turns the informal citations in the bodies of mems into
// structured ones (cite.Adopt), anchored where the words were written in
// history, and with Fix writes them under the rewrite lock. Memories
// without mentions are left out; a memory that cannot be parsed is
// skipped and its error returned in errs, so that the others are still
// scanned. A memory whose body has lines that are not valid UTF-8 is
// adopted without them, with a warning each.
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
		var warned []string
		var orig []byte // the file as it is, when m was read without some lines
		if m.Err != nil {
			lossy, src, warn, ok := lossyMemory(ws, m)
			if !ok {
				errs = append(errs, m.Err)
				continue
			}
			m, orig, warned = lossy, src, warn
		}
		a, err := adoptOne(ctx, ws, m, orig, cenv, tracked, o)
		if err != nil {
			return nil, nil, err
		}
		if len(a.Mentions) > 0 || len(warned) > 0 {
			a.Memory, a.Warnings = m, warned
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
	if err != nil {
		return cenv, func() {}, err
	}
	checker := &prose.Checker{}
	if ws.Store != nil {
		cenv.MemoryDirs = ws.Store.Dirs
		checker.Dirs, checker.All = ws.Store.Dirs, ws.Store.Memories
	}
	done := func() {}
	if cenv.Head != nil {
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
		// the prose checker's anchoring and its cache of git's answers
		cache := newCachingGit(ws.Repo.GitDir, head, proseGit{proseLog{hist}, hist})
		checker.H, checker.Log, checker.Sym, checker.Head = hist, cache, cache, head
		done = func() {
			cache.save()
			hist.Close()
		}
	}
	res, err := checker.Resolver(ws.Src)
	if err != nil {
		done()
		return cenv, nil, err
	}
	cenv.Prose = res
	return cenv, done, nil
}

// lossyMemory reads again a memory that did not parse because lines of
// its body are not valid UTF-8 (memfile.ParseLossy): the memory without
// them, and a warning for each. ok is false for any other error.
func lossyMemory(ws *Workspace, m *store.Memory) (*store.Memory, []byte, []string, bool) {
	var pe *memfile.ParseError
	if !errors.As(m.Err, &pe) || pe.Msg != "not valid UTF-8" {
		return nil, nil, nil, false
	}
	src, err := ws.Src.ReadFile(m.Path)
	if err != nil {
		return nil, nil, nil, false
	}
	f, lines, err := memfile.ParseLossy(m.Path, src)
	if err != nil || len(lines) == 0 {
		return nil, nil, nil, false
	}
	var warn []string
	for _, l := range lines {
		warn = append(warn, fmt.Sprintf("%s:%d: not valid UTF-8; the line is left out, the rest of the memory is adopted", m.Path, l))
	}
	mm := *m
	mm.File, mm.Err = f, nil
	return &mm, src, warn, true
}

// adoptOne scans one memory; with Fix it writes the edit (the caller
// holds the lock). In a dry run the citations that would be added are
// reported as proposed.
func adoptOne(ctx context.Context, ws *Workspace, m *store.Memory, orig []byte, cenv cite.Env, tracked *cite.Tracked, o AdoptOptions) (Adopted, error) {
	ms, plan, err := cite.Adopt(ctx, m, cenv, tracked, o.Fix || o.DryRun)
	if err != nil || len(ms) == 0 {
		return Adopted{}, err
	}
	if plan != nil && orig != nil {
		// the body as it is, not as it was read
		if plan.New, err = memfile.RestoreBody(plan.New, m.File, orig); err != nil {
			return Adopted{}, err
		}
		plan.Old = orig
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
