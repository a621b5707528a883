package hookinstall

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-memcite/git-memcite/hooks"
)

// RepoURL is the repository the pre-commit framework clones git-memcite
// from.
const RepoURL = "https://github.com/git-memcite/git-memcite"

// Snippet is text for the user to add to a file by hand.
type Snippet struct {
	Manager Manager
	File    string // where it goes, relative to the worktree root when inside it
	Text    string // the lines to add, ending in a newline
	Then    string // a command to run afterwards, if any
}

// snippets returns what to add, for the manager in charge, so that the
// named hooks run git-memcite. rev is the release for the pre-commit
// framework's "rev:".
func snippets(r Repo, m Manager, names []string, rev string, local bool) []Snippet {
	switch m {
	case Husky:
		var out []Snippet
		for _, n := range names {
			out = append(out, Snippet{Manager: Husky, File: ".husky/" + n, Text: cliLine(n, "git memcite") + "\n"})
		}
		return out
	case Lefthook:
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "%s:\n  commands:\n    memcite:\n", n)
			switch n {
			case "post-merge":
				b.WriteString("      run: git memcite hook post-merge {1}\n")
			case "post-rewrite":
				b.WriteString("      run: git memcite hook post-rewrite {1}\n      use_stdin: true\n")
			default:
				fmt.Fprintf(&b, "      run: git memcite hook %s\n", n)
			}
		}
		return []Snippet{{Manager: Lefthook, File: lefthookFile(r), Text: b.String(), Then: "lefthook install"}}
	case PreCommit:
		var b strings.Builder
		var types, ids []string
		for _, n := range names {
			types = append(types, "-t "+n)
			if id := preCommitID(n); !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		if rev == "" {
			local = true // nothing fixed to pin: the git-memcite on PATH
		}
		for _, l := range preCommitItem(itemLayout{2, 4, 6, 8}, RepoURL, rev, ids, local) {
			b.WriteString(l + "\n")
		}
		return []Snippet{{
			Manager: PreCommit, File: ".pre-commit-config.yaml", Text: b.String(),
			Then: "pre-commit install " + strings.Join(types, " "),
		}}
	}
	var out []Snippet
	for _, n := range names {
		out = append(out, Snippet{Manager: m, File: displayPath(r, filepath.Join(r.HooksDir, n)), Text: scriptLines(n)})
	}
	return out
}

// cliLine is the line that runs the named hook from another hook script
// (husky runs its scripts with sh -e and passes the hook's arguments).
func cliLine(name, cmd string) string {
	if !hooks.Pre(name) {
		return fmt.Sprintf(`%s hook %s "$@" || true`, cmd, name)
	}
	return fmt.Sprintf("%s hook %s", cmd, name)
}

// scriptLines are the lines to paste into an existing hook script, before
// any final exec or exit.
func scriptLines(name string) string {
	const c = "# git-memcite: check code citations in memory files\n"
	if !hooks.Pre(name) {
		return c + fmt.Sprintf("command -v git-memcite >/dev/null 2>&1 && git-memcite hook %s \"$@\" || true\n", name)
	}
	return c + fmt.Sprintf("if command -v git-memcite >/dev/null 2>&1; then git-memcite hook %s \"$@\" || exit $?; fi\n", name)
}

// lefthookFile is the lefthook configuration file in use, or the default.
func lefthookFile(r Repo) string {
	for _, f := range managerFiles[Lefthook] {
		if exists(filepath.Join(r.Top, f)) {
			return f
		}
	}
	return "lefthook.yml"
}

// displayPath shows p relative to the worktree root when it lies inside it.
func displayPath(r Repo, p string) string {
	if within(p, r.Top) {
		if rel, err := filepath.Rel(r.Top, p); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return p
}
