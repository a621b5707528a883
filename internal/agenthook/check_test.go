package agenthook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

func fixture(t *testing.T) (*gitrepo.Repo, source.Source) {
	t.Helper()
	dir := gitfixture.Replay(t, filepath.Join("..", "..", "testdata", "repos", "agent-hook.txtar"))
	repo, err := gitrepo.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	src, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	return repo, src
}

func TestCheck(t *testing.T) {
	t.Parallel()
	repo, src := fixture(t)
	ctx := context.Background()
	m := store.LoadFile(ctx, src, ".serena/memories/stale.md", ".serena/memories", nil)
	ans, err := Check(ctx, repo, src, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Total != 4 || ans.Valid != 1 || len(ans.Stale) != 3 || ans.NoHistory != "" {
		t.Fatalf("total %d, valid %d, %d stale, no history %q", ans.Total, ans.Valid, len(ans.Stale), ans.NoHistory)
	}
	type want struct {
		status  gitblame.Status
		now     string
		subject string
		fix     Fix
	}
	for i, w := range []want{
		{gitblame.Moved, "src/auth.go:6", "split handlers", FixRelocate},
		{gitblame.Changed, "src/handlers.go:6", "split handlers", FixAcceptChanged},
		{gitblame.Gone, "", "drop legacy", FixRemove},
	} {
		s := ans.Stale[i]
		now := ""
		if s.Now != nil {
			now = fmt.Sprintf("%s:%d", s.Now.Path, s.Now.Line)
		}
		subject := ""
		if s.Event != nil && s.Event.Commit != nil {
			subject = s.Event.Commit.Subject
		}
		if s.Status != w.status || now != w.now || subject != w.subject || s.Fix != w.fix {
			t.Errorf("citation %d: %s at %q in %q, fix %d; want %s at %q in %q, fix %d", i+1, s.Status, now, subject, s.Fix, w.status, w.now, w.subject, w.fix)
		}
	}

	valid := store.LoadFile(ctx, src, ".serena/memories/valid.md", ".serena/memories", nil)
	if ans, err := Check(ctx, repo, src, valid, Options{}); err != nil || len(ans.Stale) != 0 || ans.Total != 2 {
		t.Errorf("valid memory: %+v, %v", ans, err)
	}
}

// A change in the working tree is the last step: the lines are found
// where the uncommitted edit put them.
func TestCheckWorkingTree(t *testing.T) {
	t.Parallel()
	repo, src := fixture(t)
	p := filepath.Join(repo.Top, "src", "util.go")
	if err := os.WriteFile(p, []byte("package src\n\n// Build information.\n\n// Version is the release.\nconst Version = \"1.0\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m := store.LoadFile(ctx, src, ".serena/memories/valid.md", ".serena/memories", nil)
	ans, err := Check(ctx, repo, src, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// both citations: the shorthand one by line identity (its line 4
	// still exists, but holds other code), the other by its snippet
	if len(ans.Stale) != 2 {
		t.Fatalf("%d stale; want 2", len(ans.Stale))
	}
	for i, line := range []int{6, 5} {
		s := ans.Stale[i]
		if s.Status != gitblame.Moved || s.Now == nil || s.Now.Line != line || s.Event == nil || s.Event.Commit != nil || s.Event.View != "working tree" || s.Fix != FixRelocate {
			t.Errorf("citation %d: got %s now %+v event %+v fix %d", i, s.Status, s.Now, s.Event, s.Fix)
		}
	}
	if got := ans.Stale[0].Reason; got != "Line 4 moved to src/util.go:6 in the working tree" {
		t.Errorf("reason %q", got)
	}
}

func TestCheckNoHistory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	for p, c := range map[string]string{
		"a.go":                    "package a\n",
		".serena/memories/one.md": "---\ncitations:\n  - a.go:3\n---\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := source.NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := store.LoadFile(ctx, src, ".serena/memories/one.md", ".serena/memories", nil)
	ans, err := Check(ctx, nil, src, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Stale) != 1 || ans.NoHistory != "not a git repository" || ans.Stale[0].Fix != FixEdit {
		t.Errorf("got %+v", ans)
	}
	if _, err := gitfixture.Git(dir, 0, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	repo, err := gitrepo.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	ans, err = Check(ctx, repo, src, m, Options{Budget: time.Minute})
	if err != nil || ans.NoHistory != "the repository has no commit yet" {
		t.Errorf("got %+v, %v", ans, err)
	}
}

// Lines moved into a new file that is staged are found there (the index
// is read for it); the same file left untracked is a scratch copy, not a
// destination.
func TestCheckNewFileInWorkingTree(t *testing.T) {
	t.Parallel()
	for _, staged := range []bool{true, false} {
		repo, src := fixture(t)
		login := "package src\n\nimport \"fmt\"\n\n// Login signs a user in.\nfunc Login(user string) error {\n\tfmt.Println(\"login\", user)\n\treturn nil\n}\n"
		if err := os.WriteFile(filepath.Join(repo.Top, "src", "login.go"), []byte(login), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo.Top, "src", "auth.go"), []byte("package src\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if staged {
			if _, err := gitfixture.Git(repo.Top, 9, "add", "src/login.go"); err != nil {
				t.Fatal(err)
			}
		}
		ctx := context.Background()
		m := store.LoadFile(ctx, src, ".serena/memories/stale.md", ".serena/memories", nil)
		ans, err := Check(ctx, repo, src, m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := ans.Stale[0]
		switch {
		case staged && (s.Status != gitblame.Moved || s.Now == nil || s.Now.Path != "src/login.go" || s.Now.Line != 6):
			t.Errorf("staged: %s now %+v", s.Status, s.Now)
		case !staged && s.Status != gitblame.Gone:
			t.Errorf("untracked: %s now %+v; want gone", s.Status, s.Now)
		}
	}
}

// Past the budget, the answer still names the stale citations, without
// where their lines went.
func TestCheckBudget(t *testing.T) {
	t.Parallel()
	repo, src := fixture(t)
	ctx := context.Background()
	m := store.LoadFile(ctx, src, ".serena/memories/stale.md", ".serena/memories", nil)
	ans, err := Check(ctx, repo, src, m, Options{Budget: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Stale) != 3 || ans.NoHistory == "" {
		t.Fatalf("%d stale, no history %q", len(ans.Stale), ans.NoHistory)
	}
	for _, s := range ans.Stale {
		if s.Status != 0 || s.Fix != FixEdit || s.Reason == "" {
			t.Errorf("%+v", s)
		}
	}
}
