package gitblame

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// reconstruct rebuilds both sides of a line diff from its runs.
func reconstruct(a, b []string, runs []Run) (gotA, gotB []string) {
	for _, r := range runs {
		switch r.Op {
		case OpEqual:
			gotA = append(gotA, a[r.Old:r.Old+r.N]...)
			gotB = append(gotB, b[r.New:r.New+r.N]...)
			for k := 0; k < r.N; k++ {
				if a[r.Old+k] != b[r.New+k] {
					return nil, nil // an Equal run must pair equal lines
				}
			}
		case OpDelete:
			gotA = append(gotA, a[r.Old:r.Old+r.N]...)
		case OpInsert:
			gotB = append(gotB, b[r.New:r.New+r.N]...)
		}
	}
	return gotA, gotB
}

func TestDiffKeysRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b string
	}{
		{"empty", "", ""},
		{"add to empty", "", "a\nb\n"},
		{"delete all", "a\nb\n", ""},
		{"no final newline", "a\nb", "a\nb\nc"},
		{"final newline added", "a\nb", "a\nb\n"},
		{"crlf vs lf", "a\r\nb\r\n", "a\nb\n"},
		{"reindent", "if x {\n\ty()\n}\n", "if x {\n    y()\n}\n"},
		{"duplicates", "}\n}\n}\nx\n}\n", "}\nx\n}\n}\n"},
		{"replace", "a\nb\nc\n", "a\nB\nc\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := splitText([]byte(tt.a)), splitText([]byte(tt.b))
			gotA, gotB := reconstruct(a.keys, b.keys, diffKeys(a.keys, b.keys))
			if !reflect.DeepEqual(nz(gotA), nz(a.keys)) || !reflect.DeepEqual(nz(gotB), nz(b.keys)) {
				t.Errorf("round trip: got %q / %q, want %q / %q", gotA, gotB, a.keys, b.keys)
			}
		})
	}
}

func nz(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TestDiffKeysProperty checks on random edits that the runs rebuild both
// sides, that Equal runs pair equal lines, and that the line map agrees.
func TestDiffKeysProperty(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"}", "", "return nil", "x := 1", "y := 2", "if err != nil {", "foo()", "bar()", "// c"}
	for i := 0; i < 500; i++ {
		a := make([]string, r.IntN(40))
		for k := range a {
			a[k] = words[r.IntN(len(words))]
		}
		b := append([]string(nil), a...)
		for e := r.IntN(6); e > 0; e-- {
			switch p := r.IntN(len(b) + 1); r.IntN(3) {
			case 0:
				b = append(b[:p], append([]string{words[r.IntN(len(words))]}, b[p:]...)...)
			case 1:
				if p < len(b) {
					b = append(b[:p], b[p+1:]...)
				}
			default:
				if p < len(b) {
					b[p] = words[r.IntN(len(words))]
				}
			}
		}
		runs := diffKeys(a, b)
		gotA, gotB := reconstruct(a, b, runs)
		if !reflect.DeepEqual(nz(gotA), nz(a)) || !reflect.DeepEqual(nz(gotB), nz(b)) {
			t.Fatalf("case %d: round trip failed\na=%q\nb=%q\nruns=%+v", i, a, b, runs)
		}
		ta := &text{keys: a}
		tb := &text{keys: b}
		m := buildMap(ta, tb)
		for k, j := range m.fwd {
			if j >= 0 && a[k] != b[j] {
				t.Fatalf("case %d: line %d maps to %d with different text", i, k, j)
			}
		}
	}
}

func TestSplitTextNormalizes(t *testing.T) {
	t.Parallel()
	tx := splitText([]byte("  a  b\t c \r\n\tx\r\nlast"))
	want := []string{"a b c", "x", "last"}
	if !reflect.DeepEqual(tx.keys, want) {
		t.Errorf("keys = %q, want %q", tx.keys, want)
	}
	if tx.raw(0) != "  a  b\t c " || strings.Contains(tx.raw(1), "\r") {
		t.Errorf("raw = %q: want line endings removed, indentation kept", tx.rawLines(0, 2))
	}
}

// TestSplitTextLines: the lines of a text are those of strings.Split on
// "\n" after the final newline is dropped, each without a final "\r".
func TestSplitTextLines(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "\n", "a", "a\n", "a\r\n", "a\n\nb", "\n\n", "a\r\nb\r\n", "\r", "x\r\r\n", "é\nü"} {
		tx := splitText([]byte(in))
		var want []string
		if in != "" {
			for _, l := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
				want = append(want, strings.TrimSuffix(l, "\r"))
			}
		}
		var got []string
		for i := range tx.keys {
			got = append(got, tx.raw(i))
		}
		if !reflect.DeepEqual(got, want) || len(tx.keys) != len(want) {
			t.Errorf("splitText(%q): lines %q, want %q", in, got, want)
		}
	}
}

func TestSimilarity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want float64
	}{
		{"abc", "abc", 1},
		{"abc", "abd", 2.0 / 3},
		{"", "abc", 0},
		{"kitten", "sitting", 1 - 3.0/7},
	}
	for _, tt := range tests {
		if got := similarity(tt.a, tt.b); got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("similarity(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestTrivial(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"}", "", "return nil", "});", "} else {", "x"} {
		if !trivial(s) {
			t.Errorf("trivial(%q) = false", s)
		}
	}
	for _, s := range []string{"total := 0", "return total", "foo()"} {
		if trivial(s) {
			t.Errorf("trivial(%q) = true", s)
		}
	}
}

// FuzzSplitText: any content splits into the lines strings.Split gives.
func FuzzSplitText(f *testing.F) {
	for _, s := range []string{"", "\n", "a\r\nb", "a\n\n", "\t x  y \r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		tx := splitText([]byte(in))
		var want []string
		if in != "" {
			want = strings.Split(strings.TrimSuffix(in, "\n"), "\n")
		}
		if len(tx.keys) != len(want) {
			t.Fatalf("%d lines, want %d", len(tx.keys), len(want))
		}
		for i, w := range want {
			if got := tx.raw(i); got != strings.TrimSuffix(w, "\r") || tx.keys[i] != normalize(got) {
				t.Fatalf("line %d: %q (key %q), want %q", i, got, tx.keys[i], w)
			}
		}
	})
}
