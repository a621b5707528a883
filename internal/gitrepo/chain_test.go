package gitrepo_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// TestTouchingGenerated checks Touching against the tree entries on
// generated histories: every commit of the first-parent chain where the
// entry of some path differs from the first parent's is listed with
// exactly those paths (a mode change listed too), merges included.
func TestTouchingGenerated(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3}[:longtest.Seeds(3, 1)] {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			dir, h, head, chain := generatedChain(t, seed)
			paths := allPaths(t, dir)
			root := chain[len(chain)-1]
			ts, err := h.Touching(root, head, paths)
			if err != nil {
				t.Fatal(err)
			}
			listed := map[gitblame.Hash][]string{}
			for _, tc := range ts {
				listed[tc.Commit] = tc.Paths
			}
			for i := len(chain) - 2; i >= 0; i-- {
				c, err := h.Commit(chain[i])
				if err != nil {
					t.Fatal(err)
				}
				p, err := h.Commit(chain[i+1])
				if err != nil {
					t.Fatal(err)
				}
				for _, path := range paths {
					x, xok, err := h.Entry(c.Tree, path)
					if err != nil {
						t.Fatal(err)
					}
					y, yok, err := h.Entry(p.Tree, path)
					if err != nil {
						t.Fatal(err)
					}
					if (x != y || xok != yok) && !slices.Contains(listed[c.Hash], path) {
						t.Errorf("%s changes %s: not listed (%v)", c.Hash.Short(), path, listed[c.Hash])
					}
				}
			}
		})
	}
}

// TestChangesOrder: changes come by their source path (the
// destination's for an addition), compared as strings: "a-b", "a.txt",
// then the files below "a/", whatever order git lists them in.
func TestChangesOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	write := func(v string, paths ...string) {
		for _, p := range paths {
			gitfixture.Write(t, dir, p, p+" "+v+"\n")
		}
	}
	write("1", "a.txt", "a/x", "a-b", "a/y/z", "b/c/d", "b/c/e", "c")
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	write("2", "a.txt", "a/x", "a-b", "a/y/z", "c", "z/y", "a/y.go")
	git("rm", "-q", "-r", "b")
	git("add", "-A")
	git("commit", "-q", "-m", "two")
	h, err := gitrepo.OpenHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	one, two := mustHash(t, git("rev-parse", "HEAD~")), mustHash(t, git("rev-parse", "HEAD"))
	for _, tc := range []struct {
		from, to gitblame.Hash
		want     string
	}{
		{one, two, "a-b>a-b a.txt>a.txt a/x>a/x >a/y.go a/y/z>a/y/z b/c/d> b/c/e> c>c >z/y"},
		{two, one, "a-b>a-b a.txt>a.txt a/x>a/x a/y.go> a/y/z>a/y/z >b/c/d >b/c/e c>c z/y>"},
		{gitblame.ZeroHash, two, ">a-b >a.txt >a/x >a/y.go >a/y/z >c >z/y"},
	} {
		chs, err := h.Changes(tc.from, tc.to, false)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ch := range chs {
			got = append(got, ch.From+">"+ch.To)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s..%s:\n got %s\nwant %s", tc.from.Short(), tc.to.Short(), strings.Join(got, " "), tc.want)
		}
	}
}

// TestTouchingAllMatchesPathspecs: for many paths Touching lists every
// changed file of the range and keeps the list; its answers, for that
// range and for later ranges and other paths answered from the kept list,
// are git's answers with the paths as pathspecs.
func TestTouchingAllMatchesPathspecs(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{4, 5}[:longtest.Seeds(2, 1)] {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			dir, h, head, chain := generatedChain(t, seed)
			paths := allPaths(t, dir)
			if len(paths) < 40 {
				t.Fatalf("only %d paths: the list of every file is not asked for", len(paths))
			}
			var third []string
			for i := 0; i < len(paths); i += 3 {
				third = append(third, paths[i])
			}
			root, mid := chain[len(chain)-1], chain[len(chain)/2]
			for _, c := range []struct {
				name   string
				oldest gitblame.Hash
				paths  []string
			}{
				{"every path from the root", root, paths},
				{"a third from the middle (kept list)", mid, third},
				{"five from the root (kept list)", root, paths[:5]},
				{"five from the middle (kept list)", mid, paths[len(paths)-5:]},
			} {
				got, err := h.Touching(c.oldest, head, c.paths)
				if err != nil {
					t.Fatal(err)
				}
				want, err := h.TouchingByPathspecForTest(c.oldest, head, c.paths)
				if err != nil {
					t.Fatal(err)
				}
				if g, w := touchText(got), touchText(want); g != w {
					t.Errorf("%s:\n%s\nwith pathspecs:\n%s", c.name, g, w)
				}
			}
		})
	}
}

func touchText(ts []gitblame.Touch) string {
	var b strings.Builder
	for _, tc := range ts {
		ps := slices.Clone(tc.Paths)
		slices.Sort(ps)
		fmt.Fprintf(&b, "%s %s\n", tc.Commit.Short(), strings.Join(ps, " "))
	}
	return b.String()
}

// generatedChain imports a generated history of 60 commits and returns
// its directory, its history (closed when the test ends), HEAD and HEAD's
// first-parent chain.
func generatedChain(t *testing.T, seed uint64) (string, *gitrepo.History, gitblame.Hash, []gitblame.Hash) {
	t.Helper()
	dir, _ := importHistory(t, "sha1", genHistory(seed, 60, 40))
	h, err := gitrepo.OpenHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	head, err := h.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	chain, err := h.Chain(head, nil)
	if err != nil {
		t.Fatal(err)
	}
	return dir, h, head, chain
}
