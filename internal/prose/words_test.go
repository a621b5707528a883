package prose

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// wordsOnce is the reference of wordDedup.words: every word looked up in
// a map.
func wordsOnce(data []byte) string {
	seen := map[string]bool{}
	var b strings.Builder
	eachWordAt(data, func(start, end int) {
		if w := data[start:end]; !seen[string(w)] {
			seen[string(w)] = true
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.Write(w)
		}
	})
	return b.String()
}

// namesHeld is the reference of nameTable.holds: every word looked up in
// a map.
func namesHeld(names map[string]bool, data []byte) []string {
	var got []string
	eachWordAt(data, func(start, end int) {
		if w := string(data[start:end]); names[w] && !slices.Contains(got, w) {
			got = append(got, w)
		}
	})
	return got
}

func TestWordDedup(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{"a", "a"},
		{"def f(x): return f(x) + x", "def f x return"},
		{"x1 1x 22 _y $z $", "x1 _y $z $"},
		{"Foo.bar(Foo, baz) # Bar foo", "Foo bar baz Bar foo"},
		{"a\x00b\xffa\nb", "a b"},
		{"é é", ""}, // bytes past ASCII end words
	}
	var d wordDedup
	for _, tt := range tests {
		if got := d.words([]byte(tt.in)); got != tt.want {
			t.Errorf("words(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := wordsOnce([]byte(tt.in)); got != tt.want {
			t.Errorf("wordsOnce(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestWordDedupGrows: a text with more words than the table holds, then
// a small one with the same table: the words are each once and in order,
// and no word of the first text is left in the table.
func TestWordDedupGrows(t *testing.T) {
	var b strings.Builder
	var want []string
	for i := range 5000 {
		w := fmt.Sprintf("w%d", i)
		want = append(want, w)
		fmt.Fprintf(&b, "%s w%d %s\n", w, i/2, w)
	}
	var d wordDedup
	if got := d.words([]byte(b.String())); got != strings.Join(want, " ") {
		t.Fatalf("words of 5000 names: got %d words", len(strings.Fields(got)))
	}
	if len(d.slots) < 10000 {
		t.Fatalf("table of %d slots for 5000 words", len(d.slots))
	}
	if got := d.words([]byte("w3 w1 w3")); got != "w3 w1" {
		t.Fatalf("the next text: %q", got)
	}
	for i, s := range d.slots {
		if s != 0 && int(s) > len(d.ws) {
			t.Fatalf("slot %d holds %d, past the %d words of the text", i, s, len(d.ws))
		}
	}
}

func TestNameTableHolds(t *testing.T) {
	names := map[string]bool{"alpha": true, "beta_2": true, "Gamma": true, "": true}
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"alpha", []string{"alpha"}},
		{"alphabet alpha_ xalpha", nil},
		{"beta_2(alpha) alpha Gamma beta_2", []string{"beta_2", "alpha", "Gamma"}},
		{"gamma GAMMA 2alpha", nil},
	}
	nt := newNameTable(names)
	for _, tt := range tests {
		if got := nt.holds([]byte(tt.in)); !slices.Equal(got, tt.want) {
			t.Errorf("holds(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// names whose hashes share a slot: all found
	many := map[string]bool{}
	for i := range 3000 {
		many[fmt.Sprintf("n%d", i)] = true
	}
	text := []byte("n2999 n0 n1500 n3000 n2999")
	if got, want := newNameTable(many).holds(text), namesHeld(many, text); !slices.Equal(got, want) {
		t.Errorf("3000 names: holds = %q, want %q", got, want)
	}
}

// FuzzWords: the table-based scanners say what the map-based ones say,
// for any text and any names.
func FuzzWords(f *testing.F) {
	f.Add([]byte("def f(x): return f(x) + x"), "f x y")
	f.Add([]byte("a\x00b\xffa\nb $c 9d"), "a $c d 9d")
	f.Add([]byte(strings.Repeat("ab ba abc ", 300)), "abc ba zz")
	var d wordDedup
	f.Fuzz(func(t *testing.T, data []byte, names string) {
		if got, want := d.words(data), wordsOnce(data); got != want {
			t.Fatalf("words = %q, want %q", got, want)
		}
		set := map[string]bool{}
		for _, n := range strings.Fields(names) {
			set[n] = true
		}
		if got, want := newNameTable(set).holds(data), namesHeld(set, data); !slices.Equal(got, want) {
			t.Fatalf("holds = %q, want %q", got, want)
		}
	})
}
