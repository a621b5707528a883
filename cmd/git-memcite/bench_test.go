package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/benchrepo"
)

// generated lists the directories the benchmarks made, removed by TestMain.
var generated []string

// benchFixture is a generated benchmark directory, made once per test binary
// unless an environment variable names one to reuse.
type benchFixture struct {
	env, prefix string
	gen         func(dir string) error
	once        sync.Once
	dir         string
	err         error
}

func (f *benchFixture) get(b *testing.B) string {
	b.Helper()
	f.once.Do(func() {
		if d := os.Getenv(f.env); d != "" {
			f.dir = d
			return
		}
		if f.dir, f.err = os.MkdirTemp("", f.prefix); f.err == nil {
			generated = append(generated, f.dir)
			f.err = f.gen(f.dir)
		}
	})
	if f.err != nil {
		b.Fatal(f.err)
	}
	return f.dir
}

// benchRepo is the README's benchmark repository: 10,000 source files,
// 2,000 memories × 5 citations, 10% stale. Set MEMCITE_BENCH_REPO to reuse
// a repository made by scripts/genrepo.
var benchRepo = &benchFixture{env: "MEMCITE_BENCH_REPO", prefix: "memcite-bench-", gen: func(dir string) error {
	_, err := benchrepo.Generate(context.Background(), dir, benchrepo.Default)
	return err
}}

// graphStore is the graph benchmark's store: 100,000 memories in 200
// folders, three links each (benchrepo.DefaultGraph). Set
// MEMCITE_BENCH_GRAPH to reuse a store made by scripts/genrepo -graph.
var graphStore = &benchFixture{env: "MEMCITE_BENCH_GRAPH", prefix: "memcite-graph-", gen: func(dir string) error {
	return benchrepo.GenerateGraph(dir, benchrepo.DefaultGraph)
}}

func benchmarkVerifyAll(b *testing.B, args ...string) {
	dir := benchRepo.get(b)
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

// BenchmarkGraphDepth3: `graph <root> --max-depth 3` on 100,000 memories,
// listing the store included. Target ≤ 300 ms per run on 2 cores.
func BenchmarkGraphDepth3(b *testing.B) {
	dir := graphStore.get(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		root := fmt.Sprintf("mem-%06d", 1+(i*7919)%99000)
		if code := run([]string{"graph", root, "--repo-root", dir, "--max-depth", "3"}, io.Discard, os.Stderr); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}

// agentRepo is benchRepo with the agent hook's scenario added
// (benchrepo.AddAgentScenario): a memory whose five citations a later
// commit moved. Set MEMCITE_BENCH_AGENT_REPO to reuse a repository made by
// scripts/genrepo -agent.
var agentRepo = &benchFixture{env: "MEMCITE_BENCH_AGENT_REPO", prefix: "memcite-agent-", gen: func(dir string) error {
	ctx := context.Background()
	if _, err := benchrepo.Generate(ctx, dir, benchrepo.Default); err != nil {
		return err
	}
	_, err := benchrepo.AddAgentScenario(ctx, dir, benchrepo.Default)
	return err
}}

// BenchmarkAgentHook: one Read of a memory with five moved citations on
// the 10,000-file repository, answered with where each went and in which
// commit. Target ≤ 100 ms per run on 2 cores (scripts/bench-agent-hook.sh
// measures the installed binary's median). "uncommitted": one cited line
// is also deleted in the working tree, so that the last step looks for
// where it went among the files git status names.
func BenchmarkAgentHook(b *testing.B) {
	dir := agentRepo.get(b)
	payload := []byte(fmt.Sprintf(`{"hook_event_name": "PostToolUse", "tool_name": "Read", "cwd": %q, "tool_input": {"file_path": %q}}`,
		dir, filepath.Join(dir, filepath.FromSlash(benchrepo.AgentMemory))))
	run := func(b *testing.B, want string, n int) {
		for i := 0; i < b.N; i++ {
			var out bytes.Buffer
			if code := runIO([]string{"agent-hook"}, bytes.NewReader(payload), &out, io.Discard); code != exitOK {
				b.Fatalf("exit %d", code)
			}
			if i == 0 && strings.Count(out.String(), want) != n {
				b.Fatalf("want %d × %q in the answer, got %s", n, want, out.String())
			}
		}
	}
	b.Run("committed", func(b *testing.B) { run(b, " moved to ", 5) })
	b.Run("uncommitted", func(b *testing.B) {
		p := filepath.Join(dir, "pkg000", "sub0", "file00000.go")
		orig, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = os.WriteFile(p, orig, 0o644) })
		lines := strings.SplitAfter(string(orig), "\n")
		edited := strings.Join(append(lines[:23:23], lines[26:]...), "") // HEAD's lines 24-26: the cited line 25
		if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		run(b, "was deleted in the working tree", 1)
	})
	// a session start: every memory verified, with the cache the runs
	// before wrote (scripts/bench-agent-hook.sh measures the binary)
	b.Run("session-start", func(b *testing.B) {
		payload = []byte(fmt.Sprintf(`{"hook_event_name": "SessionStart", "cwd": %q, "source": "startup"}`, dir))
		run(b, "memories have stale citations", 1)
	})
}
