package main

import (
	"context"
	"fmt"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/term"
)

type relocateCmd struct {
	Memories      []string `arg:"" optional:"" name:"memory" help:"Memory id, file path, or file name (default: every memory)."`
	Fix           bool     `name:"fix" help:"Write the relocations into the memory files."`
	AcceptChanged bool     `name:"accept-changed" help:"Also relocate citations whose cited text was edited (review them)."`
	DryRun        bool     `name:"dry-run" help:"Show the edits --fix would make, write nothing."`
	JSON          bool     `name:"json" help:"Print one JSON array with an object per citation."`
	To            revision `name:"to" xor:"target" placeholder:"REV" help:"Relocate to a commit (default: HEAD, then the working tree)."`
	Staged        bool     `name:"staged" xor:"target" help:"Relocate to the index (HEAD, then what is staged)."`
	Prose         bool     `name:"prose" help:"Rewrite the references in the memories' prose instead: moved paths and renamed memory links get their new names, lines that moved their new numbers (only the reference's bytes change; docs/prose-references.md)."`
}

func (c *relocateCmd) Help() string {
	return "Follows each cited line from the commit it was written against (its commit field, else the commit that wrote the citation " +
		"as it stands into the memory file, found in the memory file's history, never from a clock; a citation not committed yet is taken as written) " +
		"through the history to HEAD and the working tree, and reports " +
		"where it went. Unchanged text that moved is relocated; edited text only with --accept-changed; " +
		"deleted or ambiguous lines are reported, never guessed. " + exitHelp
}

func (c *relocateCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	if c.Prose {
		return c.runProse(ctx, g, env)
	}
	write := c.Fix && !c.DryRun
	ws, err := g.openConfig(ctx, SourceFlags{})
	if err != nil {
		return err
	}
	show, stopProgress := render.Progress(env.Stderr, term.IsTerminal(env.Stderr) && !term.Dumb(), "relocating")
	// the citations are printed a batch at a time, as they are followed;
	// the diffs of --dry-run come after them all
	var out func(items []relocate.Item) error
	var arr *render.JSONArray
	if c.JSON {
		arr = render.NewJSONArray(env.Stdout)
		out = func(items []relocate.Item) error { return render.RelocJSONItems(arr, items) }
	} else {
		st := g.style(env.Stdout)
		out = func(items []relocate.Item) error {
			stopProgress()
			return render.RelocText(env.Stdout, items, st, g.Quiet && c.Fix)
		}
	}
	var diffs []string
	each := func(items []relocate.Item, files []relocate.File) error {
		if c.DryRun {
			for _, f := range files {
				diffs = append(diffs, render.UnifiedDiff(f.Memory.Path, f.Old, f.New))
			}
		}
		return out(items)
	}
	r, notFound, err := app.RelocateStore(ctx, ws, c.Memories, app.RelocateOptions{To: string(c.To), Staged: c.Staged,
		AcceptChanged: c.AcceptChanged, Write: write, Progress: show, Each: each})
	stopProgress()
	if err != nil {
		return err
	}
	render.Errors(env.Stderr, notFound)
	if arr != nil {
		if err := arr.Close(); err != nil {
			return err
		}
	}
	for _, d := range diffs {
		if _, err := fmt.Fprint(env.Stdout, d); err != nil {
			return err
		}
	}
	if !c.JSON {
		fmt.Fprintln(env.Stdout, render.RelocSummary(r.Counts, r.Edited, r.Written))
	}
	switch {
	case len(notFound) > 0:
		return outcome.Reported(outcome.BadInput)
	case r.Stale():
		return outcome.Reported(outcome.Stale)
	}
	return nil
}
