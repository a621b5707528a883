package gctune

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unsafe"
)

// TestHugePagesAdviseTheHeap: after hugePages, the heap's next allocation
// is in memory advised for huge pages (VmFlags "hg" in /proc/self/smaps).
// It is checked in a process of its own, whose heap is as small as a
// command's when Tune runs (this process's earlier tests leave freed
// ranges of their own, which the runtime may hand out first).
func TestHugePagesAdviseTheHeap(t *testing.T) {
	if os.Getenv("GCTUNE_HUGEPAGES_CHILD") == "1" {
		if !hugePages(64 << 20) {
			fmt.Println("no advice given")
			os.Exit(3)
		}
		// (its start may be the free pages the heap had just below the
		// advised range: its middle is in it)
		buf := make([]byte, 8<<20)
		flags, err := vmFlags(uintptr(unsafe.Pointer(&buf[len(buf)/2])))
		if err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		if !strings.Contains(" "+flags+" ", " hg ") {
			fmt.Printf("the middle of the heap's next 8 MiB is in memory with VmFlags %q, not advised for huge pages (hg)\n", flags)
			os.Exit(3)
		}
		os.Exit(0)
	}
	if !thpOnRequest() {
		t.Skipf("%s: Linux does not give huge pages on request here", thpEnabled)
	}
	if godebugDisablesTHP(os.Getenv("GODEBUG")) {
		t.Skip("GODEBUG=disablethp=1")
	}
	if strictOvercommit() {
		t.Skip("vm.overcommit_memory=2: no untouched allocation is made")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHugePagesAdviseTheHeap$")
	cmd.Env = append(os.Environ(), "GCTUNE_HUGEPAGES_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
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
