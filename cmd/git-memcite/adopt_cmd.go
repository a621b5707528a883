package main

import (
	"context"
	"strings"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/render"
)

type adoptCmd struct {
	Memories []string `arg:"" optional:"" name:"memory" help:"Memories to scan (default: every memory)."`
	Fix      bool     `name:"fix" xor:"fix" help:"Add the proposed citations to the memories' frontmatter."`
	DryRun   bool     `name:"dry-run" xor:"fix" help:"Print the edit --fix would make, as a diff git apply accepts; write nothing."`
	JSON     bool     `name:"json" help:"Print JSON."`
}

func (c *adoptCmd) Help() string {
	return `Finds informal citations in memory bodies ([cite:code](path:12) markup, path:12 and path:12-20 (also #L12-L20), ` +
		"backticked paths and bare file names), resolves them against the tracked files (a bare name must match exactly one), " +
		`and proposes structured citations with snippet, commit and verified filled in. Blank or trivial lines, ` +
		`unknown or ambiguous files and citations already present are reported, not proposed. Fenced code blocks are skipped. ` +
		editHelp + `Exit status: 0 scanned (whatever was found); 2 error (a memory file that cannot be parsed).`
}

func (c *adoptCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, err := g.open(ctx, SourceFlags{})
	if err != nil {
		return err
	}
	mems, failed := selectMemories(ctx, ws, c.Memories, env.Stderr)
	adopted, errs, err := app.Adopt(ctx, ws, mems, app.AdoptOptions{Fix: c.Fix, DryRun: c.DryRun})
	if err != nil {
		return err
	}
	render.Errors(env.Stderr, errs)
	failed = failed || len(errs) > 0
	results := []render.AdoptResult{}
	var diffs strings.Builder
	for _, a := range adopted {
		results = append(results, render.AdoptResult{Memory: a.Memory.ID, Path: a.Memory.Path, Mentions: a.Mentions})
		if c.DryRun && a.Plan != nil && a.Plan.Changed {
			diffs.WriteString(render.UnifiedDiff(a.Memory.Path, a.Plan.Old, a.Plan.New))
		}
	}
	if c.JSON {
		if err := render.JSON(env.Stdout, results); err != nil {
			return err
		}
	} else if err := render.AdoptText(env.Stdout, results, g.Quiet, diffs.String()); err != nil {
		return err
	}
	if failed {
		return outcome.Reported(outcome.BadInput)
	}
	return nil
}
