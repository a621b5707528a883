package hookinstall

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestMain isolates git from the machine's configuration and pins the
// identity, so that real commits behave the same everywhere.
func TestMain(m *testing.M) {
	scratch := gitfixture.Scratch()
	dir, err := os.MkdirTemp("", "hookinstall-test")
	if err != nil {
		panic(err)
	}
	global := filepath.Join(dir, "gitconfig")
	if err := os.WriteFile(global, []byte("[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n[maintenance]\n\tauto = false\n"), 0o644); err != nil {
		panic(err)
	}
	for k, v := range map[string]string{
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL":   global,
		"GIT_AUTHOR_NAME":     "A U Thor",
		"GIT_AUTHOR_EMAIL":    "author@example.com",
		"GIT_AUTHOR_DATE":     "2026-01-01T00:00:00Z",
		"GIT_COMMITTER_NAME":  "C O Mitter",
		"GIT_COMMITTER_EMAIL": "committer@example.com",
		"GIT_COMMITTER_DATE":  "2026-01-01T00:00:00Z",
		"HOME":                dir,
	} {
		os.Setenv(k, v)
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "MEMCITE", "SKIP"} {
		os.Unsetenv(k)
	}
	code := m.Run()
	os.RemoveAll(dir)
	scratch()
	os.Exit(code)
}

// gitIn runs git in dir with extra environment and fails the test on error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, errOut, err := runGit(dir, nil, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errOut)
	}
	return out
}

// runGit runs git in dir; env entries are added to the process environment.
func runGit(dir string, env []string, args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// newRepo makes a repository with one commit.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	gitIn(t, t.TempDir(), "init", "-q", dir)
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n", 0o644)
	gitIn(t, dir, "add", "a.txt")
	gitIn(t, dir, "commit", "-q", "-m", "init")
	return dir
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// stubBinary puts a stand-in git-memcite on PATH that logs its arguments
// and stdin to the returned file and exits with $STUB_EXIT. It returns the
// environment entries to run git with.
func stubBinary(t *testing.T) (env []string, log string) {
	t.Helper()
	bin := t.TempDir()
	log = filepath.Join(bin, "calls.log")
	writeFile(t, filepath.Join(bin, "git-memcite"),
		"#!/bin/sh\nprintf 'git-memcite %s\\n' \"$*\" >>\""+log+"\"\ncat >>\""+log+"\"\nexit ${STUB_EXIT:-0}\n", 0o755)
	return []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}, log
}

// noBinaryPath returns a PATH with git and nothing else, so git-memcite is
// surely missing.
func noBinaryPath(t *testing.T) string {
	t.Helper()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(gitPath, filepath.Join(bin, "git")); err != nil {
		t.Fatal(err)
	}
	return "PATH=" + bin
}

func logOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustInstall(t *testing.T, dir string, opts Options) Plan {
	t.Helper()
	plan, err := Install(context.Background(), dir, opts)
	if err != nil {
		t.Fatalf("Install: %v", err)
	}
	return plan
}

func actions(p Plan) map[string]Action {
	m := map[string]Action{}
	for _, h := range p.Hooks {
		m[h.Name] = h.Action
	}
	return m
}
