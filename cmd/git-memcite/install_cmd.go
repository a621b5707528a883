package main

import (
	"context"
	"fmt"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// hookFlags selects hooks for install, uninstall and status.
type hookFlags struct {
	Hooks []string `name:"hooks" sep:"," placeholder:"LIST" help:"Hooks, comma-separated (default: pre-commit,pre-merge-commit,post-merge,post-rewrite)."`
}

type installCmd struct {
	hookFlags
	agentFlags
	Via    string `name:"via" placeholder:"MANAGER" help:"Install through lefthook (lefthook.yml, then lefthook install), husky (the .husky/<hook> scripts), pre-commit (.pre-commit-config.yaml, then pre-commit install) or git (git-memcite's scripts in the hooks directory). Default: the hook manager in charge, detected."`
	Yes    bool   `name:"yes" short:"y" help:"Carry out the plan for the hook manager detected (without it, install only says what it would do)."`
	Chain  bool   `name:"chain" xor:"mode" help:"Keep an existing hook as <hook>.memcite-prev and run it first."`
	Force  bool   `name:"force" xor:"mode" help:"Back an existing hook up to <hook>.memcite-bak and replace it; also install into a core.hooksPath outside the repository."`
	Manual bool   `name:"manual" xor:"mode" help:"Write nothing; print the lines to add to your hook manager or hook scripts."`
	DryRun bool   `name:"dry-run" help:"Show what would be done; write nothing."`
}

func (c *installCmd) Help() string {
	return "Installs git hooks that check citations: pre-commit and pre-merge-commit block commits that make a citation stale; " +
		"post-merge and post-rewrite report citations a merge or rebase made stale. Where lefthook, husky or the pre-commit framework " +
		"manages the hooks, git-memcite goes into its configuration instead: install says what it would do, and does it with --yes or --via. " +
		"Existing hooks are never overwritten without --chain or --force (not for a hook manager's hooks). " +
		"Exit status: 0 installed (or nothing to do); 1 refused, or waiting for --yes; 2 error."
}

func (c *installCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	if c.Agent != "" {
		if err := gitHookOnly(c.Hooks, c.Chain, c.Force); err != nil {
			return err
		}
		if c.Via != "" || c.Yes {
			return outcome.Usagef("--via and --yes choose how git hooks are installed; they do not go with --agent")
		}
		return c.agentFlags.install(g, env, c.Manual, c.DryRun)
	}
	if c.Local && c.Via != string(hookinstall.ViaPreCommit) {
		return outcome.Usagef("--local goes with --agent, or with --via pre-commit (a local hook that runs the git-memcite on PATH)")
	}
	opts := hookinstall.Options{Hooks: c.Hooks, DryRun: c.DryRun, Rev: releaseRev(), Yes: c.Yes, Local: c.Local}
	if c.Via != "" {
		via, err := hookinstall.ParseRoute(c.Via)
		if err != nil {
			return outcome.With(outcome.Usage, err)
		}
		opts.Via = via
	}
	switch {
	case c.Chain:
		opts.Mode = hookinstall.ModeChain
	case c.Force:
		opts.Mode = hookinstall.ModeForce
	case c.Manual:
		opts.Mode = hookinstall.ModeManual
	}
	plan, err := hookinstall.Install(ctx, repoDir(g), opts)
	if err != nil {
		return err
	}
	switch {
	case opts.Mode == hookinstall.ModeManual:
		render.Snippets(env.Stdout, plan.Snippets)
		return nil
	case plan.Route != hookinstall.ViaGit:
		return managerInstall(ctx, g, env, plan)
	case plan.Refused():
		render.InstallRefusal(env.Stderr, plan)
		return outcome.Reported(outcome.Refused)
	}
	render.HookInstall(env.Stdout, env.Stderr, plan, c.DryRun)
	if !c.DryRun {
		recordHead(ctx, g, env)
	}
	return nil
}

// recordHead verifies HEAD's memories, says in one line how the store
// stands, and leaves HEAD's verdicts for the first commit's check. It
// never fails the install: the hooks work without it.
func recordHead(ctx context.Context, g *Globals, env *Env) {
	off := vcache.OffReason(g.NoCache, g.switches.Cache) != ""
	st, ok, err := app.RecordHead(ctx, g.openOptions(SourceFlags{}), off)
	if err != nil {
		fmt.Fprintf(env.Stderr, "git-memcite: note: HEAD's citations were not checked: %v\n", err)
		return
	}
	if ok {
		render.HeadState(env.Stdout, st.Summary)
	}
}

// managerInstall carries out and renders an install through a hook
// manager (or the refusal to choose one): once done, it checks that
// git-memcite now runs at each hook.
func managerInstall(ctx context.Context, g *Globals, env *Env, plan hookinstall.Plan) error {
	if plan.Refused() {
		render.ManagerRefusal(env.Stderr, plan)
		return outcome.Reported(outcome.Refused)
	}
	render.ManagerInstall(env.Stdout, env.Stderr, plan)
	switch {
	case plan.Confirm:
		return outcome.Reported(outcome.NeedsConfirmation)
	case plan.Options.DryRun:
		return nil
	}
	st, err := hookinstall.GetStatus(ctx, plan.Repo.Top, plan.Options.Hooks)
	if err != nil {
		return err
	}
	render.ManagerInstalled(env.Stdout, st)
	recordHead(ctx, g, env)
	if !st.OK() {
		render.StatusProblem(env.Stderr, st)
		return outcome.Reported(outcome.NotInstalled)
	}
	return nil
}

// repoDir is where to look for the repository.
func repoDir(g *Globals) string {
	if g.RepoRoot != "" {
		return g.RepoRoot
	}
	return "."
}
