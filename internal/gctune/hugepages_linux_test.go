package gctune

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestHugePagesAdviseTheHeap: after hugePages, the heap's next allocation
// is in memory advised for huge pages (VmFlags "hg" in /proc/self/smaps).
func TestHugePagesAdviseTheHeap(t *testing.T) {
	if !thpOnRequest() {
		t.Skipf("%s: Linux does not give huge pages on request here", thpEnabled)
	}
	if godebugDisablesTHP(os.Getenv("GODEBUG")) {
		t.Skip("GODEBUG=disablethp=1")
	}
	if strictOvercommit() {
		t.Skip("vm.overcommit_memory=2: no untouched allocation is made")
	}
	if !hugePages(64 << 20) {
		t.Fatal("hugePages: no advice given")
	}
	buf := make([]byte, 8<<20)
	flags, err := vmFlags(uintptr(unsafe.Pointer(&buf[0])))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Fatalf("the heap's next 8 MiB are in memory with VmFlags %q, not advised for huge pages (hg)", flags)
	}
}

// vmFlags returns the VmFlags of the mapping holding addr.
func vmFlags(addr uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 && !strings.HasSuffix(strings.Fields(line)[0], ":") {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping holds %#x", addr)
}

func TestGodebugDisablesTHP(t *testing.T) {
	for _, tc := range []struct {
		godebug string
		want    bool
	}{
		{"", false},
		{"disablethp=1", true},
		{"disablethp=0", false},
		{"gctrace=1,disablethp=1", true},
		{"disablethp=1,disablethp=0", false},
		{" disablethp=1 ", true},
		{"xdisablethp=1", false},
	} {
		if got := godebugDisablesTHP(tc.godebug); got != tc.want {
			t.Errorf("GODEBUG=%q: disables huge pages %v, want %v", tc.godebug, got, tc.want)
		}
	}
}
