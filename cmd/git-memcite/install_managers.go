package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/render"
)

// managerInstall renders an install through a hook manager (or the
// refusal to choose one): what was found, the edits, the manager's
// installer and, once done, whether git-memcite now runs at each hook.
func managerInstall(ctx context.Context, env *Env, plan hookinstall.Plan) error {
	w, r := env.Stdout, plan.Repo
	if plan.Refused() {
		switch {
		case plan.Refusal != "":
			fmt.Fprintf(env.Stderr, "git-memcite: not installed: %s.\n", plan.Refusal)
		default:
			fmt.Fprintf(env.Stderr, "git-memcite: not installed: cannot edit it: %s.\n", plan.Unsupported)
		}
		if len(plan.Snippets) > 0 {
			fmt.Fprintln(env.Stderr, "Lines to add by hand:")
			writeSnippets(env.Stderr, plan.Snippets)
		}
		return silent(exitStale)
	}
	if plan.Options.Via != "" {
		fmt.Fprintf(w, "Installing through %s (--via %s).\n", plan.Route, plan.Route)
	} else {
		fmt.Fprintf(w, "%s manages this repository's hooks: %s.\n", plan.Route, plan.Detected)
	}
	verb := func(done, todo string) string {
		if plan.Applied {
			return done
		}
		return todo
	}
	for _, u := range plan.Cleanup {
		for _, p := range u.Extra {
			fmt.Fprintf(w, "%s %s (a copy of git-memcite's former hook)\n", verb("removed", "remove"), show(r, p))
		}
		switch u.Action {
		case hookinstall.Remove:
			fmt.Fprintf(w, "%s git-memcite's script %s (%s runs git-memcite from now on)\n", verb("removed", "remove"), show(r, u.Path), plan.Route)
		case hookinstall.Restore:
			fmt.Fprintf(w, "%s git-memcite's script %s and put back %s\n", verb("removed", "remove"), show(r, u.Path), show(r, u.Restored))
		}
	}
	for _, e := range plan.Edits {
		what := verb("edited", "edit")
		if e.Create {
			what = verb("created", "create")
		}
		fmt.Fprintf(w, "%s %s: git-memcite at %s\n", what, e.Rel, strings.Join(e.Hooks, ", "))
		if !plan.Applied {
			for _, l := range hookinstall.AddedLines(e.Before, e.After) {
				fmt.Fprintf(w, "  + %s\n", render.Safe(l))
			}
		}
	}
	if len(plan.Edits) == 0 && len(plan.Cleanup) == 0 {
		fmt.Fprintf(w, "%s already runs git-memcite at %s\n", plan.Route, strings.Join(plan.Options.Hooks, ", "))
	}
	if len(plan.Installer) > 0 {
		fmt.Fprintf(w, "%s %s\n", verb("ran:", "then run:"), strings.Join(plan.Installer, " "))
		if out := strings.TrimSpace(plan.InstallerOut); out != "" {
			for _, l := range strings.Split(out, "\n") {
				fmt.Fprintf(w, "  | %s\n", render.Safe(l))
			}
		}
	}
	for _, n := range plan.Notes {
		fmt.Fprintf(env.Stderr, "note: %s\n", n)
	}
	if plan.InstallerErr != "" {
		fmt.Fprintf(env.Stderr, "git-memcite: warning: %s\n", plan.InstallerErr)
	}
	switch {
	case plan.Confirm:
		fmt.Fprintf(w, "Nothing written yet. Do it: git memcite install --yes   (the same as --via %s)\n", plan.Route)
		fmt.Fprintln(w, "  other ways: --via lefthook|husky|pre-commit|git; the lines only: --manual")
		return silent(exitStale)
	case plan.Options.DryRun:
		fmt.Fprintln(w, "(dry run: nothing written)")
		return nil
	}
	st, err := hookinstall.GetStatus(ctx, r.Top, plan.Options.Hooks)
	if err != nil {
		return err
	}
	writeHookStatus(w, st)
	fmt.Fprintln(w, "Bypass once: git commit --no-verify, or MEMCITE=0 git ...; remove: git memcite uninstall")
	if !st.OK() {
		return statusProblem(env, st)
	}
	return nil
}

// writeHookStatus prints, per hook, whether git-memcite runs when git
// runs it, through what, or why not.
func writeHookStatus(w io.Writer, st hookinstall.Status) {
	for _, h := range st.Hooks {
		switch {
		case h.Runs:
			fmt.Fprintf(w, "%-17s runs git-memcite: %s\n", h.Name, render.Safe(h.Via))
		case h.Expected:
			fmt.Fprintf(w, "%-17s DOES NOT RUN git-memcite: %s\n", h.Name, render.Safe(h.Why))
		default:
			fmt.Fprintf(w, "%-17s not installed\n", h.Name)
		}
		for _, p := range h.Problems {
			fmt.Fprintf(w, "%-17s problem: %s\n", "", render.Safe(p))
		}
		for _, n := range h.Notes {
			fmt.Fprintf(w, "%-17s note: %s\n", "", render.Safe(n))
		}
	}
}

// statusProblem reports on stderr why the hooks are not as expected and
// returns exit status 1.
func statusProblem(env *Env, st hookinstall.Status) error {
	switch {
	case !st.Found:
		fmt.Fprintln(env.Stderr, "git-memcite: hooks not installed (git memcite install)")
	case len(st.NotRunning()) > 0:
		for _, h := range st.NotRunning() {
			fmt.Fprintf(env.Stderr, "git-memcite: git-memcite would not run at %s: %s\n", h.Name, render.Safe(h.Why))
		}
	case len(st.Broken()) > 0:
		for _, h := range st.Broken() {
			for _, p := range h.Problems {
				fmt.Fprintf(env.Stderr, "git-memcite: %s: %s\n", h.Name, render.Safe(p))
			}
		}
	case st.Outdated():
		fmt.Fprintln(env.Stderr, "git-memcite: hooks outdated (git memcite install upgrades them)")
	}
	return silent(exitStale)
}

// writeUninstallManagers renders what uninstall takes out of the hook
// managers' files.
func writeUninstallManagers(env *Env, res hookinstall.UninstallResult) {
	for _, e := range res.Edits {
		what := "edit"
		if e.Delete {
			what = "delete"
		}
		fmt.Fprintf(env.Stdout, "%-17s %-8s %s (git-memcite at %s)\n", "", what, e.Rel, strings.Join(e.Hooks, ", "))
	}
	for _, p := range res.Removed {
		fmt.Fprintf(env.Stdout, "%-17s %-8s %s (a hook its manager installed for git-memcite)\n", "", "remove", show(res.Repo, p))
	}
	for _, n := range res.Notes {
		fmt.Fprintf(env.Stderr, "note: %s\n", n)
	}
}
