package workers

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestRanges: every item is in exactly one range, ranges do not overlap.
func TestRanges(t *testing.T) {
	for _, n := range []int{0, 1, 1023, 2048, 5000, 100001} {
		seen := make([]int32, n)
		var mu sync.Mutex
		calls := 0
		Ranges(n, func(lo, hi int) {
			mu.Lock()
			calls++
			mu.Unlock()
			for i := lo; i < hi; i++ {
				atomic.AddInt32(&seen[i], 1)
			}
		})
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("n=%d: item %d seen %d times", n, i, c)
			}
		}
		if calls < 1 {
			t.Errorf("n=%d: no call", n)
		}
	}
}

// TestEach: every item once, never more than workers at once.
func TestEach(t *testing.T) {
	for _, tc := range []struct{ workers, n int }{{1, 10}, {3, 100}, {8, 3}, {4, 0}} {
		seen := make([]int32, tc.n)
		var now, most int32
		Each(tc.workers, tc.n, func(i int) {
			c := atomic.AddInt32(&now, 1)
			for {
				m := atomic.LoadInt32(&most)
				if c <= m || atomic.CompareAndSwapInt32(&most, m, c) {
					break
				}
			}
			atomic.AddInt32(&seen[i], 1)
			atomic.AddInt32(&now, -1)
		})
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("%+v: item %d seen %d times", tc, i, c)
			}
		}
		if most > int32(tc.workers) {
			t.Errorf("%+v: %d at once", tc, most)
		}
	}
}
