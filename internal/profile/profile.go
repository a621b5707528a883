//go:build profile

// Package profile writes CPU and heap profiles of a run, in builds with
// the profile tag (`go build -tags profile ./cmd/git-memcite`):
// MEMCITE_CPUPROF=file for the CPU, MEMCITE_HEAPPROF=file for the heap
// at its largest live size, MEMCITE_TRACE=file for an execution trace
// (`go tool trace file`: what each goroutine waited on, and when). A release build holds none of it.
package profile

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"time"
)

// Start starts the profiles the environment asks for; stop writes them.
//
// The heap profile is taken at the peak of the live heap: every 40 ms a
// collection runs and, when the live heap grew by 5 MB or more since the
// last profile, a new one replaces it (the run is slower for it). Its
// last line on standard error gives the peak in MB.
func Start() (stop func()) {
	var stops []func()
	if p := os.Getenv("MEMCITE_CPUPROF"); p != "" {
		if f, err := os.Create(p); err == nil && pprof.StartCPUProfile(f) == nil {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if p := os.Getenv("MEMCITE_TRACE"); p != "" {
		if f, err := os.Create(p); err == nil && trace.Start(f) == nil {
			stops = append(stops, func() { trace.Stop(); f.Close() })
		}
	}
	if p := os.Getenv("MEMCITE_HEAPPROF"); p != "" {
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			var peak uint64
			tick := time.NewTicker(40 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
				}
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				if ms.HeapAlloc < peak+5<<20 {
					continue
				}
				peak = ms.HeapAlloc
				if f, err := os.Create(p); err == nil {
					_ = pprof.WriteHeapProfile(f)
					f.Close()
					fmt.Fprintf(os.Stderr, "profile: live heap %d MB\n", peak>>20)
				}
			}
		}()
		stops = append(stops, func() { close(done); wg.Wait() })
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
