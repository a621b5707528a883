package gitrepo_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// TestFileCommitsMatchRevList: FileCommits and FirstParents give git
// rev-list's answers for every path (files, directories, symbolic links,
// paths replaced by directories, paths never there) and every commit of
// the chain, first by asking git path by path and then, from the third
// question, from one log of the whole chain; with log.showRoot off too
// (the root commit's files count as its changes whatever git log shows).
func TestFileCommitsMatchRevList(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{6, 7}[:longtest.Seeds(2, 1)] {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			dir, _ := importHistory(t, "sha1", genHistory(seed, 50, 40))
			if _, err := gitfixture.Git(dir, 0, "config", "log.showRoot", "false"); err != nil {
				t.Fatal(err)
			}
			git := func(args ...string) []gitblame.Hash {
				t.Helper()
				out, err := gitfixture.Git(dir, 0, args...)
				if err != nil {
					t.Fatal(err)
				}
				var list []gitblame.Hash
				for _, l := range strings.Fields(out) {
					list = append(list, mustHash(t, l))
				}
				return list
			}
			head := git("rev-parse", "main")[0]
			h, err := gitrepo.OpenHistory(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			compared := 0
			for i, p := range allPaths(t, dir) {
				got, err := h.FileCommits(head, p)
				if err != nil {
					t.Fatal(err)
				}
				want := git("rev-list", "--first-parent", head.String(), "--", ":(literal)"+p)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("FileCommits(%q) (question %d) = %v, want %v", p, i+1, got, want)
				}
				compared += len(want)
			}
			if compared == 0 {
				t.Fatal("no commit compared")
			}
			chain := git("rev-list", "--first-parent", head.String())
			for i, c := range chain {
				got, err := h.FirstParents(c, head)
				if err != nil {
					t.Fatal(err)
				}
				if want := chain[:i+1]; !reflect.DeepEqual(got, want) {
					t.Errorf("FirstParents(%s) = %v, want %v", c.Short(), got, want)
				}
			}
			if !h.ChainLogReadForTest() {
				t.Error("the answers did not come from the log of the chain")
			}
		})
	}
}
