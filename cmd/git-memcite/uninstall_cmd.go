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
	return "Removes git-memcite from wherever install put it: its hook scripts (only files carrying its marker; hooks it chained or backed up are put back, " +
		"copies a hook manager moved aside are removed), its lines in lefthook.yml, the .husky scripts and .pre-commit-config.yaml (those files come back " +
		"byte for byte), and the hook files a manager's installer created for it. Running it again does nothing."
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
		for _, p := range h.Extra {
			fmt.Fprintf(env.Stdout, "%-17s %-8s %s\n", "", "remove", show(res.Repo, p))
		}
		if h.Note != "" {
			fmt.Fprintf(env.Stderr, "note: %s: %s\n", h.Name, h.Note)
		}
	}
	writeUninstallManagers(env, res)
	if c.DryRun {
		fmt.Fprintln(env.Stdout, "(dry run: nothing written)")
	}
	return nil
}
