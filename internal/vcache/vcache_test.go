package vcache

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
)

func key(i int) Key { return CitationKey(fmt.Sprint("blob:", i), memfile.Citation{Path: "a.go"}) }

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir, "tool 1")
	if c.State() != StateMissing {
		t.Fatalf("state %v, want missing", c.State())
	}
	c.PutVerdict(key(1), Verdict{Kind: 0})
	c.PutVerdict(key(2), Verdict{Kind: 15, Reason: "Snippet mismatch at line 3. Expected 'x', got 'y'"})
	c.PutFile(FileKey("m.md", []byte("---\n---\n")), []byte{1, 2, 3})
	if err := c.Save(filepath.Join(dir, "tmp")); err != nil {
		t.Fatal(err)
	}
	d := Open(dir, "tool 1")
	if d.State() != StateOK {
		t.Fatalf("state %v, want ok", d.State())
	}
	for i, want := range map[int]Verdict{1: {Kind: 0}, 2: {Kind: 15, Reason: "Snippet mismatch at line 3. Expected 'x', got 'y'"}} {
		if got, ok := d.Verdict(key(i)); !ok || got != want {
			t.Errorf("verdict %d = %+v, %v; want %+v", i, got, ok, want)
		}
	}
	if _, ok := d.Verdict(key(3)); ok {
		t.Error("verdict 3 found")
	}
	if got, ok := d.File(FileKey("m.md", []byte("---\n---\n"))); !ok || !bytes.Equal(got, []byte{1, 2, 3}) {
		t.Errorf("file = %v, %v", got, ok)
	}
	if _, ok := d.File(FileKey("n.md", []byte("---\n---\n"))); ok {
		t.Error("another path's parse found")
	}
	d.Verdict(key(1)) // found again: still one entry
	if got := d.Hits(); got != 3 {
		t.Errorf("Hits = %d, want 3 (verdicts 1 and 2, one file)", got)
	}
	if info := Inspect(dir, "tool 1"); info.State != StateOK || info.Verdicts != 2 || info.Files != 1 || info.Size == 0 {
		t.Errorf("Inspect = %+v", info)
	}
	// nothing added: no write
	fi, _ := os.Stat(d.Path())
	if err := d.Save(filepath.Join(dir, "tmp")); err != nil {
		t.Fatal(err)
	}
	if fi2, _ := os.Stat(d.Path()); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Error("a cache without new entries was rewritten")
	}
	// another build does not use it
	if e := Open(dir, "tool 2"); e.State() != StateStale {
		t.Errorf("other tool: state %v", e.State())
	} else if _, ok := e.Verdict(key(1)); ok {
		t.Error("other tool: verdict found")
	}
}

// TestDamaged: any damage gives an empty cache, never an error or a
// wrong entry.
func TestDamaged(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir, "t")
	for i := 0; i < 50; i++ {
		c.PutVerdict(key(i), Verdict{Kind: i % 16, Reason: fmt.Sprint("r", i)})
	}
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(c.Path())
	if err != nil {
		t.Fatal(err)
	}
	other := append([]byte{}, good...)
	binary.BigEndian.PutUint32(other[len(magic):], FormatVersion+1)
	cases := map[string]struct {
		data  []byte
		state State
	}{
		"empty":     {nil, StateCorrupt},
		"garbage":   {[]byte("not a cache"), StateCorrupt},
		"truncated": {good[:len(good)/2], StateCorrupt},
		"bit flip":  {flip(good, len(good)/3), StateCorrupt},
		"crc flip":  {flip(good, len(good)-1), StateCorrupt},
		"version":   {other, StateVersion},
	}
	for name, tc := range cases {
		if err := os.WriteFile(c.Path(), tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		d := Open(dir, "t")
		if d.State() != tc.state {
			t.Errorf("%s: state %v, want %v", name, d.State(), tc.state)
		}
		if v, f := d.Len(); v != 0 || f != 0 {
			t.Errorf("%s: %d verdicts, %d files; want an empty cache", name, v, f)
		}
		// and a run rewrites it
		d.PutVerdict(key(1), Verdict{})
		if err := d.Save(dir); err != nil {
			t.Fatal(err)
		}
		if Open(dir, "t").State() != StateOK {
			t.Errorf("%s: not rewritten", name)
		}
	}
}

func flip(b []byte, i int) []byte {
	out := append([]byte{}, b...)
	out[i] ^= 0x40
	return out
}

// TestEvict: the bound keeps the entries used most recently.
func TestEvict(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir, "t")
	for i := 0; i < 100; i++ {
		c.PutVerdict(key(i), Verdict{Reason: "x"})
	}
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	c = Open(dir, "t") // a later run uses the first ten
	for i := 0; i < 10; i++ {
		if _, ok := c.Verdict(key(i)); !ok {
			t.Fatalf("verdict %d not found", i)
		}
	}
	limit := headerSize("t") + 20*(recordSize+reasonSize("x"))
	e := c.encoding()
	e.evict(limit)
	if n := len(e.verdicts); n > 20 || n < 10 {
		t.Fatalf("%d entries after eviction to 20", n)
	}
	kept := map[Key]bool{}
	for _, x := range e.verdicts {
		kept[*x.key] = true
	}
	for i := 0; i < 10; i++ {
		if !kept[key(i)] {
			t.Errorf("recently used entry %d evicted", i)
		}
	}
	var buf bytes.Buffer
	if n, err := e.writeTo(&buf); err != nil || n > limit || int64(buf.Len()) != n {
		t.Errorf("encoded cache of %d bytes (%v), bound %d", n, err, limit)
	}
}

// TestLookupAmongMany: lookups find every entry of a large file, and no
// other key, wherever the key falls.
func TestLookupAmongMany(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir, "t")
	const n = 5000
	for i := 0; i < n; i++ {
		c.PutVerdict(key(i), Verdict{Kind: i % 7, Reason: strings.Repeat("r", i%3)})
		if i%5 == 0 {
			c.PutFile(FileKey(fmt.Sprint(i), nil), []byte(fmt.Sprint("file ", i)))
		}
	}
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	d := Open(dir, "t")
	if v, f := d.Len(); v != n || f != n/5 {
		t.Fatalf("Len = %d, %d", v, f)
	}
	for i := 0; i < n; i++ {
		want := Verdict{Kind: i % 7, Reason: strings.Repeat("r", i%3)}
		if got, ok := d.Verdict(key(i)); !ok || got != want {
			t.Fatalf("verdict %d = %+v, %v; want %+v", i, got, ok, want)
		}
		got, ok := d.File(FileKey(fmt.Sprint(i), nil))
		if want := fmt.Sprint("file ", i); ok != (i%5 == 0) || (ok && string(got) != want) {
			t.Fatalf("file %d = %q, %v", i, got, ok)
		}
	}
	for i := n; i < n+500; i++ {
		if _, ok := d.Verdict(key(i)); ok {
			t.Fatalf("verdict %d found", i)
		}
	}
	// extreme keys
	for _, k := range []Key{{}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff}} {
		if _, ok := d.Verdict(k); ok {
			t.Errorf("key %x found", k[:4])
		}
	}
}

// TestMergeKeepsAndReplaces: a run that adds entries keeps the file's
// entries, replaces the ones it put again, and marks what it used.
func TestMergeKeepsAndReplaces(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir, "t")
	for i := 0; i < 10; i++ {
		c.PutVerdict(key(i), Verdict{Kind: 1})
	}
	c.PutFile(FileKey("a", nil), []byte("old"))
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	d := Open(dir, "t")
	d.PutVerdict(key(3), Verdict{Kind: 2, Reason: "changed"})
	d.PutVerdict(key(20), Verdict{Kind: 3})
	d.PutFile(FileKey("a", nil), []byte("new"))
	if v, f := d.Len(); v != 11 || f != 1 {
		t.Errorf("Len = %d, %d; want 11, 1", v, f)
	}
	if err := d.Save(dir); err != nil {
		t.Fatal(err)
	}
	e := Open(dir, "t")
	if v, f := e.Len(); v != 11 || f != 1 {
		t.Errorf("after save: Len = %d, %d; want 11, 1", v, f)
	}
	for i, want := range map[int]Verdict{0: {Kind: 1}, 3: {Kind: 2, Reason: "changed"}, 9: {Kind: 1}, 20: {Kind: 3}} {
		if got, ok := e.Verdict(key(i)); !ok || got != want {
			t.Errorf("verdict %d = %+v, %v; want %+v", i, got, ok, want)
		}
	}
	if got, _ := e.File(FileKey("a", nil)); string(got) != "new" {
		t.Errorf("file = %q", got)
	}
	// the same verdict put again is not an addition: nothing to write
	e.PutVerdict(key(0), Verdict{Kind: 1})
	if e.added != 0 {
		t.Error("an entry put again as held counts as added")
	}
}

// TestConcurrentWriters: writers racing each replace the file whole; the
// file read afterwards is one of theirs, intact.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for round := 0; round < 5; round++ {
				c := Open(dir, "t")
				for i := 0; i < 200; i++ {
					c.PutVerdict(key(w*1000+round*200+i), Verdict{Kind: w, Reason: fmt.Sprint(w)})
				}
				if err := c.Save(filepath.Join(dir, "tmp")); err != nil {
					t.Error(err)
				}
			}
		}(w)
	}
	wg.Wait()
	c := Open(dir, "t")
	if c.State() != StateOK {
		t.Fatalf("state %v after concurrent writes", c.State())
	}
	for i := 0; i < c.base.numVerdicts(); i++ {
		if v, _ := c.base.verdictAt(i); v.Reason != fmt.Sprint(v.Kind) {
			t.Fatalf("entry %d: %+v mixes writers", i, v)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(ents) != 0 {
		t.Errorf("temporary files left: %v", ents)
	}
}

// TestDropFilePuts: after DropFilePuts, parsed files put are not kept
// (nor saved), verdicts still are, and files already cached are found.
func TestDropFilePuts(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir, "tool 1")
	c.PutFile(FileKey("a.md", nil), []byte("a"))
	if err := c.Save(filepath.Join(dir, "tmp")); err != nil {
		t.Fatal(err)
	}
	d := Open(dir, "tool 1")
	d.DropFilePuts()
	d.PutFile(FileKey("b.md", nil), []byte("b"))
	d.PutVerdict(key(1), Verdict{Kind: 2})
	if _, files := d.Len(); files != 1 {
		t.Errorf("%d files held, want the 1 read", files)
	}
	if got, ok := d.File(FileKey("a.md", nil)); !ok || string(got) != "a" {
		t.Errorf("cached file a.md = %q, %v", got, ok)
	}
	if err := d.Save(filepath.Join(dir, "tmp")); err != nil {
		t.Fatal(err)
	}
	e := Open(dir, "tool 1")
	if _, ok := e.File(FileKey("b.md", nil)); ok {
		t.Error("b.md, put after DropFilePuts, was saved")
	}
	if _, ok := e.Verdict(key(1)); !ok {
		t.Error("the verdict was not saved")
	}
	var nilCache *Cache
	nilCache.DropFilePuts() // no panic
}

func TestNilCache(t *testing.T) {
	var c *Cache
	c.PutVerdict(key(1), Verdict{})
	if _, ok := c.Verdict(key(1)); ok {
		t.Error("nil cache hit")
	}
	if err := c.Save(t.TempDir()); err != nil {
		t.Error(err)
	}
	if c.State() != StateDisabled {
		t.Error("nil cache not disabled")
	}
}

// FuzzDecode: no input panics the decoder or yields entries without a
// valid checksum, and what decodes writes back the same entries.
func FuzzDecode(f *testing.F) {
	dir := f.TempDir()
	c := Open(dir, "t")
	c.PutVerdict(key(1), Verdict{Kind: 2, Reason: "r"})
	c.PutVerdict(key(2), Verdict{})
	c.PutFile(key(3), []byte("x"))
	if err := c.Save(dir); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(c.Path())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecoded(t, data)
		if len(data) >= 4 { // past the checksum, to the structure
			fixed := append([]byte{}, data...)
			binary.BigEndian.PutUint32(fixed[len(fixed)-4:], crc32.Checksum(fixed[:len(fixed)-4], castagnoli()))
			fuzzDecoded(t, fixed)
		}
	})
}

func fuzzDecoded(t *testing.T, data []byte) {
	d, err := decode(data)
	if err != nil {
		return
	}
	c := &Cache{tool: d.tool, gen: d.gen + 1, base: *d, usedV: newBitset(d.numVerdicts()), usedF: newBitset(d.numFiles())}
	var buf bytes.Buffer
	if _, err := c.encoding().writeTo(&buf); err != nil {
		t.Fatal(err)
	}
	d2, err := decode(buf.Bytes())
	if err != nil || d2.numVerdicts() != d.numVerdicts() || d2.numFiles() != d.numFiles() {
		t.Fatalf("re-encoded cache does not decode alike: %v", err)
	}
	for i := 0; i < d.numVerdicts(); i++ {
		v1, _ := d.verdictAt(i)
		v2, _ := d2.verdictAt(i)
		if v1 != v2 || *recKey(d.verdicts, i) != *recKey(d2.verdicts, i) {
			t.Fatalf("verdict %d: %+v, then %+v", i, v1, v2)
		}
		if j := find(d.verdicts, recKey(d.verdicts, i)); j != i {
			t.Fatalf("verdict %d found at %d", i, j)
		}
	}
	for i := 0; i < d.numFiles(); i++ {
		f1, _ := d.fileAt(i)
		f2, _ := d2.fileAt(i)
		if !bytes.Equal(f1, f2) || *recKey(d.files, i) != *recKey(d2.files, i) {
			t.Fatalf("file %d: %q, then %q", i, f1, f2)
		}
	}
}
