package main

import (
	"context"

	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/render"
)

type uninstallCmd struct {
	hookFlags
	agentFlags
	DryRun bool `name:"dry-run" help:"Show what would be done; write nothing."`
	Yes    bool `name:"yes" short:"y" help:"Also take git-memcite out of the hook managers' files git tracks (lefthook.yml, .pre-commit-config.yaml, .husky scripts), which run it for every clone."`
}

func (c *uninstallCmd) Help() string {
	return "Removes git-memcite from this clone, wherever install put it: its hook scripts (only files carrying its marker; hooks it chained or backed up are put back, " +
		"copies a hook manager moved aside are removed), its lines in lefthook.yml, the .husky scripts and .pre-commit-config.yaml (those files come back " +
		"byte for byte), the hook files a manager's installer created for it, and its verification cache and temporary directory in the git directory. " +
		"A manager's file that git tracks runs git-memcite for everyone: it is named and kept unless --yes. Running it again does nothing."
}

func (c *uninstallCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	if c.Agent != "" {
		if err := gitHookOnly(c.Hooks, false, false); err != nil {
			return err
		}
		return c.agentFlags.uninstall(g, env, c.DryRun)
	}
	res, err := hookinstall.Uninstall(ctx, repoDir(g), hookinstall.UninstallOptions{Hooks: c.Hooks, DryRun: c.DryRun, Yes: c.Yes})
	if err != nil {
		return err
	}
	render.Uninstall(env.Stdout, env.Stderr, res, c.DryRun)
	return nil
}
