package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// recipe is a code block of the docs that is a file to put in a
// repository: its first line is a comment naming the file.
type recipe struct {
	doc  string // docs/hooks.md
	line int    // of the block's first line
	file string // lefthook.yml, .husky/pre-commit, .github/workflows/memcite.yml …
	text string // the block without its first line
}

func (r recipe) String() string { return fmt.Sprintf("%s:%d: %s", r.doc, r.line, r.file) }

var recipeFile = regexp.MustCompile(`^# (lefthook\.yml|\.husky/[a-z-]+|\.pre-commit-config\.yaml|\.gitlab-ci\.yml|\.github/workflows/[\w.-]+\.yml|ci\.sh)$`)

// docRecipes returns the recipes of the docs.
func docRecipes(t *testing.T, docs ...string) []recipe {
	t.Helper()
	var out []recipe
	for _, doc := range docs {
		f, err := os.Open(filepath.Join("..", "..", doc))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		var cur *recipe
		in, first, n := false, false, 0
		for sc.Scan() {
			n++
			l := sc.Text()
			switch {
			case strings.HasPrefix(l, "```") && !in:
				in, first = true, true
			case strings.HasPrefix(l, "```"):
				if cur != nil {
					out = append(out, *cur)
				}
				in, cur = false, nil
			case in && first:
				first = false
				if m := recipeFile.FindStringSubmatch(l); m != nil {
					cur = &recipe{doc: doc, line: n, file: m[1]}
				}
			case cur != nil:
				cur.text += l + "\n"
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestDocRecipes runs every recipe of docs/hooks.md and docs/ci.md: each
// hook manager's recipe with the real manager (scripts/ci-deps.sh installs
// them; skipped without, failed in CI), each CI recipe as the CI would run
// it. The hook recipes must all behave as git-memcite's own scripts do: a
// harmless commit passes although an old citation is stale (unmentioned), a
// commit that makes a citation stale is blocked, SKIP=memcite and
// MEMCITE=0 let it through, and a merge is reported. The CI recipes run
// verify-all with the baseline: clean with the known stale citation,
// failing on a new one.
func TestDocRecipes(t *testing.T) {
	longtest.Skip(t, "the hook managers on the documented recipes")
	recipes := docRecipes(t, "docs/hooks.md", "docs/ci.md")
	dir := t.TempDir()
	scripts := map[string]string{}
	var husky []recipe
	for _, r := range recipes {
		switch {
		case r.file == "lefthook.yml":
			scripts[fmt.Sprintf("lefthook_%d", r.line)] = hookRecipeScript("lefthook", r, []recipe{r})
		case strings.HasPrefix(r.file, ".husky/"):
			husky = append(husky, r)
		case r.file == ".pre-commit-config.yaml":
			scripts[fmt.Sprintf("precommit_%d", r.line)] = hookRecipeScript("pre-commit", r, []recipe{r})
		case r.file == ".gitlab-ci.yml":
			scripts[fmt.Sprintf("gitlab_%d", r.line)] = gitlabScript(t, r)
		case r.file == "ci.sh":
			scripts[fmt.Sprintf("shell_%d", r.line)] = ciScript(r, r.text)
		case strings.HasPrefix(r.file, ".github/workflows/"):
			scripts[fmt.Sprintf("github_%d", r.line)] = workflowScript(t, r)
		}
	}
	if len(husky) > 0 {
		scripts["husky"] = hookRecipeScript("husky", husky[0], husky)
	}
	// every kind of recipe the docs promise is there
	var kinds []string
	for name := range scripts {
		k, _, _ := strings.Cut(name, "_")
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	slices.Sort(kinds)
	if want := "github gitlab husky lefthook precommit shell"; strings.Join(kinds, " ") != want {
		t.Fatalf("recipes found: %v; want %s", kinds, want)
	}
	for name, s := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name+".txtar"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testscript.Run(t, testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Setup:               setupGitEnv,
		Condition:           needTool,
	})
}

// recipeFixture is a repository with one valid citation (m.md) and one
// already stale (old.md), and the files the scripts switch in.
const recipeFixture = `-- src/a.go --
package a

func A() {}
-- src/b.go --
package b
-- .serena/memories/m.md --
---
id: m
citations:
  - path: src/a.go
    line: 3
    snippet: func A() {}
---
A is the entry point.
-- .serena/memories/old.md --
---
id: old
citations:
  - path: src/b.go
    line: 1
    snippet: package c
---
An old note.
-- a-edited.go --
package a

func B() {}
-- a-moved.go --
package a

// C comes first.
func C() {}

func A() {}
-- extra.txt --
extra
`

// hookRecipeScript is the testscript for the recipe of a hook manager
// (rs: the files of the recipe; r: the one named in messages).
func hookRecipeScript(manager string, r recipe, rs []recipe) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (the recipe for %s)\n[!exec:git] skip\n[windows] skip\n", r, manager)
	postMerge := false
	for _, x := range rs {
		postMerge = postMerge || strings.Contains(x.text, "hook post-merge") || strings.Contains(x.text, "memcite-post-merge")
	}
	switch manager {
	case "lefthook":
		b.WriteString("[!need:lefthook] skip\nexec git init -q\nexec lefthook install\n")
	case "husky":
		b.WriteString("[!need:husky] skip\nexec git init -q\nexec husky\n")
	case "pre-commit":
		b.WriteString(`[!exec:go] skip
[!need:pre-commit] skip
cp $MEMCITE_SRC/.pre-commit-hooks.yaml hookrepo/.pre-commit-hooks.yaml
exec git -C hookrepo init -q
exec git -C hookrepo add -A
exec git -C hookrepo commit -q -m hooks
exec git -C hookrepo tag v0.1.0
exec git init -q
exec sed -i 's#https://github.com/git-memcite/git-memcite#'$WORK'/hookrepo#' .pre-commit-config.yaml
exec pre-commit install -t pre-commit -t pre-merge-commit -t post-merge -t post-rewrite
`)
	}
	b.WriteString(`exec git add -A
exec git commit -q --no-verify -m init

# a harmless commit goes through although old.md was stale before it
cp extra.txt extra2.txt
exec git add extra2.txt
exec git commit -q -m harmless
`)
	// it touches neither old.md nor what it cites: not checked, not mentioned
	b.WriteString("! stderr 'already stale'\n")
	b.WriteString(`
# a commit that makes a citation stale is blocked
cp a-edited.go src/a.go
! exec git commit -q -a -m stale
stderr '1 stale citation blocks this commit'

# SKIP=memcite and MEMCITE=0 let it through
env SKIP=memcite
exec git commit -q -a -m skipped
env SKIP=
exec git reset -q --hard HEAD~1
cp a-edited.go src/a.go
env MEMCITE=0
exec git commit -q -a -m off
env MEMCITE=
exec git reset -q --hard HEAD~1
`)
	if postMerge {
		b.WriteString(`
# a merge that moves the cited line is reported
exec git checkout -q -b side
cp a-moved.go src/a.go
exec git commit -q -a --no-verify -m 'move A down'
exec git checkout -q main
exec git merge -q --ff-only side
stderr 'git-memcite: the merge made 1 citation stale:'
`)
	}
	b.WriteString("\n-- .gitignore --\nhookrepo/\n")
	for _, x := range rs {
		fmt.Fprintf(&b, "-- %s --\n%s", x.file, x.text)
	}
	if manager == "pre-commit" {
		b.WriteString(`-- hookrepo/go.mod --
module example.com/memcite-under-test

go 1.21
-- hookrepo/cmd/git-memcite/main.go --
// Command git-memcite runs the git-memcite under test, $MEMCITE_BIN.
package main

import (
	"os"
	"syscall"
)

func main() {
	bin := os.Getenv("MEMCITE_BIN")
	err := syscall.Exec(bin, append([]string{bin}, os.Args[1:]...), os.Environ())
	os.Stderr.WriteString("git-memcite under test: " + err.Error() + "\n")
	os.Exit(2)
}
`)
	}
	b.WriteString(recipeFixture)
	return b.String()
}

// ciScript runs CI commands (sh, stopping at the first failure, as CI
// services do) in the fixture: clean once the baseline knows old.md's
// stale citation, failing once a commit makes another one stale.
func ciScript(r recipe, commands string) string {
	return fmt.Sprintf(`# %s
[!exec:git] skip
[!exec:sh] skip
exec git init -q
exec git add -A
exec git commit -q -m init
! exec git memcite verify-all --format json --output .memcite-baseline.json
exec sh -e ci.sh
cp a-edited.go src/a.go
! exec sh -e ci.sh

-- ci.sh --
%s%s`, r, commands, recipeFixture)
}

// gitlabScript runs the git memcite lines of a .gitlab-ci.yml job (the
// image already has git-memcite here) and checks the report it leaves.
func gitlabScript(t *testing.T, r recipe) string {
	t.Helper()
	var jobs map[string]struct {
		Script    []string `yaml:"script"`
		Artifacts struct {
			Reports struct {
				Codequality string `yaml:"codequality"`
			} `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	if err := yaml.Unmarshal([]byte(r.text), &jobs); err != nil {
		t.Fatalf("%s: %v", r, err)
	}
	var cmds []string
	report := ""
	for _, j := range jobs {
		for _, c := range j.Script {
			switch {
			case strings.HasPrefix(c, "git memcite "):
				cmds = append(cmds, c)
			case strings.HasPrefix(c, "go install ") && !strings.HasSuffix(c, "@v0.1.0"):
				t.Errorf("%s: %q does not pin a release", r, c)
			}
		}
		report = j.Artifacts.Reports.Codequality
	}
	if len(cmds) == 0 || report == "" {
		t.Fatalf("%s: no git memcite command or no code quality report", r)
	}
	s := ciScript(r, strings.Join(cmds, "\n")+"\n")
	return strings.Replace(s, "exec sh -e ci.sh\n", "exec sh -e ci.sh\nexists "+report+"\n", 1)
}

// workflowScript runs the action's run step (scripts/action/run.sh) with
// the inputs a workflow gives the action, after checking that they are
// inputs of action.yml and that the workflow pins a release.
func workflowScript(t *testing.T, r recipe) string {
	t.Helper()
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(r.text), &wf); err != nil {
		t.Fatalf("%s: %v", r, err)
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]any `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	var env []string
	found := false
	for _, j := range wf.Jobs {
		for _, s := range j.Steps {
			name, ref, _ := strings.Cut(s.Uses, "@")
			if name != "git-memcite/git-memcite" {
				continue
			}
			found = true
			if ref != "v0.1.0" {
				t.Errorf("%s: uses %s; pin the release (@v0.1.0)", r, s.Uses)
			}
			for k, v := range s.With {
				if _, ok := action.Inputs[k]; !ok {
					t.Errorf("%s: with %s: not an input of action.yml", r, k)
				}
				env = append(env, fmt.Sprintf("env INPUT_%s=%s", strings.ToUpper(strings.ReplaceAll(k, "-", "_")), v))
			}
		}
	}
	if !found {
		t.Fatalf("%s: no step uses git-memcite/git-memcite", r)
	}
	slices.Sort(env)
	return fmt.Sprintf(`# %s: the action's run step with the workflow's inputs
[!exec:git] skip
[!exec:sh] skip
exec git init -q
exec git add -A
exec git commit -q -m init
! exec git memcite verify-all --format json --output .memcite-baseline.json
env GITHUB_OUTPUT=$WORK/gh-output
%s
exec sh $MEMCITE_SRC/scripts/action/run.sh
grep '^exit-code=0$' gh-output

%s`, r, strings.Join(env, "\n"), recipeFixture)
}
