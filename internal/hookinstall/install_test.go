package hookinstall

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/hooks"
)

var ctx = context.Background()

func TestInstallFreshThenIdempotent(t *testing.T) {
	dir := newRepo(t)
	plan := mustInstall(t, dir, Options{})
	if !plan.Applied || plan.Refused() {
		t.Fatalf("applied=%v refused=%v", plan.Applied, plan.Refused())
	}
	hooksDir := filepath.Join(dir, ".git", "hooks")
	if plan.Repo.HooksDir != realPath(hooksDir) {
		t.Errorf("HooksDir = %s; want %s", plan.Repo.HooksDir, hooksDir)
	}
	for _, name := range hooks.Names {
		if a := actions(plan)[name]; a != Create {
			t.Errorf("%s: action %s; want create", name, a)
		}
		want, _ := hooks.Script(name)
		p := filepath.Join(hooksDir, name)
		if got := readFile(t, p); got != string(want) {
			t.Errorf("%s: content differs from the embedded script", name)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v; want 0755", name, fi.Mode().Perm())
		}
	}
	before := readFile(t, filepath.Join(hooksDir, "pre-commit"))
	again := mustInstall(t, dir, Options{})
	if again.Changes() || again.Applied {
		t.Errorf("second install changed files: %v", actions(again))
	}
	for name, a := range actions(again) {
		if a != Keep {
			t.Errorf("second install: %s: %s; want unchanged", name, a)
		}
	}
	if readFile(t, filepath.Join(hooksDir, "pre-commit")) != before {
		t.Error("second install rewrote pre-commit")
	}
	st, err := GetStatus(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !st.OK() {
		t.Errorf("status not OK after install: %+v", st.Hooks)
	}
}

func TestInstallClassifiesExistingFiles(t *testing.T) {
	tests := []struct {
		name    string
		content string // written to .git/hooks/pre-commit; "" = none
		mode    os.FileMode
		sample  bool // also write the same content as pre-commit.sample
		found   State
		action  Action
	}{
		{"missing", "", 0, false, Missing, Create},
		{"empty", "", 0o755, false, Empty, Replace},
		{"shebang only", "#!/bin/sh\n\n", 0o755, false, Empty, Replace},
		{"git sample copy", "#!/bin/sh\n# An example hook script\nexit 0\n", 0o755, true, Sample, Replace},
		{"older version of ours", "#!/bin/sh\n# git-memcite-hook v0 (managed): pre-commit\nexec git-memcite hook pre-commit\n", 0o755, false, Outdated, Upgrade},
		{"ours but not executable", "CURRENT", 0o644, false, Outdated, Upgrade},
		{"ours and current", "CURRENT", 0o755, false, Current, Keep},
		{"foreign", "#!/bin/sh\nmake lint\n", 0o755, false, Foreign, Refuse},
		{"foreign, edited sample", "#!/bin/sh\n# An example hook script\nexit 1\n", 0o755, false, Foreign, Refuse},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			p := filepath.Join(dir, ".git", "hooks", "pre-commit")
			os.RemoveAll(p + ".sample")
			content := tc.content
			if content == "CURRENT" {
				b, _ := hooks.Script("pre-commit")
				content = string(b)
			}
			if tc.mode != 0 {
				writeFile(t, p, content, tc.mode)
			}
			if tc.sample {
				writeFile(t, p+".sample", content, 0o755)
			}
			repo, err := Locate(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := PlanInstall(repo, Options{Hooks: []string{"pre-commit"}})
			if err != nil {
				t.Fatal(err)
			}
			h := plan.Hooks[0]
			if h.Found != tc.found || h.Action != tc.action {
				t.Errorf("found %s, action %s; want %s, %s", h.Found, h.Action, tc.found, tc.action)
			}
		})
	}
}

func TestInstallRefusesForeignHookAndWritesNothing(t *testing.T) {
	dir := newRepo(t)
	hooksDir := filepath.Join(dir, ".git", "hooks")
	foreign := "#!/bin/sh\n# team lint\nmake lint\n"
	writeFile(t, filepath.Join(hooksDir, "pre-commit"), foreign, 0o755)
	plan := mustInstall(t, dir, Options{})
	if !plan.Refused() || plan.Applied {
		t.Fatalf("refused=%v applied=%v; want refused, nothing applied", plan.Refused(), plan.Applied)
	}
	h := plan.Hooks[0]
	if h.Action != Refuse || !strings.Contains(h.Head, "make lint") {
		t.Errorf("pre-commit plan = %+v", h)
	}
	if got := readFile(t, filepath.Join(hooksDir, "pre-commit")); got != foreign {
		t.Errorf("foreign hook changed: %q", got)
	}
	for _, n := range []string{"pre-merge-commit", "post-merge", "post-rewrite"} {
		if exists(filepath.Join(hooksDir, n)) {
			t.Errorf("%s written although install was refused", n)
		}
	}
	if len(plan.Snippets) != 1 || plan.Snippets[0].File != ".git/hooks/pre-commit" ||
		!strings.Contains(plan.Snippets[0].Text, `git-memcite hook pre-commit "$@" || exit $?`) {
		t.Errorf("snippets = %+v", plan.Snippets)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, ".git", "hooks", "post-merge"), "#!/bin/sh\ngit lfs post-merge \"$@\"\n", 0o755)
	plan := mustInstall(t, dir, Options{Mode: ModeForce, DryRun: true})
	if plan.Applied {
		t.Error("dry run applied")
	}
	if a := actions(plan); a["pre-commit"] != Create || a["post-merge"] != Backup {
		t.Errorf("actions = %v", a)
	}
	if exists(filepath.Join(dir, ".git", "hooks", "pre-commit")) || exists(filepath.Join(dir, ".git", "hooks", "post-merge"+BackupSuffix)) {
		t.Error("dry run wrote files")
	}
}

func TestChainRunsPreviousHookFirstAndPassesItsStatus(t *testing.T) {
	dir := newRepo(t)
	env, log := stubBinary(t)
	hooksDir := filepath.Join(dir, ".git", "hooks")
	prevLog := filepath.Join(t.TempDir(), "prev.log")
	writeFile(t, filepath.Join(hooksDir, "pre-commit"),
		"#!/bin/sh\necho prev >>'"+prevLog+"'\nexit ${PREV_EXIT:-0}\n", 0o755)
	plan := mustInstall(t, dir, Options{Mode: ModeChain})
	if a := actions(plan)["pre-commit"]; a != Chain || !plan.Applied {
		t.Fatalf("pre-commit action %s, applied %v", a, plan.Applied)
	}
	if !exists(filepath.Join(hooksDir, "pre-commit"+PrevSuffix)) {
		t.Fatal("previous hook not kept as pre-commit.memcite-prev")
	}

	// The previous hook fails: the commit is blocked before git-memcite runs.
	writeFile(t, filepath.Join(dir, "b.txt"), "b\n", 0o644)
	gitIn(t, dir, "add", "b.txt")
	_, stderr, err := runGit(dir, append(env, "PREV_EXIT=3"), "commit", "-q", "-m", "b")
	if err == nil {
		t.Fatalf("commit succeeded although the chained hook failed\n%s", stderr)
	}
	if got := logOf(t, prevLog); got != "prev\n" {
		t.Errorf("chained hook log %q", got)
	}
	if got := logOf(t, log); got != "" {
		t.Errorf("git-memcite ran after the chained hook failed: %q", got)
	}

	// The previous hook passes: git-memcite runs next and its status counts.
	_, stderr, err = runGit(dir, append(env, "STUB_EXIT=1"), "commit", "-q", "-m", "b")
	if err == nil {
		t.Fatalf("commit succeeded although git-memcite failed\n%s", stderr)
	}
	if got := logOf(t, log); got != "git-memcite hook pre-commit\n" {
		t.Errorf("git-memcite log %q", got)
	}
	if _, stderr, err = runGit(dir, env, "commit", "-q", "-m", "b"); err != nil {
		t.Fatalf("commit: %v\n%s", err, stderr)
	}
	if got := logOf(t, prevLog); got != "prev\nprev\nprev\n" {
		t.Errorf("chained hook log %q", got)
	}
}

func TestChainedPostRewriteGetsStdinToo(t *testing.T) {
	dir := newRepo(t)
	env, log := stubBinary(t)
	hooksDir := filepath.Join(dir, ".git", "hooks")
	prevLog := filepath.Join(t.TempDir(), "prev.log")
	writeFile(t, filepath.Join(hooksDir, "post-rewrite"),
		"#!/bin/sh\necho \"prev $*\" >>'"+prevLog+"'\ncat >>'"+prevLog+"'\nexit 7\n", 0o755)
	mustInstall(t, dir, Options{Mode: ModeChain, Hooks: []string{"post-rewrite"}})
	old := strings.TrimSpace(gitIn(t, dir, "rev-parse", "HEAD"))
	if _, stderr, err := runGit(dir, env, "commit", "-q", "--amend", "-m", "amended"); err != nil {
		t.Fatalf("amend: %v\n%s", err, stderr)
	}
	now := strings.TrimSpace(gitIn(t, dir, "rev-parse", "HEAD"))
	pair := old + " " + now + "\n"
	if got := logOf(t, prevLog); got != "prev amend\n"+pair {
		t.Errorf("chained hook got %q; want args and stdin %q", got, pair)
	}
	if got := logOf(t, log); got != "git-memcite hook post-rewrite amend\n"+pair {
		t.Errorf("git-memcite got %q; want args and stdin %q", got, pair)
	}
}

func TestForceBacksUpAndUninstallRestores(t *testing.T) {
	dir := newRepo(t)
	hooksDir := filepath.Join(dir, ".git", "hooks")
	foreign := "#!/bin/sh\ngit lfs post-merge \"$@\"\n"
	writeFile(t, filepath.Join(hooksDir, "post-merge"), foreign, 0o755)
	plan := mustInstall(t, dir, Options{Mode: ModeForce})
	if a := actions(plan)["post-merge"]; a != Backup {
		t.Fatalf("post-merge action %s; want backup", a)
	}
	if plan.Hooks[2].Manager != GitLFS {
		t.Errorf("manager %q; want git-lfs", plan.Hooks[2].Manager)
	}
	if got := readFile(t, filepath.Join(hooksDir, "post-merge"+BackupSuffix)); got != foreign {
		t.Errorf("backup = %q", got)
	}
	if v, ok := hooks.Marker([]byte(readFile(t, filepath.Join(hooksDir, "post-merge")))); !ok || v != hooks.Version {
		t.Error("post-merge not replaced by ours")
	}
	// A second forced install must not overwrite the backup.
	if a := actions(mustInstall(t, dir, Options{Mode: ModeForce}))["post-merge"]; a != Keep {
		t.Errorf("second forced install: %s", a)
	}

	res, err := Uninstall(ctx, dir, UninstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]UninstallAction{"pre-commit": Remove, "pre-merge-commit": Remove, "post-merge": Restore, "post-rewrite": Remove}
	for _, h := range res.Hooks {
		if h.Action != want[h.Name] {
			t.Errorf("uninstall %s: %s; want %s", h.Name, h.Action, want[h.Name])
		}
	}
	if got := readFile(t, filepath.Join(hooksDir, "post-merge")); got != foreign {
		t.Errorf("post-merge after uninstall = %q", got)
	}
	if exists(filepath.Join(hooksDir, "pre-commit")) || exists(filepath.Join(hooksDir, "post-merge"+BackupSuffix)) {
		t.Error("uninstall left files behind")
	}
	again, err := Uninstall(ctx, dir, UninstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changes() {
		t.Errorf("second uninstall changes files: %+v", again.Hooks)
	}
	if got := readFile(t, filepath.Join(hooksDir, "post-merge")); got != foreign {
		t.Error("second uninstall touched the restored hook")
	}
}

func TestUninstallRestoresChainedHookAndLeavesForeignAlone(t *testing.T) {
	dir := newRepo(t)
	hooksDir := filepath.Join(dir, ".git", "hooks")
	foreign := "#!/bin/sh\nexit 0\n"
	writeFile(t, filepath.Join(hooksDir, "pre-commit"), foreign, 0o700)
	writeFile(t, filepath.Join(hooksDir, "commit-msg"), foreign, 0o755)
	mustInstall(t, dir, Options{Mode: ModeChain})
	res, err := Uninstall(ctx, dir, UninstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Hooks[0].Action != Restore {
		t.Errorf("pre-commit: %s; want restore", res.Hooks[0].Action)
	}
	if got := readFile(t, filepath.Join(hooksDir, "pre-commit")); got != foreign {
		t.Errorf("pre-commit = %q", got)
	}
	if fi, _ := os.Stat(filepath.Join(hooksDir, "pre-commit")); fi.Mode().Perm() != 0o700 {
		t.Errorf("restored mode %v; want 0700", fi.Mode().Perm())
	}
	// A foreign hook installed over ours later is never removed.
	mustInstall(t, dir, Options{})
	writeFile(t, filepath.Join(hooksDir, "post-merge"), foreign, 0o755)
	res, err = Uninstall(ctx, dir, UninstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Hooks[2].Action != Kept || readFile(t, filepath.Join(hooksDir, "post-merge")) != foreign {
		t.Errorf("post-merge: %s", res.Hooks[2].Action)
	}
	if readFile(t, filepath.Join(hooksDir, "commit-msg")) != foreign {
		t.Error("uninstall touched commit-msg")
	}
}

func TestManualWritesNothingAndGivesSnippets(t *testing.T) {
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, ".git", "hooks", "pre-commit"),
		"#!/bin/sh\n# File generated by pre-commit: https://pre-commit.com\nexec pre-commit hook-impl\n", 0o755)
	plan := mustInstall(t, dir, Options{Mode: ModeManual, Hooks: []string{"pre-commit", "post-merge"}})
	if plan.Applied || plan.Refused() {
		t.Errorf("applied=%v refused=%v", plan.Applied, plan.Refused())
	}
	if exists(filepath.Join(dir, ".git", "hooks", "post-merge")) {
		t.Error("manual mode wrote post-merge")
	}
	// The pre-commit framework is in charge: one entry covers both hooks.
	if len(plan.Snippets) != 1 || plan.Snippets[0].Manager != PreCommit || !strings.Contains(plan.Snippets[0].Text, "- id: memcite-post-merge") {
		t.Errorf("snippets = %+v", plan.Snippets)
	}
}

func TestSnippets(t *testing.T) {
	repo := Repo{Top: "/r", HooksDir: "/r/.git/hooks"}
	tests := []struct {
		manager Manager
		names   []string
		want    []Snippet
	}{
		{Husky, []string{"pre-commit", "post-rewrite"}, []Snippet{
			{Manager: Husky, File: ".husky/pre-commit", Text: "git memcite hook pre-commit\n"},
			{Manager: Husky, File: ".husky/post-rewrite", Text: "git memcite hook post-rewrite \"$@\" || true\n"},
		}},
		{Lefthook, []string{"pre-commit", "post-merge", "post-rewrite"}, []Snippet{{
			Manager: Lefthook, File: "lefthook.yml", Then: "lefthook install",
			Text: "pre-commit:\n  commands:\n    memcite:\n      run: git memcite hook pre-commit\n" +
				"post-merge:\n  commands:\n    memcite:\n      run: git memcite hook post-merge {1}\n" +
				"post-rewrite:\n  commands:\n    memcite:\n      run: git memcite hook post-rewrite {1}\n      use_stdin: true\n",
		}}},
		{PreCommit, []string{"pre-commit", "pre-merge-commit", "post-merge"}, []Snippet{{
			Manager: PreCommit, File: ".pre-commit-config.yaml",
			Then: "pre-commit install -t pre-commit -t pre-merge-commit -t post-merge",
			Text: "  - repo: https://github.com/git-memcite/git-memcite\n    rev: v1.2.3\n    hooks:\n" +
				"      - id: memcite\n      - id: memcite-post-merge\n",
		}}},
		{GitLFS, []string{"post-merge"}, []Snippet{{
			Manager: GitLFS, File: ".git/hooks/post-merge",
			Text: "# git-memcite: check code citations in memory files\n" +
				"command -v git-memcite >/dev/null 2>&1 && git-memcite hook post-merge \"$@\" || true\n",
		}}},
	}
	for _, tc := range tests {
		t.Run(string(tc.manager), func(t *testing.T) {
			got := snippets(repo, tc.manager, tc.names, "v1.2.3", false)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestManagerOf(t *testing.T) {
	tests := map[string]Manager{
		"#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n":                                       Husky,
		"#!/bin/sh\n. \"$(dirname -- \"$0\")/_/husky.sh\"\nnpx lint-staged\n":                  Husky,
		"#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n":        PreCommit,
		"#!/bin/sh\nif [ \"$LEFTHOOK\" = \"0\" ]; then exit 0; fi\ncall_lefthook run\n":        Lefthook,
		"#!/bin/sh\ncommand -v git-lfs >/dev/null 2>&1 || exit 2\ngit lfs post-merge \"$@\"\n": GitLFS,
		"#!/bin/sh\nmake lint\n": None,
	}
	for content, want := range tests {
		if got := managerOf([]byte(content)); got != want {
			t.Errorf("managerOf(%q) = %q; want %q", content, got, want)
		}
	}
}

func TestUnknownHookName(t *testing.T) {
	if _, err := Install(ctx, newRepo(t), Options{Hooks: []string{"pre-push"}}); err == nil {
		t.Error("Install accepted a hook git-memcite does not provide")
	}
}
