package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "update testscript files and golden files in testdata/")

func TestMain(m *testing.M) {
	testscript.Main(cleanupM{m}, map[string]func(){
		"git-memcite": main,
	})
}

// cleanupM removes the repositories the benchmarks generated once the
// tests and benchmarks ran (testscript.Main exits the process itself).
type cleanupM struct{ m *testing.M }

func (c cleanupM) Run() int {
	code := c.m.Run()
	for _, d := range generated {
		os.RemoveAll(d)
	}
	return code
}

// TestScript runs the end-to-end scripts in testdata/script: each builds a
// real git repository and drives `git memcite` through git's own
// subcommand lookup.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup:               setupGitEnv,
	})
}

// setupGitEnv isolates git from the machine's configuration and pins
// identities and dates so that commit hashes are reproducible.
func setupGitEnv(e *testscript.Env) error {
	// HOME lies beside the work directory, which is the repository
	home := filepath.Join(filepath.Dir(e.WorkDir), "home-"+filepath.Base(e.WorkDir))
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	cfg := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(cfg, []byte("[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"), 0o644); err != nil {
		return err
	}
	src, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return err
	}
	for k, v := range map[string]string{
		"MEMCITE_SRC":         src, // this repository, for scripts that run its files
		"HOME":                home,
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL":   cfg,
		"GIT_AUTHOR_NAME":     "Test",
		"GIT_AUTHOR_EMAIL":    "test@example.com",
		"GIT_COMMITTER_NAME":  "Test",
		"GIT_COMMITTER_EMAIL": "test@example.com",
		"GIT_AUTHOR_DATE":     "2026-01-01T00:00:00Z",
		"GIT_COMMITTER_DATE":  "2026-01-01T00:00:00Z",
		"NO_COLOR":            "1",
	} {
		e.Setenv(k, v)
	}
	return nil
}
