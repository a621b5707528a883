package main

import (
	"context"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/testing/benchrepo"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// TestSoak runs commands over and over against one repository and asserts
// that goroutines and open file descriptors return to where they started
// and that peak memory stays flat. In the normal suite it runs a few
// rounds on a small store; scripts/soak.sh runs it for minutes on 50,000
// memories with 250,000 citations (MEMCITE_SOAK=<duration>,
// MEMCITE_SOAK_MEMORIES=<n>).
func TestSoak(t *testing.T) {
	longtest.Skip(t, "rounds of every command on a generated store")
	dur := 0 * time.Second
	o := benchrepo.Options{Files: 300, LinesPerFile: 40, Memories: 200, Citations: 5, StaleShare: 0.1, Seed: 2, Commit: true}
	if s := os.Getenv("MEMCITE_SOAK"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		dur = d
		o = benchrepo.Options{Files: 10000, LinesPerFile: 80, Memories: 50000, Citations: 5, StaleShare: 0.1, Seed: 3, Commit: true}
		if n, err := strconv.Atoi(os.Getenv("MEMCITE_SOAK_MEMORIES")); err == nil {
			o.Memories = n
		}
	}
	dir := t.TempDir()
	st, err := benchrepo.Generate(context.Background(), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	commands := soakCommands()
	runAll := func() {
		for _, args := range commands {
			code := run(append(args, "--repo-root", dir), io.Discard, io.Discard)
			if code != exitOK && code != exitStale {
				t.Fatalf("%v exited %d", args, code)
			}
		}
	}
	runAll() // warm up: lazily started runtime goroutines, caches
	runtime.GC()
	g0, fd0 := runtime.NumGoroutine(), openFDs(t)
	start := time.Now()
	rounds := 0
	var peaks []int
	for rounds < 3 || time.Since(start) < dur {
		runAll()
		rounds++
		peaks = append(peaks, peakRSS())
	}
	time.Sleep(50 * time.Millisecond)
	runtime.GC()
	g1, fd1 := runtime.NumGoroutine(), openFDs(t)
	if g1 > g0 {
		t.Errorf("goroutines: %d before, %d after %d rounds", g0, g1, rounds)
	}
	if fd1 > fd0 {
		t.Errorf("open file descriptors: %d before, %d after %d rounds", fd0, fd1, rounds)
	}
	// peak memory must stop growing: the last half of the rounds may not
	// raise the high-water mark by more than 10%
	if n := len(peaks); n >= 4 && peaks[n-1] > peaks[n/2]*11/10 {
		t.Errorf("peak RSS kept growing: %d KB at round %d, %d KB at the end", peaks[n/2], n/2, peaks[n-1])
	}
	t.Logf("soak: %d memories, %d citations, %d rounds of %d commands in %v; peak RSS %d MB; goroutines %d→%d; fds %d→%d",
		st.Memories, st.Citations, rounds, len(commands), time.Since(start).Round(time.Second), peakRSS()/1024, g0, g1, fd0, fd1)
}

// soakCommands are the commands the soak test repeats.
func soakCommands() [][]string {
	return [][]string{
		{"verify-all"},
		{"verify-all", "--json"},
		{"verify-all", "--staged"},
		{"verify-all", "--rev", "HEAD"},
		{"relocate"},
		{"health", "--format", "json"},
	}
}

func openFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(entries)
}

// peakRSS is the process's high-water resident set size in KB.
func peakRSS() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}
