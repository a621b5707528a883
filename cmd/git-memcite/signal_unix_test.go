//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// signalRepo makes a repository with one memory citing a committed file,
// for the signal tests.
func signalRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	script := `set -e
git init -q
mkdir -p .serena/memories
printf 'package a\n' > a.go
printf -- '---\nid: m\ncitations:\n  - path: a.go\n    line: 1\n    snippet: package a\n---\nbody\n' > .serena/memories/m.md
git add -A
git -c user.name=T -c user.email=t@example.com commit -q -m init
mkdir -p .git/memcite
`
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return dir
}

// startStopped starts git-memcite with args in dir (stdin from stdin),
// sends SIGTERM after wait, and returns how long the process took to end
// after the signal and its exit status; it fails the test when the
// process is still running 5 s after the signal (and kills it).
func startStopped(t *testing.T, dir string, stdin *os.File, wait time.Duration, args ...string) (time.Duration, int) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binary(t), "git-memcite"), args...)
	cmd.Dir = dir
	cmd.Stdin = stdin
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	select {
	case err := <-ended:
		t.Logf("%s ended before the signal: %v", args, err)
		return 0, cmd.ProcessState.ExitCode()
	case <-time.After(wait):
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	select {
	case err := <-ended:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return time.Since(sent), cmd.ProcessState.ExitCode()
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-ended
		t.Fatalf("%s still running 5 s after SIGTERM\n%s", args, out.String())
	}
	return 0, 0
}

// TestSIGTERMEndsBlockedHook: a hook held in a read that never returns
// (git's post-rewrite list on a FIFO whose writer says nothing) ends
// within 1 s of SIGTERM, with exit status 130, and leaves no temporary
// file.
func TestSIGTERMEndsBlockedHook(t *testing.T) {
	dir := signalRepo(t)
	fifo := filepath.Join(t.TempDir(), "stdin")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	// open both ends: the writer stays open and silent
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := syscall.SetNonblock(int(r.Fd()), false); err != nil {
		t.Fatal(err)
	}
	took, code := startStopped(t, dir, r, 2*time.Second, "hook", "post-rewrite", "rebase") // (started, and past signal.Notify, on a loaded machine)
	if took > time.Second {
		t.Errorf("ended %v after SIGTERM, want within 1 s", took)
	}
	if code != exitInterrupted {
		t.Errorf("exit status %d, want %d", code, exitInterrupted)
	}
	noTemporaries(t, dir)
}

// TestFIFOAtCachePath: a FIFO at the cache's path neither blocks a
// command nor the commit hook, and SIGTERM would end them anyway.
func TestFIFOAtCachePath(t *testing.T) {
	for _, args := range [][]string{
		{"verify-all"},
		{"verify-all", "--staged"},
		{"doctor"},
		{"health"},
		{"hook", "pre-commit"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := signalRepo(t)
			if err := syscall.Mkfifo(filepath.Join(dir, ".git", "memcite", "cache"), 0o644); err != nil {
				t.Skipf("no FIFOs here: %v", err)
			}
			devnull, err := os.Open(os.DevNull)
			if err != nil {
				t.Fatal(err)
			}
			defer devnull.Close()
			took, _ := startStopped(t, dir, devnull, 3*time.Second, args...)
			if took > time.Second {
				t.Errorf("ended %v after SIGTERM, want within 1 s", took)
			}
			noTemporaries(t, dir)
		})
	}
}

// noTemporaries fails the test when a temporary file of git-memcite's is
// left in the repository's git directory.
func noTemporaries(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(dir, ".git", "memcite-tmp"))
	for _, e := range ents {
		t.Errorf("temporary file left: %s", e.Name())
	}
}
