// Package workers runs the loops git-memcite spreads over the processors:
// contiguous ranges of a slice, or one item at a time from a queue.
package workers

import (
	"runtime"
	"sync"
)

// rangeMin is the fewest items a range of Ranges gets (below twice that,
// one range does it all: starting goroutines costs more).
const rangeMin = 1024

// Ranges calls fn over the items 0 … n-1 split in contiguous ranges
// [lo, hi), one per processor, at once, and returns when all are done.
// Fewer than 2,048 items make one range, called on this goroutine's
// behalf.
func Ranges(n int, fn func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), max(n/rangeMin, 1))
	if w == 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		lo, hi := k*n/w, (k+1)*n/w
		wg.Go(func() { fn(lo, hi) })
	}
	wg.Wait()
}

// Each calls f(0) … f(n-1), at most workers of them at once, each item
// taken by the next free worker, and returns when all are done.
func Each(workers, n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(workers, n); w++ {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
