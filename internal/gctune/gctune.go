// Package gctune sets the garbage collector's policy for one short-lived
// git-memcite process: more heap for less collection work, under a soft
// memory limit that follows the live heap when the live heap comes near
// it, and (HugePages) that heap backed by transparent huge pages on
// Linux.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Tune trades memory for less GC work in this short-lived process (an
// 8× larger heap target, with which verify-all on 2,000 memories
// finishes before its first collection; 20× for a git hook, which on a
// store of 50,000 memories then collects no garbage before it exits,
// where each
// collection cost it milliseconds it does not have), with a soft memory
// limit of 224 MiB: the heap stops growing with the target where it
// would pass it (on a store of 50,000 memories the live heap of verify,
// health and graph is 150–190 MB, and they stay under 250 MB resident).
// When the live heap itself comes near the limit, the limit follows it
// (followLiveHeap): a collection every time the heap grew by a quarter,
// not one after the other (relocate on the same store, whose live heap
// passes the limit, otherwise spent most of its time in the collector).
// GOGC and GOMEMLIMIT set by the user win.
func Tune(hook bool) {
	if os.Getenv("GOGC") == "" {
		if hook {
			debug.SetGCPercent(2000)
		} else {
			debug.SetGCPercent(800)
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memLimit)
		followLiveHeap()
	}
}

// HugePages has the heap that Tune lets grow backed by transparent huge
// pages where Linux gives them only on request (hugePages): on a virtual
// machine whose page faults cost 10 to 15 µs, a cold verify-all of 1,000
// memories spent 0.6 s in the faults of its heap, a warm one 0.15 s of its
// 0.38 s, and the pre-commit hook on 2,000 memories 1,000 faults of its
// 2,000 (its CPU 67-71 ms without, 43-56 ms with, `perf stat -r 30`). It
// costs a process a few milliseconds (a collection of a heap of a few
// megabytes), which a hook wins back from the faults of the index and the
// summaries it reads. A hook advises hookHeap, another command hugeHeap;
// with a GOMEMLIMIT below the soft limit the range is at most that limit
// less 32 MB; under strict overcommit accounting, in a build with the race
// detector, and elsewhere than on Linux, it does nothing.
func HugePages(hook bool) {
	size := hugeHeap
	if hook {
		size = hookHeap
	}
	if limit := debug.SetMemoryLimit(-1); limit < memLimit {
		size = min(size, int(limit)-32<<20) // a lower GOMEMLIMIT of the user's
	}
	if size >= 32<<20 && !raceDetector {
		hugePages(size)
	}
}

// hugeHeap is how much of the heap HugePages advises: what the soft limit
// lets the heap grow to, less what the runtime maps besides.
const hugeHeap = memLimit - 32<<20

// hookHeap is how much of a hook's heap HugePages advises: twice what the
// pre-commit hook's heap grows to on 2,000 memories (16 to 19 MB resident);
// 16 and 64 MB did no better (medians of 41 runs of each in turn).
const hookHeap = 32 << 20

const memLimit = 224 << 20

// limitFor is the memory limit for a live heap of live bytes.
func limitFor(live uint64) int64 { return max(memLimit, int64(live)*5/4) }

// gcTick is an object that lives until the next collection.
type gcTick struct{ _ *int }

// followLiveHeap sets the memory limit after every collection to
// memLimit, or to a quarter above the live heap when that is more. It
// starts once per process (the tests run many commands in one).
var followLiveHeap = sync.OnceFunc(func() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&gcTick{}, func(*gcTick) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				debug.SetMemoryLimit(limitFor(sample[0].Value.Uint64()))
			}
			arm()
		})
	}
	arm()
})
