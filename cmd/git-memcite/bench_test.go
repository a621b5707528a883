package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"

	"github.com/git-memcite/git-memcite/internal/benchrepo"
)

// generated lists the directories the benchmarks made, removed by TestMain.
var generated []string

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// benchRepo generates the README's benchmark repository once per test
// binary: 10,000 source files, 2,000 memories × 5 citations, 10% stale.
// Set MEMCITE_BENCH_REPO to reuse a repository made by scripts/genrepo.
func benchRepo(b *testing.B) string {
	b.Helper()
	benchOnce.Do(func() {
		if d := os.Getenv("MEMCITE_BENCH_REPO"); d != "" {
			benchDir = d
			return
		}
		benchDir, benchErr = os.MkdirTemp("", "memcite-bench-")
		if benchErr == nil {
			generated = append(generated, benchDir)
			_, benchErr = benchrepo.Generate(context.Background(), benchDir, benchrepo.Default)
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

func benchmarkVerifyAll(b *testing.B, args ...string) {
	dir := benchRepo(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := run(append([]string{"verify-all", "--repo-root", dir}, args...), io.Discard, io.Discard); code != exitStale {
			b.Fatalf("exit %d, want %d", code, exitStale)
		}
	}
}

// BenchmarkVerifyAll: target ≤ 150 ms per run on 2 cores.
func BenchmarkVerifyAll(b *testing.B) { benchmarkVerifyAll(b) }

// BenchmarkVerifyAllStaged: target ≤ 2× BenchmarkVerifyAll.
func BenchmarkVerifyAllStaged(b *testing.B) { benchmarkVerifyAll(b, "--staged") }

// BenchmarkVerifyAllJSON measures the JSON renderer on the same load.
func BenchmarkVerifyAllJSON(b *testing.B) { benchmarkVerifyAll(b, "--json") }

var (
	graphOnce sync.Once
	graphDir  string
	graphErr  error
)

// graphStore generates the graph benchmark's store once per test binary:
// 100,000 memories in 200 folders, three links each (benchrepo.DefaultGraph).
// Set MEMCITE_BENCH_GRAPH to reuse a store made by scripts/genrepo -graph.
func graphStore(b *testing.B) string {
	b.Helper()
	graphOnce.Do(func() {
		if d := os.Getenv("MEMCITE_BENCH_GRAPH"); d != "" {
			graphDir = d
			return
		}
		graphDir, graphErr = os.MkdirTemp("", "memcite-graph-")
		if graphErr == nil {
			generated = append(generated, graphDir)
			graphErr = benchrepo.GenerateGraph(graphDir, benchrepo.DefaultGraph)
		}
	})
	if graphErr != nil {
		b.Fatal(graphErr)
	}
	return graphDir
}

// BenchmarkGraphDepth3: `graph <root> --max-depth 3` on 100,000 memories,
// listing the store included. Target ≤ 300 ms per run on 2 cores.
func BenchmarkGraphDepth3(b *testing.B) {
	dir := graphStore(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		root := fmt.Sprintf("mem-%06d", 1+(i*7919)%99000)
		if code := run([]string{"graph", root, "--repo-root", dir, "--max-depth", "3"}, io.Discard, os.Stderr); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}
