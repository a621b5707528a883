package app

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// TestHookConfig reads the hook settings as a hook run outside a commit
// does: the defaults, values set in the repository (case and warnings as
// hookrun.ConfigFrom reads them), and 'git -c', which reaches a hook as
// GIT_CONFIG_PARAMETERS and wins.
func TestHookConfig(t *testing.T) {
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(t.TempDir(), "gitconfig"))
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q")
	read := func() hookrun.Config {
		t.Helper()
		s := NewSession(nil)
		defer s.Close()
		cfg, err := HookConfig(context.Background(), OpenOptions{RepoRoot: dir, Session: s})
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	if cfg, want := read(), (hookrun.Config{Enabled: true, PreCommit: hookrun.Block, PostMerge: hookrun.Suggest}); !reflect.DeepEqual(cfg, want) {
		t.Errorf("defaults = %+v", cfg)
	}
	git("config", "memcite.enabled", "no")
	git("config", "memcite.preCommit", "Strict")
	git("config", "memcite.postMerge", "apply")
	if cfg := read(); cfg.Enabled || cfg.PreCommit != hookrun.Strict || cfg.PostMerge != hookrun.ApplyFixes || len(cfg.Warnings) != 0 {
		t.Errorf("cfg = %+v", cfg)
	}
	git("config", "memcite.preCommit", "sometimes")
	t.Setenv("GIT_CONFIG_PARAMETERS", "'memcite.postmerge'='off'")
	if cfg := read(); cfg.PreCommit != hookrun.Block || len(cfg.Warnings) != 1 || cfg.PostMerge != hookrun.PostOff {
		t.Errorf("cfg = %+v", cfg)
	}
	if _, err := HookConfig(context.Background(), OpenOptions{RepoRoot: t.TempDir()}); err == nil {
		t.Error("no error outside a repository")
	}
}

// TestPostChangeOpensCache: a post-* hook with no summary to start from
// reads every memory file, and opens the run's verification cache for
// it (Hook.openCache, through the session's slot).
func TestPostChangeOpensCache(t *testing.T) {
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(t.TempDir(), "gitconfig"))
	ctx := context.Background()
	dir := t.TempDir()
	write := func(p, s string) { writeFile(t, dir, p, s) }
	git := gitfixture.Runner(t, dir)
	write("a.go", "package a\n\nfunc Alpha() int { return 1 }\n")
	write(".serena/memories/m.md", "---\ncitations:\n  - path: a.go\n    line: 3\n    snippet: func Alpha()\n---\nBody.\n")
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "init")
	git("update-ref", "ORIG_HEAD", "HEAD")
	write("a.go", "package a\n\n// Alpha is one.\nfunc Alpha() int { return 1 }\n")
	git("commit", "-qam", "doc")

	slot := &vcache.Slot{}
	s := NewSession(slot)
	defer s.Close()
	in := hookrun.Invocation{Hook: "post-merge", Args: []string{"0"}}
	h, _, err := OpenHook(ctx, OpenOptions{RepoRoot: dir, CacheTool: "test", Session: s}, in)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := h.PostChange(ctx, in, nil); err != nil || !ok {
		t.Fatalf("PostChange: ok=%v, %v", ok, err)
	}
	if slot.Cache() == nil {
		t.Error("the post-merge check read every memory file without opening the cache")
	}
}
