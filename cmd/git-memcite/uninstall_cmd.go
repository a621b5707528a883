package main

import (
	"context"

	"github.com/git-memcite/git-memcite/internal/agentinstall"
	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/render"
)

type uninstallCmd struct {
	hookFlags
	agentFlags
	DryRun bool `name:"dry-run" help:"Show what would be done; write nothing."`
	Yes    bool `name:"yes" short:"y" help:"Also take git-memcite out of the files git tracks (lefthook.yml, .pre-commit-config.yaml, .husky scripts; with --agent, .claude/settings.json), which run it for every clone."`
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
		if kept, err := c.keepTrackedSettings(ctx, g, env); err != nil || kept {
			return err
		}
		return c.agentFlags.uninstall(g, env, c.DryRun)
	}
	res, err := hookinstall.Uninstall(ctx, repoDir(g), hookinstall.UninstallOptions{Hooks: c.Hooks, DryRun: c.DryRun, Yes: c.Yes})
	if err != nil {
		return err
	}
	render.Uninstall(env.Stdout, env.Stderr, res, c.DryRun)
	if c.Hooks == nil {
		// the agent hook is not a git hook: named, never touched
		var installed []agentinstall.State
		for _, st := range agentinstall.Status(res.Repo.Top) {
			if st.Installed {
				installed = append(installed, st)
			}
		}
		render.AgentHookKept(env.Stdout, res.Repo.Top, installed)
	}
	return nil
}

// keepTrackedSettings leaves a settings file git tracks alone unless
// --yes: it runs the agent hook for everyone who clones the repository.
// kept reports that it was left (and said so).
func (c *uninstallCmd) keepTrackedSettings(ctx context.Context, g *Globals, env *Env) (kept bool, err error) {
	if c.Yes {
		return false, nil
	}
	top, err := app.AgentTop(repoDir(g))
	if err != nil {
		return false, err
	}
	ag, err := c.agentFlags.agent()
	if err != nil {
		return false, err
	}
	p := ag.SettingsFile(top, c.Local)
	tracked, err := hookinstall.Tracked(ctx, top, []string{p})
	if err != nil || !tracked[p] {
		return false, nil // not a repository, or not tracked: the usual uninstall
	}
	for _, st := range agentinstall.Status(top) {
		if st.Path == p && st.Installed {
			render.AgentSettingsKept(env.Stdout, render.RelPath(top, p), ag.Name, c.Local)
			return true, nil
		}
	}
	return false, nil
}
