package gitblame

import (
	"strings"
	"testing"
)

// TestLine: a blob's lines are a split of its content at "\n" (a final
// "\n" ends the last line), each without a "\r" before it: what the
// search for a citation's base checks snippets against.
func TestLine(t *testing.T) {
	t.Parallel()
	for _, data := range []string{"", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\r\n\r\nc", "x\r", "a\rb\nc", "\n\n"} {
		h := &memHistory{blobs: map[Hash][]byte{}}
		blob := BlobHash([]byte(data), Hash{})
		h.blobs[blob] = []byte(data)
		tr := New(h)
		var want []string
		if data != "" {
			for _, l := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
				want = append(want, strings.TrimSuffix(l, "\r"))
			}
		}
		for n := 0; n <= len(want)+1; n++ {
			got, ok, err := tr.Line(blob, n)
			wantOK := n >= 1 && n <= len(want)
			if err != nil || ok != wantOK || (ok && got != want[n-1]) {
				t.Errorf("%q line %d = %q, %v, %v; want ok %v", data, n, got, ok, err, wantOK)
			}
		}
	}
}
