package gitrepo

import (
	"bufio"
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

const (
	oidA = "ce013625030ba8dba906f756967f9e9ca394464a"
	oidB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
	oidC = "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4"
)

func hashOf(t testing.TB, s string) gitblame.Hash {
	t.Helper()
	h, err := gitblame.ParseHash(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestParseCommit(t *testing.T) {
	ada := time.Date(2023, 11, 14, 22, 13, 20, 0, time.UTC)
	for _, tt := range []struct {
		name, data string
		want       *gitblame.Commit // nil: an error
	}{
		{
			name: "plain",
			data: "tree " + oidA + "\nparent " + oidB + "\nauthor Ada Author <ada@example.com> 1700000000 +0100\ncommitter Cy <cy@example.com> 1700000060 -0030\n\nsubject line\n\nbody\n",
			want: &gitblame.Commit{Tree: hashOf(t, oidA), Parents: []gitblame.Hash{hashOf(t, oidB)}, Author: "Ada Author", AuthorEmail: "ada@example.com",
				AuthorDate: ada, CommitDate: ada.Add(time.Minute), Subject: "subject line"},
		},
		{
			name: "merge, signed, encoding, leading blank lines in the message",
			data: "tree " + oidA + "\nparent " + oidB + "\nparent " + oidA + "\nauthor  Ada  <a@x> 1700000000 +0000\ncommitter C <c@x> 1700000000 +0000\nencoding ISO-8859-1\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEz\n -----END PGP SIGNATURE-----\n\n\n  \nMerge branch 'side'\n",
			want: &gitblame.Commit{Tree: hashOf(t, oidA), Parents: []gitblame.Hash{hashOf(t, oidB), hashOf(t, oidA)}, Author: "Ada", AuthorEmail: "a@x",
				AuthorDate: ada, CommitDate: ada, Subject: "Merge branch 'side'"},
		},
		{
			name: "sha256, root commit, no message",
			data: "tree " + oidC + "\nauthor A <a@x> 1700000000 +0000\ncommitter C <c@x> 1700000000 +0000\n",
			want: &gitblame.Commit{Tree: hashOf(t, oidC), Author: "A", AuthorEmail: "a@x", AuthorDate: ada, CommitDate: ada},
		},
		{
			name: "unreadable identity keeps the rest",
			data: "tree " + oidA + "\nauthor nobody\ncommitter C <c@x> notatime +0000\n\nmsg",
			want: &gitblame.Commit{Tree: hashOf(t, oidA), Subject: "msg"},
		},
		{name: "no tree", data: "parent " + oidB + "\n\nmsg\n"},
		{name: "bad tree", data: "tree 1234\n\nmsg\n"},
		{name: "bad parent", data: "tree " + oidA + "\nparent zz\n\nmsg\n"},
		{name: "empty", data: ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := hashOf(t, oidB)
			got, err := parseCommit(h, []byte(tt.data))
			if tt.want == nil {
				if err == nil {
					t.Fatalf("parseCommit = %+v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Hash = h
			if !got.AuthorDate.Equal(tt.want.AuthorDate) || !got.CommitDate.Equal(tt.want.CommitDate) {
				t.Errorf("dates %v, %v; want %v, %v", got.AuthorDate, got.CommitDate, tt.want.AuthorDate, tt.want.CommitDate)
			}
			got.AuthorDate, got.CommitDate, tt.want.AuthorDate, tt.want.CommitDate = time.Time{}, time.Time{}, time.Time{}, time.Time{}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseCommit =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestParseSignature(t *testing.T) {
	for _, tt := range []struct {
		in, name, email, when string // when in RFC 3339, "" for the zero time
	}{
		{"Ada <a@x> 1700000000 +0100", "Ada", "a@x", "2023-11-14T23:13:20+01:00"},
		{"Ada <a@x> 1700000000 -0030", "Ada", "a@x", "2023-11-14T21:43:20-00:30"},
		{"Ada <a@x> 1700000000 +1400", "Ada", "a@x", "2023-11-15T12:13:20+14:00"},
		{"Ada <a@x> 1700000000", "Ada", "a@x", "2023-11-14T22:13:20Z"},
		{"Ada <a@x> 1700000000 +01", "Ada", "a@x", "2023-11-14T22:13:20Z"},
		{"Ada <a@x> x +0100", "Ada", "a@x", ""},
		{"Ada <a@x>", "Ada", "a@x", ""},
		{"A <b> <c@x> 0 +0000", "A <b>", "c@x", "1970-01-01T00:00:00Z"},
		{"no email", "", "", ""},
		{"> <", "", "", ""},
	} {
		name, email, when := parseSignature([]byte(tt.in))
		w := ""
		if !when.IsZero() {
			w = when.Format(time.RFC3339)
		}
		if name != tt.name || email != tt.email || w != tt.when {
			t.Errorf("parseSignature(%q) = %q, %q, %s; want %q, %q, %s", tt.in, name, email, w, tt.name, tt.email, tt.when)
		}
	}
}

// treeBytes encodes tree entries as git stores them.
func treeBytes(entries ...treeEntry) []byte {
	var b bytes.Buffer
	for _, e := range entries {
		fmt.Fprintf(&b, "%o %s\x00", e.mode, e.name)
		b.Write(e.hash.Bytes())
	}
	return b.Bytes()
}

func TestParseTree(t *testing.T) {
	sha1Entries := []treeEntry{
		{"a.txt", modeRegular, hashOf(t, oidA)},
		{"dir", modeDir, hashOf(t, oidB)},
		{"link", modeSymlink, hashOf(t, oidA)},
		{"run.sh", modeExecutable, hashOf(t, oidB)},
		{"sub", modeGitlink, hashOf(t, oidA)},
		{"with space\nand newline", modeRegular, hashOf(t, oidA)},
	}
	sha256Entries := []treeEntry{{"a.txt", modeRegular, hashOf(t, oidC)}, {"d", modeDir, hashOf(t, oidC)}}
	for _, tt := range []struct {
		name string
		data []byte
		size int
		want []treeEntry // nil: an error
	}{
		{"sha1", treeBytes(sha1Entries...), 20, sha1Entries},
		{"modes read as git reads them", treeBytes(treeEntry{"a", 0o100664, hashOf(t, oidA)}, treeEntry{"b", 0o100700, hashOf(t, oidA)}, treeEntry{"c", 0, hashOf(t, oidA)}), 20,
			[]treeEntry{{"a", modeRegular, hashOf(t, oidA)}, {"b", modeExecutable, hashOf(t, oidA)}, {"c", modeGitlink, hashOf(t, oidA)}}},
		{"sha256", treeBytes(sha256Entries...), 32, sha256Entries},
		{"empty", nil, 20, []treeEntry{}},
		{"sha256 read as sha1", treeBytes(sha256Entries...), 20, nil},
		{"truncated name", []byte("100644 a.txt"), 20, nil},
		{"truncated hash", append([]byte("100644 a.txt\x00"), make([]byte, 19)...), 20, nil},
		{"no mode", append([]byte(" a\x00"), make([]byte, 20)...), 20, nil},
		{"bad mode", append([]byte("10064x a\x00"), make([]byte, 20)...), 20, nil},
		{"empty name", append([]byte("100644 \x00"), make([]byte, 20)...), 20, nil},
	} {
		got, err := parseTree(tt.data, tt.size)
		switch {
		case tt.want == nil && err == nil:
			t.Errorf("%s: parseTree = %v, want an error", tt.name, got)
		case tt.want != nil && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != nil && len(tt.want)+len(got) > 0 && !reflect.DeepEqual(got, tt.want):
			t.Errorf("%s: parseTree = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestReadDiffRecords(t *testing.T) {
	zero := strings.Repeat("0", 40)
	for _, tt := range []struct {
		name, in string
		want     []rawChange
		end      string
		err      bool
	}{
		{
			name: "modify, add, rename, end",
			in: ":100644 100755 " + oidA + " " + oidB + " M\x00a b.txt\x00" +
				":000000 100644 " + zero + " " + oidA + " A\x00new\nline\x00" +
				":100644 100644 " + oidA + " " + oidA + " R086\x00old\x00new\x00" + diffEnd + "\n",
			want: []rawChange{
				{srcMode: modeRegular, dstMode: modeExecutable, srcHash: hashOf(t, oidA), dstHash: hashOf(t, oidB), status: 'M', dst: "a b.txt"},
				{dstMode: modeRegular, srcHash: hashOf(t, zero), dstHash: hashOf(t, oidA), status: 'A', dst: "new\nline"},
				{srcMode: modeRegular, dstMode: modeRegular, srcHash: hashOf(t, oidA), dstHash: hashOf(t, oidA), status: 'R', src: "old", dst: "new"},
			},
			end: diffEnd,
		},
		{name: "header line", in: "a b\n", end: "a b"},
		{name: "copy has two paths", in: ":100644 100644 " + oidA + " " + oidA + " C100\x00x\x00y\x00end\n",
			want: []rawChange{{srcMode: modeRegular, dstMode: modeRegular, srcHash: hashOf(t, oidA), dstHash: hashOf(t, oidA), status: 'C', src: "x", dst: "y"}}, end: "end"},
		{name: "no end", in: ":100644 100644 " + oidA + " " + oidA + " M\x00x\x00", err: true},
		{name: "nothing", in: "", err: true},
		{name: "short record", in: ":100644 " + oidA + " M\x00x\x00end\n", err: true},
		{name: "bad mode", in: ":10064x 100644 " + oidA + " " + oidA + " M\x00x\x00end\n", err: true},
		{name: "bad hash", in: ":100644 100644 " + oidA[:39] + " " + oidA + " M\x00x\x00end\n", err: true},
		{name: "empty path", in: ":100644 100644 " + oidA + " " + oidA + " M\x00\x00end\n", err: true},
		{name: "rename without its second path", in: ":100644 100644 " + oidA + " " + oidA + " R100\x00x\x00", err: true},
	} {
		recs, end, err := readDiffRecords(bufio.NewReader(strings.NewReader(tt.in)))
		if tt.err {
			if err == nil {
				t.Errorf("%s: readDiffRecords = %v, %q; want an error", tt.name, recs, end)
			}
			continue
		}
		if err != nil || end != tt.end || !reflect.DeepEqual(recs, tt.want) {
			t.Errorf("%s: readDiffRecords = %+v, %q, %v; want %+v, %q", tt.name, recs, end, err, tt.want, tt.end)
		}
	}
}

func TestParseLsTree(t *testing.T) {
	out := []byte("100644 blob " + oidA + "\ta.txt\x00" +
		"160000 commit " + oidB + "\tsub\x00" +
		"100755 blob " + oidB + "\tdir/run sh\x00" +
		"120000 blob " + oidA + "\tlink\x00" +
		"garbage\x00" +
		"10064x blob " + oidA + "\tbad\x00")
	var got []string
	parseLsTree(out, regularMode, func(path, oid string, mode uint32) {
		got = append(got, fmt.Sprintf("%o %s %s", mode, oid[:7], path))
	})
	want := []string{"100644 ce01362 a.txt", "100755 e69de29 dir/run sh"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseLsTree = %q, want %q", got, want)
	}
}

// FuzzParseCommit builds a commit object as git writes it from the fuzzed
// fields and reads it with parseCommit and with go-git's decoder: both
// must agree on what the tracker uses.
func FuzzParseCommit(f *testing.F) {
	f.Add("Ada Author", "ada@example.com", int64(1700000000), "+0100", "subject\n\nbody\n", uint8(1), "")
	f.Add("", "", int64(0), "-0030", "\n\n  x", uint8(2), "-----BEGIN PGP SIGNATURE-----\n\niQEz\n-----END PGP SIGNATURE-----")
	f.Add("Zoë", "z@x", int64(-1), "+1400", "", uint8(0), "x")
	f.Fuzz(func(t *testing.T, name, email string, ts int64, tz, msg string, parents uint8, sig string) {
		// git strips these from identities
		clean := func(s string) string { return strings.Map(dropIdentity, s) }
		name, email = strings.Trim(clean(name), " "), clean(email)
		var b strings.Builder
		fmt.Fprintf(&b, "tree %s\n", oidA)
		for i := 0; i < int(parents%4); i++ {
			fmt.Fprintf(&b, "parent %s\n", []string{oidA, oidB}[i%2])
		}
		fmt.Fprintf(&b, "author %s <%s> %d %s\n", name, email, ts, clean(tz))
		fmt.Fprintf(&b, "committer %s <%s> %d %s\n", name, email, ts, clean(tz))
		if sig != "" {
			fmt.Fprintf(&b, "gpgsig %s\n", strings.ReplaceAll(sig, "\n", "\n "))
		}
		fmt.Fprintf(&b, "\n%s", msg)
		data := []byte(b.String())

		got, err := parseCommit(hashOf(t, oidB), data)
		if err != nil {
			t.Fatalf("parseCommit(%q): %v", data, err)
		}
		mo := &plumbing.MemoryObject{}
		mo.SetType(plumbing.CommitObject)
		if _, err := mo.Write(data); err != nil {
			t.Fatal(err)
		}
		var want object.Commit
		if err := want.Decode(mo); err != nil {
			return // go-git refuses it: nothing to compare
		}
		wantSubject, _, _ := strings.Cut(strings.TrimSpace(want.Message), "\n")
		if got.Tree != fromPlumbing(want.TreeHash) || len(got.Parents) != len(want.ParentHashes) ||
			got.Author != want.Author.Name || got.AuthorEmail != want.Author.Email ||
			!got.AuthorDate.Equal(want.Author.When) || !got.CommitDate.Equal(want.Committer.When) ||
			got.Subject != wantSubject {
			t.Errorf("parseCommit(%q) = %+v\ngo-git: tree %s parents %v author %q <%q> %v committed %v subject %q",
				data, got, want.TreeHash, want.ParentHashes, want.Author.Name, want.Author.Email, want.Author.When, want.Committer.When, wantSubject)
		}
		for i, p := range want.ParentHashes {
			if got.Parents[i] != fromPlumbing(p) {
				t.Errorf("parent %d: %s, go-git %s", i, got.Parents[i], p)
			}
		}
	})
}

// dropIdentity removes what git never writes into an identity line.
func dropIdentity(r rune) rune {
	if r == '<' || r == '>' || r == '\n' || r == 0 {
		return -1
	}
	return r
}

// FuzzParseTree reads any bytes as a tree: parseTree must not panic, and
// where go-git's decoder reads the same bytes as a SHA-1 tree, both must
// list the same entries.
func FuzzParseTree(f *testing.F) {
	f.Add(treeBytes(treeEntry{"a.txt", modeRegular, hashOf(f, oidA)}, treeEntry{"d", modeDir, hashOf(f, oidB)}))
	f.Add([]byte("100644 a\x00short"))
	f.Add([]byte("40000 x\x00" + strings.Repeat("y", 32)))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := parseTree(data, gitblame.SHA256Size); err != nil {
			_ = err // refused: fine, it must only not panic
		}
		got, err := parseTree(data, gitblame.SHA1Size)
		// the history's trees (gitTree) read the same bytes alike
		gt, gerr := newGitTree(data, gitblame.SHA1Size)
		if (err == nil) != (gerr == nil) {
			t.Fatalf("parseTree: %v; newGitTree: %v", err, gerr)
		}
		if err == nil {
			if len(gt.offs) != len(got) {
				t.Fatalf("%d entries, gitTree %d", len(got), len(gt.offs))
			}
			for i, e := range got {
				name, mode, hash := gt.entry(i)
				if string(name) != e.name || mode != e.mode || hash != e.hash {
					t.Errorf("entry %d: %+v, gitTree %q %o %s", i, e, name, mode, hash)
				}
			}
		}
		mo := &plumbing.MemoryObject{}
		mo.SetType(plumbing.TreeObject)
		if _, err := mo.Write(data); err != nil {
			t.Fatal(err)
		}
		var want object.Tree
		if err != nil || want.Decode(mo) != nil {
			return
		}
		if len(got) != len(want.Entries) {
			t.Fatalf("%d entries, go-git %d", len(got), len(want.Entries))
		}
		for i, e := range want.Entries {
			if got[i].name != e.Name || got[i].mode != uint32(e.Mode) || got[i].hash != fromPlumbing(e.Hash) {
				t.Errorf("entry %d: %+v, go-git %+v", i, got[i], e)
			}
		}
	})
}

// FuzzReadDiffRecords reads any bytes as diff-tree output: it must not
// panic, and what it reads, written back, reads the same.
func FuzzReadDiffRecords(f *testing.F) {
	f.Add([]byte(":100644 100644 " + oidA + " " + oidB + " R090\x00a\x00b\x00" + diffEnd + "\n"))
	f.Add([]byte("x y\n"))
	f.Add([]byte(":000000 100644 " + strings.Repeat("0", 64) + " " + oidC + " A\x00p\x00end\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, end, err := readDiffRecords(bufio.NewReader(bytes.NewReader(data)))
		if err != nil {
			return
		}
		var b bytes.Buffer
		for _, r := range recs {
			fmt.Fprintf(&b, ":%06o %06o %s %s %c\x00", r.srcMode, r.dstMode, r.srcHash, r.dstHash, r.status)
			if r.src != "" {
				fmt.Fprintf(&b, "%s\x00", r.src)
			}
			fmt.Fprintf(&b, "%s\x00", r.dst)
		}
		fmt.Fprintf(&b, "%s\n", end)
		again, end2, err := readDiffRecords(bufio.NewReader(&b))
		if err != nil || end2 != end || !reflect.DeepEqual(again, recs) {
			t.Errorf("read %+v %q; written back and read again: %+v %q %v", recs, end, again, end2, err)
		}
	})
}

// FuzzParseLsTree reads any bytes as ls-tree output: it must not panic,
// and what it reads, written back, reads the same.
func FuzzParseLsTree(f *testing.F) {
	f.Add([]byte("100644 blob " + oidA + "\ta b\x00160000 commit " + oidB + "\tsub\x00"))
	f.Add([]byte("x\ty\x00\x00\t\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		all := func(uint32) bool { return true }
		var got []string
		var b bytes.Buffer
		parseLsTree(data, all, func(path, oid string, mode uint32) {
			if path == "" || strings.ContainsRune(path, 0) {
				t.Fatalf("path %q", path)
			}
			got = append(got, fmt.Sprintf("%o %s %s", mode, oid, path))
			fmt.Fprintf(&b, "%o blob %s\t%s\x00", mode, oid, path)
		})
		var again []string
		parseLsTree(b.Bytes(), all, func(path, oid string, mode uint32) {
			again = append(again, fmt.Sprintf("%o %s %s", mode, oid, path))
		})
		if !reflect.DeepEqual(got, again) {
			t.Errorf("read %q; written back and read again: %q", got, again)
		}
	})
}

// fromPlumbing converts a go-git SHA-1 object name.
func fromPlumbing(p plumbing.Hash) gitblame.Hash { return gitblame.NewHash(p[:]) }
