package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseIndexAsGit reads indexes of every form git 2.39 writes with
// parseIndex and compares the entries (path, mode, object id) with git
// ls-files --stage, the conflicts with git's unmerged paths, and which
// entries carry stat data with the flags git sets.
func TestParseIndexAsGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, tc := range indexForms {
		t.Run(tc.name, func(t *testing.T) {
			dir, data, hashLen := indexFixture(t, tc)
			es, unmerged, _, _, err := parseIndex(data, hashLen)
			if tc.split || tc.sparse {
				if !errors.Is(err, errIndexForm) {
					t.Fatalf("err = %v, want errIndexForm", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got, want []string
			for _, e := range es {
				got = append(got, fmt.Sprintf("%06o %s %s", uint32(e.mode), e.oid, e.path))
			}
			for _, l := range strings.Split(gitT(t, dir, "ls-files", "--stage", "-z"), "\x00") {
				f := strings.Fields(l)
				if len(f) < 4 || f[2] != "0" || strings.SplitN(l, "\t", 2)[1] == tc.ita {
					continue
				}
				want = append(want, f[0]+" "+f[1]+" "+strings.SplitN(l, "\t", 2)[1])
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("entries:\n%s\nwant (git ls-files --stage, stage 0, intent-to-add left out):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if strings.Join(unmerged, ",") != strings.Join(tc.unmerged, ",") {
				t.Errorf("unmerged %q, want %q", unmerged, tc.unmerged)
			}
			for _, e := range es {
				ok := e.stat != nil
				no := false
				for _, p := range tc.noStat {
					no = no || p == e.path
				}
				if ok == no {
					t.Errorf("%s: stat data used = %v, want %v", e.path, ok, !no)
				}
				if ok && (e.stat.oid != e.oid || e.stat.mode != uint32(e.mode)) {
					t.Errorf("%s: stat entry %+v does not match the entry %+v", e.path, *e.stat, e)
				}
			}
		})
	}
}

// FuzzParseIndex: any bytes give entries or an error, never a panic, and
// never more entries than the bytes could hold.
func FuzzParseIndex(f *testing.F) {
	addIndexSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, hashLen int) {
		hashLen = fuzzHashLen(hashLen)
		es, unmerged, _, _, err := parseIndex(data, hashLen)
		if err == nil && len(es)+len(unmerged) > len(data)/62+1 {
			t.Fatalf("%d entries from %d bytes", len(es)+len(unmerged), len(data))
		}
		for _, e := range es {
			if e.stat != nil && e.stat.oid != e.oid {
				t.Fatalf("%s: stat data of another entry", e.path)
			}
		}
	})
}

// TestIndexTreeAsGit compares IndexTree with `git write-tree` for every
// index form this package decodes itself.
func TestIndexTreeAsGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, tc := range indexForms {
		t.Run(tc.name, func(t *testing.T) {
			dir, _, _ := indexFixture(t, tc)
			repo, err := Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			idx, err := repo.Index(context.Background())
			if len(tc.unmerged) > 0 {
				if err == nil {
					t.Fatal("an unmerged index opened")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			head, ok, err := repo.HeadTree(context.Background())
			if err != nil || !ok {
				t.Fatalf("HeadTree: %v %v", ok, err)
			}
			if want := strings.TrimSpace(gitT(t, dir, "rev-parse", "HEAD^{tree}")); string(head) != want {
				t.Errorf("HeadTree = %s, want %s", head, want)
			}
			if !repo.HasTree(head) {
				t.Errorf("HasTree(%s) = false for HEAD's tree", head)
			}
			if missing := OID(strings.Repeat("e", len(head))); repo.HasTree(missing) {
				t.Errorf("HasTree(%s) = true", missing)
			}
			got, ok := IndexTree(idx)
			if tc.split || tc.sparse {
				if ok {
					t.Errorf("IndexTree = %s for an index git listed", got)
				}
				return
			}
			if !ok {
				t.Fatal("no tree id for an index decoded in-process")
			}
			if want := gitT(t, dir, "write-tree"); string(got) != strings.TrimSpace(want) {
				t.Errorf("IndexTree = %s, git write-tree = %s", got, want)
			}
			// with a local git-lfs store a tree does not name what its
			// files read as
			lfs := filepath.Join(repo.CommonDir, "lfs")
			if err := os.MkdirAll(filepath.Join(lfs, "objects"), 0o755); err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(lfs) // the fixture is shared
			lfsRepo, err := Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer lfsRepo.Close()
			if idx, err := lfsRepo.Index(context.Background()); err != nil {
				t.Fatal(err)
			} else if id, ok := IndexTree(idx); ok || TreeNamesContent(idx) {
				t.Errorf("with a git-lfs store: IndexTree = %s, %v", id, ok)
			}
		})
	}
}
