package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// binary returns the directory that holds the git-memcite under test
// (underTest). Building the command again (go build) would cost a link of
// its own for the same code.
func binary(t *testing.T) string {
	t.Helper()
	bin := underTest()
	if bin == "" {
		t.Fatal("no git-memcite on PATH: testscript.Main (TestMain) puts this test binary there")
	}
	return filepath.Dir(bin)
}

// compatSetup builds the origin repository: src/a.go, a memory citing its
// line 2 ("two"), then a commit that inserts a line above it, so the
// citation is stale at HEAD, valid at HEAD~1 and relocatable to line 3.
const compatSetup = `
set -e
git init -q $FORMAT origin
cd origin
git config uploadpack.allowFilter true
mkdir -p src .serena/memories
printf 'one\ntwo\nthree\n' > src/a.go
printf 'other\n' > other.txt
printf -- '---\nid: m\ncitations:\n  - path: src/a.go\n    line: 2\n    snippet: two\n---\nThe second line.\n' > .serena/memories/m.md
git add -A
git commit -q -m init
printf 'inserted\none\ntwo\nthree\n' > src/a.go
git commit -q -am 'insert a line'
git checkout -q -b upstream
printf 'again\n' | cat - src/a.go > t && mv t src/a.go
git commit -q -am 'insert again'
git checkout -q main
cd ..
`

// fsmonitorHook is a core.fsmonitor hook (git's fsmonitor-watchman
// protocol, version 2): it prints a token, then "/", which tells git that
// every path may have changed. fsmonitorUsed shows that git calls it and
// keeps its token in the index.
const (
	fsmonitorHook = `#!/bin/sh
[ "$1" = 2 ] || exit 1
printf 'memcite-test\0/\0'
`
	fsmonitorUsed = `GIT_TRACE_FSMONITOR=1 git status 2>&1 | grep -q "read fsmonitor extension successful 'memcite-test'"`
)

// TestCompatMatrix runs the same commands in every repository layout git
// supports and expects the answers of a plain clone: verify-all (working
// tree, --staged, --rev HEAD~1), relocate, verify --why, and with the hooks
// installed a harmless commit (passes), a fixing commit (passes), a
// commit that makes the citation stale (blocked) and a rebasing pull that
// moves the cited line (reported, with where it went). Plain `go test`
// runs the layouts in compatCore; the long tests run them all.
func TestCompatMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds many repositories")
	}
	bin := binary(t)
	if b := os.Getenv("MEMCITE_TEST_BIN"); b != "" {
		bin = b
	}
	gitVersion := gitMinor(t)
	for _, tc := range []struct {
		name   string
		format string // git init option for the origin
		setup  string // makes the layout in ./L from ./origin; may export GIT_DIR etc. into ./env
		minGit int    // the git minor version the layout needs (2.x)
		env    string // more environment for git-memcite
		check  string // a command showing that git uses the layout
	}{
		{name: "plain", setup: `git clone -q origin L`},
		{name: "sparse-checkout", setup: `git clone -q origin L && git -C L sparse-checkout set src .serena`},
		{name: "sparse-index", setup: `git clone -q origin L && git -C L sparse-checkout init --cone --sparse-index && git -C L sparse-checkout set src .serena`},
		{name: "worktreeConfig-format0", setup: `git clone -q origin L && git -C L config core.repositoryformatversion 0 && git -C L config extensions.worktreeConfig true`},
		{name: "worktreeConfig-format1", setup: `git clone -q origin L && git -C L config core.repositoryformatversion 1 && git -C L config extensions.worktreeConfig true`},
		{name: "sha256", format: "--object-format=sha256", setup: `git clone -q origin L`},
		{name: "git-binary-backend", setup: `git clone -q origin L`, env: "MEMCITE_BACKEND=git"},
		{name: "bare+GIT_WORK_TREE", setup: `git clone -q --bare origin L.git && mkdir L && GIT_DIR=$PWD/L.git GIT_WORK_TREE=$PWD/L git read-tree -u --reset HEAD && printf 'GIT_DIR=%s\nGIT_WORK_TREE=%s\n' $PWD/L.git $PWD/L > env`},
		{name: "core.worktree", setup: `git clone -q origin L && mv L/.git L.git && git --git-dir=L.git config core.worktree $PWD/L && printf 'GIT_DIR=%s\n' $PWD/L.git > env`},
		{name: "clone-shared", setup: `git clone -q --shared origin L`},
		{name: "clone-reference", setup: `git clone -q --reference origin origin L`},
		{name: "alternates-relative", setup: `git clone -q --shared origin L && echo ../../../origin/.git/objects > L/.git/objects/info/alternates`},
		{name: "partial-clone", setup: `git clone -q --filter=blob:none file://$PWD/origin L`},
		{name: "separate-git-dir", setup: `git clone -q --separate-git-dir=$PWD/sep.git origin L`},
		{name: "linked-worktree", setup: `git clone -q origin main && git -C main worktree add -q ../L -b wt`},
		{name: "split-index", setup: `git clone -q origin L && git -C L config core.splitIndex true && git -C L update-index --split-index`},
		{name: "index-v4", setup: `git clone -q origin L && git -C L update-index --index-version 4`},
		{name: "untracked-cache", setup: `git clone -q origin L && git -C L config core.untrackedCache true && git -C L update-index --untracked-cache`},
		{name: "autocrlf", setup: `git clone -q -c core.autocrlf=true origin L`},
		{name: "fsmonitor", setup: `git clone -q origin L && git -C L config core.fsmonitor $PWD/fsmonitor && git -C L status -s`,
			check: fsmonitorUsed},
		{name: "fsmonitor-sha256", format: "--object-format=sha256", setup: `git clone -q origin L && git -C L config core.fsmonitor $PWD/fsmonitor && git -C L status -s`,
			check: fsmonitorUsed},
		{name: "reftable", format: "--ref-format=reftable", setup: `git clone -q origin L`, minGit: 45},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each layout has its own directories and environment
			if !compatCore[tc.name] {
				longtest.Skip(t, "one of the compatibility matrix's layouts beyond the core ones")
			}
			if gitVersion < tc.minGit {
				t.Skipf("git 2.%d needed for this layout (git 2.%d here)", tc.minGit, gitVersion)
			}
			base := t.TempDir()
			home := filepath.Join(base, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				t.Fatal(err)
			}
			env := append(os.Environ(),
				"HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig"),
				"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com",
				"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1", "FORMAT="+tc.format)
			if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n[maintenance]\n\tauto = false\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			sh := func(dir, script string) (string, int) {
				cmd := exec.Command("sh", "-c", script)
				cmd.Dir, cmd.Env = dir, env
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				err := cmd.Run()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				return out.String(), code
			}
			if err := os.WriteFile(filepath.Join(base, "fsmonitor"), []byte(fsmonitorHook), 0o755); err != nil {
				t.Fatal(err)
			}
			if out, code := sh(base, compatSetup+tc.setup); code != 0 {
				t.Fatalf("setup: exit %d\n%s", code, out)
			}
			if b, err := os.ReadFile(filepath.Join(base, "env")); err == nil {
				env = append(env, strings.Fields(string(b))...)
			}
			env = append(env, strings.Fields(tc.env)...)
			work := filepath.Join(base, "L")
			run := func(script string, want int, pattern string) {
				t.Helper()
				out, code := sh(work, script)
				if code != want {
					t.Errorf("%s: exit %d, want %d\n%s", script, code, want, out)
					return
				}
				if pattern != "" && !regexp.MustCompile(pattern).MatchString(out) {
					t.Errorf("%s: output does not match %q\n%s", script, pattern, out)
				}
			}
			run("git memcite verify-all", 1, `Expected 'two', got 'one'`)
			run("git memcite verify-all --staged", 1, `0 valid, 1 stale`)
			run("git memcite verify-all --rev HEAD~1", 0, `1 valid, 0 stale`)
			run("git memcite relocate", 1, `moved to src/a\.go:3`)
			run("git memcite verify m --why", 1, `insert a line; now at src/a\.go:3`)
			backend := "in-process"
			if strings.Contains(tc.env, "MEMCITE_BACKEND=git") {
				backend = "by git's commands"
			}
			run(`out=$(git memcite doctor); echo "$out"; echo "$out" | grep -q "objects read by git cat-file --batch .*; the index and refs read `+backend+`" && ! echo "$out" | grep -q "cannot "`, 0, "")
			run("git memcite install", 0, "")
			run("echo more >> other.txt && git commit -q -am 'harmless'", 0, "")
			// the next commit's check reads that commit's summary where the
			// index is decoded in-process (not git's listing of a split
			// index, nor with the git binary for objects)
			summary := "read the summary of tree"
			if noSummary[tc.name] {
				summary = "loaded 1 memory files"
			}
			run("echo again >> other.txt && MEMCITE_DEBUG=1 git commit -q -am 'harmless again' 2>&1", 0, summary)
			run("git memcite relocate --fix && git commit -q -am 'relocated'", 0, "")
			run("git memcite verify-all", 0, `1 valid, 0 stale`)
			run("sed -i 's/^two/TWO/' src/a.go && git commit -q -am 'break it'", 1, `(?i)stale`)
			run("git log -1 --format=%s", 0, `relocated`)
			// upstream inserts another line above the cited one; a rebasing
			// pull reports where the citation went (post-rewrite)
			run("git reset -q --hard && git pull -q --rebase origin upstream", 0, `src/a\.go:3.*\n(.*\n)*.*now at: src/a\.go:4`)
			if tc.check != "" {
				run(tc.check, 0, "")
			}
		})
	}
}

// noSummary are the layouts of TestCompatMatrix whose index git lists
// for git-memcite (ls-files): no tree id, so no commit summaries. (The
// sparse-index layout's index holds no directory entry, its cone being
// the whole tree: it is decoded in-process.)
var noSummary = map[string]bool{"git-binary-backend": true, "split-index": true}

// compatCore are the layouts of TestCompatMatrix that plain `go test`
// runs: one per way of reaching the repository (the object format, the
// git binary for history, per-worktree configuration, a separate
// working tree, a linked worktree).
var compatCore = map[string]bool{
	"plain":                  true,
	"sha256":                 true,
	"worktreeConfig-format1": true,
	"bare+GIT_WORK_TREE":     true,
	"linked-worktree":        true,
}

// gitMinor returns the minor version of git 2.x.
func gitMinor(t *testing.T) int {
	out, err := exec.Command("git", "version").Output()
	if err != nil {
		t.Skip("no git")
	}
	m := regexp.MustCompile(`git version 2\.(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("git version %q", out)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}
