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
	return "Shows, for each hook, whether git-memcite actually runs when git runs it: through its own script, or through lefthook, husky " +
		"or the pre-commit framework and their configuration (and the .old and .legacy files they leave); also the hooks directory, " +
		"core.hooksPath, the git version and the hook managers found. " +
		"Exit status: 0 git-memcite runs at every hook it is installed for; 1 not installed, not running at a hook (with the reason), outdated or broken; 2 error."
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
	writeHookStatus(w, st)
	if len(r.Managers) > 0 {
		var ms []string
		for _, m := range r.Managers {
			ms = append(ms, string(m))
		}
		fmt.Fprintf(w, "other hook managers: %s\n", strings.Join(ms, ", "))
	}
	writeAgentStatus(w, r.Top)
	if !st.OK() {
		return statusProblem(env, st)
	}
	return nil
}
