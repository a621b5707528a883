package gitrepo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

func TestParseGrepWordFiles(t *testing.T) {
	out := "abc:src/a.py:load\nabc:src/a.py:load\nabc:src/b.py:load\nabc:lib/x:y.sh:run_it\n\nabc:bad\n"
	got := parseGrepWordFiles(out, "abc:")
	want := "map[load:[src/a.py src/b.py] run_it:[lib/x:y.sh]]"
	if fmt.Sprint(got) != want {
		t.Errorf("got %v; want %s", got, want)
	}
}

// TestCommitChangesAsLog: CommitChanges, asked of the long-running git
// diff-tree, lists for every commit what git log -1 --first-parent -M
// --raw lists: a root commit's files, additions, edits, a mode change, a
// symlink, deletions, an exact rename, a rename with edits, a merge
// (against its first parent).
func TestCommitChangesAsLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	body := strings.Repeat("a line of the guide\n", 30)
	w := func(p, s string) { gitfixture.Write(t, dir, p, s) }
	w("a.txt", body)
	w("b.txt", "b\n")
	w("run.sh", "echo\n")
	git("add", "-A")
	git("commit", "-q", "-m", "root")
	w("a.txt", body+"more\n")
	w("c/new.txt", "new\n")
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b.txt", filepath.Join(dir, "link")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "edits")
	git("mv", "b.txt", "c/b.txt")
	git("rm", "-q", "a.txt")
	w("docs/guide.txt", body+"more\nand more\n")
	git("add", "-A")
	git("commit", "-q", "-m", "renames")
	git("checkout", "-q", "-b", "side")
	w("side.txt", "side\n")
	git("add", "-A")
	git("commit", "-q", "-m", "side")
	git("checkout", "-q", "main")
	git("rm", "-q", "c/new.txt")
	git("commit", "-q", "-m", "delete")
	git("merge", "-q", "--no-ff", "-m", "merge", "side")
	_, h, _ := historyAtHead(t, dir)
	show := func(chs []FileChange) string {
		var b strings.Builder
		for _, c := range chs {
			fmt.Fprintf(&b, "%c %s>%s %s>%s\n", c.Status, c.From, c.To, c.FromBlob.Short(), c.ToBlob.Short())
		}
		return b.String()
	}
	kinds := ""
	for _, c := range strings.Fields(git("rev-list", "--first-parent", "HEAD")) {
		commit, err := gitblame.ParseHash(c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := h.CommitChanges(context.Background(), commit)
		if err != nil {
			t.Fatal(err)
		}
		log, err := parsePathLog([]byte(git("log", "-1", "--first-parent", "-M", "--raw", "-z", "--no-abbrev", "--no-color", "--format=%x01%H", c)))
		if err != nil || len(log) != 1 {
			t.Fatalf("log of %s: %v (%d commits)", c, err, len(log))
		}
		if show(got) != show(log[0].Changes) {
			t.Errorf("commit %s:\n%s\ngit log:\n%s", c[:7], show(got), show(log[0].Changes))
		}
		kinds += show(got)
	}
	for _, want := range []string{"R b.txt>c/b.txt", "R a.txt>docs/guide.txt", "A >side.txt", "D c/new.txt>", "A >link", "M run.sh>run.sh"} {
		if !strings.Contains(kinds, want) {
			t.Errorf("no change %q among:\n%s", want, kinds)
		}
	}
}

// TestPairExact: without rename detection, a deleted file and an added
// one with the same blob are an exact rename, one of the same base name
// first; other changes stay as they are.
func TestPairExact(t *testing.T) {
	h := func(s string) gitblame.Hash {
		var b [20]byte
		copy(b[:], s)
		return gitblame.NewHash(b[:])
	}
	got := pairExact([]FileChange{
		{Status: 'A', To: "x/other.txt", ToBlob: h("same")},
		{Status: 'A', To: "y/a.txt", ToBlob: h("same")},
		{Status: 'D', From: "a.txt", FromBlob: h("same")},
		{Status: 'D', From: "gone.txt", FromBlob: h("gone")},
		{Status: 'M', From: "m.txt", To: "m.txt", FromBlob: h("m1"), ToBlob: h("m2")},
	})
	var b strings.Builder
	for _, c := range got {
		fmt.Fprintf(&b, "%c %s>%s;", c.Status, c.From, c.To)
	}
	if want := "A >x/other.txt;R a.txt>y/a.txt;D gone.txt>;M m.txt>m.txt;"; b.String() != want {
		t.Errorf("got %s\nwant %s", b.String(), want)
	}
}
