package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/git-memcite/git-memcite/internal/hookinstall"
)

type uninstallCmd struct {
	hookFlags
	agentFlags
	DryRun bool `name:"dry-run" help:"Show what would be done; write nothing."`
}

func (c *uninstallCmd) Help() string {
	return "Removes the hooks git-memcite installed (only files carrying its marker) and puts back hooks it chained or backed up. Running it again does nothing."
}

func (c *uninstallCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	if c.Agent != "" {
		if err := gitHookOnly(c.Hooks, false, false); err != nil {
			return err
		}
		return c.agentFlags.uninstall(g, env, c.DryRun)
	}
	res, err := hookinstall.Uninstall(ctx, repoDir(g), c.Hooks, c.DryRun)
	if err != nil {
		return err
	}
	for _, h := range res.Hooks {
		line := fmt.Sprintf("%-17s %-8s %s", h.Name, h.Action, show(res.Repo, h.Path))
		if h.Action == hookinstall.Restore {
			line += fmt.Sprintf(" (put back from %s)", filepath.Base(h.Restored))
		}
		fmt.Fprintln(env.Stdout, line)
		if h.Note != "" {
			fmt.Fprintf(env.Stderr, "note: %s: %s\n", h.Name, h.Note)
		}
	}
	if c.DryRun {
		fmt.Fprintln(env.Stdout, "(dry run: nothing written)")
	}
	return nil
}
