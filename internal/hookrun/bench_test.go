package hookrun

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/testing/benchrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// BenchmarkPreCommit splits the pre-commit check of a commit that stages
// one code file no citation names into its parts, on the repository
// scripts/genrepo generates (10,000 files, 2,000 memories x 5 citations;
// MEMCITE_BENCH_MEMORIES=50000 for the large store):
//
//	open      open the repository and its index
//	staged    the paths the commit changes (git diff-index)
//	read      read every memory file from the index
//	parse     parse them (what a parsed-store cache saves)
//	tree      the tree the index records (for its summary)
//	partial   the whole incremental check (PreCommit), no summary
//	summary   the same with HEAD's summary, making the index's
//	full      the check of every citation (memcite.preCommit=strict)
//
// go test ./internal/hookrun -run '^$' -bench PreCommit -benchtime 10x
func BenchmarkPreCommit(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git binary not found")
	}
	o := benchrepo.Default
	if n, err := strconv.Atoi(os.Getenv("MEMCITE_BENCH_MEMORIES")); err == nil {
		o.Memories = n
	}
	dir := b.TempDir()
	ctx := context.Background()
	st, err := benchrepo.Generate(ctx, dir, o)
	if err != nil {
		b.Fatal(err)
	}
	cited := map[string]bool{}
	for _, p := range st.CitedFiles {
		cited[p] = true
	}
	free := ""
	for i := 0; free == ""; i++ {
		if p := "pkg000/sub" + strconv.Itoa(i%7) + "/file" + pad5(i) + ".go"; !cited[p] {
			free = p
		}
	}
	b.Setenv("GIT_INDEX_FILE", "")
	os.Unsetenv("GIT_INDEX_FILE")
	dirs := []string{".serena/memories"}
	open := func(b *testing.B) (*gitrepo.Repo, source.Source) {
		repo, err := gitrepo.Discover(dir)
		if err != nil {
			b.Fatal(err)
		}
		idx, err := repo.Index(ctx)
		if err != nil {
			b.Fatal(err)
		}
		return repo, idx
	}
	// the summary the previous commit's check left (the index is HEAD's)
	headRepo, headIdx := open(b)
	headTree, _ := gitrepo.IndexTree(headIdx)
	out, err := PreCommit(ctx, headRepo, headIdx, dirs, PreCommitOptions{Full: true, Tree: string(headTree)})
	if err != nil || out.Summary == nil {
		b.Fatalf("summary of HEAD: %v", err)
	}
	headSum := out.Summary
	headRepo.Close()
	if err := os.WriteFile(dir+"/"+free, []byte("package pkg000\n// edited\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if _, err := gitfixture.Git(dir, 1, "add", free); err != nil {
		b.Fatal(err)
	}
	b.Run("open", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			open(b)
		}
	})
	repo, idx := open(b)
	b.Run("tree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			_, idx := open(b) // (an index computes its tree ids once)
			b.StartTimer()
			if _, ok := gitrepo.IndexTree(idx); !ok {
				b.Fatal("no tree id")
			}
		}
	})
	tree, _ := gitrepo.IndexTree(idx)
	b.Run("staged", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := repo.StagedPaths(ctx); err != nil { // git diff-index
				b.Fatal(err)
			}
		}
	})
	head, _, err := repo.HeadTree(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("staged-in-process", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := repo.IndexChanges(ctx, idx, head); err != nil {
				b.Fatal(err)
			}
		}
	})
	mems, err := store.Find(idx, dirs)
	if err != nil {
		b.Fatal(err)
	}
	data := make([][]byte, len(mems))
	b.Run("read", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for j, m := range mems {
				if data[j], err = idx.ReadFile(m.Path); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("parse", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for j, m := range mems {
				if _, err := memfile.Parse(m.Path, data[j]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("load", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := store.Load(ctx, idx, dirs, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, tc := range []struct {
		name string
		opt  PreCommitOptions
	}{
		{"partial", PreCommitOptions{}},
		{"summary", PreCommitOptions{Summary: headSum, Tree: string(tree)}},
		{"full", PreCommitOptions{Full: true}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				repo, idx := open(b)
				out, err := PreCommit(ctx, repo, idx, dirs, tc.opt)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(out.Memories), "verified-memories")
			}
		})
	}
}

func pad5(i int) string {
	s := strconv.Itoa(i)
	for len(s) < 5 {
		s = "0" + s
	}
	return s
}
