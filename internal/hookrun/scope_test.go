package hookrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestPreCommitScope checks, in real repositories, what PreCommit verifies
// for the kinds of commit the hook meets, and what it finds.
func TestPreCommitScope(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not found")
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_INDEX_FILE", "")
	os.Unsetenv("GIT_INDEX_FILE")
	t.Setenv("MEMCITE_CONFIG", "")
	os.Unsetenv("MEMCITE_CONFIG")
	const (
		a    = "package a\n\nfunc Hello() {}\nfunc Bye() {}\n"
		memM = "---\ncitations:\n  - path: src/a.go\n    line: 3\n    snippet: func Hello()\n---\n"
		memN = "---\ncitations:\n  - path: src/b.go\n    line: 1\n    snippet: package b\n---\n"
		memO = "---\ncitations:\n  - path: src/b.go\n    line: 9\n---\n" // stale at HEAD
	)
	base := map[string]string{
		"src/a.go": a, "src/b.go": "package b\n", "src/c.go": "package c\n",
		dir + "/m.md": memM, dir + "/n.md": memN, dir + "/o.md": memO,
	}
	type want struct {
		partial  bool
		verified int      // memories verified
		blocking []string // "memory#index class"
	}
	for _, tc := range []struct {
		name   string
		unborn bool
		opt    PreCommitOptions
		change func(t *testing.T, r string)
		want   want
	}{
		{"first commit", true, PreCommitOptions{}, func(t *testing.T, r string) {}, want{false, 3, []string{"o.md#0 2"}}},
		{"unrelated file", false, PreCommitOptions{}, func(t *testing.T, r string) {
			gitfixture.Write(t, r, "src/c.go", "package c\n\nvar C = 1\n")
		}, want{true, 0, nil}},
		{"strict", false, PreCommitOptions{Full: true}, func(t *testing.T, r string) {
			gitfixture.Write(t, r, "src/c.go", "package c\n\nvar C = 1\n")
		}, want{false, 3, nil}},
		{"cited file edited", false, PreCommitOptions{}, func(t *testing.T, r string) {
			gitfixture.Write(t, r, "src/a.go", "package a\n\nfunc Bye() {}\n")
		}, want{true, 1, []string{"m.md#0 0"}}},
		{"cited file renamed", false, PreCommitOptions{}, func(t *testing.T, r string) {
			git(t, r, "mv", "src/a.go", "src/moved.go")
		}, want{true, 1, []string{"m.md#0 0"}}},
		{"cited file deleted", false, PreCommitOptions{}, func(t *testing.T, r string) {
			git(t, r, "rm", "-q", "src/b.go")
		}, want{true, 2, []string{"n.md#0 0"}}},
		{"memory edited", false, PreCommitOptions{}, func(t *testing.T, r string) {
			gitfixture.Write(t, r, dir+"/n.md", "---\ncitations:\n  - path: src/b.go\n    line: 2\n---\n")
		}, want{true, 1, []string{"n.md#0 1"}}},
		{"memory renamed", false, PreCommitOptions{}, func(t *testing.T, r string) {
			git(t, r, "mv", dir+"/o.md", dir+"/p.md")
		}, want{true, 1, []string{"p.md#0 1"}}},
		{"memory deleted", false, PreCommitOptions{}, func(t *testing.T, r string) {
			git(t, r, "rm", "-q", dir+"/o.md")
		}, want{true, 0, nil}},
		{"attributes", false, PreCommitOptions{}, func(t *testing.T, r string) {
			gitfixture.Write(t, r, ".gitattributes", "*.go text\n")
		}, want{false, 3, nil}},
		{"merge", false, PreCommitOptions{}, func(t *testing.T, r string) {
			git(t, r, "checkout", "-q", "-b", "side")
			gitfixture.Write(t, r, "src/a.go", "package a\n\nfunc Bye() {}\n")
			git(t, r, "add", "-A")
			git(t, r, "commit", "-q", "-m", "side")
			git(t, r, "checkout", "-q", "-")
			gitfixture.Write(t, r, "src/c.go", "package c\n\nvar C = 1\n")
			git(t, r, "add", "-A")
			git(t, r, "commit", "-q", "-m", "main")
			git(t, r, "merge", "-q", "--no-commit", "--no-ff", "side")
		}, want{true, 1, []string{"m.md#0 0"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := t.TempDir()
			git(t, r, "init", "-q")
			for p, c := range base {
				gitfixture.Write(t, r, p, c)
			}
			if !tc.unborn {
				git(t, r, "add", "-A")
				git(t, r, "commit", "-q", "-m", "init")
			}
			tc.change(t, r)
			git(t, r, "add", "-A")
			ctx := context.Background()
			repo, err := gitrepo.Discover(r)
			if err != nil {
				t.Fatal(err)
			}
			idx, err := repo.Index(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out, err := PreCommit(ctx, repo, idx, []string{dir}, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			var blocking []string
			for _, s := range out.Blocking(Block) {
				blocking = append(blocking, filepath.Base(s.Memory.Path)+"#"+strconv.Itoa(s.Result.Citation.Index)+" "+strconv.Itoa(int(s.Class)))
			}
			got := want{out.Partial, out.Memories, blocking}
			if got.partial != tc.want.partial || got.verified != tc.want.verified || !slices.Equal(got.blocking, tc.want.blocking) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func git(t *testing.T, r string, args ...string) {
	t.Helper()
	if _, err := gitfixture.Git(r, 1, args...); err != nil {
		t.Fatal(err)
	}
}
