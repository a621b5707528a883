package vcache

import (
	"bytes"
	"testing"
)

// TestCmpKey: keys order as their bytes do, whichever byte differs first.
func TestCmpKey(t *testing.T) {
	t.Parallel()
	for _, at := range []int{0, 3, 7, 8, 9, 31} {
		var a, b Key
		a[at], b[at] = 1, 2
		if at > 0 {
			a[0], b[0] = 0xff, 0xff // equal bytes before the one that differs
		}
		for _, pair := range [][2]Key{{a, b}, {b, a}, {a, a}} {
			x, y := pair[0], pair[1]
			if got, want := cmpKey(&x, &y), bytes.Compare(x[:], y[:]); got != want {
				t.Errorf("byte %d: cmpKey(%x, %x) = %d, want %d", at, x[:10], y[:10], got, want)
			}
		}
	}
}
