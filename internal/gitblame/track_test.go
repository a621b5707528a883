package gitblame_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

func open(t *testing.T, scenario string) (string, *gitrepo.History) {
	t.Helper()
	dir := gitfixture.Replay(t, filepath.Join("..", "..", "testdata", "repos", scenario+".txtar"))
	repo, err := gitrepo.OpenHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, repo
}

func resolve(t *testing.T, repo *gitrepo.History, rev string) gitblame.Hash {
	t.Helper()
	h, err := repo.Resolve(rev)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestTrackToWorkingTree follows citations through commits and then into
// an uncommitted working tree where the file was moved and edited.
func TestTrackToWorkingTree(t *testing.T) {
	t.Parallel()
	dir, repo := open(t, "rename")
	if err := os.MkdirAll(filepath.Join(dir, "sales"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "order.go"))
	if err != nil {
		t.Fatal(err)
	}
	edited := "// Package shop.\n// Moved.\n" + strings.Replace(string(b), `"empty order"`, `"no items"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "sales", "order.go"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "order.go")); err != nil {
		t.Fatal(err)
	}
	base := resolve(t, repo, "base")
	anchors := []gitblame.Anchor{
		{Path: "shop.go", Line: 19, Snippet: "total += item.Price", Base: base},
		{Path: "shop.go", Line: 27, Snippet: `"empty order"`, Base: base},
	}
	wt, err := source.NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	// the whole working tree compared, or only the paths git status would
	// name (Target.Changed): the same answer
	calls := 0
	changed := func() (map[string]bool, error) {
		calls++
		return map[string]bool{"order.go": true, "sales/order.go": true}, nil
	}
	for _, target := range []gitblame.Target{
		{Commit: resolve(t, repo, "main"), View: wt},
		{Commit: resolve(t, repo, "main"), View: wt, Changed: changed},
	} {
		res, err := gitblame.New(repo).Track(context.Background(), anchors, target)
		if err != nil {
			t.Fatal(err)
		}
		if r := res[0]; r.Status != gitblame.Moved || r.Location.Path != "sales/order.go" || r.Location.Line != 21 {
			t.Errorf("moved line: got %v %+v, want moved sales/order.go:21", r.Status, r.Location)
		}
		r := res[1]
		if r.Status != gitblame.Changed || r.Location.Path != "sales/order.go" || r.Location.Line != 29 || r.SnippetFound {
			t.Errorf("edited line: got %v %+v snippet=%v, want changed sales/order.go:29 without snippet", r.Status, r.Location, r.SnippetFound)
		}
		if e := r.Blame(); e == nil || e.Commit != nil || e.View != "working tree" || e.Kind != gitblame.EventEdited {
			t.Errorf("edited line: blame = %+v, want the working tree edit", e)
		}
	}
	if calls != 1 {
		t.Errorf("Changed called %d times; want once", calls)
	}
}

// TestOneShotRoute tracks from a commit that is not on the target's first
// parent chain (a merged side branch).
func TestOneShotRoute(t *testing.T) {
	t.Parallel()
	_, repo := open(t, "merge-both-sides")
	side := resolve(t, repo, "feature")
	res, err := gitblame.New(repo).Track(context.Background(),
		[]gitblame.Anchor{{Path: "shop.go", Line: 22, Snippet: "total += item.Price", Base: side}},
		gitblame.Target{Commit: resolve(t, repo, "main")})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Route != gitblame.RouteOneShot || r.Status != gitblame.Unchanged || r.Location.Line != 22 {
		t.Errorf("got route %v status %v %+v, want one-shot unchanged at 22", r.Route, r.Status, r.Location)
	}
}

// TestContentSearch covers anchors without a usable base commit.
func TestContentSearch(t *testing.T) {
	t.Parallel()
	_, repo := open(t, "insert-delete-above")
	missing, _ := gitblame.ParseHash(strings.Repeat("ab", 20))
	tests := []struct {
		name   string
		a      gitblame.Anchor
		status gitblame.Status
		line   int
	}{
		{"no base, text", gitblame.Anchor{Path: "shop.go", Line: 19, Text: []string{"\t\ttotal += item.Price * item.Qty"}}, gitblame.Moved, 20},
		{"missing base, snippet", gitblame.Anchor{Path: "shop.go", Line: 27, Snippet: `errors.New("empty order")`, Base: missing}, gitblame.Moved, 28},
		{"snippet everywhere", gitblame.Anchor{Path: "shop.go", Line: 22, Snippet: "}"}, gitblame.Ambiguous, 0},
		{"text gone", gitblame.Anchor{Path: "shop.go", Line: 3, Text: []string{"nothing like this"}}, gitblame.Gone, 0},
	}
	anchors := make([]gitblame.Anchor, len(tests))
	for i, tt := range tests {
		anchors[i] = tt.a
	}
	res, err := gitblame.New(repo).Track(context.Background(), anchors, gitblame.Target{Commit: resolve(t, repo, "main")})
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		r := res[i]
		if r.Route != gitblame.RouteContentSearch || r.Status != tt.status || r.Location.Line != tt.line {
			t.Errorf("%s: got %v %v line %d, want content-search %v line %d", tt.name, r.Route, r.Status, r.Location.Line, tt.status, tt.line)
		}
	}
}

// TestTextLocatesBaseLine: when the cited text is not at the cited line
// in the base, the nearest copy of it there is tracked instead.
func TestTextLocatesBaseLine(t *testing.T) {
	t.Parallel()
	_, repo := open(t, "insert-delete-above")
	res, err := gitblame.New(repo).Track(context.Background(),
		[]gitblame.Anchor{{Path: "shop.go", Line: 17, Text: []string{"total += item.Price * item.Qty"}, Base: resolve(t, repo, "base")}},
		gitblame.Target{Commit: resolve(t, repo, "main")})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Status != gitblame.Moved || r.Location.Line != 20 || !strings.Contains(r.Note, "line 19") {
		t.Errorf("got %v line %d note %q, want moved to 20 with a note about line 19", r.Status, r.Location.Line, r.Note)
	}
}

func TestInferBase(t *testing.T) {
	t.Parallel()
	_, repo := open(t, "insert-delete-above")
	head := resolve(t, repo, "main")
	subject := func(h gitblame.Hash) string {
		if h.IsZero() {
			return ""
		}
		c, err := repo.Commit(h)
		if err != nil {
			t.Fatal(err)
		}
		return c.Subject
	}
	tests := []struct {
		name    string
		hint    gitblame.BaseHint
		src     gitblame.BaseSource
		subject string
	}{
		{"commit field", gitblame.BaseHint{Commit: "base", Verified: gitfixture.Epoch.Add(10 * time.Hour)}, gitblame.BaseCommit, "add shop"},
		{"verified", gitblame.BaseHint{Verified: gitfixture.Epoch.Add(150 * time.Minute)}, gitblame.BaseVerified, "document the package"},
		{"missing commit falls back", gitblame.BaseHint{Commit: strings.Repeat("1", 40), Verified: gitfixture.Epoch.Add(5 * time.Hour)}, gitblame.BaseVerified, "drop the errors import comment"},
		{"memory file", gitblame.BaseHint{MemoryFile: "README.md"}, gitblame.BaseMemoryFile, "add shop"},
		{"before history", gitblame.BaseHint{Verified: gitfixture.Epoch.Add(-time.Hour)}, gitblame.BaseNone, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, src, _, err := gitblame.InferBase(repo, head, tt.hint)
			if err != nil {
				t.Fatal(err)
			}
			if src != tt.src || subject(h) != tt.subject {
				t.Errorf("got %v %q, want %v %q", src, subject(h), tt.src, tt.subject)
			}
		})
	}
}

func TestMissingTarget(t *testing.T) {
	t.Parallel()
	_, repo := open(t, "crlf")
	missing, _ := gitblame.ParseHash(strings.Repeat("cd", 20))
	_, err := gitblame.New(repo).Track(context.Background(), nil, gitblame.Target{Commit: missing})
	if !errors.Is(err, gitblame.ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
}

// TestSnippetLocatesBaseLine: a citation whose snippet is not at its line
// in the base (recorded off by some lines) follows the nearest line that
// carries the snippet, and says so.
func TestSnippetLocatesBaseLine(t *testing.T) {
	t.Parallel()
	_, repo := open(t, "insert-delete-above")
	res, err := gitblame.New(repo).Track(context.Background(),
		[]gitblame.Anchor{
			{Path: "shop.go", Line: 17, Snippet: "total += item.Price", Base: resolve(t, repo, "base")},
			{Path: "shop.go", Line: 17, Snippet: "not in the file", Base: resolve(t, repo, "base")},
		},
		gitblame.Target{Commit: resolve(t, repo, "main")})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Status != gitblame.Moved || r.Location.Line != 20 || !strings.Contains(r.Note, "line 19") {
		t.Errorf("got %v line %d note %q, want moved to 20 with a note about line 19", r.Status, r.Location.Line, r.Note)
	}
	if r := res[1]; r.Status != gitblame.Moved || r.Location.Line != 18 || r.Note != "" {
		t.Errorf("snippet absent: got %v line %d note %q, want the cited line 17 followed to 18", r.Status, r.Location.Line, r.Note)
	}
}

// TestWorkingTreeCopyIsNotAMove: an untracked copy of a file in the
// working tree does not attract the lines of the original: the caller
// names the files that may receive moved lines (Target.CrossFiles: the
// tracked ones), and scratch.go is not among them.
func TestWorkingTreeCopyIsNotAMove(t *testing.T) {
	t.Parallel()
	dir, repo := open(t, "rename")
	b, err := os.ReadFile(filepath.Join(dir, "order.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scratch.go"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), `errors.New("empty order")`, `errors.New("no order lines")`, 1)
	if err := os.WriteFile(filepath.Join(dir, "order.go"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	wt, err := source.NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gitblame.New(repo).Track(context.Background(),
		[]gitblame.Anchor{{Path: "shop.go", Line: 27, Base: resolve(t, repo, "base")}},
		gitblame.Target{Commit: resolve(t, repo, "main"), View: wt, CrossFiles: func(p string) bool { return p != "scratch.go" }})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Status != gitblame.Changed || r.Location.Path != "order.go" || r.Location.Line != 27 {
		t.Errorf("got %v %+v, want changed order.go:27", r.Status, r.Location)
	}
}

// TestOneShotToWorkingTree: the one-shot route also takes the final step
// into the working tree, and reads the result's text from it.
func TestOneShotToWorkingTree(t *testing.T) {
	t.Parallel()
	dir, repo := open(t, "merge-both-sides")
	p := filepath.Join(dir, "shop.go")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append([]byte("// Edited.\n"), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	wt, err := source.NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gitblame.New(repo).Track(context.Background(),
		[]gitblame.Anchor{{Path: "shop.go", Line: 22, Base: resolve(t, repo, "feature")}},
		gitblame.Target{Commit: resolve(t, repo, "main"), View: wt})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Route != gitblame.RouteOneShot || r.Status != gitblame.Moved || r.Location.Line != 23 ||
		len(r.Text) != 1 || strings.TrimSpace(r.Text[0]) != "total += item.Price * item.Qty" {
		t.Errorf("got %v %v %+v %q, want one-shot moved to 23 with the loop line", r.Route, r.Status, r.Location, r.Text)
	}
}
