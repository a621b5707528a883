package main

import (
	"context"

	"github.com/git-memcite/git-memcite/internal/agentinstall"
	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/render"
)

type statusCmd struct {
	hookFlags
}

func (c *statusCmd) Help() string {
	return "Shows, for each hook, whether git-memcite actually runs when git runs it: through its own script, or through lefthook, husky " +
		"or the pre-commit framework and their configuration (and the .old and .legacy files they leave); also the hooks directory, " +
		"core.hooksPath, the git version and the hook managers found. " +
		"Exit status: 0 git-memcite runs at every hook it is installed for (or it is not installed here); 1 it would not run at a hook where it is expected " +
		"(a hook named with --hooks, one install put it at, one with a trace of it), with the reason, or a script is outdated or a setup broken; 2 error."
}

func (c *statusCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	st, err := hookinstall.GetStatus(ctx, repoDir(g), c.Hooks)
	if err != nil {
		return err
	}
	render.StatusText(env.Stdout, st, agentinstall.Status(st.Repo.Top))
	if !st.OK() {
		render.StatusProblem(env.Stderr, st)
		return outcome.Reported(outcome.NotInstalled)
	}
	return nil
}
