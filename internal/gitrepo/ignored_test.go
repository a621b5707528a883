package gitrepo_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestIgnoredAsGit: the working tree hides exactly the untracked files
// git check-ignore names, whether it answers without git (no ignore rule
// anywhere) or asks git; and it answers without git only when no source
// of ignore rules exists.
func TestIgnoredAsGit(t *testing.T) {
	paths := []string{"x.log", "new.md", "sub/y.log", "sub/z.txt", "dir/deep/q.log", "dir/deep/q.md"}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir, xdg string, git func(...string))
		// rules: where ignore rules may apply: "*" everywhere, "-"
		// nowhere, else below that directory
		rules string
	}{
		{"no rules", func(*testing.T, string, string, func(...string)) {}, "-"},
		{"info/exclude comments only", func(t *testing.T, dir, _ string, _ func(...string)) {
			writeFile(t, filepath.Join(dir, ".git/info/exclude"), "# git ls-files --others --exclude-from=.git/info/exclude\n#*.log\n\n   \r\n")
		}, "-"},
		{"root .gitignore", func(t *testing.T, dir, _ string, _ func(...string)) {
			writeFile(t, filepath.Join(dir, ".gitignore"), "*.log\n")
		}, "*"},
		{"nested .gitignore", func(t *testing.T, dir, _ string, _ func(...string)) {
			writeFile(t, filepath.Join(dir, "dir/.gitignore"), "*.log\n")
		}, "dir"},
		{"empty .gitignore", func(t *testing.T, dir, _ string, _ func(...string)) {
			writeFile(t, filepath.Join(dir, "sub/.gitignore"), "")
		}, "sub"},
		{"sparse .gitignore in the index only", func(t *testing.T, dir, _ string, git func(...string)) {
			writeFile(t, filepath.Join(dir, "sub/.gitignore"), "*.log\n")
			git("add", "sub/.gitignore")
			git("update-index", "--skip-worktree", "sub/.gitignore")
			if err := os.Remove(filepath.Join(dir, "sub", ".gitignore")); err != nil {
				t.Fatal(err)
			}
		}, "sub"},
		{"info/exclude rule", func(t *testing.T, dir, _ string, _ func(...string)) {
			writeFile(t, filepath.Join(dir, ".git/info/exclude"), "# comment\n *.md\n")
		}, "*"},
		{"core.excludesFile", func(t *testing.T, dir, _ string, git func(...string)) {
			writeFile(t, filepath.Join(dir, "../excludes"), "*.log\n")
			git("config", "core.excludesFile", filepath.Join(dir, "..", "excludes"))
		}, "*"},
		{"default excludes file", func(t *testing.T, _, xdg string, _ func(...string)) {
			writeFile(t, filepath.Join(xdg, "git/ignore"), "q.*\n")
		}, "*"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dir, xdg := filepath.Join(root, "repo"), filepath.Join(root, "xdg")
			t.Setenv("XDG_CONFIG_HOME", xdg)
			t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
			run := gitfixture.Runner(t, dir)
			git := func(args ...string) { run(args...) }
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			git("init", "-q", "-b", "main")
			writeFile(t, filepath.Join(dir, "tracked.log"), "tracked\n")
			git("add", "tracked.log")
			tc.setup(t, dir, xdg, git)
			for _, p := range paths {
				writeFile(t, filepath.Join(dir, p), p+"\n")
			}

			cmd := exec.Command("git", "check-ignore", "--stdin", "-z")
			cmd.Dir, cmd.Env = dir, gitfixture.Env(0)
			cmd.Env = append(cmd.Env, "XDG_CONFIG_HOME="+xdg)
			cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00") + "\x00")
			out, err := cmd.Output()
			if err != nil && !(errors.As(err, new(*exec.ExitError)) && cmd.ProcessState.ExitCode() == 1) {
				t.Fatalf("git check-ignore: %v", err)
			}
			want := map[string]bool{}
			for _, p := range strings.Split(string(out), "\x00") {
				want[p] = p != ""
			}

			r, err := gitrepo.Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for _, batch := range [][]string{paths, paths[:1], paths[2:3]} {
				src, err := r.Worktree()
				if err != nil {
					t.Fatal(err)
				}
				want := tc.rules != "*"
				for _, p := range batch {
					if tc.rules != "-" && strings.HasPrefix(p, tc.rules+"/") {
						want = false
					}
				}
				if got := gitrepo.RulelessForTest(src, batch); got != want {
					t.Errorf("%v answered without git: %v, want %v", batch, got, want)
				}
			}
			// one path at a time (Stat), and a directory's listing
			src, err := r.Worktree()
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range paths {
				_, err := src.Stat(p)
				if got := errors.Is(err, source.ErrIgnored); got != want[p] {
					t.Errorf("Stat(%s): ignored %v (%v), git check-ignore says %v", p, got, err, want[p])
				}
			}
			src, err = r.Worktree()
			if err != nil {
				t.Fatal(err)
			}
			listed, err := src.List("sub")
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"sub/y.log", "sub/z.txt"} {
				if got := !slices.Contains(listed, p); got != want[p] {
					t.Errorf("List(sub) = %v: %s hidden %v, git check-ignore says ignored %v", listed, p, got, want[p])
				}
			}
		})
	}
}
