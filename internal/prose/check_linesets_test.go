package prose

import (
	"strings"
	"testing"
)

// TestLineSet: a version's set of lines holds each line of its text as
// strings.Split on "\n" cuts them, "\r" trimmed at their end, and no
// other.
func TestLineSet(t *testing.T) {
	for _, text := range []string{"", "a", "a\n", "a\r\nb\n\nc", "dup\ndup\n", "x\r\r\n y \n"} {
		set := newLineSet([]byte(text))
		want := map[string]bool{}
		for _, l := range strings.Split(text, "\n") {
			want[strings.TrimRight(l, "\r")] = true
		}
		if len(set) != len(want) {
			t.Errorf("%q: %d hashes, want %d lines", text, len(set), len(want))
		}
		for l := range want {
			if !set.has(l) {
				t.Errorf("%q: line %q not held", text, l)
			}
		}
		for _, l := range []string{"nope", "a\r", " a", "y"} {
			if set.has(l) != want[l] {
				t.Errorf("%q: has(%q) = %v", text, l, set.has(l))
			}
		}
	}
}

// FuzzLineSet: any text's set holds exactly its lines.
func FuzzLineSet(f *testing.F) {
	f.Add([]byte("a\r\nb\n\nc"), "b")
	f.Fuzz(func(t *testing.T, data []byte, probe string) {
		set := newLineSet(data)
		want := map[string]bool{}
		for _, l := range strings.Split(string(data), "\n") {
			want[strings.TrimRight(l, "\r")] = true
		}
		for l := range want {
			if !set.has(l) {
				t.Fatalf("line %q not held", l)
			}
		}
		if set.has(probe) != want[probe] {
			t.Fatalf("has(%q) = %v, want %v", probe, set.has(probe), want[probe])
		}
	})
}
