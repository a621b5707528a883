package app

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
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
