package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// testCommit stands for the commit of the build under test.
const testCommit = "0123456789abcdef0123456789abcdef01234567"

var update = flag.Bool("update", false, "update testscript files and golden files in testdata/")

func TestMain(m *testing.M) {
	if commit == "unknown" {
		// a test binary records no commit; a build from a checkout does,
		// and install --via pre-commit pins it (buildinfo.ReleaseRev)
		commit = testCommit
	}
	testscript.Main(cleanupM{m}, map[string]func(){
		"git-memcite": main,
	})
}

// cleanupM removes the repositories the benchmarks generated once the
// tests and benchmarks ran (testscript.Main exits the process itself).
type cleanupM struct{ m *testing.M }

func (c cleanupM) Run() int {
	defer gitfixture.Scratch()() // (not for the commands testscript runs)
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
	dir := filepath.Join("..", "..", "testdata", "script")
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if !longtest.Enabled() {
		// the hook managers' scripts run real pre-commit, lefthook and
		// husky: long tests
		files = slices.DeleteFunc(files, func(f string) bool {
			return strings.HasPrefix(filepath.Base(f), "managers_")
		})
		t.Logf("testdata/script/managers_*.txtar skipped: long tests (set %s=1 to run them; CI runs them)", longtest.Env)
	}
	testscript.Run(t, testscript.Params{
		// testscript removes each work directory; the homes beside them
		// and what scripts write there go with this one
		WorkdirRoot:         t.TempDir(),
		Files:               files,
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup:               setupGitEnv,
		Condition:           needTool,
	})
}

// hookTools is where scripts/ci-deps.sh installs the hook managers from
// npm (lefthook, husky); the scripts find them on PATH.
var hookTools = filepath.Join("..", "..", ".cache", "hooktools", "node_modules", ".bin")

// needTool is the condition [need:TOOL]: the program is on the scripts'
// PATH. A script skips without it, except in CI (CI=true), where
// scripts/ci-deps.sh installs every such tool, so a missing one fails
// the run instead of passing it untested.
func needTool(cond string) (bool, error) {
	tool, ok := strings.CutPrefix(cond, "need:")
	if !ok {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	dirs := []string{hookTools}
	if _, err := exec.LookPath(tool); err == nil {
		return true, nil
	}
	for _, d := range dirs {
		if info, err := os.Stat(filepath.Join(d, tool)); err == nil && !info.IsDir() {
			return true, nil
		}
	}
	if os.Getenv("CI") == "true" {
		return false, fmt.Errorf("%s is not installed: scripts/ci-deps.sh installs it, and CI must not skip this script", tool)
	}
	return false, nil
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
	if err := os.WriteFile(cfg, []byte("[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[maintenance]\n\tauto = false\n"), 0o644); err != nil {
		return err
	}
	src, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return err
	}
	tools, err := filepath.Abs(hookTools)
	if err != nil {
		return err
	}
	e.Setenv("PATH", e.Getenv("PATH")+string(os.PathListSeparator)+tools)
	if !strings.Contains(filepath.Base(e.WorkDir), "hooks_") && !strings.Contains(filepath.Base(e.WorkDir), "managers_") {
		// an empty hooks directory and no sample hooks in the repositories
		// the script creates (most of the files a small repository holds);
		// the hook scripts keep git's templates, which users'
		// repositories have
		tpl := filepath.Join(home, "git-template")
		if err := os.MkdirAll(filepath.Join(tpl, "hooks"), 0o755); err != nil {
			return err
		}
		e.Setenv("GIT_TEMPLATE_DIR", tpl)
	}
	for k, v := range map[string]string{
		"MEMCITE_BIN":         underTest(),      // the git-memcite under test, for a program that must run it
		"GOCACHE":             goEnv("GOCACHE"), // builds inside scripts reuse the test's build cache
		"MEMCITE_SRC":         src,              // this repository, for scripts that run its files
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

// underTest returns the git-memcite under test: the one testscript.Main
// put first on PATH, this test binary, which runs as git-memcite when
// started under that name; "" if there is none.
func underTest() string {
	p, err := exec.LookPath("git-memcite")
	if err != nil {
		return ""
	}
	return p
}

// goEnv returns a go env value once per test run ("" without go).
var goEnv = func() func(string) string {
	var once sync.Once
	vals := map[string]string{}
	return func(key string) string {
		once.Do(func() {
			out, err := exec.Command("go", "env", "GOCACHE").Output()
			if err == nil {
				vals["GOCACHE"] = strings.TrimSpace(string(out))
			}
		})
		return vals[key]
	}
}()
