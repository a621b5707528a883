package hookinstall

import (
	"os"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/hooks"
)

// TestDocsShowTheSnippetsInstallPrints keeps docs/hooks.md in step with
// the snippets that 'install --manual' prints.
func TestDocsShowTheSnippetsInstallPrints(t *testing.T) {
	b, err := os.ReadFile("../../docs/hooks.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	repo := Repo{Top: "/r", HooksDir: "/r/.git/hooks"}
	var all []Snippet
	for _, m := range []Manager{Husky, Lefthook, PreCommit} {
		all = append(all, snippets(repo, m, hooks.Names, "v0.1.0", false)...)
	}
	all = append(all, snippets(repo, GitLFS, []string{"post-merge", "pre-commit"}, "v0.1.0", false)...)
	for _, s := range all {
		if !strings.Contains(doc, s.Text) {
			t.Errorf("docs/hooks.md lacks the %s snippet for %s:\n%s", s.Manager, s.File, s.Text)
		}
		if s.Then != "" && !strings.Contains(doc, s.Then) {
			t.Errorf("docs/hooks.md lacks %q", s.Then)
		}
	}
}
