package memfile

import (
	"reflect"
	"testing"
)

// cacheRoundTrip checks that a compacted parse survives EncodeCache and
// DecodeCache field for field.
func cacheRoundTrip(t *testing.T, src []byte) {
	t.Helper()
	f, err := Parse("m.md", src)
	if err != nil {
		return
	}
	f.Compact()
	data, ok := f.EncodeCache()
	if !ok {
		t.Fatalf("EncodeCache refused a compacted file")
	}
	g, err := DecodeCache("m.md", src, data)
	if err != nil {
		t.Fatalf("DecodeCache: %v", err)
	}
	if !reflect.DeepEqual(f, g) {
		t.Fatalf("round trip differs:\n got %#v\nwant %#v", g, f)
	}
}

func TestCacheRoundTrip(t *testing.T) {
	for _, s := range append(fuzzSeeds,
		"---\nid: a\nsubject: s\ntags: [x, y]\nconfidence: 0.5\nlast_verified: 2024-01-01\nexempt: true\ncitations: []\nlinks: []\n---\n",
		"---\ncitations:\n  - path: a.go\n    line: 0\n  - bogus: 1\n---\n",
		"---\nid: [unterminated\n---\n",
	) {
		cacheRoundTrip(t, []byte(s))
	}
}

func TestDecodeCacheRejects(t *testing.T) {
	f, err := Parse("m.md", []byte(fuzzSeeds[0]))
	if err != nil {
		t.Fatal(err)
	}
	f.Compact()
	data, _ := f.EncodeCache()
	for _, bad := range [][]byte{nil, data[:len(data)-1], append(append([]byte{}, data...), 0), {9}} {
		if _, err := DecodeCache("m.md", f.Src, bad); err == nil {
			t.Errorf("DecodeCache(%q) accepted", bad)
		}
	}
}

// FuzzCacheRoundTrip: every parse round-trips through the cache encoding.
func FuzzCacheRoundTrip(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { cacheRoundTrip(t, src) })
}

// FuzzDecodeCache: arbitrary bytes never panic the decoder.
func FuzzDecodeCache(f *testing.F) {
	if m, err := Parse("m.md", []byte(fuzzSeeds[0])); err == nil {
		m.Compact()
		data, _ := m.EncodeCache()
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = DecodeCache("m.md", []byte(fuzzSeeds[0]), data)
	})
}
