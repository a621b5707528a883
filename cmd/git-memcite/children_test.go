package main

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/benchrepo"
)

// TestNoChildOutlivesRun: when a command returns, every git process it
// started has been stopped and waited for (no zombie, no pidfd left
// open), also in-process, as the soak test and embedders run it. relocate
// starts a long-running git cat-file --batch.
func TestNoChildOutlivesRun(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	dir := t.TempDir()
	o := benchrepo.Options{Files: 40, LinesPerFile: 20, Memories: 20, Citations: 3, StaleShare: 0.2, Seed: 4, Commit: true}
	if _, err := benchrepo.Generate(context.Background(), dir, o); err != nil {
		t.Fatal(err)
	}
	for _, args := range append(soakCommands(), []string{"relocate", "--staged"}, []string{"graph", "--cycles"}, []string{"doctor"}) {
		code := run(append(args, "--repo-root", dir), io.Discard, io.Discard)
		if code != exitOK && code != exitStale {
			t.Fatalf("%v exited %d", args, code)
		}
		if kids := children(t); len(kids) > 0 {
			t.Errorf("after %v: child processes left: %s", args, strings.Join(kids, "; "))
		}
	}
}

// children lists this process's child processes (pid, state, command).
func children(t *testing.T) []string {
	t.Helper()
	ds, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	self := strconv.Itoa(os.Getpid())
	var out []string
	for _, d := range ds {
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces: split after ")"
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == self {
			out = append(out, d.Name()+" "+f[0]+" "+s[:i+1])
		}
	}
	return out
}
