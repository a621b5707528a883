package vcache

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
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
	c := Open(t.TempDir(), "t")
	for i := 0; i < 100; i++ {
		c.PutVerdict(key(i), Verdict{Reason: "x"})
	}
	c.gen++ // a later run uses the first ten
	for i := 0; i < 10; i++ {
		c.Verdict(key(i))
	}
	limit := int64(headerSize("t")) + 20*verdictSize("x")
	c.evict(limit)
	if n, _ := c.Len(); n > 20 || n < 10 {
		t.Fatalf("%d entries after eviction to 20", n)
	}
	for i := 0; i < 10; i++ {
		if _, ok := c.verdicts[key(i)]; !ok {
			t.Errorf("recently used entry %d evicted", i)
		}
	}
	if int64(len(encode(c.tool, c.gen, c.verdicts, c.files))) > limit {
		t.Error("encoded cache larger than the bound")
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
	for k, e := range c.verdicts {
		if e.Reason != fmt.Sprint(e.Kind) {
			t.Fatalf("entry %x: %+v mixes writers", k[:4], e)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(ents) != 0 {
		t.Errorf("temporary files left: %v", ents)
	}
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
// valid checksum.
func FuzzDecode(f *testing.F) {
	f.Add(encode("t", 3, map[Key]verdictEntry{key(1): {Verdict{Kind: 2, Reason: "r"}, 1}}, map[Key]fileEntry{key(2): {data: []byte("x"), gen: 2}}))
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := decode(data)
		if err != nil {
			return
		}
		again := encode(d.tool, d.gen, d.verdicts, d.files)
		d2, err := decode(again)
		if err != nil || len(d2.verdicts) != len(d.verdicts) || len(d2.files) != len(d.files) {
			t.Fatalf("re-encoded cache does not decode alike: %v", err)
		}
	})
}
