package gitrepo_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// TestMovesKeepsTouchingLog: the log of deletions of a whole first-parent
// chain (Moves) lists every change, so that line identity's Touching
// needs no log of its own: the deletions it keeps, each paired with its
// new name by its commit's changes (CommitChanges) where that commit
// renamed it, are git log -M --diff-filter=DR's, and the files of each commit kept for
// Touching are git log --no-renames --name-only's, in its order (over
// generated histories with renames, symlinks, gitlinks and merges), and
// another history of the repository answers Touching from them.
func TestMovesKeepsTouchingLog(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{6, 7, 8}[:longtest.Seeds(3, 1)] {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			dir, _ := importHistory(t, "sha1", genHistory(seed, 60, 40))
			repo, err := gitrepo.Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			h, err := repo.History()
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			head, err := h.Resolve("HEAD")
			if err != nil {
				t.Fatal(err)
			}
			_, log, err := h.Moves(context.Background(), head)
			if err != nil {
				t.Fatal(err)
			}
			out, err := gitfixture.Git(dir, 0, "log", "--first-parent", "-M", "--diff-filter=DR", "--raw", "-z", "--no-abbrev", "--no-color", "--format=%x01%H", head.String())
			if err != nil {
				t.Fatal(err)
			}
			want, err := gitrepo.ParsePathLogForTest([]byte(out))
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				t.Fatal("the generated history renames and deletes nothing")
			}
			// a deletion Moves lists is a rename where the commit's
			// changes (CommitChanges) pair it
			paired := pairedMoves(t, h, log)
			sortChanges(want)
			if !reflect.DeepEqual(paired, want) {
				t.Errorf("Moves' log, renames paired:\n%v\ngit log --diff-filter=DR:\n%v", paired, want)
			}
			kept, touched := repo.KeptTouchLogForTest()
			if kept != head {
				t.Fatalf("Moves kept the files changed for %s, want %s", kept.Short(), head.Short())
			}
			chain, err := h.Chain(head, nil)
			if err != nil {
				t.Fatal(err)
			}
			revs, err := gitfixture.Git(dir, 0, "rev-list", "--first-parent", head.String())
			if err != nil {
				t.Fatal(err)
			}
			if got, want := fmt.Sprint(chain), fmt.Sprint(strings.Fields(revs)); got != want {
				t.Fatalf("Chain from the kept chain:\n%s\ngit rev-list --first-parent:\n%s", got, want)
			}
			root := chain[len(chain)-1]
			names, err := h.TouchLogForTest(root, head)
			if err != nil {
				t.Fatal(err)
			}
			// the log from the head kept also lists the root, which a
			// range from it leaves out
			if len(touched) != len(names)+1 || touched[len(names)].Commit != root {
				t.Fatalf("kept %d commits, the range from the root lists %d", len(touched), len(names))
			}
			for i := range names {
				if !reflect.DeepEqual(touched[i], names[i]) {
					t.Errorf("commit %s: kept %q, git log --name-only lists %s %q", touched[i].Commit.Short(), touched[i].Paths, names[i].Commit.Short(), names[i].Paths)
				}
			}
			// another history of the repository (line identity's) answers
			// from the kept list
			other, err := repo.History()
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			mid := chain[len(chain)/2]
			upTo, err := other.Chain(head, func(x gitblame.Hash) bool { return x == mid })
			if err != nil {
				t.Fatal(err)
			}
			if len(upTo) != len(chain)/2+1 || upTo[len(upTo)-1] != mid {
				t.Errorf("Chain until %s: %d commits, ending at %s", mid.Short(), len(upTo), upTo[len(upTo)-1].Short())
			}
			var paths []string
			for _, tc := range names {
				paths = append(paths, tc.Paths...)
			}
			got, err := other.Touching(mid, head, paths[:3])
			if err != nil {
				t.Fatal(err)
			}
			direct, err := h.TouchingByPathspecForTest(mid, head, paths[:3])
			if err != nil {
				t.Fatal(err)
			}
			if g, w := touchText(got), touchText(direct); g != w {
				t.Errorf("Touching from the kept list:\n%s\nwith pathspecs:\n%s", g, w)
			}
		})
	}
}

// pairedMoves is a log of Moves with each deletion its commit's changes
// pair as a rename replaced by that rename, the changes of each commit in
// the order of their paths before.
func pairedMoves(t *testing.T, h *gitrepo.History, log []gitrepo.LogCommit) []gitrepo.LogCommit {
	t.Helper()
	out := make([]gitrepo.LogCommit, len(log))
	for i, lc := range log {
		chs, err := h.CommitChanges(context.Background(), lc.Hash)
		if err != nil {
			t.Fatal(err)
		}
		out[i].Hash = lc.Hash
		for _, d := range lc.Changes {
			for _, ch := range chs {
				if ch.Status == 'R' && ch.From == d.From {
					d = ch
					break
				}
			}
			out[i].Changes = append(out[i].Changes, d)
		}
	}
	sortChanges(out)
	return out
}

// sortChanges orders each commit's changes by the path before.
func sortChanges(log []gitrepo.LogCommit) {
	for _, lc := range log {
		sort.Slice(lc.Changes, func(a, b int) bool { return lc.Changes[a].From < lc.Changes[b].From })
	}
}

// TestEntryAt: once Moves read the whole chain's log, EntryAt answers
// Entry of any commit of the chain for any path, and FilesAtEach its Files,
// without reading its tree: the same blob and presence as the tree says, for every path
// any commit had (regular files, symlinks, gitlinks, paths that became
// directories), over generated histories with renames and merges; a
// commit off the chain is not known.
func TestEntryAt(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{6, 9}[:longtest.Seeds(2, 1)] {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			dir, _ := importHistory(t, "sha1", genHistory(seed, 60, 40))
			repo, err := gitrepo.Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			h, err := repo.History()
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			head, err := h.Resolve("HEAD")
			if err != nil {
				t.Fatal(err)
			}
			if _, _, known, _ := h.EntryAt(head, "any"); known {
				t.Fatal("EntryAt known before Moves")
			}
			order, _, err := h.Moves(context.Background(), head)
			if err != nil {
				t.Fatal(err)
			}
			all, err := gitfixture.Git(dir, 0, "log", "--all", "--format=", "--name-only", "--no-renames", "-m")
			if err != nil {
				t.Fatal(err)
			}
			paths := map[string]bool{"nope.txt": true}
			for _, p := range strings.Fields(all) {
				paths[p] = true
				if i := strings.LastIndexByte(p, '/'); i > 0 {
					paths[p[:i]] = true // a directory's path
				}
			}
			n := 0
			var wantEach []map[string]gitblame.Hash // each commit's files, kept
			for _, c := range order {
				cm, err := h.Commit(c)
				if err != nil {
					t.Fatal(err)
				}
				files, err := h.Files(cm.Tree)
				if err != nil {
					t.Fatal(err)
				}
				filesAt := func(keep func(string) bool) map[string]gitblame.Hash {
					t.Helper()
					each, err := h.FilesAtEach([]gitblame.Hash{c}, keep)
					if err != nil || len(each) != 1 || each[0] == nil {
						t.Fatalf("FilesAtEach(%s): %v, %v", c.Short(), each, err)
					}
					return each[0]
				}
				at := filesAt(nil)
				if !reflect.DeepEqual(at, files) {
					t.Errorf("FilesAtEach(%s):\n%v\nthe tree's:\n%v", c.Short(), at, files)
				}
				// with keep: the tree's files keep names, and no other
				keep := func(p string) bool { return strings.HasSuffix(p, "a") || strings.Contains(p, "/") }
				kept := filesAt(keep)
				want := map[string]gitblame.Hash{}
				for p, b := range files {
					if keep(p) {
						want[p] = b
					}
				}
				if !reflect.DeepEqual(kept, want) {
					t.Errorf("FilesAtEach(%s, keep):\n%v\nthe tree's kept:\n%v", c.Short(), kept, want)
				}
				wantEach = append(wantEach, want)
				for p := range paths {
					want, wok, err := h.Entry(cm.Tree, p)
					if err != nil {
						t.Fatal(err)
					}
					got, ok, known, err := h.EntryAt(c, p)
					if err != nil || !known {
						t.Fatalf("EntryAt(%s, %s): known %v, %v", c.Short(), p, known, err)
					}
					if ok != wok || got != want {
						t.Errorf("EntryAt(%s, %s) = %s %v; the tree: %s %v", c.Short(), p, got.Short(), ok, want.Short(), wok)
					}
					n++
				}
			}
			if n < 1000 {
				t.Errorf("only %d lookups", n)
			}
			// every commit at once, and one off the chain
			side0 := gitblame.NewHash(make([]byte, 20))
			each, err := h.FilesAtEach(append(slices.Clone(order), side0), func(p string) bool { return strings.HasSuffix(p, "a") || strings.Contains(p, "/") })
			if err != nil || len(each) != len(order)+1 || each[len(order)] != nil {
				t.Fatalf("FilesAtEach: %d maps, the last %v, %v", len(each), each[len(each)-1], err)
			}
			if !reflect.DeepEqual(each[:len(order)], wantEach) {
				t.Errorf("FilesAtEach of the whole chain differs from FilesAt of each commit")
			}
			side, err := gitfixture.Git(dir, 0, "rev-list", "--all", "--not", "--first-parent", head.String())
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range strings.Fields(side) {
				hc, _ := gitblame.ParseHash(c)
				if _, _, known, _ := h.EntryAt(hc, "x"); known && !slices.Contains(order, hc) {
					t.Errorf("EntryAt known for %s, off the chain", c[:7])
				}
			}
		})
	}
}
