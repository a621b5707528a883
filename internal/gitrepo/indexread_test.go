package gitrepo

import (
	"bytes"
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
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, tc := range []struct {
		name     string
		init     []string
		setup    func(t *testing.T, dir string)
		form     bool     // errIndexForm expected: git reads it
		unmerged []string // conflicts expected
		noStat   []string // entries whose stat data must not be used
		ita      string   // an intent-to-add entry (git lists it; it is not committed)
	}{
		{name: "v2", setup: func(t *testing.T, dir string) { gitT(t, dir, "update-index", "--index-version", "2") }},
		{name: "v3 intent-to-add", setup: func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "later.txt"), []byte("x\n"), 0o644)
			gitT(t, dir, "add", "-N", "later.txt")
		}, ita: "later.txt"},
		{name: "v3 skip-worktree", setup: func(t *testing.T, dir string) {
			gitT(t, dir, "update-index", "--skip-worktree", "a/b/c.txt")
		}, noStat: []string{"a/b/c.txt"}},
		{name: "assume-unchanged", setup: func(t *testing.T, dir string) {
			gitT(t, dir, "update-index", "--assume-unchanged", "top.txt")
		}, noStat: []string{"top.txt"}},
		{name: "v4", setup: func(t *testing.T, dir string) { gitT(t, dir, "update-index", "--index-version", "4") }},
		{name: "sha256 v4", init: []string{"--object-format=sha256"}, setup: func(t *testing.T, dir string) {
			gitT(t, dir, "update-index", "--index-version", "4")
		}},
		{name: "symlink and executable", setup: func(t *testing.T, dir string) {
			os.Symlink("top.txt", filepath.Join(dir, "link"))
			os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\n"), 0o755)
			gitT(t, dir, "add", "link", "run.sh")
		}},
		{name: "conflict", setup: func(t *testing.T, dir string) {
			gitT(t, dir, "checkout", "-q", "-b", "other")
			os.WriteFile(filepath.Join(dir, "top.txt"), []byte("other\n"), 0o644)
			gitT(t, dir, "commit", "-qam", "other")
			gitT(t, dir, "checkout", "-q", "-")
			os.WriteFile(filepath.Join(dir, "top.txt"), []byte("main\n"), 0o644)
			gitT(t, dir, "commit", "-qam", "main")
			exec.Command("git", "-C", dir, "merge", "-q", "other").Run() // conflicts
		}, unmerged: []string{"top.txt"}},
		{name: "split", setup: func(t *testing.T, dir string) { gitT(t, dir, "update-index", "--split-index") }, form: true},
		{name: "sparse index", setup: func(t *testing.T, dir string) {
			gitT(t, dir, "sparse-checkout", "init", "--cone", "--sparse-index")
			gitT(t, dir, "sparse-checkout", "set", "a/b")
		}, form: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, data, hashLen := indexFixture(t, tc.init, tc.setup)
			es, unmerged, err := parseIndex(data, hashLen)
			if tc.form {
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
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00"), 20)
	f.Add(append([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"), bytes.Repeat([]byte{0}, 70)...), 20)
	f.Add(append([]byte("DIRC\x00\x00\x00\x03\x00\x00\x00\x01"), bytes.Repeat([]byte{0x40}, 90)...), 32)
	f.Fuzz(func(t *testing.T, data []byte, hashLen int) {
		if hashLen != 20 {
			hashLen = 32
		}
		es, unmerged, err := parseIndex(data, hashLen)
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
