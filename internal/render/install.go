package render

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/agentinstall"
	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// The output of install, uninstall and status: git hooks, hook managers
// and the agent hook.

// bypassHint closes a successful install.
const bypassHint = "Bypass once: git commit --no-verify, or MEMCITE=0 git ...; remove: git memcite uninstall"

const dryRunNote = "(dry run: nothing written)"

// HookInstall writes what install did (or, dry, would do) to git's hook
// scripts, one line per hook, and the hooks' notes to errw.
func HookInstall(w, errw io.Writer, plan hookinstall.Plan, dry bool) {
	r := plan.Repo
	for _, h := range plan.Hooks {
		fmt.Fprintf(w, "%-17s %-10s %s%s\n", h.Name, installVerb(h.Action, dry), relPath(r.Top, h.Path), movedNote(h))
	}
	for _, h := range plan.Hooks {
		if h.Note != "" {
			fmt.Fprintf(errw, "note: %s: %s\n", h.Name, h.Note)
		}
	}
	if dry {
		fmt.Fprintln(w, dryRunNote)
		return
	}
	fmt.Fprintln(w, bypassHint)
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

func movedNote(h hookinstall.HookPlan) string {
	switch h.Action {
	case hookinstall.Chain:
		return fmt.Sprintf(" (your hook runs first, from %s)", filepath.Base(h.MovedTo))
	case hookinstall.Backup:
		return fmt.Sprintf(" (your hook saved as %s)", filepath.Base(h.MovedTo))
	}
	return ""
}

// InstallRefusal writes why install into git's hook scripts wrote nothing,
// and the ways on.
func InstallRefusal(w io.Writer, plan hookinstall.Plan) {
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
			fmt.Fprintf(w, "git-memcite: not installed: %s: %s:\n", relPath(r.Top, h.Path), h.Reason)
			for _, l := range strings.Split(h.Head, "\n") {
				fmt.Fprintf(w, "    | %s\n", Safe(l))
			}
		}
		fmt.Fprintln(w, "Nothing was written. Choose one:")
		fmt.Fprintln(w, "  git memcite install --chain    keep the existing hook and run it first")
		fmt.Fprintln(w, "  git memcite install --force    back it up (<hook>.memcite-bak) and replace it")
		fmt.Fprintln(w, "  git memcite install --manual   write nothing; print the lines to add yourself")
	}
	if len(plan.Snippets) > 0 {
		fmt.Fprintln(w, "Lines to add by hand:")
		Snippets(w, plan.Snippets)
	}
}

// Snippets writes the lines to add by hand to each file.
func Snippets(w io.Writer, ss []hookinstall.Snippet) {
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

// relPath shows p relative to top when inside it.
func relPath(top, p string) string {
	if rel, err := filepath.Rel(top, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}

// ManagerRefusal writes why install through a hook manager wrote nothing.
func ManagerRefusal(w io.Writer, plan hookinstall.Plan) {
	switch {
	case plan.Refusal != "":
		fmt.Fprintf(w, "git-memcite: not installed: %s.\n", plan.Refusal)
	default:
		fmt.Fprintf(w, "git-memcite: not installed: cannot edit it: %s.\n", plan.Unsupported)
	}
	if len(plan.Snippets) > 0 {
		fmt.Fprintln(w, "Lines to add by hand:")
		Snippets(w, plan.Snippets)
	}
}

// ManagerInstall writes an install through a hook manager: what was
// found, the edits, the manager's installer, its notes and warnings (to
// errw), and, when the plan waits for --yes or is a dry run, what next.
func ManagerInstall(w, errw io.Writer, plan hookinstall.Plan) {
	r := plan.Repo
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
			fmt.Fprintf(w, "%s %s (a copy of git-memcite's former hook)\n", verb("removed", "remove"), relPath(r.Top, p))
		}
		switch u.Action {
		case hookinstall.Remove:
			fmt.Fprintf(w, "%s git-memcite's script %s (%s runs git-memcite from now on)\n", verb("removed", "remove"), relPath(r.Top, u.Path), plan.Route)
		case hookinstall.Restore:
			fmt.Fprintf(w, "%s git-memcite's script %s and put back %s\n", verb("removed", "remove"), relPath(r.Top, u.Path), relPath(r.Top, u.Restored))
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
				fmt.Fprintf(w, "  + %s\n", Safe(l))
			}
		}
	}
	if len(plan.Edits) == 0 && len(plan.Cleanup) == 0 {
		fmt.Fprintf(w, "%s already runs git-memcite at %s\n", plan.Route, strings.Join(plan.Options.Hooks, ", "))
	}
	if len(plan.Installer) > 0 && (plan.InstallerRan || !plan.Applied) {
		// only what was run: an installer that could not be started is
		// named in the warning below, with the command to run
		fmt.Fprintf(w, "%s %s\n", verb("ran:", "then run:"), strings.Join(plan.Installer, " "))
		if out := strings.TrimSpace(plan.InstallerOut); out != "" {
			for _, l := range strings.Split(out, "\n") {
				fmt.Fprintf(w, "  | %s\n", Safe(l))
			}
		}
	}
	for _, n := range plan.Notes {
		fmt.Fprintf(errw, "note: %s\n", n)
	}
	if plan.InstallerErr != "" {
		fmt.Fprintf(errw, "git-memcite: warning: %s\n", plan.InstallerErr)
	}
	switch {
	case plan.Confirm:
		fmt.Fprintf(w, "Nothing written yet. Do it: git memcite install --yes   (the same as --via %s)\n", plan.Route)
		fmt.Fprintln(w, "  other ways: --via lefthook|husky|pre-commit|git; the lines only: --manual")
	case plan.Options.DryRun:
		fmt.Fprintln(w, dryRunNote)
	}
}

// ManagerInstalled writes, after an install through a hook manager,
// whether git-memcite now runs at each hook.
func ManagerInstalled(w io.Writer, st hookinstall.Status) {
	HookStatus(w, st)
	fmt.Fprintln(w, bypassHint)
}

// HookStatus writes, per hook, whether git-memcite runs when git runs it,
// through what, or why not.
func HookStatus(w io.Writer, st hookinstall.Status) {
	for _, h := range st.Hooks {
		switch {
		case h.Runs:
			fmt.Fprintf(w, "%-17s runs git-memcite: %s\n", h.Name, Safe(h.Via))
		case h.Expected:
			fmt.Fprintf(w, "%-17s DOES NOT RUN git-memcite: %s\n", h.Name, Safe(h.Why))
		default:
			fmt.Fprintf(w, "%-17s not installed\n", h.Name)
		}
		for _, p := range h.Problems {
			fmt.Fprintf(w, "%-17s problem: %s\n", "", Safe(p))
		}
		for _, n := range h.Notes {
			fmt.Fprintf(w, "%-17s note: %s\n", "", Safe(n))
		}
	}
}

// StatusProblem writes why the hooks are not as expected (st.OK() is
// false).
func StatusProblem(w io.Writer, st hookinstall.Status) {
	switch {
	case !st.Found:
		fmt.Fprintln(w, "git-memcite: hooks not installed (git memcite install)")
	case len(st.NotRunning()) > 0:
		for _, h := range st.NotRunning() {
			fmt.Fprintf(w, "git-memcite: git-memcite would not run at %s: %s\n", h.Name, Safe(h.Why))
		}
	case len(st.Broken()) > 0:
		for _, h := range st.Broken() {
			for _, p := range h.Problems {
				fmt.Fprintf(w, "git-memcite: %s: %s\n", h.Name, Safe(p))
			}
		}
	case st.Outdated():
		fmt.Fprintln(w, "git-memcite: hooks outdated (git memcite install upgrades them)")
	}
}

// StatusText writes status: the hooks directory, core.hooksPath, git's
// version, each hook's script and whether git-memcite runs there, the
// other hook managers and the agent hook's settings files (agents, of
// the directory top).
func StatusText(w io.Writer, st hookinstall.Status, agents []agentinstall.State) {
	r := st.Repo
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
		if h.State.Ours() {
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
		fmt.Fprintf(w, "%-17s %-18s %s%s\n", h.Name, state, relPath(r.Top, h.Path), extra)
	}
	if st.Found {
		HookStatus(w, st)
	} else {
		// each hook is listed above; one line says what it means
		fmt.Fprintln(w, "git-memcite is not installed in this repository's hooks: git memcite install")
	}
	if len(r.Managers) > 0 {
		var ms []string
		for _, m := range r.Managers {
			ms = append(ms, string(m))
		}
		fmt.Fprintf(w, "other hook managers: %s\n", strings.Join(ms, ", "))
	}
	agentStatus(w, r.Top, agents)
}

// agentStatus writes each agent settings file that holds the agent hook,
// or one line per agent configured here without it.
func agentStatus(w io.Writer, top string, sts []agentinstall.State) {
	shown, configured := map[string]bool{}, map[string]bool{}
	for _, st := range sts {
		rel := relPath(top, st.Path)
		what := "agent hook (" + st.Agent.Name + ")"
		configured[st.Agent.Name] = configured[st.Agent.Name] || st.Exists
		switch {
		case st.Err != nil:
			fmt.Fprintf(w, "%-17s %-18s %s\n", what, "unreadable", Safe(st.Err.Error()))
		case st.Installed && agentGaps(st) != "":
			fmt.Fprintf(w, "%-17s %-18s %s (%s)\n", what, "partial", rel, agentGaps(st))
		case st.Installed:
			fmt.Fprintf(w, "%-17s %-18s %s\n", what, "installed", rel)
		default:
			continue
		}
		shown[st.Agent.Name] = true
	}
	for _, a := range agentinstall.Agents {
		if configured[a.Name] && !shown[a.Name] {
			fmt.Fprintf(w, "%-17s %-18s %s\n", "agent hook ("+a.Name+")", "not installed", "(git memcite install --agent "+a.Name+")")
		}
	}
}

// agentGaps says what an installed agent hook misses ("" for nothing):
// tools its matcher does not select, events without it, a command that
// fails without git-memcite.
func agentGaps(st agentinstall.State) string {
	var gaps []string
	if len(st.Missing) > 0 {
		gaps = append(gaps, fmt.Sprintf("its matcher %q misses %s", Safe(strings.Join(st.Matchers, ", ")), strings.Join(st.Missing, ", ")))
	}
	if len(st.Events) > 0 {
		gaps = append(gaps, "not on "+strings.Join(st.Events, ", "))
	}
	if len(st.Unguarded) > 0 {
		gaps = append(gaps, "fails where git-memcite is not installed")
	}
	if len(gaps) > 0 && st.Outdated {
		gaps = append(gaps, "git memcite install --agent "+st.Agent.Name+" updates it")
	}
	return strings.Join(gaps, "; ")
}

// Uninstall writes what uninstall took out (or, dry, would take out) of
// the hook scripts and the hook managers' files; notes go to errw.
func Uninstall(w, errw io.Writer, res hookinstall.UninstallResult, dry bool) {
	top := res.Repo.Top
	removed := map[string]bool{}
	for _, p := range res.Removed {
		removed[p] = true
	}
	for _, h := range res.Hooks {
		if removed[h.Path] {
			continue // one line per file: the removal below says it
		}
		line := fmt.Sprintf("%-17s %-8s %s", h.Name, h.Action, relPath(top, h.Path))
		if h.Action == hookinstall.Restore {
			line += fmt.Sprintf(" (put back from %s)", filepath.Base(h.Restored))
		}
		fmt.Fprintln(w, line)
		for _, p := range h.Extra {
			fmt.Fprintf(w, "%-17s %-8s %s\n", "", "remove", relPath(top, p))
		}
		if h.Note != "" {
			fmt.Fprintf(errw, "note: %s: %s\n", h.Name, h.Note)
		}
	}
	for _, e := range res.Edits {
		what := "edit"
		if e.Delete {
			what = "delete"
		}
		fmt.Fprintf(w, "%-17s %-8s %s (git-memcite at %s)\n", "", what, e.Rel, strings.Join(e.Hooks, ", "))
	}
	for _, e := range res.Tracked {
		fmt.Fprintf(w, "%-17s %-8s %s (tracked by git: it runs git-memcite at %s for every clone; to take it out for everyone: git memcite uninstall --yes)\n",
			"", "kept", e.Rel, strings.Join(e.Hooks, ", "))
	}
	for _, p := range res.Removed {
		fmt.Fprintf(w, "%-17s %-8s %s (a hook its manager installed for git-memcite)\n", "", "remove", relPath(top, p))
	}
	for _, p := range res.GitDirs {
		fmt.Fprintf(w, "%-17s %-8s %s/ (git-memcite's %s)\n", "", "remove", relPath(top, p), gitDirRole(p))
	}
	for _, n := range res.Notes {
		fmt.Fprintf(errw, "note: %s\n", n)
	}
	if len(res.Tracked) > 0 && !dry {
		fmt.Fprintln(errw, "note: git-memcite still runs here through the tracked files above; to skip it in this clone only: git config memcite.enabled false")
	}
	if dry {
		fmt.Fprintln(w, dryRunNote)
	}
}

// gitDirRole names what one of git-memcite's directories in the git
// directory holds.
func gitDirRole(p string) string {
	if filepath.Base(p) == "memcite" {
		return "verification cache"
	}
	return "temporary files"
}

// AgentSnippet writes install --agent --manual: the settings to add to
// the agent's file rel.
func AgentSnippet(w io.Writer, a agentinstall.Agent, rel string) {
	fmt.Fprintf(w, "# add to %s (merge into its \"hooks\" if it has them):\n%s", rel, agentinstall.Snippet(a))
}

// AgentInstall writes what install --agent did to the settings file rel
// (a diff when dry); local says it is the personal settings file (a note
// to keep it out of commits goes to errw).
func AgentInstall(w, errw io.Writer, r agentinstall.Result, rel string, local, dry bool) {
	a := r.Agent
	fmt.Fprintf(w, "%-19s %-10s %s\n", "agent hook ("+a.Name+")", agentVerb(r.Action, dry), rel)
	if dry {
		agentDiff(w, r.Before, r.After)
		return
	}
	if r.Action == agentinstall.Created && local {
		fmt.Fprintf(errw, "note: %s is personal: keep it out of commits (.gitignore)\n", rel)
	}
	flag := ""
	if local {
		flag = " --local"
	}
	var events []string
	for _, e := range a.Events {
		events = append(events, e.Name)
	}
	fmt.Fprintf(w, "%s now runs git memcite agent-hook on %s: after its file tools and Serena's memory tools, and when a session starts; remove: git memcite uninstall --agent %s%s\n",
		a.Title, strings.Join(events, " and "), a.Name, flag)
}

// AgentUninstall writes what uninstall --agent did to the settings file
// rel (a diff when dry); hooks it did not write that still run the agent
// hook are noted on errw.
func AgentUninstall(w, errw io.Writer, r agentinstall.Result, rel string, dry bool) {
	fmt.Fprintf(w, "%-19s %-8s %s\n", "agent hook ("+r.Agent.Name+")", r.Action, rel)
	for _, c := range r.Others {
		fmt.Fprintf(errw, "note: %s: a hook install did not write still runs the agent hook: %s\n", rel, Safe(c))
	}
	if dry {
		agentDiff(w, r.Before, r.After)
	}
}

// AgentSettingsKept says that uninstall --agent left a settings file git
// tracks as it is, and the command that edits it.
func AgentSettingsKept(w io.Writer, rel, agent string, local bool) {
	flag := ""
	if local {
		flag = " --local"
	}
	fmt.Fprintf(w, "%-19s %-8s %s (tracked by git: it runs git-memcite agent-hook for every clone; to take it out for everyone: git memcite uninstall --agent %s%s --yes)\n",
		"agent hook ("+agent+")", "kept", rel, agent, flag)
}

// AgentHookKept names, after uninstall of the git hooks, the agent
// settings files (of the repository at top) that still run git-memcite,
// with the command that takes it out.
func AgentHookKept(w io.Writer, top string, sts []agentinstall.State) {
	for _, st := range sts {
		flag := ""
		if filepath.Base(st.Path) == "settings.local.json" {
			flag = " --local"
		}
		fmt.Fprintf(w, "%-17s %-8s %s (runs git-memcite agent-hook for Claude Code; not a git hook: git memcite uninstall --agent claude%s takes it out)\n",
			"", "kept", relPath(top, st.Path), flag)
	}
}

// agentDiff shows a dry run's change.
func agentDiff(w io.Writer, before, after []byte) {
	for _, l := range strings.SplitAfter(agentinstall.Diff(before, after), "\n") {
		if l != "" {
			fmt.Fprintln(w, Safe(strings.TrimSuffix(l, "\n")))
		}
	}
	fmt.Fprintln(w, dryRunNote)
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
	case agentinstall.Updated:
		return "update"
	}
	return string(a)
}

// RelPath shows p relative to top when inside it.
func RelPath(top, p string) string { return relPath(top, p) }

// HeadState writes, in one line, the store as install found it at HEAD
// (s: verify-all's summary of HEAD against HEAD).
func HeadState(w io.Writer, s verify.Summary) {
	line := fmt.Sprintf("memories at HEAD: %s", count(s.Memories, "memory", "memories"))
	switch {
	case s.Citations == 0:
		// the references in the prose are verify-all's, not the hooks'
		line += ", no citations in their frontmatter (git memcite verify-all also checks the references in their prose)"
	case s.StaleCitations == 0:
		line += fmt.Sprintf(" (%d with citations), %s, all valid", s.WithCitations, count(s.Citations, "citation", "citations"))
	default:
		line += fmt.Sprintf(" (%d with citations), %s, %d stale in %s: already stale, they do not block a commit (git memcite verify-all --rev HEAD lists them)",
			s.WithCitations, count(s.Citations, "citation", "citations"), s.StaleCitations, count(s.Stale, "memory", "memories"))
	}
	if s.Errors > 0 {
		line += fmt.Sprintf("; %s cannot be parsed", count(s.Errors, "memory file", "memory files"))
	}
	fmt.Fprintln(w, line)
}
