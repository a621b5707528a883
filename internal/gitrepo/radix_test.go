package gitrepo

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRadixOrder: radixOrder sorts as a stable comparison sort does, for
// keys needing one to four 16-bit passes.
func TestRadixOrder(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for _, bits := range []uint{8, 16, 20, 32, 40, 64} {
		for _, n := range []int{0, 1, 2, 100, 5000} {
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = r.Uint64()
				if bits < 64 {
					keys[i] &= 1<<bits - 1
				}
				if i%7 == 0 && i > 0 {
					keys[i] = keys[i-1] // equal keys keep their order
				}
			}
			want := make([]uint32, n)
			for i := range want {
				want[i] = uint32(i)
			}
			slices.SortStableFunc(want, func(a, b uint32) int {
				switch {
				case keys[a] < keys[b]:
					return -1
				case keys[a] > keys[b]:
					return 1
				}
				return 0
			})
			if got := radixOrder(keys); !slices.Equal(got, want) {
				t.Errorf("%d keys of %d bits: %v, want %v", n, bits, got[:min(n, 10)], want[:min(n, 10)])
			}
		}
	}
}
