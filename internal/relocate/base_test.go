package relocate

import (
	"strings"
	"testing"
)

// TestBlobLines: a blob's lines are a split of its content at "\n", with
// CRLF line ends read as LF ones, as the snippet check always read them.
func TestBlobLines(t *testing.T) {
	for _, data := range []string{"", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\r\n\r\nc", "x\r", "a\rb\nc", "\n\n"} {
		b := newBlobLines(data)
		want := strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n")
		for n := 0; n <= len(want)+1; n++ {
			got, ok := b.line(n)
			wantOK := n >= 1 && n <= len(want)
			if ok != wantOK || (ok && got != want[n-1]) {
				t.Errorf("%q line %d = %q, %v; want ok %v", data, n, got, ok, wantOK)
			}
		}
	}
}
