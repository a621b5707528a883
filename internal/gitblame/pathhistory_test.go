package gitblame_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// fullWalk hides a History's PathHistory methods: the tracker reads and
// steps through every commit of the chain.
type fullWalk struct{ gitblame.History }

// lines returns n numbered lines of code named by tag.
func lines(tag string, n int) []string {
	var ls []string
	for i := range n {
		ls = append(ls, fmt.Sprintf("func %s%02d(value int) int { return value * %d }", tag, i, i+3))
	}
	return ls
}

func joined(ls []string) string { return strings.Join(ls, "\n") + "\n" }

// walkHistory builds a repository whose first-parent chain has 150
// commits: most change only noise.txt (windows the walk can cross
// unread), some edit, rename, move lines out of or delete the cited
// files, and two merges bring in side branches (one changing a cited
// file, one changing only noise). It returns the directory and the
// commits citations are based on.
func walkHistory(t *testing.T) (dir string, bases map[string]string) {
	t.Helper()
	dir = t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q", "-b", "main")
	a, b := lines("alpha", 40), lines("beta", 30)
	gitfixture.Write(t, dir, "a.go", joined(a))
	gitfixture.Write(t, dir, "b.go", joined(b))
	gitfixture.Write(t, dir, "noise.txt", "0\n")
	git("add", "-A")
	git("commit", "-q", "-m", "root")
	bases = map[string]string{"root": git("rev-parse", "HEAD")}
	aPath := "a.go"
	for i := 1; i <= 150; i++ {
		msg := fmt.Sprint("noise ", i)
		switch i {
		case 10:
			a = slices.Insert(a, 5, "// a comment above the cited lines")
			gitfixture.Write(t, dir, aPath, joined(a))
			msg = "insert above"
		case 20:
			a[12] = strings.Replace(a[12], "value *", "value +", 1)
			gitfixture.Write(t, dir, aPath, joined(a))
			msg = "edit a cited line"
		case 30:
			if err := os.MkdirAll(filepath.Join(dir, "pkg"), 0o755); err != nil {
				t.Fatal(err)
			}
			git("mv", aPath, "pkg/a.go")
			aPath = "pkg/a.go"
			msg = "rename a.go"
		case 45:
			bases["renamed"] = git("rev-parse", "HEAD")
			gitfixture.Write(t, dir, "noise.txt", fmt.Sprintln(i))
		case 50:
			// a side branch edits the cited file; the merge brings it
			git("checkout", "-q", "-b", "side")
			a[30] = a[30] + " // side"
			gitfixture.Write(t, dir, aPath, joined(a))
			git("commit", "-q", "-am", "side edit")
			bases["side"] = git("rev-parse", "HEAD")
			git("checkout", "-q", "main")
			gitfixture.Write(t, dir, "noise.txt", fmt.Sprintln(i))
			git("commit", "-q", "-am", "main noise")
			git("merge", "-q", "--no-ff", "-m", "merge side", "side")
			continue
		case 70:
			// a merge that changes no cited file
			git("checkout", "-q", "-b", "quiet")
			gitfixture.Write(t, dir, "other.txt", "x\n")
			git("add", "other.txt")
			git("commit", "-q", "-m", "quiet side")
			git("checkout", "-q", "main")
			git("merge", "-q", "--no-ff", "-m", "merge quiet", "quiet")
			continue
		case 90:
			// lines moved from the cited file into a new one
			gitfixture.Write(t, dir, "moved.go", joined(a[20:26]))
			a = slices.Delete(a, 20, 26)
			gitfixture.Write(t, dir, aPath, joined(a))
			git("add", "-A")
			msg = "move lines out"
		case 100:
			b = append(b[:3], b[8:]...)
			gitfixture.Write(t, dir, "b.go", joined(b))
			msg = "delete lines of b"
		case 120:
			git("rm", "-q", "b.go")
			msg = "delete b.go"
		case 130:
			gitfixture.Write(t, dir, "moved.go", joined(append([]string{"// moved"}, a[0:2]...)))
			msg = "rewrite moved.go"
		default:
			gitfixture.Write(t, dir, "noise.txt", fmt.Sprintln(i))
		}
		git("commit", "-q", "-am", msg)
	}
	return dir, bases
}

// TestPathHistoryWalk checks that the walk stepping only through the
// commits git says change a tracked path (PathHistory) gives exactly the
// results of the walk through every commit, on a history with renames,
// lines moved to another file, deletions and merges on the first-parent
// chain, with citations based at several commits (one off the chain).
func TestPathHistoryWalk(t *testing.T) {
	dir, bases := walkHistory(t)
	repo, err := gitrepo.OpenHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	base := func(name string) gitblame.Hash {
		h, err := gitblame.ParseHash(bases[name])
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	var anchors []gitblame.Anchor
	for _, l := range []int{1, 8, 13, 22, 24, 31, 38} {
		anchors = append(anchors, gitblame.Anchor{Path: "a.go", Line: l, Base: base("root")})
	}
	anchors = append(anchors,
		gitblame.Anchor{Path: "a.go", Line: 20, LineEnd: 27, Base: base("root")},
		gitblame.Anchor{Path: "b.go", Line: 2, LineEnd: 6, Base: base("root")},
		gitblame.Anchor{Path: "b.go", Line: 20, Base: base("root")},
		gitblame.Anchor{Path: "pkg/a.go", Line: 30, Base: base("renamed")},
		gitblame.Anchor{Path: "pkg/a.go", Line: 3, LineEnd: 4, Base: base("renamed")},
		gitblame.Anchor{Path: "pkg/a.go", Line: 31, Base: base("side")},
	)
	head := resolve(t, repo, "HEAD")
	fast, err := gitblame.New(repo).Track(context.Background(), anchors, gitblame.Target{Commit: head})
	if err != nil {
		t.Fatal(err)
	}
	slow, err := gitblame.New(fullWalk{repo}).Track(context.Background(), anchors, gitblame.Target{Commit: head})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[gitblame.Status]int{}
	for i := range anchors {
		kinds[slow[i].Status]++
		if !reflect.DeepEqual(fast[i], slow[i]) {
			t.Errorf("%+v:\nstepping through the commits that change it: %+v\nthrough every commit: %+v", anchors[i], fast[i], slow[i])
		}
	}
	// the history exercises what it should: lines unchanged, moved
	// (renamed file, other file), changed and gone
	for _, s := range []gitblame.Status{gitblame.Unchanged, gitblame.Moved, gitblame.Changed, gitblame.Gone} {
		if kinds[s] == 0 {
			t.Errorf("no citation is %v: %v", s, kinds)
		}
	}
}

// TestTouching checks PathHistory.Touching against the tree entries:
// every commit of the chain where a path's blob differs from the first
// parent's is listed with that path, and nothing else is, merges
// included (a merge is compared with its first parent only).
func TestTouching(t *testing.T) {
	dir, _ := walkHistory(t)
	repo, err := gitrepo.OpenHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	head := resolve(t, repo, "HEAD")
	chain, err := repo.Chain(head, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(chain) != 152 {
		t.Fatalf("chain of %d commits, want 152", len(chain))
	}
	// git is stopped at the first commit until accepts
	part, err := repo.Chain(head, func(h gitblame.Hash) bool { return h == chain[60] })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(part, chain[:61]) {
		t.Errorf("chain until its 61st commit: %d commits, want the first 61 of the whole chain", len(part))
	}
	paths := []string{"a.go", "pkg/a.go", "b.go", "moved.go", "never.go"}
	for _, from := range []int{len(chain) - 1, 60} { // from the root, and from a later commit
		oldest := chain[from]
		ts, err := repo.Touching(oldest, head, paths)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]string{}
		for _, tc := range ts {
			slices.Sort(tc.Paths)
			got[tc.Commit.String()] = tc.Paths
		}
		want := map[string][]string{}
		merges := 0
		for i := from - 1; i >= 0; i-- {
			c, err := repo.Commit(chain[i])
			if err != nil {
				t.Fatal(err)
			}
			p, err := repo.Commit(chain[i+1])
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Parents) > 1 {
				merges++
			}
			var changed []string
			for _, path := range paths {
				x, xok, err := repo.Entry(c.Tree, path)
				if err != nil {
					t.Fatal(err)
				}
				y, yok, err := repo.Entry(p.Tree, path)
				if err != nil {
					t.Fatal(err)
				}
				if x != y || xok != yok {
					changed = append(changed, path)
				}
			}
			if changed != nil {
				slices.Sort(changed)
				want[c.Hash.String()] = changed
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("from %d: Touching gave\n%v\nthe tree entries say\n%v", from, got, want)
		}
		if from == len(chain)-1 && merges != 2 {
			t.Errorf("%d merges on the chain, want 2", merges)
		}
	}
}

// commitCounter counts the commits a tracker asks its history for.
type commitCounter struct {
	*gitrepo.History
	asked map[gitblame.Hash]bool
}

func (c *commitCounter) Commit(h gitblame.Hash) (*gitblame.Commit, error) {
	c.asked[h] = true
	return c.History.Commit(h)
}

// TestWalkReadsCommitsItNeeds: a walk whose history knows the files of
// the chain's commits by their names (EntryAt, once the whole chain's
// log was read) and lists the chain through git asks for the commit
// objects it needs only (the target, the bases, those its results name),
// with the same results as a walk through every commit.
func TestWalkReadsCommitsItNeeds(t *testing.T) {
	dir, bases := walkHistory(t)
	repo, err := gitrepo.OpenHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	head := resolve(t, repo, "HEAD")
	if _, _, err := repo.Moves(context.Background(), head); err != nil {
		t.Fatal(err)
	}
	root, err := gitblame.ParseHash(bases["root"])
	if err != nil {
		t.Fatal(err)
	}
	var anchors []gitblame.Anchor
	for _, l := range []int{1, 8, 13, 22, 24, 31, 38} {
		anchors = append(anchors, gitblame.Anchor{Path: "a.go", Line: l, Base: root})
	}
	anchors = append(anchors, gitblame.Anchor{Path: "b.go", Line: 2, LineEnd: 6, Base: root})
	counter := &commitCounter{History: repo, asked: map[gitblame.Hash]bool{}}
	// (the chain listed by git, not read commit by commit from the head)
	got, err := gitblame.ListChainForTest(gitblame.New(counter)).Track(context.Background(), anchors, gitblame.Target{Commit: head})
	if err != nil {
		t.Fatal(err)
	}
	want, err := gitblame.New(fullWalk{repo}).Track(context.Background(), anchors, gitblame.Target{Commit: head})
	if err != nil {
		t.Fatal(err)
	}
	named := map[gitblame.Hash]bool{head: true, root: true}
	for i := range anchors {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("%+v:\nwith the chain's files known: %+v\nthrough every commit: %+v", anchors[i], got[i], want[i])
		}
		r := got[i]
		for _, e := range []*gitblame.Event{r.FirstMove, r.FirstEdit, r.FirstChange, r.Break, r.GoneIn} {
			if e != nil && e.Commit != nil {
				named[e.Commit.Hash] = true
			}
		}
		if r.LastSeen != nil {
			named[r.LastSeen.Hash] = true
		}
	}
	for h := range counter.asked {
		if !named[h] {
			t.Errorf("the walk read commit %s, which no result names", h.Short())
		}
	}
}
