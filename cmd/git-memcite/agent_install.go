package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/agentinstall"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/render"
)

// agentFlags select an AI agent's settings for install and uninstall,
// instead of the git hooks (docs/agent-hook.md).
type agentFlags struct {
	Agent string `name:"agent" enum:",claude" default:"" placeholder:"AGENT" help:"Install the agent hook into an AI agent's settings instead of the git hooks: claude (Claude Code's .claude/settings.json), so that an agent reading a memory is told which citations are stale."`
	Local bool   `name:"local" help:"With --agent: the personal .claude/settings.local.json instead of the project's .claude/settings.json."`
}

// agentTop is the directory whose .claude/ holds the settings: the
// repository's root, or the directory itself outside a repository.
func agentTop(g *Globals) (string, error) {
	repo, err := gitrepo.Discover(repoDir(g))
	switch {
	case err == nil:
		return repo.Top, nil
	case errors.Is(err, gitrepo.ErrNotRepo):
		return filepath.Abs(repoDir(g))
	}
	return "", err
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

// installAgent runs install --agent.
func (a agentFlags) install(g *Globals, env *Env, manual, dryRun bool) error {
	top, err := agentTop(g)
	if err != nil {
		return err
	}
	p := agentinstall.SettingsFile(top, a.Local)
	rel := relTo(top, p)
	if manual {
		fmt.Fprintf(env.Stdout, "# add to %s (merge into its \"hooks\" if it has them):\n%s", rel, agentinstall.Snippet())
		return nil
	}
	r, err := agentinstall.Install(top, a.Local, dryRun)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%-19s %-10s %s\n", "agent hook (claude)", agentVerb(r.Action, dryRun), rel)
	if dryRun {
		writeDiff(env.Stdout, r.Before, r.After)
		return nil
	}
	if r.Action == agentinstall.Created && a.Local {
		fmt.Fprintf(env.Stderr, "note: %s is personal: keep it out of commits (.gitignore)\n", rel)
	}
	fmt.Fprintf(env.Stdout, "Claude Code now runs `%s` after it reads a file or a Serena memory; remove: git memcite uninstall --agent claude%s\n",
		agentinstall.Command, localFlag(a.Local))
	return nil
}

// uninstall runs uninstall --agent.
func (a agentFlags) uninstall(g *Globals, env *Env, dryRun bool) error {
	top, err := agentTop(g)
	if err != nil {
		return err
	}
	r, err := agentinstall.Uninstall(top, a.Local, dryRun)
	if err != nil {
		return err
	}
	rel := relTo(top, r.Path)
	fmt.Fprintf(env.Stdout, "%-19s %-8s %s\n", "agent hook (claude)", r.Action, rel)
	for _, c := range r.Others {
		fmt.Fprintf(env.Stderr, "note: %s: a hook install did not write still runs the agent hook: %s\n", rel, render.Safe(c))
	}
	if dryRun {
		writeDiff(env.Stdout, r.Before, r.After)
	}
	return nil
}

// writeDiff shows a dry run's change.
func writeDiff(w io.Writer, before, after []byte) {
	for _, l := range strings.SplitAfter(agentinstall.Diff(before, after), "\n") {
		if l != "" {
			fmt.Fprintln(w, render.Safe(strings.TrimSuffix(l, "\n")))
		}
	}
	fmt.Fprintln(w, "(dry run: nothing written)")
}

func agentVerb(a agentinstall.Action, dry bool) string {
	if !dry {
		return string(a)
	}
	switch a {
	case agentinstall.Created:
		return "create"
	case agentinstall.Added:
		return "add"
	}
	return string(a)
}

func localFlag(local bool) string {
	if local {
		return " --local"
	}
	return ""
}

// relTo shows p relative to top when inside it.
func relTo(top, p string) string {
	if rel, err := filepath.Rel(top, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}

// writeAgentStatus adds the agent hook to status: each settings file that
// holds it, or one line when Claude Code is configured here without it.
func writeAgentStatus(w io.Writer, top string) {
	sts := agentinstall.Status(top)
	shown := false
	for _, st := range sts {
		rel := relTo(top, st.Path)
		switch {
		case st.Err != nil:
			fmt.Fprintf(w, "%-17s %-18s %s\n", "agent hook", "unreadable", render.Safe(st.Err.Error()))
		case st.Installed && len(st.Missing) > 0:
			fmt.Fprintf(w, "%-17s %-18s %s (its matcher %q misses %s)\n", "agent hook", "partial", rel,
				render.Safe(strings.Join(st.Matchers, ", ")), strings.Join(st.Missing, ", "))
		case st.Installed:
			fmt.Fprintf(w, "%-17s %-18s %s\n", "agent hook", "installed", rel)
		default:
			continue
		}
		shown = true
	}
	if !shown && (sts[0].Exists || sts[1].Exists) {
		fmt.Fprintf(w, "%-17s %-18s %s\n", "agent hook", "not installed", "(git memcite install --agent claude)")
	}
}
