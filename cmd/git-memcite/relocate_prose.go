package main

import (
	"context"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/render"
)

// runProse is relocate --prose: the moved paths and renamed memory links
// of the memories' prose, listed, and with --fix rewritten.
func (c *relocateCmd) runProse(ctx context.Context, g *Globals, env *Env) error {
	if c.JSON || c.AcceptChanged || c.To != "" || c.Staged {
		return outcome.Usagef("--prose works with --fix and --dry-run only")
	}
	ws, err := g.open(ctx, SourceFlags{})
	if err != nil {
		return err
	}
	mems, failed := selectMemories(ctx, ws, c.Memories, env.Stderr)
	fixed, err := app.ProseFix(ctx, ws, mems, c.Fix && !c.DryRun)
	var lines []render.ProseFixLine
	pending := 0
	for _, f := range fixed {
		for _, x := range f.Fixes {
			lines = append(lines, render.ProseFixLine{Memory: f.Memory.Path, Line: x.Line, Old: x.Old, New: x.New, Written: f.Written})
			if !f.Written {
				pending++
			}
		}
	}
	if rerr := render.ProseFixText(env.Stdout, lines); rerr != nil {
		return rerr
	}
	switch {
	case err != nil:
		return err
	case failed:
		return outcome.Reported(outcome.BadInput)
	case pending > 0:
		return outcome.Reported(outcome.Stale)
	}
	return nil
}
