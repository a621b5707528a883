package gctune

import (
	"os"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// thpEnabled is where Linux says when it gives a process transparent huge
// pages: "always", on request only ("madvise"), or "never".
const thpEnabled = "/sys/kernel/mm/transparent_hugepage/enabled"

// hugePages asks Linux to back the next size bytes of the heap with
// transparent huge pages, where the kernel gives them only on request
// (the mode "madvise", the default of many distributions), and reports
// whether it did.
//
// The Go runtime makes no such request for its heap, so every 4 KiB page
// the heap grows into costs a page fault; on a virtual machine a fault can
// cost 10 µs, and a process whose heap grows to the soft limit (Tune)
// spends a sixth of its time in them. So the heap is grown at once by one
// allocation of size bytes, never touched, which the runtime maps fresh;
// that range is advised (madvise MADV_HUGEPAGE) and the allocation freed
// (a collection of a heap of a few megabytes). The runtime then hands out
// that range, lowest addresses first, for the allocations that follow,
// and the kernel backs each 2 MiB of it with one page at its first touch.
// Nothing is read or written meanwhile: the process's resident memory
// does not grow until the heap does.
//
// GODEBUG=disablethp=1, the runtime's own setting against huge pages for
// its heap, turns this off too.
func hugePages(size int) bool {
	if !thpOnRequest() || godebugDisablesTHP(os.Getenv("GODEBUG")) || strictOvercommit() {
		return false
	}
	if !advise(size) {
		return false
	}
	runtime.GC()
	return true
}

// advise allocates size bytes and advises their range, not touched; the
// allocation is garbage when it returns.
func advise(size int) bool {
	buf := make([]byte, size)
	return unix.Madvise(buf, unix.MADV_HUGEPAGE) == nil
}

// strictOvercommit reports whether Linux refuses to map more memory than
// it can back (vm.overcommit_memory=2): there the untouched allocation
// would count in full, and a failed one ends the process.
func strictOvercommit() bool {
	b, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	return err == nil && strings.TrimSpace(string(b)) == "2"
}

// thpOnRequest reports whether Linux gives transparent huge pages to the
// memory a process asks them for, and only to it.
func thpOnRequest() bool {
	b, err := os.ReadFile(thpEnabled)
	return err == nil && strings.Contains(string(b), "[madvise]")
}

// godebugDisablesTHP reports whether GODEBUG (its last disablethp setting
// wins, as in the runtime) turns transparent huge pages off for the heap.
func godebugDisablesTHP(godebug string) bool {
	off := false
	for _, kv := range strings.Split(godebug, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(kv), "="); ok && k == "disablethp" {
			off = v == "1"
		}
	}
	return off
}
