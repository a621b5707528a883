package hookrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

func commitFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "add", name)
	gitT(t, dir, "commit", "-q", "-m", name)
	return gitT(t, dir, "rev-parse", "HEAD")
}

func pinnedGit(t *testing.T) string {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(t.TempDir(), "gitconfig"))
	for _, k := range []string{"AUTHOR", "COMMITTER"} {
		t.Setenv("GIT_"+k+"_NAME", "T")
		t.Setenv("GIT_"+k+"_EMAIL", "t@example.com")
	}
	dir := t.TempDir()
	gitT(t, dir, "init", "-q", "-b", "main")
	return dir
}

func TestPostRange(t *testing.T) {
	ctx := context.Background()
	dir := pinnedGit(t)
	base := commitFile(t, dir, "a", "1")
	gitT(t, dir, "checkout", "-q", "-b", "side")
	side := commitFile(t, dir, "b", "1")
	gitT(t, dir, "checkout", "-q", "main")

	// Fast-forward merge: ORIG_HEAD..HEAD.
	gitT(t, dir, "merge", "-q", "--ff-only", "side")
	r, ok, err := PostRange(ctx, dir, Invocation{Hook: "post-merge", Args: []string{"0"}}, nil)
	if err != nil || !ok || r.Old != base || r.New != side || r.Squash {
		t.Errorf("fast-forward: %+v ok=%v err=%v; want %s..%s", r, ok, err, base, side)
	}

	// Squash: HEAD against the index.
	gitT(t, dir, "checkout", "-q", "-b", "other", base)
	other := commitFile(t, dir, "c", "1")
	gitT(t, dir, "merge", "-q", "--squash", "main")
	r, ok, err = PostRange(ctx, dir, Invocation{Hook: "post-merge", Args: []string{"1"}}, nil)
	if err != nil || !ok || r.Old != other || !r.Squash {
		t.Errorf("squash: %+v ok=%v err=%v", r, ok, err)
	}
	gitT(t, dir, "commit", "-q", "-m", "squashed")

	// Rebase: ORIG_HEAD is the branch before the rebase.
	gitT(t, dir, "checkout", "-q", "-b", "topic", base)
	topic := commitFile(t, dir, "d", "1")
	gitT(t, dir, "rebase", "-q", "main")
	r, ok, err = PostRange(ctx, dir, Invocation{Hook: "post-rewrite", Args: []string{"rebase"}}, nil)
	if err != nil || !ok || r.Old != topic || r.New != gitT(t, dir, "rev-parse", "HEAD") {
		t.Errorf("rebase: %+v ok=%v err=%v; want old %s", r, ok, err, topic)
	}

	// Amend: the old commit from stdin, else HEAD@{1}.
	before := gitT(t, dir, "rev-parse", "HEAD")
	gitT(t, dir, "commit", "-q", "--amend", "-m", "amended")
	after := gitT(t, dir, "rev-parse", "HEAD")
	for _, stdin := range []string{before + " " + after + "\n", ""} {
		r, ok, err = PostRange(ctx, dir, Invocation{Hook: "post-rewrite", Args: []string{"amend"}}, []byte(stdin))
		if err != nil || !ok || r.Old != before || r.New != after {
			t.Errorf("amend (stdin %q): %+v ok=%v err=%v; want %s..%s", stdin, r, ok, err, before, after)
		}
	}
}

func TestApplyBlocked(t *testing.T) {
	gitDir := t.TempDir()
	merge := Invocation{Hook: "post-merge", Args: []string{"0"}}
	rebase := Invocation{Hook: "post-rewrite", Args: []string{"rebase"}}
	amend := Invocation{Hook: "post-rewrite", Args: []string{"amend"}}
	if ApplyBlocked(gitDir, merge) != "" || ApplyBlocked(gitDir, amend) != "" {
		t.Error("blocked in a clean state")
	}
	os.Mkdir(filepath.Join(gitDir, "rebase-merge"), 0o755)
	if ApplyBlocked(gitDir, rebase) != "" {
		t.Error("a finished rebase's own rebase-merge/ blocked apply")
	}
	if ApplyBlocked(gitDir, amend) == "" {
		t.Error("an amend in the middle of a rebase may apply")
	}
	os.WriteFile(filepath.Join(gitDir, "rebase-merge", "autostash"), []byte("x"), 0o644)
	if ApplyBlocked(gitDir, rebase) == "" {
		t.Error("rebase with autostash may apply")
	}
	os.RemoveAll(filepath.Join(gitDir, "rebase-merge"))
	os.WriteFile(filepath.Join(gitDir, "MERGE_AUTOSTASH"), []byte("x"), 0o644)
	if ApplyBlocked(gitDir, merge) == "" {
		t.Error("merge autostash may apply")
	}
}
