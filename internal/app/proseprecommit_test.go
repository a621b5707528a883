package app

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/testing/benchrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// BenchmarkProsePreCommit times the pre-commit hook's check of the prose
// (Hook.ProsePreCommit, after the citation check it follows) on the
// repository scripts/genrepo generates (10,000 files, 2,000 memories x 5
// citations; MEMCITE_BENCH_MEMORIES=50000 for the large store), for a
// commit that
//
//	append   appends a line to a code file (no definition removed)
//	edit     renames a function of a code file (its definition removed;
//	         the memories' references come from their cache)
//	delete   deletes a code file
//
// go test ./internal/app -run '^$' -bench ProsePreCommit -benchtime 20x
func BenchmarkProsePreCommit(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git binary not found")
	}
	o := benchrepo.Default
	if n, err := strconv.Atoi(os.Getenv("MEMCITE_BENCH_MEMORIES")); err == nil {
		o.Memories = n
	}
	dir := b.TempDir()
	ctx := context.Background()
	if _, err := benchrepo.Generate(ctx, dir, o); err != nil {
		b.Fatal(err)
	}
	b.Setenv("GIT_INDEX_FILE", "")
	os.Unsetenv("GIT_INDEX_FILE")
	const file = "pkg000/sub0/file00000.go"
	git := func(args ...string) {
		b.Helper()
		if _, err := gitfixture.Git(dir, 1, args...); err != nil {
			b.Fatal(err)
		}
	}
	orig, err := os.ReadFile(dir + "/" + file)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func()
	}{
		{"append", func() {
			if err := os.WriteFile(dir+"/"+file, append(append([]byte(nil), orig...), "// more\n"...), 0o644); err != nil {
				b.Fatal(err)
			}
			git("add", file)
		}},
		{"edit", func() {
			edited := strings.Replace(string(orig), "func Function00000_011(", "func Renamed00000_011(", 1)
			if err := os.WriteFile(dir+"/"+file, []byte(edited), 0o644); err != nil {
				b.Fatal(err)
			}
			git("add", file)
		}},
		{"delete", func() { git("rm", "-q", "--cached", file) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tc.change()
			defer git("reset", "-q", "--hard", "HEAD")
			h, ws, err := OpenHook(ctx, OpenOptions{RepoRoot: dir, CacheTool: "bench", Session: NewSession(&vcache.Slot{})}, hookrun.Invocation{Hook: "pre-commit"})
			if err != nil {
				b.Fatal(err)
			}
			defer h.Repo.Close()
			res, err := h.PreCommit(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := h.ProsePreCommit(ctx, ws, res); err != nil { // (fills the cache of references)
				b.Fatal(err)
			}
			if os.Getenv("MEMCITE_DEBUG") != "" {
				trace.Enable(os.Stderr)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := h.ProsePreCommit(ctx, ws, res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
