package gitrepo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// A repository that lacks a blob rename detection would compare (a
// partial clone, a snapshot without its large files): Moves and
// CommitChanges still list the exact renames and the deletions (git
// diff-tree, unlike git log -M, pairs renames there without the missing
// blob's content; CommitChanges would pair exact renames by their ids
// alone if it failed).
func TestMovesWithMissingBlob(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q")
	body := strings.Repeat("a line of the file\n", 40)
	gitfixture.Write(t, dir, "exact.txt", "kept as it is\n")
	gitfixture.Write(t, dir, "similar.txt", body)
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	git("mv", "exact.txt", "renamed.txt")
	git("rm", "-q", "similar.txt")
	gitfixture.Write(t, dir, "edited.txt", body+"one more line\n")
	git("add", "-A")
	git("commit", "-q", "-m", "second")
	// the new blob of edited.txt goes missing
	oid := strings.TrimSpace(git("rev-parse", "HEAD:edited.txt"))
	removeObject(t, dir, oid)
	got := movesAtHead(t, dir)
	want := map[string]bool{"exact.txt>renamed.txt": true}
	missing(t, got, want)
	if !slices.Contains(got, "similar.txt>") && !slices.Contains(got, "similar.txt>edited.txt") {
		t.Errorf("similar.txt neither deleted nor renamed: %v", got)
	}
}

// OnFirstParents: a commit is on the first-parent chain of its
// descendants along first parents only, not of a branch made before it,
// nor of a merge that took it as a second parent.
func TestOnFirstParents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	commit := func(msg string) gitblame.Hash {
		t.Helper()
		git("commit", "-q", "--allow-empty", "-m", msg)
		h, err := gitblame.ParseHash(strings.TrimSpace(git("rev-parse", "HEAD")))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	a := commit("a")
	b := commit("b")
	c := commit("c")
	git("checkout", "-q", "-b", "side", "HEAD~1")
	s := commit("s")
	git("checkout", "-q", "main")
	git("merge", "-q", "--no-ff", "-m", "m", "side")
	m, _ := gitblame.ParseHash(strings.TrimSpace(git("rev-parse", "HEAD")))
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h, err := r.History()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, tc := range []struct {
		name      string
		old, head gitblame.Hash
		want      bool
	}{
		{"itself", c, c, true},
		{"parent", b, c, true},
		{"grandparent", a, c, true},
		{"merge's first parent", c, m, true},
		{"below the merge", a, m, true},
		{"merge's second parent", s, m, false},
		{"a branch made before", c, s, false},
		{"a descendant", c, b, false},
	} {
		got, err := h.OnFirstParents(context.Background(), tc.old, tc.head)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: OnFirstParents(%s, %s) = %v, want %v", tc.name, tc.old.Short(), tc.head.Short(), got, tc.want)
		}
	}
}

// A blob missing from one commit does not keep a file moved and edited
// in another commit from being found moved (not deleted), from that
// commit's own diff.
func TestMovesPairsRenamesAwayFromMissingBlob(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q")
	body := strings.Repeat("a line of the guide\n", 40)
	gitfixture.Write(t, dir, "docs/guide.md", body)
	gitfixture.Write(t, dir, "big.txt", strings.Repeat("a large file\n", 40))
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	// moved and edited: a rename only a similarity check finds
	git("rm", "-q", "docs/guide.md")
	gitfixture.Write(t, dir, "archive/guide.md", body+"archived\n")
	git("add", "-A")
	git("commit", "-q", "-m", "archive the guide")
	// another commit replaces a file whose new blob goes missing
	git("rm", "-q", "big.txt")
	gitfixture.Write(t, dir, "big2.txt", strings.Repeat("a large file\n", 40)+"more\n")
	git("add", "-A")
	git("commit", "-q", "-m", "replace the large file")
	oid := strings.TrimSpace(git("rev-parse", "HEAD:big2.txt"))
	removeObject(t, dir, oid)
	got := movesAtHead(t, dir)
	want := map[string]bool{"docs/guide.md>archive/guide.md": true}
	missing(t, got, want)
	if !slices.Contains(got, "big.txt>") && !slices.Contains(got, "big.txt>big2.txt") {
		t.Errorf("big.txt neither deleted nor renamed: %v", got)
	}
}

// historyAtHead opens the repository at dir and its history, closed when
// the test ends, and resolves HEAD.
func historyAtHead(t *testing.T, dir string) (*Repo, *History, gitblame.Hash) {
	t.Helper()
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	h, err := r.History()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	head, err := h.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return r, h, head
}

// movesAtHead lists the deletions Moves finds in the history of dir's
// HEAD, each a rename where its commit's changes (CommitChanges) pair it,
// as "from>to".
func movesAtHead(t *testing.T, dir string) []string {
	t.Helper()
	_, h, head := historyAtHead(t, dir)
	_, log, err := h.Moves(context.Background(), head)
	if err != nil {
		t.Fatalf("Moves: %v", err)
	}
	var got []string
	for _, lc := range log {
		// Moves lists deletions; the commit's changes pair the renames
		chs, err := h.CommitChanges(context.Background(), lc.Hash)
		if err != nil {
			t.Fatalf("CommitChanges: %v", err)
		}
		for _, d := range lc.Changes {
			to := d.To
			for _, ch := range chs {
				if ch.Status == 'R' && ch.From == d.From {
					to = ch.To
				}
			}
			got = append(got, d.From+">"+to)
		}
	}
	return got
}

// missing fails the test for each of want that got does not hold.
func missing(t *testing.T, got []string, want map[string]bool) {
	t.Helper()
	for _, g := range got {
		delete(want, g)
	}
	if len(want) > 0 {
		t.Errorf("changes %v; missing %v", got, want)
	}
}

// removeObject deletes the loose object oid of dir's repository (a
// partial clone's missing object).
func removeObject(t *testing.T, dir, oid string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, ".git", "objects", oid[:2], oid[2:])); err != nil {
		t.Fatal(err)
	}
}

// TestCommitPrefetch: once Moves read the whole chain's log, the history
// reads the commit of the chain it is asked for with the newer ones
// after it in one batch (one cat-file request a commit, no more), and
// each is the commit read alone.
func TestCommitPrefetch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	for i := range 30 {
		gitfixture.Write(t, dir, "f.txt", strings.Repeat("x\n", i+1))
		git("add", "-A")
		git("commit", "-q", "-m", "c"+strings.Repeat("!", i))
	}
	r, h, head := historyAtHead(t, dir)
	order, _, err := h.Moves(context.Background(), head)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := r.objects()
	if err != nil {
		t.Fatal(err)
	}
	before := objs.cat.reads.Load()
	var got []*gitblame.Commit
	for i := len(order) - 1; i >= 0; i-- { // oldest first, as a walk goes
		c, err := h.Commit(order[i])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
		if i == len(order)-1 && h.repo.commits.size() != len(order) {
			t.Errorf("the oldest commit read with %d of the chain, want all %d", h.repo.commits.size(), len(order))
		}
	}
	if n := objs.cat.reads.Load() - before; n != int64(len(order)) {
		t.Errorf("%d commits read with %d requests, want one each", len(order), n)
	}
	if h.repo.commits.size() != len(order) {
		t.Errorf("%d commits kept, want %d", h.repo.commits.size(), len(order))
	}
	for _, c := range got {
		data, err := h.object(c.Hash, "commit")
		if err != nil {
			t.Fatal(err)
		}
		want, err := parseCommit(c.Hash, data)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(*c) != fmt.Sprint(*want) {
			t.Errorf("prefetched %+v\nalone %+v", *c, *want)
		}
	}
}

// size is how many commits the cache holds.
func (cc *commitCache) size() int {
	cc.mu.RLock()
	defer cc.mu.RUnlock()
	return len(cc.m)
}

// TestCommitsReadOnceForEveryHistory: a second history reader of the
// repository (line identity's, beside the prose checker's) asks git for
// none of the commits the first read.
func TestCommitsReadOnceForEveryHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	for i := range 5 {
		gitfixture.Write(t, dir, "f.txt", strings.Repeat("x\n", i+1))
		git("add", "-A")
		git("commit", "-q", "-m", "subject"+strings.Repeat("!", i)+"\n\nbody\nmore body")
	}
	r, h, head := historyAtHead(t, dir)
	order, _, err := h.Moves(context.Background(), head)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range order {
		if _, err := h.Commit(c); err != nil {
			t.Fatal(err)
		}
	}
	objs, err := r.objects()
	if err != nil {
		t.Fatal(err)
	}
	before := objs.cat.reads.Load()
	h2, err := r.History()
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range order {
		c, err := h2.Commit(x)
		if err != nil {
			t.Fatal(err)
		}
		if want := "subject" + strings.Repeat("!", len(order)-1-i); c.Subject != want {
			t.Errorf("commit %s: subject %q, want %q", x.Short(), c.Subject, want)
		}
	}
	if n := objs.cat.reads.Load() - before; n != 0 {
		t.Errorf("the second history reader asked git for %d objects, want none", n)
	}
}

// TestChangesFromLog: between two commits of the chain whose log Moves
// read, Changes without renames answers from the log what git diff-tree
// answers, on a history with additions, edits, deletions, a file changed
// and changed back, a mode change, a file replaced by a symbolic link and
// by a directory, and a merge on the chain.
func TestChangesFromLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	write := func(p, s string) { gitfixture.Write(t, dir, p, s) }
	write("a.txt", "a\n")
	write("b.txt", "b\n")
	write("d/c.txt", "c\n")
	write("e.txt", "e\n")
	git("add", "-A")
	git("commit", "-q", "-m", "root")
	steps := []func(){
		func() { write("a.txt", "a2\n") },
		func() { write("f.txt", "f\n") },
		func() { git("rm", "-q", "b.txt") },
		func() { write("a.txt", "a\n") }, // back as it was two commits ago
		func() { git("update-index", "--chmod=+x", "e.txt") },
		func() {
			git("rm", "-q", "d/c.txt")
			write("d/c.txt/inner.txt", "now a directory\n")
		},
		func() {
			git("rm", "-q", "f.txt")
			if err := os.Symlink("a.txt", filepath.Join(dir, "f.txt")); err != nil {
				t.Fatal(err)
			}
		},
		func() {
			git("checkout", "-q", "-b", "side")
			write("g.txt", "side\n")
			write("a.txt", "a3\n")
			git("add", "-A")
			git("commit", "-q", "-m", "side")
			git("checkout", "-q", "main")
			write("h.txt", "main\n")
			git("add", "-A")
			git("commit", "-q", "-m", "main")
			git("merge", "-q", "--no-ff", "-m", "merge", "side")
		},
		func() { write("b.txt", "b is back\n") },
	}
	for i, step := range steps {
		step()
		git("add", "-A")
		git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("step ", i))
	}
	_, h, head := historyAtHead(t, dir)
	order, _, err := h.Moves(context.Background(), head)
	if err != nil {
		t.Fatal(err)
	}
	for i := range order {
		for j := i; j < len(order); j++ {
			to, from := order[i], order[j] // from older
			got, ok := h.changesFromLog(from, to)
			if !ok {
				if j != len(order)-1 || i == j {
					t.Errorf("%s..%s: not answered from the log", from.Short(), to.Short())
				}
				continue
			}
			want, err := h.gitHistory.Changes(from, to, false)
			if err != nil {
				t.Fatal(err)
			}
			// git lists a mode change of a file with the same blob: no
			// change of its lines, which the log leaves out
			kept := want[:0]
			for _, c := range want {
				if !(c.From != "" && c.From == c.To && c.FromBlob == c.ToBlob) {
					kept = append(kept, c)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(kept) {
				t.Errorf("%s..%s:\nfrom the log %v\ngit diff-tree %v", from.Short(), to.Short(), got, kept)
			}
		}
	}
}

// TestRenameOfAgainstGit: where RenamesFromLog answers from the whole chain's
// log, its answer is git diff-tree -M's for that path: exact renames,
// deletions with nothing added, and not the renames it cannot tell
// (content edited on the way, the same content added twice or deleted
// twice, a symbolic link added).
func TestRenamesFromLogAgainstGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	write := func(p, s string) { gitfixture.Write(t, dir, p, s) }
	body := func(tag string) string { return strings.Repeat(tag+" line of some length\n", 20) }
	for _, f := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		write(f+".txt", body(f))
	}
	write("twin1.txt", body("twin"))
	write("twin2.txt", body("twin"))
	git("add", "-A")
	git("commit", "-q", "-m", "root")
	type ask struct {
		path  string
		known bool
	}
	var asks [][]ask // by commit, oldest first
	step := func(f func(), a ...ask) {
		f()
		git("add", "-A")
		git("commit", "-q", "-m", fmt.Sprint("step ", len(asks)))
		asks = append(asks, a)
	}
	step(func() {
		if err := os.Mkdir(filepath.Join(dir, "dir"), 0o755); err != nil {
			t.Fatal(err)
		}
		git("mv", "a.txt", "dir/a.txt")
	}, ask{"a.txt", true}) // exact rename
	step(func() { git("rm", "-q", "b.txt") }, ask{"b.txt", true})                                   // deleted, nothing added
	step(func() { git("rm", "-q", "c.txt"); write("new.txt", "unrelated\n") }, ask{"c.txt", false}) // something added: git compares
	step(func() {
		git("mv", "d.txt", "d2.txt")
		write("d2.txt", body("d")+"one more line\n")
	}, ask{"d.txt", false}) // renamed and edited
	step(func() { git("rm", "-q", "twin1.txt", "twin2.txt"); write("twin.txt", body("twin")) },
		ask{"twin1.txt", false}, ask{"twin2.txt", false}) // the same content deleted twice
	step(func() { git("rm", "-q", "e.txt"); write("e1.txt", body("e")); write("e2.txt", body("e")) },
		ask{"e.txt", false}) // added twice
	step(func() {
		git("rm", "-q", "f.txt")
		if err := os.Symlink("g.txt", filepath.Join(dir, "link")); err != nil {
			t.Fatal(err)
		}
	}, ask{"f.txt", false}) // a symbolic link added
	step(func() { git("mv", "g.txt", "g2.txt"); git("mv", "h.txt", "h2.txt") }, ask{"g.txt", true}, ask{"h.txt", true})
	step(func() { write("a2.txt", "x\n") }, ask{"dir/a.txt", false}) // not deleted here

	_, h, head := historyAtHead(t, dir)
	order, _, err := h.Moves(context.Background(), head)
	if err != nil {
		t.Fatal(err)
	}
	for i, as := range asks {
		commit := order[len(asks)-1-i]
		chs, err := h.CommitChanges(context.Background(), commit)
		if err != nil {
			t.Fatal(err)
		}
		byGit := map[string]string{}
		for _, ch := range chs {
			if ch.Status == 'R' {
				byGit[ch.From] = ch.To
			}
		}
		fromLog, ok := h.RenamesFromLog(commit)
		for _, a := range as {
			to, known := fromLog[a.path]
			known = known && ok
			if known != a.known {
				t.Errorf("step %d, %s: known %v, want %v", i, a.path, known, a.known)
			}
			if known && to != byGit[a.path] {
				t.Errorf("step %d, %s: renamed to %q, git says %q", i, a.path, to, byGit[a.path])
			}
		}
	}
}
