package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/cite"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

const editHelp = `Memory files are rewritten in place, byte for byte except the change (comments, key order and the body are kept), ` +
	`and only when nothing changed them since they were read. ` +
	`Set SOURCE_DATE_EPOCH to pin the verified timestamps. `

const editExit = `Exit status: 0 done (or nothing to change); 2 error.`

type addCitationCmd struct {
	Memory   string  `arg:"" name:"memory" help:"Memory id, file path, or file name in a memory directory."`
	Location string  `arg:"" name:"location" help:"What to cite: path, path:line or path:line-end (or a URL)."`
	Snippet  *string `name:"snippet" placeholder:"TEXT" help:"Expected text of the cited line (default: the line itself, trimmed; --snippet \"\" for none)."`
	Force    bool    `name:"force" help:"Add the citation even when it does not verify now."`
	DryRun   bool    `name:"dry-run" short:"n" help:"Show the change as a unified diff; write nothing."`
}

func (c *addCitationCmd) Help() string {
	return editHelp + `Exit status: 0 added (or already cited); 1 the citation does not verify (see --force); 2 error.`
}

func (c *addCitationCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, m, err := g.editable(ctx, c.Memory)
	if err != nil {
		return err
	}
	cenv, err := ws.CiteEnv(ctx)
	if err != nil {
		return err
	}
	opt := cite.AddOptions{Force: c.Force}
	if c.Snippet != nil {
		opt.Snippet, opt.HasSnippet = *c.Snippet, true
	}
	plan, added, err := cite.Add(ctx, m.File, cenv, c.Location, opt)
	switch {
	case errors.Is(err, cite.ErrDuplicate):
		fmt.Fprintf(env.Stdout, "%s: %s; nothing to change\n", render.Safe(m.Path), render.Safe(err.Error()))
		return nil
	case errors.Is(err, cite.ErrStale):
		return outcome.With(outcome.Stale, err)
	case err != nil:
		return err
	}
	render.AppendedNotes(env.Stderr, added)
	return apply(ctx, g, env, ws, m, plan, c.DryRun, "Added citation "+added.Citation.Location())
}

type listCitationsCmd struct {
	Memories []string `arg:"" optional:"" name:"memory" help:"Memories to list (default: every memory with citations)."`
	JSON     bool     `name:"json" help:"Print JSON."`
}

func (c *listCitationsCmd) Help() string {
	return `Lists each citation with its index (for remove-citation), location, status and reason; ` +
		`then the references in the memory's prose, not numbered, with the memory line they are written on ` +
		`(unresolved ones too; see docs/prose-references.md). ` +
		`Exit status: 0 listed; 2 error (a memory file that cannot be parsed is listed with its error, the others are still listed).`
}

func (c *listCitationsCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, err := g.open(ctx, SourceFlags{})
	if err != nil {
		return err
	}
	mems, failed := selectMemories(ctx, ws, c.Memories, env.Stderr)
	rep, err := app.Verify(ctx, ws, mems)
	if err != nil {
		return err
	}
	if c.JSON {
		err = render.CitationsJSON(env.Stdout, rep, len(c.Memories) > 0)
	} else {
		err = render.CitationsText(env.Stdout, rep, len(c.Memories) > 0)
	}
	if err != nil {
		return err
	}
	if failed || rep.Summary().Errors > 0 {
		return outcome.Reported(outcome.BadInput) // listed with its error; the others are listed too
	}
	return nil
}

type removeCitationCmd struct {
	Memory string `arg:"" name:"memory" help:"Memory id, file path, or file name in a memory directory."`
	Which  string `arg:"" name:"citation" help:"The citation: its index from list-citations (1 is the first), or its location (path:line)."`
	DryRun bool   `name:"dry-run" short:"n" help:"Show the change as a unified diff; write nothing."`
}

func (c *removeCitationCmd) Help() string { return editHelp + editExit }

func (c *removeCitationCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, m, err := g.editable(ctx, c.Memory)
	if err != nil {
		return err
	}
	plan, removed, err := cite.Remove(m.File, c.Which)
	if err != nil {
		return err
	}
	return apply(ctx, g, env, ws, m, plan, c.DryRun, "Removed citation "+removed.Location())
}

type updateConfidenceCmd struct {
	Memory string   `arg:"" name:"memory" help:"Memory id, file path, or file name in a memory directory."`
	Value  *float64 `arg:"" optional:"" name:"value" help:"Confidence to set, from 0 to 1 (default: recompute as valid/total citations and stamp last_verified)."`
	DryRun bool     `name:"dry-run" short:"n" help:"Show the change as a unified diff; write nothing."`
}

func (c *updateConfidenceCmd) Help() string { return editHelp + editExit }

func (c *updateConfidenceCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, m, err := g.editable(ctx, c.Memory)
	if err != nil {
		return err
	}
	var plan *cite.Plan
	var what string
	if c.Value != nil {
		plan, err = cite.SetConfidence(m.File, *c.Value, "")
		what = "Confidence set to " + strconv.FormatFloat(*c.Value, 'f', -1, 64)
	} else {
		var r *verify.MemoryResult
		if plan, r, err = ws.RecomputeConfidence(ctx, m); r == nil {
			return err // not verified; else a plan's error is returned below
		}
		what = render.Confidence(env.Stderr, r)
	}
	if err != nil {
		return err
	}
	return apply(ctx, g, env, ws, m, plan, c.DryRun, what)
}

// editable opens the working tree and resolves a memory that can be
// rewritten.
func (g *Globals) editable(ctx context.Context, arg string) (*workspace, *store.Memory, error) {
	ws, err := g.open(ctx, SourceFlags{})
	if err != nil {
		return nil, nil, err
	}
	m, err := ws.Editable(ctx, arg)
	if err != nil {
		return nil, nil, err
	}
	return ws, m, nil
}

// apply prints or writes a plan: a diff for a dry run, else the file is
// replaced atomically, under the rewrite lock, when it still holds what was
// read.
func apply(ctx context.Context, g *Globals, env *Env, ws *workspace, m *store.Memory, plan *cite.Plan, dryRun bool, what string) error {
	if !plan.Changed {
		if !g.Quiet {
			fmt.Fprintf(env.Stdout, "%s: nothing to change\n", render.Safe(m.Path))
		}
		return nil
	}
	if dryRun {
		_, err := fmt.Fprint(env.Stdout, render.UnifiedDiff(m.Path, plan.Old, plan.New))
		return err
	}
	if err := ws.WritePlan(ctx, m, plan); err != nil {
		return err
	}
	if !g.Quiet {
		fmt.Fprintf(env.Stdout, "%s: %s\n", render.Safe(m.Path), render.Safe(what))
	}
	return nil
}
