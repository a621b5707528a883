package gitrepo

import (
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// TestGitTreeFind: entries are found by binary search in git's order (a
// directory's name sorts as if it ended in "/": "a-b", "a.txt", "a/",
// "a0"), and by looking through the entries of a tree that is not sorted
// so.
func TestGitTreeFind(t *testing.T) {
	entries := []treeEntry{
		{name: "a b", mode: 0o100644}, {name: "a-b", mode: 0o100644}, {name: "a.txt", mode: 0o100755},
		{name: "a", mode: modeDir}, {name: "a0", mode: 0o120000}, {name: "b", mode: 0o160000}, {name: "c", mode: modeDir},
	}
	sorted := mustTree(t, entries)
	unsorted := mustTree(t, []treeEntry{entries[3], entries[0], entries[6], entries[2], entries[1], entries[5], entries[4]})
	for _, tt := range []gitTree{sorted, unsorted} {
		for _, tc := range []struct {
			name string
			dir  bool
			want string // the entry's name and mode, "" for none
		}{
			{"a b", false, "a b 100644"}, {"a-b", false, "a-b 100644"}, {"a.txt", false, "a.txt 100755"},
			{"a", false, "a 40000"}, {"a", true, "a 40000"}, {"a0", false, "a0 120000"}, {"b", false, "b 160000"},
			{"c", true, "c 40000"}, {"a.txt", true, ""}, {"b", true, ""}, {"nope", false, ""}, {"", false, ""}, {"a/", false, ""},
		} {
			k, ok := tt.find(tc.name, tc.dir)
			got := ""
			if ok {
				name, mode, hash := tt.entry(k)
				got = string(name) + " " + formatMode(mode)
				if hash != entryHash(string(name)) {
					t.Errorf("find(%q): object name %s, want %s", tc.name, hash, entryHash(string(name)))
				}
			}
			if got != tc.want {
				t.Errorf("sorted %v: find(%q, dir %v) = %q, want %q", tt.sorted, tc.name, tc.dir, got, tc.want)
			}
		}
	}
	if !sorted.sorted || unsorted.sorted {
		t.Errorf("git's order: sorted %v, unsorted %v", sorted.sorted, unsorted.sorted)
	}
	for _, bad := range []string{"100644 a", "x00644 a\x00" + strings.Repeat("h", 20), "100644 \x00" + strings.Repeat("h", 20), "100644 a\x00short"} {
		if _, err := newGitTree([]byte(bad), 20); err == nil {
			t.Errorf("newGitTree(%q): no error", bad)
		}
	}
}

// mustTree writes entries as a tree object (a file's object name is
// entryHash of its name) and reads it.
func mustTree(t *testing.T, entries []treeEntry) gitTree {
	t.Helper()
	var data []byte
	for _, e := range entries {
		h := entryHash(e.name)
		data = append(data, formatMode(e.mode)+" "+e.name+"\x00"...)
		data = append(data, h.Bytes()...)
	}
	tr, err := newGitTree(data, 20)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// entryHash is a made-up object name for an entry.
func entryHash(name string) gitblame.Hash {
	var b [20]byte
	copy(b[:], name)
	b[19] = byte(len(name))
	return gitblame.NewHash(b[:])
}

func formatMode(m uint32) string {
	const digits = "01234567"
	if m == 0 {
		return "0"
	}
	var b []byte
	for ; m > 0; m /= 8 {
		b = append([]byte{digits[m%8]}, b...)
	}
	return string(b)
}

// TestCmpKey: cmpKey(name, dir, other, otherDir) compares as git's sort
// keys do: strings.Compare of the names, each with "/" after it when it
// is a directory's.
func TestCmpKey(t *testing.T) {
	names := []string{"", "a", "a/", "a.", "a0", "a/b", "ab", "b", "a-b", "\xff", "a\x00"}
	key := func(n string, dir bool) string {
		if dir {
			return n + "/"
		}
		return n
	}
	sign := func(x int) int { return min(max(x, -1), 1) }
	for _, k := range names {
		for _, n := range names {
			for _, kd := range []bool{false, true} {
				for _, nd := range []bool{false, true} {
					if got, want := sign(cmpKey([]byte(k), kd, n, nd)), strings.Compare(key(k, kd), key(n, nd)); got != want {
						t.Errorf("cmpKey(%q %v, %q %v) = %d, want %d", k, kd, n, nd, got, want)
					}
				}
			}
		}
	}
}
