package hookinstall

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var commits int

// commitWithStub stages a new file and commits it with the stand-in
// binary on PATH; it returns the binary's log.
func commitWithStub(t *testing.T, dir string, env []string, log string) string {
	t.Helper()
	commits++
	name := fmt.Sprintf("f%d.txt", commits)
	writeFile(t, filepath.Join(dir, name), "x\n", 0o644)
	gitIn(t, dir, "add", name)
	if _, stderr, err := runGit(dir, env, "commit", "-q", "-m", "x"); err != nil {
		t.Fatalf("commit: %v\n%s", err, stderr)
	}
	return logOf(t, log)
}

func TestRelativeHooksPathInsideRepo(t *testing.T) {
	dir := newRepo(t)
	gitIn(t, dir, "config", "core.hooksPath", ".githooks")
	plan := mustInstall(t, dir, Options{Hooks: []string{"pre-commit"}})
	want := realPath(filepath.Join(dir, ".githooks"))
	if plan.Repo.HooksDir != want || plan.Repo.HooksPathOutside || !plan.Applied {
		t.Fatalf("HooksDir %s (outside %v, applied %v); want %s", plan.Repo.HooksDir, plan.Repo.HooksPathOutside, plan.Applied, want)
	}
	env, log := stubBinary(t)
	if got := commitWithStub(t, dir, env, log); got != "git-memcite hook pre-commit\n" {
		t.Errorf("hook in core.hooksPath did not run: %q", got)
	}
	if exists(filepath.Join(dir, ".git", "hooks", "pre-commit")) {
		t.Error("installed into .git/hooks although core.hooksPath is set")
	}
}

func TestAbsoluteHooksPathOutsideRefusedUnlessForce(t *testing.T) {
	dir := newRepo(t)
	shared := filepath.Join(t.TempDir(), "global-hooks")
	gitIn(t, dir, "config", "--global", "core.hooksPath", shared)
	t.Cleanup(func() { gitIn(t, dir, "config", "--global", "--unset", "core.hooksPath") })

	for _, mode := range []Mode{ModeDefault, ModeChain} {
		plan := mustInstall(t, dir, Options{Mode: mode})
		if !plan.Refused() || !plan.Repo.HooksPathOutside || plan.Repo.HooksPathScope != "global" {
			t.Fatalf("%s: refused=%v outside=%v scope=%q", mode, plan.Refused(), plan.Repo.HooksPathOutside, plan.Repo.HooksPathScope)
		}
		if exists(shared) {
			t.Fatalf("%s: wrote into the shared hooks directory", mode)
		}
	}
	plan := mustInstall(t, dir, Options{Mode: ModeForce, Hooks: []string{"pre-commit"}})
	if !plan.Applied || plan.Hooks[0].Path != filepath.Join(realPath(shared), "pre-commit") {
		t.Fatalf("forced install: applied=%v path=%s", plan.Applied, plan.Hooks[0].Path)
	}
	env, log := stubBinary(t)
	if got := commitWithStub(t, dir, env, log); got != "git-memcite hook pre-commit\n" {
		t.Errorf("hook in the shared directory did not run: %q", got)
	}
}

func TestLinkedWorktreeUsesCommonHooks(t *testing.T) {
	dir := newRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "side", wt)
	plan := mustInstall(t, wt, Options{Hooks: []string{"pre-commit"}})
	if want := realPath(filepath.Join(dir, ".git", "hooks")); plan.Repo.HooksDir != want {
		t.Fatalf("HooksDir %s; want %s", plan.Repo.HooksDir, want)
	}
	if plan.Repo.Top != realPath(wt) || plan.Repo.HooksPathOutside {
		t.Errorf("Top %s, outside %v", plan.Repo.Top, plan.Repo.HooksPathOutside)
	}
	env, log := stubBinary(t)
	if got := commitWithStub(t, wt, env, log); got != "git-memcite hook pre-commit\n" {
		t.Errorf("hook did not run in the linked worktree: %q", got)
	}
	if got := commitWithStub(t, dir, env, log); strings.Count(got, "pre-commit") != 2 {
		t.Errorf("hook did not run in the main worktree: %q", got)
	}
}

func TestLinkedWorktreeWithRelativeHooksPath(t *testing.T) {
	dir := newRepo(t)
	gitIn(t, dir, "config", "core.hooksPath", ".githooks")
	wt := filepath.Join(t.TempDir(), "wt")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "side", wt)
	plan := mustInstall(t, wt, Options{Hooks: []string{"pre-commit"}})
	// A relative core.hooksPath resolves against each worktree's root.
	if want := realPath(filepath.Join(wt, ".githooks")); plan.Repo.HooksDir != want {
		t.Fatalf("HooksDir %s; want %s", plan.Repo.HooksDir, want)
	}
	env, log := stubBinary(t)
	if got := commitWithStub(t, wt, env, log); got != "git-memcite hook pre-commit\n" {
		t.Errorf("hook did not run: %q", got)
	}
}

func TestSubmoduleHasItsOwnHooks(t *testing.T) {
	sub := newRepo(t)
	super := newRepo(t)
	gitIn(t, super, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sm")
	gitIn(t, super, "commit", "-q", "-m", "add sm")
	sm := filepath.Join(super, "sm")
	gitIn(t, sm, "checkout", "-q", "-b", "work")
	plan := mustInstall(t, sm, Options{Hooks: []string{"pre-commit"}})
	if want := realPath(filepath.Join(super, ".git", "modules", "sm", "hooks")); plan.Repo.HooksDir != want {
		t.Fatalf("HooksDir %s; want %s", plan.Repo.HooksDir, want)
	}
	if plan.Repo.HooksPathOutside {
		t.Error("submodule hooks reported outside the repository")
	}
	env, log := stubBinary(t)
	if got := commitWithStub(t, sm, env, log); got != "git-memcite hook pre-commit\n" {
		t.Errorf("hook did not run in the submodule: %q", got)
	}
	if exists(filepath.Join(super, ".git", "hooks", "pre-commit")) {
		t.Error("installed into the superproject")
	}
}

func TestMissingBinaryWarnsOrBlocks(t *testing.T) {
	dir := newRepo(t)
	mustInstall(t, dir, Options{})
	path := noBinaryPath(t)
	writeFile(t, filepath.Join(dir, "b.txt"), "b\n", 0o644)
	gitIn(t, dir, "add", "b.txt")
	_, stderr, err := runGit(dir, []string{path}, "commit", "-q", "-m", "b")
	if err != nil {
		t.Fatalf("commit blocked by a missing binary: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "git-memcite: not found on PATH") || !strings.Contains(stderr, "skipped") {
		t.Errorf("stderr = %q", stderr)
	}
	gitIn(t, dir, "config", "memcite.requireBinary", "true")
	writeFile(t, filepath.Join(dir, "b.txt"), "c\n", 0o644)
	gitIn(t, dir, "add", "b.txt")
	_, stderr, err = runGit(dir, []string{path}, "commit", "-q", "-m", "c")
	if err == nil || !strings.Contains(stderr, "memcite.requireBinary") {
		t.Errorf("commit not blocked under memcite.requireBinary: err=%v stderr=%q", err, stderr)
	}
}

func TestKillSwitches(t *testing.T) {
	dir := newRepo(t)
	mustInstall(t, dir, Options{})
	env, log := stubBinary(t)
	for _, sw := range []string{"MEMCITE=0", "SKIP=lint,memcite", "SKIP=memcite"} {
		if got := commitWithStub(t, dir, append(env, sw), log); got != "" {
			t.Errorf("%s: git-memcite ran: %q", sw, got)
		}
	}
	if got := commitWithStub(t, dir, append(env, "SKIP=memcite-all"), log); got != "git-memcite hook pre-commit\n" {
		t.Errorf("SKIP=memcite-all skipped the hook: %q", got)
	}
}

func TestBareRepositoryRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bare.git")
	gitIn(t, t.TempDir(), "init", "-q", "--bare", dir)
	if _, err := Install(ctx, dir, Options{}); err != ErrBare {
		t.Errorf("err = %v; want ErrBare", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "hooks", "pre-commit")); err == nil {
		t.Error("wrote a hook into a bare repository")
	}
}

func TestMergeRunsPreMergeCommitAndPostMerge(t *testing.T) {
	dir := newRepo(t)
	mustInstall(t, dir, Options{})
	gitIn(t, dir, "checkout", "-q", "-b", "side")
	writeFile(t, filepath.Join(dir, "side.txt"), "s\n", 0o644)
	gitIn(t, dir, "add", "side.txt")
	gitIn(t, dir, "commit", "-q", "--no-verify", "-m", "side")
	gitIn(t, dir, "checkout", "-q", "main")
	writeFile(t, filepath.Join(dir, "main.txt"), "m\n", 0o644)
	gitIn(t, dir, "add", "main.txt")
	gitIn(t, dir, "commit", "-q", "--no-verify", "-m", "main")

	env, log := stubBinary(t)
	// A failing pre-merge-commit blocks the merge commit.
	if _, _, err := runGit(dir, append(env, "STUB_EXIT=1"), "merge", "-q", "--no-edit", "side"); err == nil {
		t.Fatal("merge went ahead although pre-merge-commit failed")
	}
	gitIn(t, dir, "merge", "--abort")
	if got := logOf(t, log); got != "git-memcite hook pre-merge-commit\n" {
		t.Errorf("log %q", got)
	}
	os.Remove(log)
	if _, stderr, err := runGit(dir, env, "merge", "-q", "--no-edit", "side"); err != nil {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	if got := logOf(t, log); got != "git-memcite hook pre-merge-commit\ngit-memcite hook post-merge 0\n" {
		t.Errorf("log %q", got)
	}
}
