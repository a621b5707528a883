package main

import (
	"context"
	"fmt"
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
	return `Pins the references in memory bodies, as verify reads them (docs/prose-references.md: paths, path:12, ` +
		"path:12-20, path#L12-L20, `file` line 12, markdown links, links to other memories), to structured frontmatter: " +
		`each is resolved where its sentence was written (a file moved since is followed to its new place; a bare name must ` +
		`name exactly one tracked file) and becomes a citation with snippet, commit and verified filled in, or, for another ` +
		`memory, a links: entry. Blank or trivial lines, unknown, deleted or ambiguous files and citations already present ` +
		`are reported, not proposed; a reference whose objects are missing from the repository is skipped. Fenced code ` +
		`blocks are skipped; a body line that is not valid UTF-8 is left out with a warning. ` +
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
		for _, w := range a.Warnings {
			fmt.Fprintf(env.Stderr, "git-memcite: warning: %s\n", render.Safe(w))
		}
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
