package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/hookinstall"
)

// TestUninstallOneLinePerFile: every file uninstall touches or keeps gets
// exactly one line, even when a hook file is both kept as someone else's
// hook and removed as one its manager installed for git-memcite.
func TestUninstallOneLinePerFile(t *testing.T) {
	res := hookinstall.UninstallResult{
		Repo: hookinstall.Repo{Top: "/r"},
		Hooks: []hookinstall.UninstallHook{
			{Name: "pre-commit", Path: "/r/.git/hooks/pre-commit", Action: hookinstall.Kept},
			{Name: "post-merge", Path: "/r/.git/hooks/post-merge", Action: hookinstall.Remove},
		},
		Removed: []string{"/r/.git/hooks/pre-commit"},
		Tracked: []hookinstall.Edit{{Path: "/r/lefthook.yml", Rel: "lefthook.yml", Hooks: []string{"pre-commit"}}},
		GitDirs: []string{"/r/.git/memcite", "/r/.git/memcite-tmp"},
	}
	var out, errw bytes.Buffer
	Uninstall(&out, &errw, res, false)
	count := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		f := strings.Fields(l)
		for _, w := range f {
			if strings.HasPrefix(w, ".git/") || w == "lefthook.yml" {
				count[strings.TrimSuffix(w, "/")]++
				break
			}
		}
	}
	for _, p := range []string{".git/hooks/pre-commit", ".git/hooks/post-merge", "lefthook.yml", ".git/memcite", ".git/memcite-tmp"} {
		if count[p] != 1 {
			t.Errorf("%s on %d lines, want 1:\n%s", p, count[p], out.String())
		}
	}
	if !strings.Contains(out.String(), "kept     lefthook.yml (tracked by git") || !strings.Contains(out.String(), "git memcite uninstall --yes") {
		t.Errorf("the tracked file is not named with the command that edits it:\n%s", out.String())
	}
}
