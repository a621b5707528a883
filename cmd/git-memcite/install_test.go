package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// TestInstallScript runs install.sh into a prefix and checks that it
// installs the binary, the man page git opens for `git memcite --help`,
// and the bash completion git's completion loads for `git memcite`.
func TestInstallScript(t *testing.T) {
	t.Parallel() // its own directories, servers and processes
	if testing.Short() {
		t.Skip("builds git-memcite")
	}
	longtest.Skip(t, "builds a release and installs it")
	for _, tool := range []string{"go", "sh", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	prefix := t.TempDir()
	cmd := exec.Command("sh", filepath.Join(root, "install.sh"), "--prefix", prefix)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("install.sh: %v\n%s", err, out)
	}
	for _, p := range []string{"bin/git-memcite", "share/man/man1/git-memcite.1", "share/bash-completion/completions/git-memcite"} {
		if _, err := os.Stat(filepath.Join(prefix, p)); err != nil {
			t.Errorf("not installed: %v\n%s", err, out)
		}
	}
	page, _ := os.ReadFile(filepath.Join(prefix, "share/man/man1/git-memcite.1"))
	if !strings.HasPrefix(string(page), ".TH GIT\\-MEMCITE 1") {
		t.Errorf("man page starts %.40q", page)
	}
	comp, _ := os.ReadFile(filepath.Join(prefix, "share/bash-completion/completions/git-memcite"))
	if !strings.Contains(string(comp), "_git_memcite ()") {
		t.Errorf("bash completion lacks _git_memcite")
	}
	if !strings.Contains(string(out), "is not on the man path") {
		t.Errorf("no MANPATH hint for a prefix off the man path:\n%s", out)
	}
	// with the prefix's bin on PATH, man finds the page beside it: `git
	// memcite --help` opens it with no MANPATH set
	if _, err := exec.LookPath("man"); err == nil {
		repo := t.TempDir()
		if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		help := exec.Command("git", "memcite", "--help")
		help.Dir = repo
		help.Env = append(os.Environ(), "PATH="+filepath.Join(prefix, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
			"MANPAGER=cat", "PAGER=cat", "MANWIDTH=80", "MANPATH=")
		page, err := help.CombinedOutput()
		if err != nil || !strings.Contains(string(page), "git-memcite Manual") {
			t.Errorf("git memcite --help: %v\n%s", err, page)
		}
	}
	// idempotent
	cmd = exec.Command("sh", filepath.Join(root, "install.sh"), "--prefix", prefix)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("second install.sh: %v\n%s", err, out)
	}
}
