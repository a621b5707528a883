package main

import (
	"errors"

	"github.com/git-memcite/git-memcite/internal/agentinstall"
	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/render"
)

// agentFlags select an AI agent's settings for install and uninstall,
// instead of the git hooks (docs/agent-hook.md).
type agentFlags struct {
	Agent string `name:"agent" enum:",claude" default:"" placeholder:"AGENT" help:"Install the agent hook into an AI agent's settings instead of the git hooks: claude (Claude Code's .claude/settings.json), so that an agent reading a memory is told which citations are stale."`
	Local bool   `name:"local" help:"With --agent: the personal .claude/settings.local.json instead of the project's .claude/settings.json. With install --via pre-commit: a repo: local hook that runs the git-memcite on PATH (language: system; no network, no build)."`
}

// gitHookOnly refuses the git hooks' flags next to --agent.
func gitHookOnly(hooks []string, chain, force bool) error {
	switch {
	case len(hooks) > 0:
		return usageError("--hooks selects git hooks; it cannot be combined with --agent")
	case chain || force:
		return usageError("--chain and --force are for git hooks; they cannot be combined with --agent")
	}
	return nil
}

func usageError(msg string) error { return &exitErr{code: exitError, err: errors.New(msg)} }

// install runs install --agent.
func (a agentFlags) install(g *Globals, env *Env, manual, dryRun bool) error {
	top, err := app.AgentTop(repoDir(g))
	if err != nil {
		return err
	}
	rel := render.RelPath(top, agentinstall.SettingsFile(top, a.Local))
	if manual {
		render.AgentSnippet(env.Stdout, rel)
		return nil
	}
	r, err := agentinstall.Install(top, a.Local, dryRun)
	if err != nil {
		return err
	}
	render.AgentInstall(env.Stdout, env.Stderr, r, rel, a.Local, dryRun)
	return nil
}

// uninstall runs uninstall --agent.
func (a agentFlags) uninstall(g *Globals, env *Env, dryRun bool) error {
	top, err := app.AgentTop(repoDir(g))
	if err != nil {
		return err
	}
	r, err := agentinstall.Uninstall(top, a.Local, dryRun)
	if err != nil {
		return err
	}
	render.AgentUninstall(env.Stdout, env.Stderr, r, render.RelPath(top, r.Path), dryRun)
	return nil
}
