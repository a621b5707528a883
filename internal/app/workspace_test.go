package app

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/config"
	"github.com/git-memcite/git-memcite/internal/findings"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// newRepo builds a repository with files, committed.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "init"}} {
		if _, err := gitfixture.Git(dir, 0, args...); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestOpenWorkspace(t *testing.T) {
	t.Setenv("MEMCITE_CONFIG", "")
	t.Setenv("MEMCITE_DIR", "")
	ctx := context.Background()
	dir := newRepo(t, map[string]string{
		"a.go":                    "package a\n",
		"notes/alpha.md":          "---\nid: alpha\ncitations:\n  - path: a.go\n    line: 1\n---\nBody.\n",
		"notes/skip/beta.md":      "---\nid: beta\n---\nBody.\n",
		".memcite.yaml":           "dirs: [notes]\nignore: [notes/skip/**]\n",
		".serena/memories/def.md": "---\nid: def\n---\n",
	})
	ws, err := Open(ctx, OpenOptions{RepoRoot: dir, Memories: LoadMemories})
	if err != nil {
		t.Fatal(err)
	}
	if ws.Repo == nil || ws.Top == "" || ws.CwdRel != "" {
		t.Errorf("workspace: repo %v, top %q, cwd %q", ws.Repo, ws.Top, ws.CwdRel)
	}
	if got := ws.Cfg.Get("dirs"); got.String() != "notes" || got.Origin == "default" {
		t.Errorf("dirs = %q from %s, want notes from the team file", got.String(), got.Origin)
	}
	if n := len(ws.Store.Memories); n != 1 || ws.Store.Memories[0].ID != "alpha" {
		t.Fatalf("memories (ignore applied): %d", n)
	}
	tests := []struct {
		arg, want string // want "": an error
	}{
		{"alpha", "notes/alpha.md"},
		{"notes/alpha.md", "notes/alpha.md"},
		{"notes/skip/beta.md", "notes/skip/beta.md"}, // a path names an ignored memory too
		{"nope", ""},
		{"../outside.md", ""},
	}
	for _, tt := range tests {
		m, err := ws.Resolve(ctx, tt.arg)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("Resolve(%q) = %s, want an error", tt.arg, m.Path)
		case tt.want != "" && err != nil:
			t.Errorf("Resolve(%q): %v", tt.arg, err)
		case tt.want != "" && m.Path != tt.want:
			t.Errorf("Resolve(%q) = %s, want %s", tt.arg, m.Path, tt.want)
		}
	}
	mems, errs := ws.Select(ctx, []string{"alpha", "nope"})
	if len(mems) != 1 || len(errs) != 1 {
		t.Errorf("Select: %d memories, %d errors; want 1 and 1", len(mems), len(errs))
	}
	// --dir wins over the team file; a directory that does not exist is
	// an error once configured, not an empty store
	if _, err := Open(ctx, OpenOptions{RepoRoot: dir, Dirs: []string{"missing"}, Memories: LoadMemories}); err == nil {
		t.Error("no error for a configured memory directory that does not exist")
	}
	if _, err := Open(ctx, OpenOptions{RepoRoot: dir, Dirs: []string{filepath.Dir(dir)}, Memories: LoadMemories}); err == nil {
		t.Error("no error for a memory directory outside the repository")
	}
}

func TestOpenWithoutMemories(t *testing.T) {
	t.Setenv("MEMCITE_CONFIG", "")
	t.Setenv("MEMCITE_DIR", "")
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"a.go": "package a\n"})
	ws, err := Open(ctx, OpenOptions{RepoRoot: dir, Memories: LoadMemories})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.Store.Memories) != 0 {
		t.Errorf("memories in a repository without any: %d", len(ws.Store.Memories))
	}
	plain := t.TempDir() // not a repository: the working tree only
	// without a memory directory either: an error, not an empty store
	if _, err = Open(ctx, OpenOptions{RepoRoot: plain, Memories: LoadMemories}); !errors.Is(err, gitrepo.ErrNotRepo) {
		t.Errorf("plain directory without memories: %v; want ErrNotRepo", err)
	}
	if err := os.MkdirAll(filepath.Join(plain, ".serena", "memories"), 0o755); err != nil {
		t.Fatal(err)
	}
	if ws, err = Open(ctx, OpenOptions{RepoRoot: plain, Memories: LoadMemories}); err != nil || ws.Repo != nil {
		t.Errorf("plain directory: %v", err)
	}
	if _, err := Open(ctx, OpenOptions{RepoRoot: plain, Staged: true, Memories: LoadMemories}); err == nil {
		t.Error("--staged outside a repository: no error")
	}
}

func TestJudge(t *testing.T) {
	t.Setenv("MEMCITE_CONFIG", "")
	t.Setenv("MEMCITE_FORMAT", "")
	t.Setenv("GITHUB_BASE_REF", "")
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"a.go": "package a\n"})
	tests := []struct {
		o    ReportOptions
		want string // format; "": an error
	}{
		{ReportOptions{}, "text"},
		{ReportOptions{Output: "out.sarif"}, "sarif"},
		{ReportOptions{Output: "out.JSON"}, "json"},
		{ReportOptions{Format: "gitlab", Output: "out.json"}, "gitlab"},
		{ReportOptions{Format: "yaml"}, ""},
		{ReportOptions{FailOn: "sometimes"}, ""},
	}
	for _, tt := range tests {
		ws, err := Open(ctx, OpenOptions{RepoRoot: dir, Memories: LoadMemories})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Judge(ctx, ws, findings.FromVerify("verify", &verify.Report{}), tt.o)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("Judge(%+v) = %s, want an error", tt.o, got)
		case tt.want != "" && (err != nil || got != tt.want):
			t.Errorf("Judge(%+v) = %q, %v; want %q", tt.o, got, err, tt.want)
		}
	}
}

// TestTeamFileAbsentAsksNoGit: without a .memcite.yaml in the working tree
// the configuration is read without asking git whether it is ignored; an
// untracked one that git ignores is still not read.
func TestTeamFileAbsentAsksNoGit(t *testing.T) {
	t.Setenv("MEMCITE_CONFIG", "")
	t.Setenv("MEMCITE_DIR", "")
	ctx := context.Background()
	dir := newRepo(t, map[string]string{"a.go": "package a\n", ".serena/memories/m.md": "---\nid: m\n---\n"})
	var log bytes.Buffer
	trace.Enable(&log)
	defer trace.Enable(nil)
	if _, err := Open(ctx, OpenOptions{RepoRoot: dir, Memories: LoadMemories}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "check-ignore") {
		t.Errorf("asked git about a missing %s:\n%s", config.FileName, log.String())
	}
	if !strings.Contains(log.String(), "no "+config.FileName+" in the working tree") {
		t.Errorf("trace does not say the file is missing:\n%s", log.String())
	}
	// an ignored team file is not read
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(config.FileName+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, config.FileName), []byte("dirs: [elsewhere]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := Open(ctx, OpenOptions{RepoRoot: dir, Memories: LoadMemories})
	if err == nil {
		_, err = ws.LoadConfig(ctx, OpenOptions{RepoRoot: dir})
	}
	if err == nil {
		t.Fatalf("an ignored %s was read without an error", config.FileName)
	}
}
