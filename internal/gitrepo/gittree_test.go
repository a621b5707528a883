package gitrepo

import (
	"strings"
	"testing"
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
	for _, tt := range []gitTree{newGitTree(entries), newGitTree([]treeEntry{entries[3], entries[0], entries[6], entries[2], entries[1], entries[5], entries[4]})} {
		for _, tc := range []struct {
			name string
			dir  bool
			want string // the entry's name and mode, "" for none
		}{
			{"a b", false, "a b 100644"}, {"a-b", false, "a-b 100644"}, {"a.txt", false, "a.txt 100755"},
			{"a", false, "a 40000"}, {"a", true, "a 40000"}, {"a0", false, "a0 120000"}, {"b", false, "b 160000"},
			{"c", true, "c 40000"}, {"a.txt", true, ""}, {"b", true, ""}, {"nope", false, ""}, {"", false, ""}, {"a/", false, ""},
		} {
			e, ok := tt.find(tc.name, tc.dir)
			got := ""
			if ok {
				got = e.name + " " + formatMode(e.mode)
			}
			if got != tc.want {
				t.Errorf("sorted %v: find(%q, dir %v) = %q, want %q", tt.sorted, tc.name, tc.dir, got, tc.want)
			}
		}
	}
	if !newGitTree(entries).sorted {
		t.Error("git's order not taken for sorted")
	}
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

// TestCmpDirKey: cmpDirKey(k, name) is strings.Compare(k, name+"/").
func TestCmpDirKey(t *testing.T) {
	names := []string{"", "a", "a/", "a.", "a0", "a/b", "ab", "b", "a-b", "\xff", "a\x00"}
	for _, k := range names {
		for _, n := range names {
			sign := func(x int) int { return min(max(x, -1), 1) }
			if got, want := sign(cmpDirKey(k, n)), strings.Compare(k, n+"/"); got != want {
				t.Errorf("cmpDirKey(%q, %q) = %d, want %d", k, n, got, want)
			}
		}
	}
}
