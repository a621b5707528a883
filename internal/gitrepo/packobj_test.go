package gitrepo

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPackedObjectsAsGit: every object of a packed repository that the
// pack reader takes reads as `git cat-file` reads it, with offset deltas
// and with reference deltas, in SHA-1 and SHA-256; deltas are really on
// the chains read (git verify-pack says so); the objects it leaves to git
// are the ones larger than it reads; and the reads start no git process.
func TestPackedObjectsAsGit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format string
		repack []string
	}{
		{"offset deltas", "sha1", []string{"gc", "-q", "--aggressive"}},
		{"reference deltas", "sha1", []string{"-c", "repack.useDeltaBaseOffset=false", "repack", "-q", "-a", "-d", "-f", "--depth=80"}},
		{"sha256", "sha256", []string{"gc", "-q", "--aggressive"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "r")
			gitT(t, filepath.Dir(dir), "init", "-q", "--object-format="+tc.format, dir)
			packedHistory(t, dir)
			gitT(t, dir, tc.repack...)
			deltas := 0
			for _, idx := range globT(t, filepath.Join(dir, ".git", "objects", "pack", "*.idx")) {
				for _, l := range strings.Split(gitT(t, dir, "verify-pack", "-v", idx), "\n") {
					if f := strings.Fields(l); len(f) == 7 && f[5] != "0" {
						deltas++
					}
				}
			}
			if deltas < 20 {
				t.Fatalf("%d deltas in the packs: the test reads no chains", deltas)
			}

			r, objs := repoObjects(t, dir)
			all := gitT(t, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype) %(objectsize)")
			type obj struct {
				oid, typ string
				size     int
			}
			var list []obj
			for _, l := range strings.Split(strings.TrimSpace(all), "\n") {
				f := strings.Fields(l)
				n, _ := strconv.Atoi(f[2])
				list = append(list, obj{f[0], f[1], n})
			}
			read, large := 0, 0
			got := map[string][]byte{}
			for _, o := range list {
				data, ok := objs.packs.read(o.oid, o.typ)
				if o.size > maxLooseObject {
					large++
					if ok {
						t.Errorf("%s (%d bytes): read in-process, past the bound", o.oid, o.size)
					}
					continue
				}
				if !ok {
					t.Errorf("%s %s: left to git", o.typ, o.oid)
					continue
				}
				read++
				got[o.oid] = data
				if _, ok := objs.packs.read(o.oid, otherType(o.typ)); ok {
					t.Errorf("%s %s read as a %s", o.typ, o.oid, otherType(o.typ))
				}
			}
			if catStarted(r) {
				t.Errorf("the pack reader started cat-file")
			}
			if large != 1 || read < 100 {
				t.Fatalf("%d objects read, %d large: the history is not what the test needs", read, large)
			}
			for oid, data := range got {
				typ, want, err := objs.cat.object(oid)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(data, want) {
					t.Errorf("%s %s: %d bytes read in-process, git reads %d", typ, oid, len(data), len(want))
				}
			}
			// a name no pack holds, and one of another length
			if _, ok := objs.packs.read(strings.Repeat("0", len(list[0].oid)), "blob"); ok {
				t.Errorf("a missing object read")
			}
			if _, ok := objs.packs.read(list[0].oid[:40-2], list[0].typ); ok {
				t.Errorf("a short name read")
			}
		})
	}
}

// TestPackReaderOff: where git reads other bytes (a replace ref) or is
// told to (MEMCITE_BACKEND=git), packed objects are git's to read; a
// damaged pack leaves them to git too.
func TestPackReaderOff(t *testing.T) {
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	first := commitF(t, dir, "one")
	commitF(t, dir, "two")
	gitT(t, dir, "gc", "-q")
	tree := strings.TrimSpace(gitT(t, dir, "rev-parse", first+"^{tree}"))
	read := func() bool {
		t.Helper()
		_, objs := repoObjects(t, dir)
		_, ok := objs.packs.read(tree, "tree")
		return ok
	}
	if !read() {
		t.Fatalf("packed tree: left to git")
	}
	t.Run("MEMCITE_BACKEND=git", func(t *testing.T) {
		defer ForceGitBinary(true)()
		if read() {
			t.Errorf("read in-process")
		}
	})
	t.Run("damaged", func(t *testing.T) {
		packs := globT(t, filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
		b, err := os.ReadFile(packs[0])
		if err != nil {
			t.Fatal(err)
		}
		orig := bytes.Clone(b)
		defer os.WriteFile(packs[0], orig, 0o644)
		for i := 12; i < len(b)-20; i++ {
			b[i] ^= 0x55 // every entry's header and stream changed
		}
		if err := os.Chmod(packs[0], 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(packs[0], b, 0o644); err != nil {
			t.Fatal(err)
		}
		if read() {
			t.Errorf("read from a damaged pack")
		}
	})
	gitT(t, dir, "replace", "HEAD", first)
	if read() {
		t.Errorf("with a replace ref: read in-process")
	}
}

// packedHistory commits files that change a little at a time (so that
// git deltifies them), a renamed file, and a blob larger than the pack
// reader takes.
func packedHistory(t *testing.T, dir string) {
	t.Helper()
	write := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	for i := range 400 {
		lines = append(lines, fmt.Sprintf("line %d of the source, with words enough to compress: %d", i, i*i))
	}
	for c := range 30 {
		lines[(c*37)%len(lines)] = fmt.Sprintf("changed in commit %d", c)
		lines = append(lines[:c*7], append([]string{fmt.Sprintf("inserted %d", c)}, lines[c*7:]...)...)
		write("src/a.go", strings.Join(lines, "\n")+"\n")
		write(fmt.Sprintf("src/dir%d/b.go", c%4), strings.Join(lines[c:c+120], "\n")+"\n")
		if c == 10 {
			gitT(t, dir, "add", "-A")
			gitT(t, dir, "commit", "-q", "-m", "before the move")
			gitT(t, dir, "mv", "src/dir1", "src/moved")
		}
		if c == 20 {
			big := make([]byte, maxLooseObject+1000)
			for i := range big {
				big[i] = byte(i*7 + i/1000)
			}
			write("big.bin", string(big))
		}
		gitT(t, dir, "add", "-A")
		gitT(t, dir, "commit", "-q", "-m", fmt.Sprintf("commit %d", c))
	}
}

// repoObjects opens dir's repository (closed when the test ends) and its
// object reader.
func repoObjects(t testing.TB, dir string) (*Repo, *objects) {
	t.Helper()
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	objs, err := r.objects()
	if err != nil {
		t.Fatal(err)
	}
	return r, objs
}

func otherType(typ string) string {
	if typ == "blob" {
		return "tree"
	}
	return "blob"
}

func globT(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("%s: %v, %d files", pattern, err, len(m))
	}
	return m
}

// TestApplyDelta: copies (offsets and sizes of one to four and one to
// three bytes, size 0 meaning 0x10000) and inserts apply; a delta that
// names another base size, copies past the base, writes more or fewer
// bytes than it announces, or holds the reserved instruction 0 is
// refused.
func TestApplyDelta(t *testing.T) {
	base := bytes.Repeat([]byte("0123456789"), 7000) // 70,000 bytes
	hdr := func(src, dst int) []byte {
		b := binary.AppendUvarint(nil, uint64(src))
		return binary.AppendUvarint(b, uint64(dst))
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, tc := range []struct {
		name  string
		delta []byte
		want  string // "" with ok false
		ok    bool
	}{
		{"insert", cat(hdr(len(base), 3), []byte{3, 'a', 'b', 'c'}), "abc", true},
		{"copy one byte offset and size", cat(hdr(len(base), 4), []byte{0x80 | 0x01 | 0x10, 2, 4}), "2345", true},
		{"copy, no offset bytes", cat(hdr(len(base), 2), []byte{0x80 | 0x10, 2}), "01", true},
		{"copy, two-byte offset", cat(hdr(len(base), 3), []byte{0x80 | 0x01 | 0x02 | 0x10, 0x05, 0x01, 3}), "123", true}, // offset 261
		{"copy 0x10000", cat(hdr(len(base), 0x10000), []byte{0x80}), string(base[:0x10000]), true},
		{"copy and insert", cat(hdr(len(base), 5), []byte{0x90, 2, 3, 'x', 'y', 'z'}), "01xyz", true},
		{"other base size", cat(hdr(len(base)-1, 3), []byte{3, 'a', 'b', 'c'}), "", false},
		{"copy past the base", cat(hdr(len(base), 4), []byte{0x80 | 0x07 | 0x10, 0xff, 0xff, 0xff, 4}), "", false},
		{"more than announced", cat(hdr(len(base), 2), []byte{3, 'a', 'b', 'c'}), "", false},
		{"fewer than announced", cat(hdr(len(base), 4), []byte{3, 'a', 'b', 'c'}), "", false},
		{"instruction 0", cat(hdr(len(base), 0), []byte{0}), "", false},
		{"insert cut short", cat(hdr(len(base), 3), []byte{3, 'a'}), "", false},
		{"copy cut short", cat(hdr(len(base), 3), []byte{0x80 | 0x01}), "", false},
		{"result too large", cat(hdr(len(base), maxLooseObject+1), []byte{1, 'a'}), "", false},
		{"no header", nil, "", false},
	} {
		got, err := applyDelta(base, tc.delta)
		if (err == nil) != tc.ok || string(got) != tc.want {
			t.Errorf("%s: %.20q, %v; want %.20q, ok %v", tc.name, got, err, tc.want, tc.ok)
		}
	}
}

// TestParseEntry: the header of a pack entry, as git writes it.
func TestParseEntry(t *testing.T) {
	oid := bytes.Repeat([]byte{0xab}, 20)
	for _, tc := range []struct {
		name string
		b    []byte
		off  int64
		want packEntry
		ok   bool
	}{
		{"small blob", []byte{0x35}, 12, packEntry{typ: packBlob, size: 5, data: 13}, true},
		{"tree, two size bytes", []byte{0xaf, 0x01}, 100, packEntry{typ: packTree, size: 15 | 1<<4, data: 102}, true},
		{"offset delta", []byte{0x63, 0x05}, 100, packEntry{typ: packOfsDelta, size: 3, baseOff: 95, data: 102}, true},
		{"offset delta, two bytes", []byte{0x63, 0x81, 0x00}, 1000, packEntry{typ: packOfsDelta, size: 3, baseOff: 1000 - 256, data: 1003}, true},
		{"reference delta", append([]byte{0x73}, oid...), 50, packEntry{typ: packRefDelta, size: 3, baseOID: oid, data: 71}, true},
		{"base before the pack", []byte{0x63, 0x7f}, 100, packEntry{}, false},
		{"base at itself", []byte{0x63, 0x00}, 100, packEntry{}, false},
		{"type 5", []byte{0x53}, 12, packEntry{}, false},
		{"type 0", []byte{0x03}, 12, packEntry{}, false},
		{"size cut short", []byte{0xb3}, 12, packEntry{}, false},
		{"reference cut short", []byte{0x73, 1, 2}, 12, packEntry{}, false},
		{"empty", nil, 12, packEntry{}, false},
	} {
		got, err := parseEntry(tc.b, tc.off, 20)
		if (err == nil) != tc.ok || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %+v, %v; want %+v, ok %v", tc.name, got, err, tc.want, tc.ok)
		}
	}
}

// FuzzApplyDelta: applyDelta never panics, and what it accepts has the
// size the delta announces and is made of the delta's and the base's
// bytes only.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{12, 5, 0x91, 7, 5})
	f.Add([]byte("abc"), []byte{3, 3, 3, 'x', 'y', 'z'})
	f.Add([]byte(""), []byte{0, 0})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta)
		if err != nil {
			return
		}
		src, n := binary.Uvarint(delta)
		dst, m := binary.Uvarint(delta[n:])
		if src != uint64(len(base)) || dst != uint64(len(out)) || m <= 0 {
			t.Fatalf("accepted a delta for %d bytes giving %d as %d bytes", src, dst, len(out))
		}
	})
}

// FuzzParseEntry: parseEntry never panics, and an entry it accepts
// starts its stream within the bytes read, with a base before itself.
func FuzzParseEntry(f *testing.F) {
	f.Add([]byte{0x35}, int64(12))
	f.Add([]byte{0x63, 0x81, 0x00}, int64(1000))
	f.Add(append([]byte{0x73}, bytes.Repeat([]byte{1}, 20)...), int64(40))
	f.Fuzz(func(t *testing.T, b []byte, off int64) {
		if off < 12 {
			return
		}
		e, err := parseEntry(b, off, 20)
		if err != nil {
			return
		}
		if e.data <= off || e.data > off+int64(len(b)) || e.size < 0 {
			t.Fatalf("%x at %d: %+v", b, off, e)
		}
		if e.typ == packOfsDelta && (e.baseOff <= 0 || e.baseOff >= off) {
			t.Fatalf("%x at %d: base at %d", b, off, e.baseOff)
		}
	})
}

// FuzzPackObject: a pack whose one object is any bytes, with an index
// naming it, never makes the pack reader panic or hang; what it reads is
// within its bound. The seeds are a whole blob, an offset delta on it and
// a reference delta naming itself (a chain that never ends).
func FuzzPackObject(f *testing.F) {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write([]byte("hello"))
	zw.Close()
	f.Add(append([]byte{0x35}, z.Bytes()...))
	f.Add(append(append([]byte{0x35}, z.Bytes()...), append([]byte{0x63, 0x0e}, z.Bytes()...)...))
	f.Add(append(append([]byte{0x73}, bytes.Repeat([]byte{0xab}, 20)...), z.Bytes()...))
	f.Fuzz(func(t *testing.T, body []byte) {
		dir := t.TempDir()
		base := filepath.Join(dir, "pack-x")
		pk := append([]byte("PACK\x00\x00\x00\x02\x00\x00\x00\x01"), body...)
		if err := os.WriteFile(base+".pack", pk, 0o644); err != nil {
			t.Fatal(err)
		}
		oid := bytes.Repeat([]byte{0xab}, 20)
		idx := []byte("\xfftOc\x00\x00\x00\x02")
		for i := range 256 {
			n := uint32(0)
			if i >= 0xab {
				n = 1
			}
			idx = binary.BigEndian.AppendUint32(idx, n)
		}
		idx = append(idx, oid...)
		idx = binary.BigEndian.AppendUint32(idx, 0)  // CRC
		idx = binary.BigEndian.AppendUint32(idx, 12) // offset
		idx = append(idx, make([]byte, 40)...)       // checksums
		if err := os.WriteFile(base+".idx", idx, 0o644); err != nil {
			t.Fatal(err)
		}
		po := newPackObjects(filepath.Dir(dir), 40, false)
		po.dir = dir
		defer po.close()
		if data, ok := po.read(hex.EncodeToString(oid), "blob"); ok && len(data) > maxLooseObject {
			t.Fatalf("read %d bytes", len(data))
		}
	})
}
