package gctune

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestLimitFor(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{
		{0, memLimit},
		{100 << 20, memLimit},
		{memLimit * 4 / 5, memLimit},
		{300 << 20, 375 << 20},
	} {
		if got := limitFor(tc.live); got != tc.want {
			t.Errorf("limitFor(%d MiB) = %d MiB, want %d MiB", tc.live>>20, got>>20, tc.want>>20)
		}
	}
}

// TestFollowLiveHeap: once started, each collection sets the limit.
func TestFollowLiveHeap(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	followLiveHeap()
	debug.SetMemoryLimit(1 << 40)
	for i := 0; i < 50 && debug.SetMemoryLimit(-1) != memLimit; i++ {
		runtime.GC() // the follower runs as a finalizer after a collection
		runtime.Gosched()
	}
	if got := debug.SetMemoryLimit(-1); got != memLimit {
		t.Errorf("limit %d after collections, want %d", got, memLimit)
	}
}
