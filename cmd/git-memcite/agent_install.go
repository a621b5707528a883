package main

import (
	"path/filepath"

	"github.com/git-memcite/git-memcite/internal/agentinstall"
	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/render"
)

// agentFlags select an AI agent's settings for install and uninstall,
// instead of the git hooks (docs/agent-hook.md).
type agentFlags struct {
	Agent string `name:"agent" enum:",claude,gemini,codex" default:"" placeholder:"AGENT" help:"Install the agent hook into an AI agent's settings instead of the git hooks: claude (.claude/settings.json), gemini (.gemini/settings.json) or codex (.codex/hooks.json), so that an agent is told which citations are stale when it reads or writes a memory and when its session starts."`
	Local bool   `name:"local" help:"With --agent claude: the personal .claude/settings.local.json instead of the project's .claude/settings.json. With install --via pre-commit: a repo: local hook that runs the git-memcite on PATH (language: system; no network, no build)."`
}

// agent is the agent --agent names; --local only for an agent with a
// personal settings file.
func (a agentFlags) agent() (agentinstall.Agent, error) {
	ag, ok := agentinstall.Lookup(a.Agent)
	switch {
	case !ok:
		return ag, outcome.Usagef("unknown agent %s", a.Agent)
	case a.Local && !ag.HasLocal():
		return ag, outcome.Usagef("--local: %s has no personal settings file in the repository; its hooks go into %s", ag.Title, filepath.ToSlash(filepath.Join(ag.Dir, ag.File)))
	}
	return ag, nil
}

// gitHookOnly refuses the git hooks' flags next to --agent.
func gitHookOnly(hooks []string, chain, force bool) error {
	switch {
	case len(hooks) > 0:
		return outcome.Usagef("--hooks selects git hooks; it cannot be combined with --agent")
	case chain || force:
		return outcome.Usagef("--chain and --force are for git hooks; they cannot be combined with --agent")
	}
	return nil
}

// install runs install --agent.
func (a agentFlags) install(g *Globals, env *Env, manual, dryRun bool) error {
	ag, err := a.agent()
	if err != nil {
		return err
	}
	top, err := app.AgentTop(repoDir(g))
	if err != nil {
		return err
	}
	rel := render.RelPath(top, ag.SettingsFile(top, a.Local))
	if manual {
		render.AgentSnippet(env.Stdout, ag, rel)
		return nil
	}
	r, err := agentinstall.Install(top, ag, a.Local, dryRun)
	if err != nil {
		return err
	}
	render.AgentInstall(env.Stdout, env.Stderr, r, rel, a.Local, dryRun)
	return nil
}

// uninstall runs uninstall --agent.
func (a agentFlags) uninstall(g *Globals, env *Env, dryRun bool) error {
	ag, err := a.agent()
	if err != nil {
		return err
	}
	top, err := app.AgentTop(repoDir(g))
	if err != nil {
		return err
	}
	r, err := agentinstall.Uninstall(top, ag, a.Local, dryRun)
	if err != nil {
		return err
	}
	render.AgentUninstall(env.Stdout, env.Stderr, r, render.RelPath(top, r.Path), dryRun)
	return nil
}
