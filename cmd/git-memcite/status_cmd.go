package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/hookinstall"
)

type statusCmd struct {
	hookFlags
}

func (c *statusCmd) Help() string {
	return "Shows which git-memcite hooks are installed where, whether they are current, the git version, core.hooksPath and other hook managers found. " +
		"Exit status: 0 installed and current; 1 not installed or outdated; 2 error."
}

func (c *statusCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	st, err := hookinstall.GetStatus(ctx, repoDir(g), c.Hooks)
	if err != nil {
		return err
	}
	r := st.Repo
	w := env.Stdout
	fmt.Fprintf(w, "hooks directory: %s\n", r.HooksDir)
	if r.HooksPath != "" {
		where := "inside the repository"
		if r.HooksPathOutside {
			where = "outside the repository"
		}
		fmt.Fprintf(w, "core.hooksPath:  %s (%s config, %s)\n", r.HooksPath, scopeFlag(r.HooksPathScope), where)
	}
	fmt.Fprintf(w, "git version:     %s\n", r.GitVersion)
	for _, h := range st.Hooks {
		state := string(h.State)
		switch {
		case h.State.Ours():
			state = fmt.Sprintf("%s (v%d)", h.State, h.Version)
		case h.State == hookinstall.Foreign && h.Calls:
			state = "runs git-memcite"
		}
		extra := ""
		if h.Manager != hookinstall.None {
			extra += " [" + string(h.Manager) + "]"
		}
		if h.Chained != "" {
			extra += " (runs " + filepath.Base(h.Chained) + " first)"
		}
		if h.Backup != "" {
			extra += " (backup: " + filepath.Base(h.Backup) + ")"
		}
		fmt.Fprintf(w, "%-17s %-18s %s%s\n", h.Name, state, show(r, h.Path), extra)
	}
	if len(r.Managers) > 0 {
		var ms []string
		for _, m := range r.Managers {
			ms = append(ms, string(m))
		}
		fmt.Fprintf(w, "other hook managers: %s\n", strings.Join(ms, ", "))
	}
	writeAgentStatus(w, r.Top)
	switch {
	case !st.Installed():
		fmt.Fprintln(env.Stderr, "git-memcite: hooks not installed (git memcite install)")
		return silent(exitStale)
	case st.Outdated():
		fmt.Fprintln(env.Stderr, "git-memcite: hooks outdated (git memcite install upgrades them)")
		return silent(exitStale)
	}
	return nil
}
