package gitblame

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// interner gives every distinct line key a rune, the same for every text
// it sees: the diff lineDiff computes with fewer lookups.
type interner map[string]rune

func (in interner) runes(keys []string) []rune {
	out := make([]rune, len(keys))
	for i, k := range keys {
		r, ok := in[k]
		if !ok {
			r = rune(len(in))
			if r >= 0xD800 {
				r += 0x800
			}
			in[k] = r
		}
		out[i] = r
	}
	return out
}

// diffKeys computes a line diff of two line slices with a rune per
// distinct line, every line by key.
func diffKeys(a, b []string) []Run {
	in := interner{}
	return diffRunes(in.runes(a), in.runes(b))
}

// buildMap maps the lines of a to those of b as the tracker does.
func buildMap(a, b *text) *lineMap {
	return buildMapRuns(a, b, lineDiff(a.keys, b.keys))
}

func TestLineDiff(t *testing.T) {
	tests := []struct{ a, b string }{
		{"", ""},
		{"a", ""},
		{"", "a"},
		{"a b c", "a b c"},
		{"a b c", "a x c"},
		{"x a b", "a b"},
		{"a b", "a b a b"}, // an insertion that repeats the prefix: go-diff shifts it
		{"a b", "b a b"},
		{"a b c d", "a b c a b c d"},
		{"p q r s t u", "p q x r s t u"},
		{"a a a a", "a a a"},
		{"} } } x } } }", "} } } } } }"},
		{"h1 h2 h3 h4 h5 h6 h7 m t1 t2 t3 t4 t5", "h1 h2 h3 h4 h5 h6 h7 n o t1 t2 t3 t4 t5"},
		{"h1 h2 h3 h4 m h1 h2 h3 h4", "h1 h2 h3 h4 h1 h2 h3 h4 n h1 h2 h3 h4"},
	}
	for _, tt := range tests {
		a, b := strings.Fields(tt.a), strings.Fields(tt.b)
		if got, want := lineDiff(a, b), diffKeys(a, b); !reflect.DeepEqual(got, want) {
			t.Errorf("lineDiff(%q, %q) = %v, every line by key: %v", tt.a, tt.b, got, want)
		}
	}
}

// TestLineDiffLong: long texts with small edits, from an alphabet of a
// few lines, where the prefix and suffix take runes of their place.
func TestLineDiffLong(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "}", "", "return nil", "x := 1"}
	for n := range 300 {
		a := make([]string, 50+r.IntN(200))
		for i := range a {
			a[i] = alphabet[r.IntN(len(alphabet))]
		}
		b := append([]string(nil), a...)
		for range 1 + r.IntN(4) {
			i := r.IntN(len(b) + 1)
			switch r.IntN(3) {
			case 0: // insert a run copied from elsewhere
				j := r.IntN(len(a))
				k := min(len(a), j+1+r.IntN(6))
				b = append(b[:i:i], append(append([]string(nil), a[j:k]...), b[i:]...)...)
			case 1: // delete
				if i < len(b) {
					b = append(b[:i:i], b[min(len(b), i+1+r.IntN(5)):]...)
				}
			default: // replace
				if i < len(b) {
					b[i] = fmt.Sprint("new", n)
				}
			}
		}
		if got, want := lineDiff(a, b), diffKeys(a, b); !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d:\na %q\nb %q\nlineDiff %v\nby key   %v", n, a, b, got, want)
		}
	}
}

// FuzzLineDiff: any two texts (lines from a small alphabet, so that
// lines repeat) diff as with every line by key.
func FuzzLineDiff(f *testing.F) {
	f.Add([]byte("ab"), []byte("abab"))
	f.Add([]byte("abcdefgh"), []byte("abcxdefgh"))
	f.Add([]byte("aaaaaaaaab"), []byte("aaaaab"))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		line := func(c byte) string { return string(rune('a' + c%5)) }
		a, b := make([]string, len(x)), make([]string, len(y))
		for i, c := range x {
			a[i] = line(c)
		}
		for i, c := range y {
			b[i] = line(c)
		}
		if got, want := lineDiff(a, b), diffKeys(a, b); !reflect.DeepEqual(got, want) {
			t.Fatalf("lineDiff(%q, %q) = %v, every line by key: %v", a, b, got, want)
		}
	})
}
