package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/render"
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
			return &exitErr{code: exitError, err: fmt.Errorf("--via and --yes choose how git hooks are installed; they do not go with --agent")}
		}
		return c.agentFlags.install(g, env, c.Manual, c.DryRun)
	}
	opts := hookinstall.Options{Hooks: c.Hooks, DryRun: c.DryRun, Rev: releaseRev(), Yes: c.Yes}
	if c.Via != "" {
		via, err := hookinstall.ParseRoute(c.Via)
		if err != nil {
			return &exitErr{code: exitError, err: err}
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
	r := plan.Repo
	if opts.Mode == hookinstall.ModeManual {
		writeSnippets(env.Stdout, plan.Snippets)
		return nil
	}
	if plan.Route != hookinstall.ViaGit {
		return managerInstall(ctx, env, plan)
	}
	if plan.Refused() {
		writeRefusal(env.Stderr, plan)
		return silent(exitStale)
	}
	for _, h := range plan.Hooks {
		fmt.Fprintf(env.Stdout, "%-17s %-10s %s%s\n", h.Name, installVerb(h.Action, c.DryRun), show(r, h.Path), movedNote(r, h))
	}
	for _, h := range plan.Hooks {
		if h.Note != "" {
			fmt.Fprintf(env.Stderr, "note: %s: %s\n", h.Name, h.Note)
		}
	}
	if c.DryRun {
		fmt.Fprintln(env.Stdout, "(dry run: nothing written)")
		return nil
	}
	fmt.Fprintln(env.Stdout, "Bypass once: git commit --no-verify, or MEMCITE=0 git ...; remove: git memcite uninstall")
	return nil
}

func installVerb(a hookinstall.Action, dry bool) string {
	if !dry {
		switch a {
		case hookinstall.Create:
			return "created"
		case hookinstall.Replace:
			return "replaced"
		case hookinstall.Upgrade:
			return "upgraded"
		case hookinstall.Chain:
			return "chained"
		case hookinstall.Backup:
			return "replaced"
		}
	}
	return string(a)
}

func movedNote(r hookinstall.Repo, h hookinstall.HookPlan) string {
	switch h.Action {
	case hookinstall.Chain:
		return fmt.Sprintf(" (your hook runs first, from %s)", filepath.Base(h.MovedTo))
	case hookinstall.Backup:
		return fmt.Sprintf(" (your hook saved as %s)", filepath.Base(h.MovedTo))
	}
	return ""
}

func writeRefusal(w io.Writer, plan hookinstall.Plan) {
	r := plan.Repo
	if plan.Refusal != "" {
		fmt.Fprintf(w, "git-memcite: not installed: %s.\n", plan.Refusal)
		if r.Husky() {
			fmt.Fprintln(w, "  Add git-memcite to husky's scripts: git memcite install --via husky")
			fmt.Fprintln(w, "  Print the lines to add:             git memcite install --manual")
		} else {
			fmt.Fprintln(w, "  Install there anyway:    git memcite install --force")
			fmt.Fprintln(w, "  Print the lines to add:  git memcite install --manual")
			fmt.Fprintf(w, "  Or stop using it:        git config --%s --unset core.hooksPath\n", scopeFlag(r.HooksPathScope))
		}
	} else {
		for _, h := range plan.Hooks {
			if h.Action != hookinstall.Refuse {
				continue
			}
			fmt.Fprintf(w, "git-memcite: not installed: %s: %s:\n", show(r, h.Path), h.Reason)
			for _, l := range strings.Split(h.Head, "\n") {
				fmt.Fprintf(w, "    | %s\n", render.Safe(l))
			}
		}
		fmt.Fprintln(w, "Nothing was written. Choose one:")
		fmt.Fprintln(w, "  git memcite install --chain    keep the existing hook and run it first")
		fmt.Fprintln(w, "  git memcite install --force    back it up (<hook>.memcite-bak) and replace it")
		fmt.Fprintln(w, "  git memcite install --manual   write nothing; print the lines to add yourself")
	}
	if len(plan.Snippets) > 0 {
		fmt.Fprintln(w, "Lines to add by hand:")
		writeSnippets(w, plan.Snippets)
	}
}

func writeSnippets(w io.Writer, ss []hookinstall.Snippet) {
	for _, s := range ss {
		fmt.Fprintf(w, "# add to %s:\n%s", s.File, s.Text)
		if s.Then != "" {
			fmt.Fprintf(w, "# then run: %s\n", s.Then)
		}
	}
}

func scopeFlag(scope string) string {
	switch scope {
	case "global", "system", "worktree":
		return scope
	}
	return "local"
}

// repoDir is where to look for the repository.
func repoDir(g *Globals) string {
	if g.RepoRoot != "" {
		return g.RepoRoot
	}
	return "."
}

// show prints p relative to the worktree root when inside it.
func show(r hookinstall.Repo, p string) string {
	if rel, err := filepath.Rel(r.Top, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}
